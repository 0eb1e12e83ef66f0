#pragma once

#include "services/inbox/inboxmapping.h"

#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <optional>

// The delivery policy file (ARCHITECTURE.md, Contracts: Delivery policy file) as plain values.
// Every answer can be "not stated" (std::nullopt, empty string): the consumer checklist (§37) flags
// missing answers, so a missing `dlq.enabled` must stay distinguishable from `dlq.enabled: false`.

// What a `replayAllowed` / `replay.allowed` value means. The text is kept beside it for display.
enum class ReplayAllowance {
    NotStated,
    Allowed,           // true
    NotAllowed,        // false
    NotForSideEffects, // false-for-side-effect: replay only where no external effect repeats
    Unrecognised,      // stated, but none of the above (the loader warns)
};

// Parses `true`, `false`, `false-for-side-effect(s)` (and YAML's yes/no/on/off); empty → NotStated.
ReplayAllowance parseReplayAllowance(const QString &text);

// `7d`, `12h`, `30m`, `45s`, `500ms` or a bare number of milliseconds; -1 when empty or unreadable.
qint64 parseDurationMs(const QString &text);

// Where a value of a record comes from (Berth's extension): a header, a JSON path into the value
// (`$.a.b`), or the record key. Used for a consumer's idempotency key and a topic's sequence field.
struct RecordField {
    enum class Kind { NotStated, Header, JsonPath, RecordKey };
    Kind kind = Kind::NotStated;
    QString name; // the header name or the JSON path

    bool isStated() const { return kind != Kind::NotStated; }
    // "header seq", "JSON path $.version", "record key"; empty when not stated.
    QString describe() const;
    friend bool operator==(const RecordField &, const RecordField &) = default;
};

// `deliverySemantics.topics.<name>`.
struct TopicPolicy {
    QString name;
    QString defaultGuarantee; // at-least-once, at-most-once, exactly-once...
    QString key;              // partition key field, e.g. caseId
    QString ordering;         // per-key, none, global...
    QString retention;        // as written, e.g. 7d
    qint64 retentionMs = -1;  // parsed `retention`, -1 when not stated or unreadable
    QString replayAllowedText;
    ReplayAllowance replayAllowed = ReplayAllowance::NotStated;
    int partitions = -1; // Berth extension: expected partition count, -1 when not stated
    RecordField sequence; // Berth extension: the sequence / version field, ordered per `key`
    int line = 0;        // 1-based line of the topic's name in the file, 0 when unknown

    friend bool operator==(const TopicPolicy &, const TopicPolicy &) = default;
};

// `deliverySemantics.consumers.<name>`: one per consumer group, because side effects differ per consumer.
struct ConsumerPolicy {
    QString name;       // the consumer group
    QStringList topics; // Berth extension: topics the group consumes (not in the §34 template)

    QString idempotencyStrategy; // idempotency.strategy, e.g. aggregate-version-upsert, processed_message
    QString duplicateHandling;   // skip, overwrite...
    std::optional<bool> externalProviderIdempotency;

    QString offsetCommitTiming; // offsetCommit.timing, e.g. after-db-transaction

    std::optional<int> retryMaxAttempts;
    QString retryBackoff; // exponential-jitter, fixed...

    std::optional<bool> dlqEnabled;
    QString dlqTopic;
    QString dlqOwner;
    std::optional<bool> manualReviewRequired;
    std::optional<bool> dlqCritical;           // dlq.critical: any arrival alerts
    std::optional<int> dlqAlertCount;          // dlq.alert.count: arrivals within the window that alert
    std::optional<int> dlqAlertWindowMinutes;  // dlq.alert.windowMinutes

    std::optional<int> poisonMaxAttemptsBeforePark;
    std::optional<int> lagSloMaxLagSeconds;

    // idempotencyKey: where the message id comes from, in words ("header idempotency-key",
    // "JSON path $.eventId", "record key"); empty when not stated. Not the partition key (the topic's `key`).
    QString idempotencyKeySource;
    RecordField idempotencyKey; // the same, as a value readers can apply
    // isolationLevel: read_committed or read_uncommitted as written; empty when not stated (the client's
    // default, read_uncommitted).
    QString isolationLevel;
    bool readsCommitted() const { return isolationLevel == QLatin1StringView("read_committed"); }
    // review: answers to checklist questions no other key answers, by question key (e.g. crashBeforeAck).
    QList<QPair<QString, QString>> review;

    QString replayAllowedText; // replay.allowed as written
    ReplayAllowance replayAllowed = ReplayAllowance::NotStated;

    // `inbox:` (with `outbox:` in inbox->outbox): where the consumer's inbox lives and how it is read
    // (ARCHITECTURE.md, Contracts: Inbox mapping). Its name is the consumer's.
    std::optional<InboxMapping> inbox;

    int line = 0; // 1-based line of the consumer's name in the file, 0 when unknown

    friend bool operator==(const ConsumerPolicy &, const ConsumerPolicy &) = default;
};

// `masking[]` (Berth's extension): what of a topic's records never reaches a view, an export or the
// command line's JSON unless revealed (ARCHITECTURE.md, Contracts: masking).
struct MaskRule {
    QString topic;      // the topic, or the original topic of its dead letters
    QStringList fields; // paths into the decoded payload: $.customer.email, $.lines[*].card, $.items[0].x
    QStringList headers; // header names (case-insensitive)
    bool key = false;    // the record key
    int line = 0;

    friend bool operator==(const MaskRule &, const MaskRule &) = default;
};

struct DeliveryPolicy {
    QList<TopicPolicy> topics;       // in file order
    QList<ConsumerPolicy> consumers; // in file order
    QList<MaskRule> masking;         // in file order

    // nullptr when absent. Pointers into the lists: valid until the policy is modified.
    const ConsumerPolicy *consumer(const QString &name) const;
    const TopicPolicy *topic(const QString &name) const;
    QStringList consumerGroups() const; // in file order
    QStringList dlqTopics() const;      // stated DLQ topics, in file order, without duplicates
    QList<InboxMapping> inboxMappings() const; // the consumers' inbox mappings, in file order
    // The consumer a dead letter belongs to: the record's consumer header when it has one, else the one
    // consumer whose dlq.topic the record was read from; empty when neither tells (then nothing is
    // predicted for it: never "any consumer").
    QString consumerOfDeadLetter(const QString &dlqTopic, const QString &consumerHeader) const;
    // Every rule for a record of `topic` (a DLQ topic) or of its original topic, merged; empty when none.
    MaskRule maskFor(const QString &topic, const QString &originalTopic = {}) const;
    // The same for a record whose original topic may be any of originalTopics.
    MaskRule maskForAny(const QString &topic, const QStringList &originalTopics) const;
    bool isEmpty() const { return topics.isEmpty() && consumers.isEmpty(); }

    friend bool operator==(const DeliveryPolicy &, const DeliveryPolicy &) = default;
};

Q_DECLARE_METATYPE(DeliveryPolicy)
