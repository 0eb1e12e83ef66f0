#pragma once

#include <QHash>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

// Berth's view of an inbox row, whatever words the consumer's code writes into its status column.
enum class InboxState { InProgress, Completed, FailedRetryable, FailedTerminal, Parked, Skipped, Unknown };
inline constexpr int InboxStateCount = int(InboxState::Unknown) + 1;

// Short English name for logs, JSON and tests ("in progress", "failed terminal"); views translate their own.
QString inboxStateName(InboxState state);

// The transactional outbox written next to the inbox (optional): its pending rows are the producer backlog.
struct OutboxMapping {
    QString schema; // empty: the connection's search_path
    QString table;  // empty: no outbox on this database
    QString statusColumn;
    QString createdColumn;
    QString pendingStatus;

    bool isConfigured() const { return !table.isEmpty(); }
    friend bool operator==(const OutboxMapping &, const OutboxMapping &) = default;
};

// How one inbox table is read. Every table and column name here is operator input: it only ever reaches
// SQL through PQescapeIdentifier, and status words only as parameters.
struct InboxMapping {
    QString name;     // the consumer (group) it belongs to when it comes from the policy or the profile
    QString database; // libpq conninfo, service=name, or a profile database entry; empty: the default one
    QString schema;   // empty: the connection's search_path
    QString table;

    // Required: messageId, status, updated. Optional ones may be empty; the board then leaves out what
    // needs them (no consumer: one row for the whole table; no attempts: no histogram; no error: no top
    // errors).
    QString consumerColumn;
    QString messageIdColumn; // message id or idempotency key
    QString statusColumn;
    QString firstSeenColumn;
    QString updatedColumn;
    QString attemptsColumn;
    QString errorColumn; // last error or error code
    QString topicColumn;
    QString payloadColumn;
    // With a consumer column: the value naming this mapping's consumer (its rows only); empty reads every
    // consumer in the table. Without one: the consumer every row belongs to.
    QString consumerValue;

    // Raw status text -> Berth state. Anything not listed is Unknown (and shown as such, never hidden).
    QHash<QString, InboxState> statuses;
    // What a "skip" remediation writes; empty when the consumer's code has no such word, in which case
    // skipping is not offered (inventing a status the consumer does not understand would break it).
    QString skippedStatus;
    // An in-progress row not updated for this long is stuck (its consumer died mid-message).
    int stuckAfterSeconds = 300;
    // The states the consumer takes a redelivered message again from; any other existing row makes a
    // redelivery or a replay a no-op for this consumer (ARCHITECTURE.md, Contracts: Inbox mapping).
    QList<InboxState> retakes{InboxState::FailedRetryable};
    // What "release" writes: a status word, "delete", or empty (release not offered).
    QString releaseTo;
    // The consumer's retry.maxAttempts (0: not stated). A failed-retryable row whose attempts reached it is
    // exhausted: the consumer gave up on it and dead-lettered it (ARCHITECTURE.md, Contracts: Inbox
    // mapping). Needs an attempts column.
    int exhaustedAfterAttempts = 0;
    bool isExhausted(InboxState state, int attempts) const
    {
        return state == InboxState::FailedRetryable && exhaustedAfterAttempts > 0 && attempts >= exhaustedAfterAttempts;
    }

    OutboxMapping outbox;

    InboxState stateOf(const QString &status) const { return statuses.value(status, InboxState::Unknown); }
    // Whether a redelivery of a message whose row is in this state would be processed again.
    bool retakesFrom(InboxState state) const { return retakes.contains(state); }
    // The consumer this mapping's rows belong to, for display and look-ups (consumerValue, else name).
    QString consumerLabel() const { return consumerValue.isEmpty() ? name : consumerValue; }
    // Whether the board and look-ups restrict the table to one consumer's rows.
    bool filtersConsumer() const { return !consumerColumn.isEmpty() && !consumerValue.isEmpty(); }
    // Whether every row read through the mapping is one consumer's (consumerLabel()).
    bool readsOneConsumer() const { return consumerColumn.isEmpty() || filtersConsumer(); }
    // The raw words mapped to one state, sorted (stable SQL parameters and display).
    QStringList statusesFor(InboxState state) const;
    // "schema.table" for display (unescaped: never for SQL).
    QString qualifiedTable() const;
    // How the policy file writes a table: `schema.table`, a part in double quotes when it holds a dot,
    // a quote or leading/trailing blanks ("odd ""name"".x" stays readable and round-trips).
    static QString tableText(const QString &schema, const QString &table);
    // The inverse: splits on the dot outside double quotes. Empty *error when it reads.
    static void parseTableText(const QString &text, QString *schema, QString *table, QString *error);
    // Empty when usable; otherwise one readable line naming the first problem.
    QString validate() const;

    // seed 000: processed_message (consumer_name, message_id, IN_PROGRESS ... SKIPPED, error_code).
    static InboxMapping seed000ProcessedMessage();
    // seed 001: processed_events (consumer_group, idempotency_key, RECEIVED/PROCESSING/COMPLETED/FAILED,
    // attempt_count, last_error), with the payment-capture outbox that lives next to it.
    static InboxMapping seed001ProcessedEvents();
    // Templates for the mapping editor and tests; never a mapping in use unless a policy or profile says so.
    static QList<InboxMapping> presets();

    // The policy file's names of the states ("inProgress", "failedTerminal"...); Unknown has none.
    static QString stateKey(InboxState state);
    static bool stateFromKey(QStringView key, InboxState *state);

    friend bool operator==(const InboxMapping &, const InboxMapping &) = default;
};
Q_DECLARE_METATYPE(InboxMapping)
