#pragma once

#include "services/inbox/inboxmappingset.h"

#include <QHash>
#include <QSet>
#include <QStringList>

#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

class InboxSessions;
class PgSession;

// The accounting's inbox join (ARCHITECTURE.md, Threads: owned thread): batches of idempotency keys are
// looked up in the consumer's inbox on a thread of its own while the window is still being read, one
// `unnest` query per batch, on two connections at once (the database's index probes, not the reading,
// bound a large window, and two backends use both cores a small server has). The query asks only what the classifier needs (the status
// word of each key's row, by the key's position in the batch) and keeps one index probe per key: the
// probe is a subquery the planner cannot flatten, so a large batch never turns into a hash join over the
// whole table. A batch the database cannot answer (unreachable, timed out) leaves its keys unanswered and
// says so once; the run goes on.
class InboxKeyStage final {
public:
    InboxKeyStage(const InboxMappingSet &set, const InboxMapping &mapping);
    ~InboxKeyStage(); // stops and joins the thread

    // Connects and checks that the mapped table is there; the thread starts on success.
    bool open(QString *error);
    // Queues the keys with these ids (bytes from `keys`); returns at once.
    void enqueue(std::vector<quint32> ids, const std::vector<QByteArray> &keys);

    struct Answers {
        QHash<quint32, InboxState> states; // keys with a row
        QSet<quint32> unanswered;          // keys the inbox could not be asked about
        QStringList problems;              // what went wrong, in words (each problem once)
    };
    // Waits until every queued batch is answered (or `cancelled` says stop) and hands the answers over.
    Answers finish(const std::function<bool()> &cancelled);

private:
    struct Batch {
        std::vector<quint32> ids;
        std::vector<QByteArray> keys;
    };
    void loop(InboxSessions &sessions);
    // One batch's rows: the state of each key's row (a completed row wins over others of the same key).
    bool probe(PgSession &db, const Batch &batch, QHash<quint32, InboxState> *found, QString *problem);

    InboxMapping m_mapping;
    QByteArray m_sql; // the probe, built once from the table's catalogue
    InboxMappingSet m_set;
    std::vector<std::unique_ptr<InboxSessions>> m_sessions; // one per thread
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::condition_variable m_drained;
    std::deque<Batch> m_queue;
    int m_busy = 0; // threads answering a batch
    bool m_stop = false;
    Answers m_answers;
    std::vector<std::thread> m_threads;
};
