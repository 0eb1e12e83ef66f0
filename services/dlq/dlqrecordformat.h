#pragma once

#include "services/dlq/dlqrecord.h"
#include "services/kafka/kafkarecord.h"
#include "services/payload/decodedpayload.h"

#include <QJsonObject>
#include <QString>

// How the inspector and the exports show one dead-lettered record. Pure functions over bytes: payloads
// are data, so everything here returns plain text (never markup) and copes with any input: invalid
// UTF-8, binary, truncated or absurdly nested JSON, megabytes of it.
namespace DlqRecordFormat {
struct Text {
    QString text;
    qsizetype shownBytes = 0; // how much of the input the text covers
    bool truncated = false;   // the input was longer than the limit
};

// Re-indents JSON without parsing it (so invalid or 100,000-deep input still shows); indentation stops
// growing at a sane depth. Input that does not start like an object or array comes back as text.
// Control characters other than line breaks and tabs are made visible.
Text prettyJson(QByteArrayView bytes, qsizetype maxBytes);
// What a strict parser thinks of it: empty when valid JSON, else the parser's complaint.
QString jsonProblem(QByteArrayView bytes);
// Offset, hex bytes and printable ASCII, 16 bytes a line.
Text hexDump(QByteArrayView bytes, qsizetype maxBytes);
// UTF-8 text with control characters (but line breaks and tabs) made visible, and bidi controls replaced
// by U+FFFD: a payload's right-to-left override must not reorder what the operator reads.
QString visibleText(QByteArrayView bytes);
// The explicit bidi formatting characters (embeddings, overrides, isolates, LRM/RLM).
constexpr bool isBidiControl(char16_t c)
{
    return (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069) || c == 0x200e || c == 0x200f;
}

// A decoded payload laid out for the inspector (ARCHITECTURE.md, Data flows: payload decoding): display
// JSON pretty-printed, text as visible text, anything else as a hex dump; the note says what decoded it or
// why a schema could not, and where. The decoder decided; this only lays out.
struct PayloadText {
    QString text;
    QString note;
    qsizetype shownBytes = 0;
    bool truncated = false;
};
PayloadText payloadText(const DecodedPayload &payload, QByteArrayView value, qsizetype maxBytes);
// "avro, payments-value v3 (id 7)"; empty without a schema.
QString schemaText(const DecodedPayload &payload);
// Adds "payload" (the display JSON as JSON, else the text, else the hex), "schema" ({subject, version, id,
// format}) and "payloadError" to an exported record or a command-line entry.
void putPayload(QJsonObject &o, const DecodedPayload &payload, QByteArrayView value);

// A shell command that fetches this one record again: kcat -b B -C -t T -p P -o O -c 1 -J.
QString kcatCommand(const QString &bootstrap, const QString &topic, int partition, qint64 offset);
QString shellQuote(const QString &word);

// The record and its decoded DLQ metadata as JSON: text as strings, anything not UTF-8 as base64.
// With a decoded payload, its putPayload fields too.
QJsonObject recordToJson(const KafkaRecord &record, const DlqMetadata &metadata,
                         const DecodedPayload *payload = nullptr);
} // namespace DlqRecordFormat
