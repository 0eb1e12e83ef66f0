#pragma once

#include "services/audit/audittypes.h"
#include "services/inbox/inboxmappingset.h"
#include "services/kafka/kafkaconfig.h"
#include "services/remediation/offsetresetexecutor.h"

#include <QList>
#include <QMetaType>
#include <QString>

#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>

class PgSession;

struct ReplayOptions {
    double rateLimit = -1;       // msgs/s; < 0: the request's own limit; 0: unlimited
    int canaryCount = 0;         // > 0: send this many first, then watch the DLQ before the rest
    int canaryWatchMs = 5000;    // how long the canary's DLQ is watched
    QString canaryDlqTopic;      // empty: the items' source (DLQ) topics
    bool stopWhenPaused = false; // the command line: a pause (canary trip) ends run() instead of waiting
    bool keepDiagnosticHeaders = false;
    // Intents journaled / settled per statement (one audit event each): larger batches cost less per item,
    // smaller ones keep each audit event readable and a pause prompt.
    int batchSize = 5000;
    int deliveryTimeoutMs = 60'000; // librdkafka message.timeout.ms
    int maxRounds = 3;              // produce rounds for items whose delivery failed (each reconciled first)
    KafkaProperties producerProperties; // extra producer settings (tests: small retry backoffs)
    InboxMappingSet inboxMappings; // skip/delete of inbox rows: how inbox_ref is resolved, in which database
};

enum class ReplayPhase { Starting, Reconciling, Producing, CanaryWatch, Paused, Finishing, Done };
QString replayPhaseName(ReplayPhase phase);

struct ReplayProgress {
    qint64 requestId = 0;
    ReplayPhase phase = ReplayPhase::Starting;
    int total = 0;      // items
    int done = 0;       // delivered + skipped + refused/failed so far (including earlier runs)
    int delivered = 0;  // including found by reconciliation
    int reconciled = 0; // pending intents found in the destination (produced by an earlier run)
    int failed = 0;     // delivery failed or source refused
    int skipped = 0;
    double ratePerSecond = 0; // this run
    qint64 etaMs = -1;        // -1: unknown
    bool canaryTripped = false;
};
Q_DECLARE_METATYPE(ReplayProgress)

// One item that did not end delivered or skipped, and why.
struct ReplayItemProblem {
    int itemNo = 0;
    QString replayId;
    QString error;
};

// Where a run's time went, per kind of work, in milliseconds summed over the run. The kinds overlap: the
// next batch is re-read and journaled while this one is produced, and settles run on their own sessions.
struct ReplayTimings {
    qint64 itemsMs = 0;     // the request's items read from the audit database (part of setupMs)
    qint64 setupMs = 0;     // execute until the first batch starts: lock, request, items, journal, marks
    qint64 readMs = 0;      // source records re-read and checked against their SHA-256 pins
    qint64 journalMs = 0;   // intents INSERTed (durable before their records are produced)
    qint64 aheadWaitMs = 0; // the producing thread waiting for the batch prepared ahead
    qint64 produceMs = 0;   // records handed to the producer
    qint64 reportsMs = 0;   // the producing thread waiting for a batch's delivery reports
    qint64 settleMs = 0;    // settle statements (deliveries and dispositions), summed over their sessions
    qint64 drainMs = 0;     // waiting for the last settles once everything was produced
};

struct ReplayOutcome {
    bool started = false; // false: the database refused to execute (or setup failed): nothing produced
    RequestStatus finalStatus = RequestStatus::Executing; // Executing: stopped paused (canary) or aborted
    int total = 0;
    int delivered = 0;
    int reconciled = 0;
    int failed = 0;
    int refused = 0; // source record changed (SHA-256 differs) or gone
    int skipped = 0;
    bool cancelled = false;
    bool canaryTripped = false;
    bool pausedStop = false;           // ended because paused with stopWhenPaused
    QList<ReplayItemProblem> problems; // at most 1000
    QString error;
    qint64 elapsedMs = 0;
    qint64 producedThisRun = 0;
    // When this run's last delivery report came in, on the elapsedMs clock; -1: none came. What follows it
    // (the last settle, dispositions, completion) is bookkeeping the records no longer wait for.
    qint64 lastDeliveryMs = -1;
    ReplayTimings timings;
    // A reset_offsets request runs through OffsetResetExecutor on the same job (ReplayJob): its outcome.
    std::optional<OffsetResetOutcome> offsetReset;
};
Q_DECLARE_METATYPE(ReplayOutcome)

// Pause, resume and cancel, from any thread.
class ReplayControl final {
public:
    void pause();
    void resume();
    void cancel();
    bool isPaused() const { return m_paused.load(); }
    bool isCancelled() const { return m_cancelled.load(); }
    // Blocks while paused; false when cancelled.
    bool waitWhilePaused();

private:
    std::atomic_bool m_paused = false;
    std::atomic_bool m_cancelled = false;
    std::mutex m_mutex;
    std::condition_variable m_wake;
};

// Executes one approved request, effectively-once. Blocking: run it on a worker thread (ReplayJob) or from
// the command line. The audit session must be an operator's; the database decides whether the request may
// execute (approved, enough approvals, not expired, or partially_failed for a retry, or executing for a
// resume after a crash) and nothing is produced unless it does.
//
// Per run: a session advisory lock on the request (one executor at a time); an audit event
// `replay.run_started` with the destination partitions' end offsets (the earliest point at which this run's
// records can appear); reconciliation of every pending/failed intent by reading the destination from the
// first run's end offsets for `berth-replay-id` headers; then, per batch: re-read the source records (the
// next batch is journaled and the one after it read meanwhile) and refuse those whose SHA-256 differs from
// the pinned one; INSERT the batch's intents (pending) in one statement; produce (idempotent, acks=all) with
// per-record delivery reports; then one statement records partition/offset (or the error) and the
// dispositions, written by a SettleQueue on other sessions while the next batch goes out. Delivery failures
// are reconciled and produced again in up to maxRounds rounds. Skip and delete act on inbox rows and record
// dispositions. The request ends completed or partially_failed (or cancelled).
class ReplayExecutor final {
public:
    // inboxDb: needed for skip/delete of inbox rows; may be null otherwise. Both sessions are borrowed.
    ReplayExecutor(PgSession &auditDb, KafkaProperties cluster, PgSession *inboxDb = nullptr);

    using ProgressFn = std::function<void(const ReplayProgress &)>;
    ReplayOutcome run(qint64 requestId, const ReplayOptions &options, ReplayControl &control,
                      const ProgressFn &progress = {});

private:
    PgSession &m_audit;
    KafkaProperties m_cluster;
    PgSession *m_inbox;
};
