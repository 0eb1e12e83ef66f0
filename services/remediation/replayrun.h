#pragma once

// The executor's working state for one run of one request, shared by the files that implement it:
// replayexecutor.cpp (setup, loading, the run's course and its end), replayproduce.cpp (pinning checks,
// journaling, producing, pacing), replayreconcile.cpp (finding what earlier runs delivered; the canary's
// watch), replaydispose.cpp (skip and delete) and replayrelease.cpp (release and replay). Not for use
// outside them.

#include "services/audit/auditstore.h"
#include "services/inbox/inboxsessions.h"
#include "services/kafka/kafkaproducer.h"
#include "services/remediation/intentjournal.h"
#include "services/remediation/replayexecutor.h"
#include "services/remediation/settlequeue.h"
#include "services/remediation/sourcecursor.h"
#include "services/remediation/topicrangereader.h"
#include "services/support/handover.h"

#include <QElapsedTimer>
#include <QHash>
#include <QSet>

#include <functional>
#include <memory>
#include <optional>
#include <thread>

namespace ReplayRunDetail {
using State = IntentJournal::State;

// The session advisory lock that makes one executor per request: a second `execute` of the same request
// refuses instead of producing alongside.
constexpr int ExecutorLockClass = 0x42455254; // 'BERT'
constexpr qint64 LockWaitMs = 5000;

// Where this request's records can first appear in a destination topic: the end offsets recorded in
// `replay.destination_marked` events before anything was produced to it. Earliest event wins.
using Marks = QHash<QString, QHash<int, qint64>>;

// A batch ready to produce: its sources re-read and checked against the pins, the records built, and
// (when prepared ahead, on the journal session) its intents journaled.
struct Prepared {
    struct Ready {
        int index; // in the batch
        int itemNo;
        OutgoingRecord record;
        // The item's release ref naming its row by digest, named by the id read from the record again
        // (RequestItemDigests::inboxRefWith); empty: the stored ref names it.
        QJsonObject inboxRef;
    };
    QList<int> itemNos;
    QList<Ready> ready;
    QList<QString> destTopics;            // per item of itemNos (empty: none found)
    QHash<int, QString> refused;          // item no -> why
    QList<IntentJournal::Update> journal; // intents this batch adds
    QSet<QString> topics;                 // its destinations
    bool journaled = false;               // `journal` is written already
    QString error;                        // journaling failed
    qint64 readMs = 0;                    // re-reading and checking the sources
    qint64 journalMs = 0;                 // journaling `journal`, when done here
};

// Prepares the next batch on a thread of the run's own while the current one is produced, or reads the one
// after it while the next is journaled (ARCHITECTURE.md, Threads: an owned thread). Each preparation gets a
// thread of its own, joined when it is taken: one long-lived thread woken for every batch overlapped less
// with producing (FIGURE replay_rate_msgs_s, tests/bench/bench_replay.cpp).
using LookAhead = HandOver<Prepared>;

// A batch handed to the producer whose delivery reports are still coming in: settled while (after) the
// next batch is produced.
struct InFlight {
    QList<int> batch;
    qsizetype consumed = 0;            // items from the front of `batch` dealt with
    int produced = 0;                  // handed to the producer, a report each to come
    QHash<int, QString> refused;       // item no -> why (source changed or gone)
    QHash<int, QString> produceErrors; // item no -> why the producer refused it
};

class Run final {
public:
    Run(PgSession &audit, const KafkaProperties &cluster, PgSession *inbox, qint64 requestId,
        const ReplayOptions &options, ReplayControl &control, const ReplayExecutor::ProgressFn &progress)
        : m_audit(audit)
        , m_store(audit)
        , m_cluster(cluster)
        , m_inbox(inbox)
        , m_requestId(requestId)
        , m_options(options)
        , m_control(control)
        , m_progressFn(progress)
        , m_journal(audit, requestId)
    {
    }

