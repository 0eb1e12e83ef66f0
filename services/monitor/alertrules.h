#pragma once

#include "alertengine.h"
#include "deadletterarrival.h"
#include "duplicatetail.h"
#include "lagsnapshot.h"
#include "ordertail.h"
#include "services/accounting/accountingtypes.h"
#include "services/inbox/inboxboard.h"
#include "services/policy/deliverypolicy.h"

#include <QHash>
#include <QSet>

#include <deque>

// Berth's alert rules (ARCHITECTURE.md, Where a new feature goes: a new alert rule). Each rule is a small
// unit: the snapshot it reads, its thresholds (from the delivery policy where the policy has a key, else a
// default that the UI shows as one), and a verdict per subject (Breach / Hold / Normal) handed to
// AlertEngine, which owns fire / hold / clear. Time is the input's own (sample time, board time), so a test
// drives every rule on a fake clock.

// One threshold as the UI shows it: what it is, and whether the policy stated it or Berth's default applies.
struct AlertThreshold {
    QString rule;
    QString subject; // the group, topic or mapping; empty for a rule-wide threshold
    QString text;    // e.g. "page above 600 s for 2 min; clear below 480 s for 1 min"
    QString source;  // the policy key it came from, or "default"
};

// What the rules take from the delivery policy, per consumer group and per DLQ topic.
struct AlertPolicy {
    static constexpr qint64 defaultSloSeconds = 60; // seed 002's S when the policy states none
    static constexpr int defaultDlqCount = 10;      // seed 002: 10 in 15 minutes
    static constexpr int defaultDlqWindowMinutes = 15;
    static constexpr int defaultMaxAttemptsBeforePark = 3;

    struct Consumer {
        QString group;
        QStringList topics;
        std::optional<qint64> sloSeconds;
        std::optional<int> maxAttemptsBeforePark;
        QString owner; // dlq.owner: the only owner the policy names
    };
    struct DlqTopic {
        QString topic;
        QString consumer;
        QString owner;
        std::optional<int> count;
        std::optional<int> windowMinutes;
        bool critical = false;
    };
    QHash<QString, Consumer> consumers; // by group
    QHash<QString, DlqTopic> dlqTopics; // by topic: the policy's, plus the profile's (defaults)

    static AlertPolicy from(const DeliveryPolicy &policy, const QStringList &extraDlqTopics = {});
    qint64 sloSeconds(const QString &group) const;
    QString ownerOfGroup(const QString &group) const;
    QString ownerOfTopic(const QString &topic) const; // the owners of the consumers that read it
    int maxAttemptsBeforePark(const QString &group) const;
    DlqTopic dlqTopic(const QString &topic) const; // defaults for a topic the policy does not name
};

namespace AlertRules {
inline const QString lagSlo = QStringLiteral("lag-slo");
inline const QString commitStall = QStringLiteral("offset-commit-stall");
inline const QString idlePartition = QStringLiteral("partition-idle");
inline const QString dlqArrivals = QStringLiteral("dlq-arrivals");
inline const QString retriesExhausted = QStringLiteral("retries-exhausted");
inline const QString deserialization = QStringLiteral("deserialization-failures");
inline const QString duplicateSpike = QStringLiteral("duplicate-spike");
inline const QString stuckInProgress = QStringLiteral("inbox-stuck");
inline const QString outboxGrowing = QStringLiteral("outbox-growing");
inline const QString unaccountedRecord = QStringLiteral("unaccounted-record");
inline const QString orderBreak = QStringLiteral("order-break");
QStringList all();
// Sets each rule's sustain / clear / repeat timing on the engine.
void configure(AlertEngine &engine);
}

