#pragma once

#include "services/accounting/keytable.h"
#include "services/kafka/kafkaconfig.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <array>
#include <limits>
#include <map>
#include <memory>
#include <vector>

// Value snapshots of a delivery accounting run (ARCHITECTURE.md, Data flows: Delivery accounting): what
// happened to every record of a consumer's window, one class per record.

// The classes of `berth account`, in the order of precedence the classifier applies (ARCHITECTURE.md,
// Contracts: Delivery accounting). The enum order is the display order.
enum class AccountClass : quint8 {
    Processed,
    Duplicate,
    InFlight,
    DeadLettered,
    Parked,
    Skipped,
    NotConsumed,
    Aborted,
    Unaccounted,
};
inline constexpr int AccountClassCount = int(AccountClass::Unaccounted) + 1;

// The JSON and CSV names: processed, duplicate, inFlight, deadLettered, parked, skipped, notConsumed,
// aborted, unaccounted.
QString accountClassKey(AccountClass c);
bool accountClassFromKey(QStringView key, AccountClass *c);

// Notes on one record: odd input that did not stop the run (counted as `notes` in the summary).
namespace AccountNote {
enum : quint16 {
    NoKey = 1 << 0,             // no idempotency key where the policy says it is
    NotJson = 1 << 1,           // a JSON path was asked for and the value is not a JSON object
    NoSequence = 1 << 2,        // the topic names a sequence field the record lacks
    InboxUnreachable = 1 << 3,  // the inbox could not answer for its key: not verified
    UnknownStatus = 1 << 4,     // the inbox row holds a status word the mapping does not list
    Unverified = 1 << 5,        // processed by the committed offset alone (no inbox to check)
    KeyPayloadDiffers = 1 << 6, // an earlier record of the window has the same key and another payload
    Tombstone = 1 << 7,         // a NULL value (a compacted topic's delete marker)
    KeyNotInboxType = 1 << 8,   // the inbox's id column cannot hold the key (its type): no row can have it
};
inline constexpr int Count = 9;
// "noKey", "notJson", ... for JSON; one per set bit.
QStringList names(quint16 notes);
} // namespace AccountNote

// One record of the window. Keys are ids into AccountingResult::keys (0: none).
struct AccountedRecord {
    static constexpr qint64 NoSequence = std::numeric_limits<qint64>::min();
    qint64 offset = -1;
    qint64 timestampMs = -1;
    qint64 sequence = NoSequence;
    quint32 recordKey = 0;
    quint32 idempotencyKey = 0;
    quint32 valueHash = 0; // to tell a key repeated with another payload
    int partition = -1;
    AccountClass cls = AccountClass::NotConsumed;
    quint16 notes = 0;
};

// One partition's window and the evidence read for it.
struct AccountingPartition {
    int partition = -1;
    qint64 from = 0;       // first offset of the window
    qint64 to = 0;         // end of the window (exclusive)
    qint64 low = 0;        // the log start when the run began
    qint64 high = 0;       // the log end when the run began
    qint64 committed = -1; // the group's committed offset, -1 when it has none
    qint64 read = 0;       // records read (under read_uncommitted; aborted ones included)
    // The partition's lag is made only of transaction markers after the last record: the consumer is
    // caught up although committed < high (ARCHITECTURE.md, Contracts: Delivery accounting).
    bool caughtUpBehindMarkers = false;
};

// Order and sequence findings per key (seed 004), filled when the topic names a sequence field.
struct SequenceFinding {
    enum class Kind : quint8 { Gap, OutOfOrder, Repeat, DlqAndContinue };
    Kind kind = Kind::Gap;
    quint32 key = 0;    // id into AccountingResult::keys: the ordering key
    int partition = -1; // the record that shows it
    qint64 offset = -1;
    int previousPartition = -1; // the record it is judged against (out of order, repeat, DLQ break)
    qint64 previousOffset = -1;
    qint64 sequence = 0;           // the record's number
    qint64 expected = 0;           // gap: first missing number; out of order/repeat: the highest seen
    qint64 missing = 0;            // gap: how many numbers are missing
    bool acrossPartitions = false; // the two records are on different partitions (the key moved)
};
QString sequenceKindKey(SequenceFinding::Kind kind); // gap, outOfOrder, repeat, dlqAndContinue

// A dead letter of the consumer read from its DLQ topics, kept so that a dead-lettered record can be shown
// beside its dead letter: where it is, and what it names.
struct AccountingDeadLetter {
    qint64 offset = -1;         // in the DLQ topic
    qint64 originalOffset = -1; // -1: the headers do not say
    quint32 idempotencyKey = 0; // id into AccountingResult::keys (0: none)
    int partition = -1;         // in the DLQ topic
    int originalPartition = -1;
    quint16 dlqTopic = 0; // index into AccountingResult::dlqTopics
};

struct AccountingProgress {
    qint64 records = 0;
    qint64 total = 0; // the window's size (an upper bound: compaction and markers leave gaps)
    QString stage;    // what is being read, in words
};

struct AccountingResult {
    QString group;
    QString topic;
    QStringList dlqTopics;
    QString keySource;         // how the idempotency key was taken, in words
    // What the policy's masking rule for the topic hides (ARCHITECTURE.md, Contracts: masking): views,
    // exports and JSON show these keys as "(masked)"; the inbox join used their bytes.
    bool recordKeyMasked = false;
    bool idempotencyKeyMasked = false;
    bool inboxChecked = false; // the consumer has an inbox the run read
    bool readCommitted = false;
    QList<AccountingPartition> partitions;
    std::vector<AccountedRecord> records;       // per partition in offset order, partitions in turn
    KeyTable keys{QByteArrayView()}; // key id -> bytes; id 0 is "none"
    std::array<qint64, AccountClassCount> counts{};
    // Records per minute of record time (epoch minute -> count per class): the chart's data, so the view
    // never walks the records.
    std::map<qint64, std::array<qint64, AccountClassCount>> minutes;
    qint64 notes = 0; // records with at least one note
    std::array<qint64, AccountNote::Count> noteCounts{};
    QList<SequenceFinding> sequence;
    std::vector<AccountingDeadLetter> deadLetters; // the consumer's dead letters of this topic, in reading order
    QStringList messages; // run-level notes in words (window past retention, inbox unreachable...)
    QString error;        // empty when the window was read whole
    bool cancelled = false;

    qint64 count(AccountClass c) const { return counts[size_t(c)]; }
    QByteArray key(quint32 id) const { return id < keys.size() ? keys.bytes(id) : QByteArray(); }
    // A key as views, exports and JSON show it: empty for none, "(masked)" where the policy masks it.
    QString recordKeyText(quint32 id) const;
    QString idempotencyKeyText(quint32 id) const;
    qint64 sequenceCount(SequenceFinding::Kind kind) const;
};
using AccountingResultPtr = std::shared_ptr<const AccountingResult>;
Q_DECLARE_METATYPE(AccountingProgress)
Q_DECLARE_METATYPE(AccountingResultPtr)