    ReplayOutcome execute();

private:
    KafkaProperties producerProperties() const;
    bool loadRequest(QString *error);
    bool loadItems(QString *error);
    void primeSources();
    bool loadMarks(QString *error);
    bool markDestination(const QString &topic, QString *error);
    bool markDeadLetters(QString *error);
    bool reconcile(const QList<int> &itemNos, QString *error);
    bool produceItems(QList<int> itemNos, bool retryRound, QString *error);
    bool produceRound(QList<int> itemNos, bool retryRound, QString *error);
    void startReports();
    bool settleInFlight(QString *error);
    std::optional<DeliveryReport> takeReport(quint64 tag);
    bool produceBatch(const QList<int> &batch, const QList<int> &next, const QList<int> &afterNext,
                      qsizetype *consumed, QString *error);
    Prepared readSources(const QList<int> &itemNos);
    Prepared readTaken(const QList<int> &itemNos);
    Prepared prepare(const QList<int> &itemNos, const QList<int> &following, const QSet<int> &unjournaled,
                     const QSet<QString> &marked, IntentJournal *journal);
    QSet<int> unjournaled(const QList<int> &itemNos) const; // items with no intent yet
    void prepareAhead(const QList<int> &itemNos, const QList<int> &following);
    Prepared takePrepared(const QList<int> &itemNos);
    bool watchCanary(const QList<int> &canary, const QHash<QString, QHash<int, qint64>> &dlqMarks,
                     QString *error);
    bool dlqEnds(const QStringList &topics, QHash<QString, QHash<int, qint64>> *ends, QString *error);
    bool disposeItems(QString *error);
    bool releaseRows(QList<Prepared::Ready> *ready, QHash<int, QString> *refused, QString *error);
    void pace();
    void report(ReplayPhase phase, bool force = false);
    void problem(int itemNo, const QString &error);
    void settleCounts();
    // A row for the journal about item `itemNo`, with its request item's source coordinates.
    IntentJournal::Update updateOf(int itemNo, State state) const;

    PgSession &m_audit;
    AuditStore m_store;
    KafkaProperties m_cluster;
    PgSession *m_inbox;
    qint64 m_requestId;
    ReplayOptions m_options;
    ReplayControl &m_control;
    const ReplayExecutor::ProgressFn &m_progressFn;
    IntentJournal m_journal;

    RemediationRequest m_request;
    QList<RequestItem> m_items;
    QHash<int, int> m_index; // item no -> index in m_items
    QHash<int, IntentJournal::Intent> m_intents;
    Marks m_marks;
    std::unique_ptr<SourceCursor> m_source;
    // Journals the batches prepared ahead; null: each batch is journaled in line, on m_audit.
    std::unique_ptr<PgSession> m_aheadDb;
    std::unique_ptr<IntentJournal> m_aheadJournal;
    // The batch after the next one, read while the next one is journaled (handed over by the preparation
    // of the next one, on m_ahead's thread; taken by whoever reads next).
    LookAhead m_readAhead;
    // The next batch, prepared while this one is produced. Declared after what they use: they are destroyed
    // (waited for) first, m_ahead (which may hand a read to m_readAhead) before m_readAhead.
    LookAhead m_ahead;
    std::unique_ptr<TopicRangeReader> m_reader;
    QHash<quint64, DeliveryReport> m_reports; // by item no, until its batch is settled
    std::optional<InFlight> m_inFlight;       // the batch produced last, its reports still coming in
    std::unique_ptr<KafkaProducer> m_producer;
    std::unique_ptr<SettleQueue> m_settler; // null: delivery results are written in line, on m_audit
    std::unique_ptr<InboxSessions> m_releaseSessions; // release and replay: the inbox databases, on first use
    QSet<int> m_refused;                    // source changed or gone: not produced again in this run
    QHash<int, qsizetype> m_problemAt;      // item no -> its line in m_out.problems
    double m_rate = 0;
    QElapsedTimer m_clock;     // since the run started
    QElapsedTimer m_paceClock; // since pacing (re)started
    qint64 m_paced = 0;        // records produced since pacing (re)started
    qint64 m_lastReportMs = -1000;
    ReplayOutcome m_out;
    ReplayPhase m_phase = ReplayPhase::Starting;
};

} // namespace ReplayRunDetail
