#pragma once

#include "services/dlq/dlqindexentry.h"
#include "services/dlq/stringpool.h"

#include <QString>

// What one DLQ index entry says, as values: its strings resolved against the scan's pool, its flags as
// named bools. Every reader that shows an entry (the browser's table and inspector, the export, the
// command line) builds its text from this, so an entry reads the same everywhere; none of them needs to
// know how the index stores it. The topic is the scan's, not the entry's: readers take it from the scan.
struct DlqEntryFields {
    int partition = -1;
    qint64 offset = -1;
    qint64 timestampMs = -1; // -1: the record has none
    QString originalTopic;
    int originalPartition = -1; // -1: not in the headers
    qint64 originalOffset = -1; // -1: not in the headers
    QString consumer;           // consumer group or connector
    QString exceptionClass;
    QString causeClass;
    QString reason;
    // The key as text, or "0x…" hex when it is binary; it ends in "…" when the key is longer than the index
    // keeps. Empty for a null key (keyIsNull tells it from an empty one).
    QString key;
    QString idempotencyKey;
    DlqDialect dialect = DlqDialect::Unknown;
    int attempts = -1;           // -1: unknown
    bool attemptsCapped = false; // more attempts than the index counts: attempts is a lower bound
    qint64 keySize = 0;          // bytes; capped at DlqIndexEntry::MaxKeySize
    qint64 valueSize = 0;        // bytes
    bool keyIsNull = false;
    bool valueIsNull = false;  // a tombstone
    bool binaryKey = false;    // not printable UTF-8: key is hex
    bool valueNotUtf8 = false; // binary payload, or broken text
    bool hugeValue = false;    // over DlqIndexEntry::HugeValue bytes
    bool hasStackTrace = false;
    bool keyFailure = false;     // the key failed to deserialise, not the value
    bool hasDecodeNotes = false; // decoding the headers left notes (the fetched record shows them)

    static DlqEntryFields from(const DlqIndexEntry &entry, const StringPool &pool);
};

// An entry's strings one at a time, for readers that need one field of many entries (grouping, tests).
namespace DlqEntryText {
inline QString originalTopic(const DlqIndexEntry &e, const StringPool &pool)
{
    return pool.text(pool.pair(e.routeId).first);
}
inline QString consumer(const DlqIndexEntry &e, const StringPool &pool)
{
    return pool.text(pool.pair(e.routeId).second);
}
inline QString exceptionClass(const DlqIndexEntry &e, const StringPool &pool)
{
    return pool.text(e.exceptionId);
}
inline QString causeClass(const DlqIndexEntry &e, const StringPool &pool)
{
    return pool.text(e.causeId);
}
inline QString reason(const DlqIndexEntry &e, const StringPool &pool)
{
    return pool.text(e.reasonId);
}
inline QString idempotencyKey(const DlqIndexEntry &e, const StringPool &pool)
{
    return pool.text(e.idempotencyKeyId);
}
// As DlqEntryFields::key.
QString key(const DlqIndexEntry &e, const StringPool &pool);
} // namespace DlqEntryText