// Seed 002's lag SLO per consumer group, S = lagSlo.maxLagSeconds: pages when time lag > 10·S for 2 min,
// clears below 8·S for 1 min; a second page within 60 min is marked "rollback the last deploy". Keeps each
// group's time lag over the last 15 min for the p95 shown against S.
class LagSloRule final {
public:
    static constexpr qint64 p95WindowMs = 15 * 60 * 1000;
    void observe(AlertEngine &engine, const AlertPolicy &policy, const LagSnapshot &snapshot);
    qint64 p95Ms(const QString &group) const; // -1 while nothing is known
    QList<AlertThreshold> thresholds(const AlertPolicy &policy, const QStringList &groups) const;

private:
    QHash<QString, std::deque<std::pair<qint64, qint64>>> m_timeLag; // group -> (time, time lag ms)
};

// Offset-commit stall: the group's status is STOP (commits stopped) or STALL (committed offset constant)
// while it has lag, as LagStatus decides on the sampler's window.
class CommitStallRule final {
public:
    void observe(AlertEngine &engine, const AlertPolicy &policy, const LagSnapshot &snapshot);
};

// A partition of a consumed topic that took traffic earlier and none for the sampler's idle window. Dead-letter
// topics are left out: a quiet DLQ is the good news.
class IdlePartitionRule final {
public:
    void observe(AlertEngine &engine, const AlertPolicy &policy, const LagSnapshot &snapshot);
};

// Dead letters arriving, per DLQ topic, counted from its end offsets: N within a window (dlq.alert, default
// 10 in 15 min) fires on the count with no extra sustain; with dlq.critical any arrival fires. The count is
// over the whole window, so sparse arrivals (one a minute) add up. Clears when the window holds fewer than
// half the threshold (nothing, when critical) for a minute.
class DlqArrivalRule final {
public:
    void observe(AlertEngine &engine, const AlertPolicy &policy, const LagSnapshot &snapshot);
    qint64 arrivalsTotal(const QString &topic) const { return m_total.value(topic); } // since Berth started
    qint64 inWindow(const QString &topic, qint64 nowMs, qint64 windowMs) const;
    QList<AlertThreshold> thresholds(const AlertPolicy &policy, const QStringList &topics) const;

private:
    QHash<QString, qint64> m_lastEnd; // topic -> sum of its partitions' end offsets
    QHash<QString, std::deque<std::pair<qint64, qint64>>> m_arrivals; // topic -> (time, records)
    QHash<QString, qint64> m_total;
};

// Retries exhausted / poison, per consumer group: a dead letter whose attempts header reached the policy's
// poison.maxAttemptsBeforePark, or inbox rows whose attempts reached it (more of them than at the previous
// reading of that mapping). Fires at once; clears after 15 min with no new one.
class RetriesExhaustedRule final {
public:
    static constexpr qint64 windowMs = 15 * 60 * 1000;
    void observeDeadLetters(AlertEngine &engine, const AlertPolicy &policy, const DeadLetterArrivals &arrivals,
                            qint64 nowMs);
    void observeInbox(AlertEngine &engine, const AlertPolicy &policy, const QString &mapping,
                      const InboxBoard &board);
    // Rows of the board with attempts ≥ limit, from its histogram (exact up to 3 and from 6 on).
    static qint64 rowsAtOrAbove(const InboxBoard &board, int limit);
    // Exhausted messages of the group within the window, as of its last observation.
    qint64 recentCount(const QString &group) const { return qint64(m_events.value(group).size()); }

private:
    void judge(AlertEngine &engine, const AlertPolicy &policy, const QString &group, qint64 nowMs);
    QHash<QString, std::deque<std::pair<qint64, QString>>> m_events; // group -> (time, evidence)
    QHash<QString, qint64> m_inboxRows;                              // mapping -> rows at or above the limit
};

// Deserialization failures, per DLQ topic: dead letters whose exception (or cause) class is a
// deserialization, serialization or schema error. Fires at once; clears after 15 min with no new one.
class DeserializationRule final {
public:
    static constexpr qint64 windowMs = 15 * 60 * 1000;
    static bool isDeserialization(const QString &exceptionClass);
    // Failures on the DLQ topic within the window, as of its last observation.
    qint64 recentCount(const QString &topic) const { return qint64(m_events.value(topic).size()); }
    void observe(AlertEngine &engine, const AlertPolicy &policy, const DeadLetterArrivals &arrivals, qint64 nowMs);

private:
    QHash<QString, std::deque<std::pair<qint64, QString>>> m_events; // topic -> (time, class)
};

