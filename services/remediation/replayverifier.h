#pragma once

#include "services/inbox/inboxmappingset.h"
#include "services/kafka/kafkaconfig.h"
#include "services/policy/deliverypolicy.h"
#include "services/remediation/offsetresetexecutor.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <array>
#include <functional>
#include <optional>

class PgSession;

// What became of one replayed record at the request's target consumer (ARCHITECTURE.md, Data flows:
// Remediation, verification).
enum class VerifyOutcome {
    Pending,       // delivered, not yet behind the consumer's committed offset (or its row still in progress)
    NotDelivered,  // the executor did not deliver it (failed, refused, never produced)
    Processed,     // its inbox row became COMPLETED after the replay started
    NoOp,          // its inbox row was already in a state the consumer does not take again from
    Failed,        // its inbox row went FAILED (retryable or terminal) after the replay started
    Parked,        // its inbox row went PARKED after the replay started
    ReturnedToDlq, // a record carrying its berth-replay-id came back to the consumer's DLQ
    Consumed,      // behind the committed offset; the consumer has no inbox mapping to say more
    NoInboxRow,    // behind the committed offset, yet the consumer's inbox has no row for its key
};
inline constexpr int VerifyOutcomeCount = int(VerifyOutcome::NoInboxRow) + 1;
// "pending", "not_delivered", "processed", "no_op", "failed", "parked", "returned_to_dlq", "consumed",
// "no_inbox_row": JSON, the audit event and the command line.
QString verifyOutcomeName(VerifyOutcome outcome);
bool isVerifyFailure(VerifyOutcome outcome);
// Items a verification read back from its event holds at most (a view lists a few hundred of them).
inline constexpr int VerifyOutcomeListLimit = 100'000;

enum class VerificationResult { Verified, VerifiedWithFailures, Unverified };
QString
verificationResultName(VerificationResult result); // "verified", "verified_with_failures", "unverified"

struct VerifiedItem {
    int itemNo = 0;
    QString replayId;
    QString idempotencyKey;
    QString destTopic;
    int destPartition = -1;
    qint64 destOffset = -1;
    VerifyOutcome outcome = VerifyOutcome::Pending;
    QString detail; // the inbox status word, the DLQ coordinates, or why it is still pending
};

struct ReplayVerification {
    qint64 requestId = 0;
    QString consumer;         // the target consumer (also its group)
    QStringList alsoReceives; // other consumers of the destination topics (not verified)
    QString inboxTable;       // empty: the consumer has no inbox mapping
    QStringList dlqTopics;    // where returns are looked for
    VerificationResult result = VerificationResult::Unverified;
    QList<VerifiedItem> items; // in item order
    std::array<int, VerifyOutcomeCount> counts{};
    bool predicted = false; // the dry run predicted a no-op rate
    double predictedNoOpRate = 0;
    double observedNoOpRate = 0; // NoOp / items
    QStringList notes;           // trouble met on the way (an unreachable inbox, a committed-offset error)
    QString error;               // non-empty: nothing could be verified (and no event was written)
    qint64 elapsedMs = 0;
    qint64 eventSeq = 0; // the audit event written
    QDateTime recordedAt; // a stored verification (fromEventDetails): when its event was written
    // An offset reset's verification (its `offsets.verified` event): the group is `consumer`, each
    // partition's target beside the committed offset read back; it has no items. Empty for a replay's.
    QString resetTopic;
    QList<OffsetResetPartitionOutcome> resetPartitions;

    int count(VerifyOutcome outcome) const { return counts[size_t(outcome)]; }
    bool isOffsetReset() const { return !resetPartitions.isEmpty(); }
    int failures() const;
    // The whole result; at most `maxListed` items listed (pending and failures first).
    QJsonObject toJson(int maxListed = 100) const;
    // What the audit event keeps: counts, rates and the first unresolved items, never payloads.
    QJsonObject eventDetails() const;
    QString summary() const; // a few lines for the terminal
    // A verification as its audit event keeps it: counts, rates, notes, and each item's outcome (at most
    // VerifyOutcomeListLimit items; the failures with their detail). An event written before the outcomes
    // were recorded gives only the pending and failed items it lists.
    static ReplayVerification fromEventDetails(const QJsonObject &details);
    // An offset reset's `offsets.verified` event: verified when every partition was read back at its target.
    static ReplayVerification fromResetEventDetails(const QJsonObject &details);
    // The request's latest verification event, read back (an earlier run's, shown when the request is
    // selected): `replay.verified` for a replay, `offsets.verified` for an offset reset (the one place that
    // decides which events verify a request); nullopt when there is none, or on error (*error then says
    // why). Blocking.
    static std::optional<ReplayVerification> lastRecorded(PgSession &auditDb, qint64 requestId,
                                                          QString *error);
};
Q_DECLARE_METATYPE(ReplayVerification)

struct VerifyOptions {
    int timeoutMs = 60'000; // how long outcomes are waited for
    int pollMs = 500;       // between passes over the still pending items
    QString consumer;       // empty: the dry run's target consumer, else the policy's owner of the DLQ
    DeliveryPolicy policy;
    InboxMappingSet inboxMappings;
    int dlqLookBackMs = 300'000; // DLQ records are read from this long before the run started
    bool recordEvent = true;     // write `replay.verified` into the audit chain
    bool recordUnverified = true; // false: an unverified result is not written (a desk's interim pass)
    std::function<bool()> cancelled; // checked before each network step: a cancelled run ends unverified,
                                     // without an event
};

// Follows each delivered item of an executed replay request to its outcome at the request's target
// consumer: the destination offset from the intent journal, the group's committed offset passing it, the
// inbox row of its key (through the mapping; looked up in batches), or a return to the consumer's DLQ found
// by `berth-replay-id`. Polls until every item is decided or the timeout passes (then *unverified*, with
// what is still pending: run it again later). Stateless between runs, so it resumes by starting over.
// Blocking: a JobTracker job or the command line.
class ReplayVerifier final {
public:
    ReplayVerifier(PgSession &auditDb, KafkaProperties cluster, PgSession *inboxDb = nullptr);

    // Called after each pass with the result so far; return false to stop (cancel).
    using PassFn = std::function<bool(const ReplayVerification &)>;
    ReplayVerification verify(qint64 requestId, const VerifyOptions &options, const PassFn &onPass = {});

private:
    PgSession &m_audit;
    KafkaProperties m_cluster;
    PgSession *m_inbox;
};
