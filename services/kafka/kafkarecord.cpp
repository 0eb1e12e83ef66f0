#include "kafkarecord.h"

#include <cstring>

QByteArray KafkaRecord::header(QByteArrayView name) const
{
    for (auto it = headers.crbegin(); it != headers.crend(); ++it) {
        if (it->name == name)
            return it->value;
    }
    return {};
}

namespace {
// Topic and header names repeat from record to record: each thread keeps the last topic and the header
// names it met (a few dozen at most are kept), so a record shares them instead of allocating its own.
const QString &topicNamed(const char *name)
{
    thread_local QByteArray lastRaw;
    thread_local QString lastTopic;
    const QByteArrayView raw(name, qsizetype(std::strlen(name)));
    if (lastRaw.isNull() || QByteArrayView(lastRaw) != raw) {
        lastRaw = raw.toByteArray();
        lastTopic = QString::fromUtf8(raw);
    }
    return lastTopic;
}

QByteArray headerNamed(QByteArrayView name)
{
    thread_local QList<QByteArray> names;
    for (const QByteArray &known : std::as_const(names)) {
        if (QByteArrayView(known) == name)
            return known;
    }
    QByteArray copy = name.toByteArray();
    if (names.size() < 64)
        names.append(copy);
    return copy;
}
} // namespace

KafkaRecord KafkaRecord::fromMessage(const rd_kafka_message_t *message)
{
    KafkaRecord record;
    record.topic = topicNamed(rd_kafka_topic_name(message->rkt));
    record.partition = message->partition;
    record.offset = message->offset;
    rd_kafka_timestamp_type_t type;
    record.timestampMs = rd_kafka_message_timestamp(message, &type);
    record.keyIsNull = message->key == nullptr;
    if (message->key)
        record.key = QByteArray(static_cast<const char *>(message->key), qsizetype(message->key_len));
    if (message->payload)
        record.value = QByteArray(static_cast<const char *>(message->payload), qsizetype(message->len));
    rd_kafka_headers_t *headers = nullptr;
    if (rd_kafka_message_headers(message, &headers) == RD_KAFKA_RESP_ERR_NO_ERROR && headers)
        record.headers.reserve(qsizetype(rd_kafka_header_cnt(headers)));
    forEachHeader(message, [&record](QByteArrayView name, const void *value, size_t size) {
        RecordHeader h;
        h.name = headerNamed(name);
        h.isNull = value == nullptr;
        if (value)
            h.value = QByteArray(static_cast<const char *>(value), qsizetype(size));
        record.headers.append(std::move(h));
    });
    return record;
}
