#pragma once

#include "services/dlq/dlqrecord.h"
#include "services/dlq/stringpool.h"

#include <QList>
#include <QMetaType>

// One dead-lettered record in a scan's index: what the browser lists, sorts, filters and groups on, and
// nothing more (ARCHITECTURE.md, Data flows: DLQ scan). Payloads are not kept: the inspector fetches the
// record on demand. Strings are ids into the scan's StringPool, so a million entries cost 64 MB plus
// their distinct strings.
//
// The key's first KeyPrefix bytes are stored (not interned: keys are nearly all distinct, and looking
// each up would only cost); their hash is the pool's (StringPool::hash). The idempotency key is interned
// whole: equal keys have equal ids (poison detection counts by id), and it stays at hand for inbox
// look-ups.
struct DlqIndexEntry {
    enum Flag : quint8 {
        HasNotes = 0x01, // decoding left notes (the inspector shows them)
        NullKey = 0x02,
        NullValue = 0x04,   // tombstone
        BinaryKey = 0x08,   // not printable UTF-8: readers show the key in hex
        InvalidUtf8 = 0x10, // the value is not UTF-8 (binary payload, or broken text)
        Huge = 0x20,        // value over HugeValue bytes
        HasStackTrace = 0x40,
        KeyFailure = 0x80, // Spring's kafka_dlt-key-exception-*: the key failed, not the value
    };
    static constexpr quint32 UnknownAttempts = 0xff;
    static constexpr quint32 MaxAttempts = 0xfe;          // more attempts read as this many
    static constexpr quint32 MaxKeySize = (1u << 24) - 1; // larger keys read as this size
    static constexpr qsizetype KeyPrefix = 256;
    static constexpr quint32 HugeValue = 1024 * 1024;

    qint64 offset = -1;
    qint64 timestampMs = -1;
    qint64 originalOffset = -1;
    quint32 valueSize = 0;
    quint32 keySize : 24 = 0;
    quint32 attempts : 8 = UnknownAttempts;
    quint32 keyId = 0;
    quint32 idempotencyKeyId = 0;
    quint32 reasonId = 0;
    quint32 exceptionId = 0;
    quint32 causeId = 0;
    quint32 routeId = 0; // StringPool::internPair(original topic, consumer group or connector)
    qint32 originalPartition = -1;
    quint16 partition = 0; // topics beyond 65,536 partitions are refused by the scanner
    quint8 dialect = quint8(DlqDialect::Unknown);
    quint8 flags = 0;

    bool has(Flag f) const { return flags & f; }
    int attemptCount() const { return attempts == UnknownAttempts ? -1 : int(attempts); }
    DlqDialect dialectValue() const { return DlqDialect(dialect); }
};
static_assert(sizeof(DlqIndexEntry) == 64, "the index budget is 64 bytes per entry");
static_assert(std::is_trivially_copyable_v<DlqIndexEntry>);

Q_DECLARE_TYPEINFO(DlqIndexEntry, Q_RELOCATABLE_TYPE);
using DlqIndexEntries = QList<DlqIndexEntry>;
