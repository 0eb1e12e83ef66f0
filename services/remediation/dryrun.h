#pragma once

#include "services/inbox/inboxmappingset.h"
#include "services/kafka/kafkaconfig.h"
#include "services/policy/deliverypolicy.h"
#include "services/remediation/remediationtypes.h"

#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

class PgSession;

// What the policy says about a request.
enum class PolicyVerdict {
    Allowed,         // nothing in the policy objects
    NeedsTwoPersons, // a side-effect consumer, manualReviewRequired, or replay.allowed unstated: 2 approvals
    Blocked,         // replay.allowed / replayAllowed false for an affected consumer or topic
};
QString policyVerdictName(PolicyVerdict verdict); // "allowed", "needs_two_approvals", "blocked"

struct DryRunInput {
    RemediationAction action = RemediationAction::Replay;
    QList<PinnedItem> items;
    QString destinationTopic; // empty: each item's original topic
    DeliveryPolicy policy;
    // Where the no-op prediction looks keys up: each item in the inbox of the consumer it belongs to.
    InboxMappingSet inboxMappings;
    // Ordering risk reads the original partitions after each item's original offset (see DryRun). Empty:
    // not checked (the result says so).
    KafkaProperties cluster;
    qint64 orderingScanBudget = 200'000; // records read at most; beyond it the risk is reported unknown
    // Release and replay: an item whose inbox row is parked or failed terminal, in a mapping that says
    // what a release writes (`releaseTo`), gets its row released right before its record is produced.
    bool release = false;
    // Reclaim (with release): the rows released are the items' in-progress rows, not parked ones, each
    // only while it is still idle for reclaimIdleMs (pinned in inbox_ref as "idleForMs").
    bool reclaim = false;
    qint64 reclaimIdleMs = 0;
};

// The dry run: shown to requester and approver, stored in requests.dry_run (toJson()).
struct DryRunResult {
    // Blast radius
    int count = 0;
    QStringList destinationTopics; // sorted; "(unknown original topic)" when an item has none
    QStringList sourcePartitions;  // "topic/partition", sorted
    int distinctKeys = 0;          // null keys count as none
    QStringList consumersAffected; // policy consumers of the destination topics, plus the items' groups
    // The consumer the replay is for, whose outcome verification follows: the one most items belong to
    // (their consumer header, else the policy consumer whose dlq.topic they came from); empty when none
    // is known. The other consumers of the destination topics also receive the records.
    QString targetConsumer;
    QStringList alsoReceives;

    // Repeats in the selection. Copies of one original record (same original coordinates and payload
    // SHA-256, e.g. dead-lettered twice) are one item: the request builder files the first and counts the
    // rest here. Items that only share an idempotency key are different records: kept, and flagged.
    int mergedCopies = 0;
    QStringList mergedCopySamples;     // up to 10 "dlq/partition/offset = copy of topic/partition/offset"
    int sharedIdempotencyItems = 0;    // items whose idempotency key another item of the request has
    QStringList sharedIdempotencyKeys; // up to 10 of those keys, in item order, masked as the policy says

    // No-op prediction, per item for the consumer it belongs to (the record's consumer header, else the
    // policy consumer whose dlq.topic it came from; never "any consumer"): an item whose key has a row in
    // that consumer's inbox in a state the consumer does not take again from (mapping.retakes) is a no-op.
    bool inboxChecked = false;
    int keysLookedUp = 0;
    int predictedNoOps = 0;
    int notPredicted = 0; // items with no key, no known consumer, or no inbox mapping for their consumer
    double predictedNoOpRate = 0; // predictedNoOps / count (0 when count is 0)
    QString inboxError;
    // Release and replay: rows to release (not no-ops then), and rows a release cannot help (the mapping
    // has no releaseTo). releaseRefs (not stored: the builder puts them into the items' inbox_ref) maps an
    // item's index to {"mapping", "messageId", "consumer"?, "release": releaseTo, "pinnedStatus": status}.
    bool release = false;
    int releases = 0;
    int releaseNotOffered = 0;
    QHash<int, QJsonObject> releaseRefs;
    // Reclaim of stuck rows: the plan (ReclaimPlan::toJson) the items were found by; empty otherwise.
    QJsonObject reclaim;
    // Offset reset: the plan (OffsetResetPlan::toJson) the items move to; empty otherwise.
    QJsonObject offsetReset;

    // Ordering risk: items with a later record of the same key on their original partition, i.e. a newer
    // state the consumer already moved past; replaying the older one may overwrite it.
    bool orderingChecked = false;
    int orderingRiskItems = 0;
    QStringList orderingRiskSamples; // up to 10 "topic/partition/offset key=..." (keys masked by the policy)
    int orderingUnknownItems = 0;    // no original position, no key, or the scan budget ran out
    QString orderingMethod;          // one sentence: what was checked
    QString orderingError;

    // Policy
    PolicyVerdict verdict = PolicyVerdict::Allowed;
    int requiredApprovals = 1;
    QStringList policyReasons;

    QJsonObject toJson() const;
    static DryRunResult fromJson(const QJsonObject &json);
    // A few lines for the terminal and the runbook.
    QString summary() const;
    // The repeats' lines of the summary (empty when there are none): also the runbook's and the
    // confirmation's words.
    QString repeatsText() const;
};
Q_DECLARE_METATYPE(DryRunResult)

// Blocking (worker threads, the command line, tests).
namespace DryRun {
// inboxDb: the default inbox database's session (may be null); mappings on other databases are connected
// to as needed. The ordering check is honest and cheap: for each item with a key
// and an original position, it reads the original partition from the smallest such offset up to the end
// (bounded by orderingScanBudget) and flags the item when a record with the same key follows it. The
// consumer reads in order and the record was dead-lettered, so everything after it that is below the
// partition's end is at best being processed and at worst processed already: the check over-reports
// rather than under-reports.
DryRunResult evaluate(const DryRunInput &input, PgSession *inboxDb);
// The policy part alone (fast, no I/O).
void applyPolicy(const DryRunInput &input, DryRunResult &result);
} // namespace DryRun