// Duplicate spike, per tailed topic: more than 5 % of the last minute's records repeat an idempotency key,
// for 2 min; clears below 4 % for 1 min.
class DuplicateSpikeRule final {
public:
    static constexpr double firePercent = 5.0;
    static constexpr double clearPercent = 4.0;
    void observe(AlertEngine &engine, const AlertPolicy &policy, const DuplicateStats &stats, qint64 nowMs);
};

// Rows stuck in progress past the mapping's "stuck after", per inbox mapping.
class StuckInProgressRule final {
public:
    void observe(AlertEngine &engine, const AlertPolicy &policy, const QString &mapping, const InboxBoard &board);
};

// An outbox backlog that grows from one reading of a mapping to the next, sustained for 1 min; pending
// rows that do not grow hold an alert, an empty outbox clears it.
class OutboxGrowingRule final {
public:
    void observe(AlertEngine &engine, const AlertPolicy &policy, const QString &mapping, const InboxBoard &board);

private:
    QHash<QString, qint64> m_lastPending; // mapping -> pending rows at the previous reading
};

// Delivery accounting (ARCHITECTURE.md, Data flows: Delivery accounting), per accounted group and topic
// ("group/topic"): `unaccounted-record` fires on any record committed past with no inbox row and no dead
// letter (possible loss); `order-break` on any gap, out-of-order arrival, repeated sequence number or
// DLQ-and-continue break. Both fire at once, name example keys, and clear when a later accounting of the
// same subject finds none.
class AccountingRule final {
public:
    static constexpr int exampleKeys = 3;
    static QString subjectOf(const AccountingResult &result) { return result.group + u'/' + result.topic; }
    void observe(AlertEngine &engine, const AlertPolicy &policy, const AccountingResult &result, qint64 nowMs);
    // The live order tail, per topic (the subject is the topic): `order-break` while a gap, out-of-order
    // arrival or repeated number arrived within the tail's window; clears when none did.
    void observeTail(AlertEngine &engine, const AlertPolicy &policy, const OrderTailStats &stats, qint64 nowMs);
};

// Every rule, fed by input: what the console and `berth watch` both hold.
class AlertRuleSet final {
public:
    explicit AlertRuleSet(AlertEngine &engine);

    void setPolicy(const AlertPolicy &policy) { m_policy = policy; }
    const AlertPolicy &policy() const { return m_policy; }

    void observeLag(const LagSnapshot &snapshot);
    // One reading of one inbox mapping's board, keyed by the mapping (each mapped table its own subject).
    void observeInbox(const QString &mapping, const InboxBoard &board);
    void observeDuplicates(const DuplicateStats &stats, qint64 nowMs);
    void observeDeadLetters(const DeadLetterArrivals &arrivals, qint64 nowMs);
    // A finished accounting run (cancelled or failed runs say nothing and are ignored).
    void observeAccounting(const AccountingResult &result, qint64 nowMs);
    void observeOrderTail(const OrderTailStats &stats, qint64 nowMs);

    QList<AlertThreshold> thresholds(const QStringList &groups, const QStringList &dlqTopics) const;
    const LagSloRule &lagSlo() const { return m_lagSlo; }
    const DlqArrivalRule &dlqArrivals() const { return m_dlq; }
    const RetriesExhaustedRule &retriesExhausted() const { return m_retries; }
    const DeserializationRule &deserialization() const { return m_deserialization; }

private:
    AlertEngine &m_engine;
    AlertPolicy m_policy;
    LagSloRule m_lagSlo;
    CommitStallRule m_stall;
    IdlePartitionRule m_idle;
    DlqArrivalRule m_dlq;
    RetriesExhaustedRule m_retries;
    DeserializationRule m_deserialization;
    DuplicateSpikeRule m_duplicates;
    StuckInProgressRule m_stuck;
    OutboxGrowingRule m_outbox;
    AccountingRule m_accounting;
};
