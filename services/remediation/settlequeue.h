#pragma once

#include "services/inbox/pgsession.h"
#include "services/remediation/intentjournal.h"

#include <QList>
#include <QString>

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

// Records delivery results (a delivery as the item's replayed disposition, a failure on its intent) on
// connections and threads of its own while the executor fetches, journals and produces the next batches.
// Batches hold disjoint items, so several workers write them side by side (each batch is one statement, and
// the audit chain's lock is held only for each statement's commit). Delaying these writes is safe: until one
// is written its intents stay pending, and any later run reconciles pending intents by reading the
// destination before producing anything, so a crash in between loses nothing and duplicates nothing.
class SettleQueue final {
public:
    static constexpr int DefaultWorkers = 2;

    explicit SettleQueue(qint64 requestId);
    ~SettleQueue(); // drains, then stops
    SettleQueue(const SettleQueue &) = delete;
    SettleQueue &operator=(const SettleQueue &) = delete;

    // Opens `workers` connections with the same parameters (and so the same role) as `like`.
    bool start(const PgSession &like, QString *error, int workers = DefaultWorkers);
    void enqueue(QList<IntentJournal::Update> rows);
    // Blocks until everything queued is written. False, with the first failure, when a write failed (later
    // batches are then dropped: their intents stay pending for reconciliation).
    bool drain(QString *error);
    // Time spent in settle statements so far, summed over the workers.
    qint64 busyMs() const;

private:
    void work(PgSession *db);

    qint64 m_requestId;
    std::vector<std::unique_ptr<PgSession>> m_sessions;
    std::vector<std::thread> m_threads;
    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    std::deque<QList<IntentJournal::Update>> m_queue;
    int m_busy = 0; // workers writing a batch right now
    qint64 m_busyMs = 0;
    bool m_stop = false;
    QString m_error;
};
