#pragma once

#include "services/dlq/dlqrecord.h"

#include <QByteArray>
#include <QByteArrayView>

// Reads and writes the dead-letter header dialects (ARCHITECTURE.md, Contracts: DLQ header dialects),
// as the table in dlqdialects.h lists them.
// Pure functions, no Kafka calls: the DLQ scanner decodes every record with them, so decoding compares
// names as bytes against a compile-time table and allocates only for the strings it returns.

// Detects the dialect (the family with the most recognised headers; the others fill only fields it left
// unset, and are named in a note) and decodes it. Last occurrence of a repeated header wins. A value that
// cannot be decoded leaves its field unset and adds a note with the raw bytes in hex; nothing is dropped.
// `correlation-id` and `idempotency-key` are read whatever the dialect.
DlqMetadata decodeDlqHeaders(const RecordHeaders &headers);
// decodeDlqHeaders(headers).originalTopic, decoding nothing else (a replay asks it of every record).
QString dlqOriginalTopic(const RecordHeaders &headers);

// A recognised numeric header's value as its dialect's codec reads it (the same decode as decodeDlqHeaders:
// Spring's binary big-endian ints and longs, Java BigIntegers, decimal text, ISO-8601 times), for whoever
// shows headers one by one (the inspector's Headers tab). isTime: epoch milliseconds.
struct DlqHeaderNumber {
    bool ok = false;
    qint64 value = 0;
    bool isTime = false;
};
DlqHeaderNumber decodeDlqHeaderNumber(const RecordHeader &header);

// Writes `m`'s diagnostic headers the way the dialect's real producer does: binary big-endian numbers
// for Spring Kafka and Spring Cloud Stream, UTF-8 text for Kafka Connect, Kafka Streams and Berth.
// Unset fields (empty, -1) are not written. Spring Kafka DLT also gets retry_topic-attempts and
// retry_topic-original-timestamp when set, as @RetryableTopic DLT records have. Like real producers,
// it writes no business headers (`correlation-id`, `idempotency-key`): append these to the original
// record's headers, which carry them. DlqDialect::Unknown writes nothing.
RecordHeaders encodeDlqHeaders(DlqDialect dialect, const DlqMetadata &m);

// True for every dialect's diagnostic header (replay drops these and keeps the rest). Matches by family
// prefix (DlqDialects::kDiagnosticPrefixes), so diagnostic headers Berth does not decode yet are dropped
// too. `correlation-id` and
// `idempotency-key` are business headers, not diagnostics.
bool isDiagnosticDlqHeader(QByteArrayView name);

QByteArray toBigEndian32(qint32 value);
QByteArray toBigEndian64(qint64 value);
