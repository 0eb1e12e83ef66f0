#include "kafkarecord.h"

QByteArray KafkaRecord::header(QByteArrayView name) const
{
    for (auto it = headers.crbegin(); it != headers.crend(); ++it) {
        if (it->name == name)
            return it->value;
    }
    return {};
}

KafkaRecord KafkaRecord::fromMessage(const rd_kafka_message_t *message)
{
    KafkaRecord record;
    record.topic = QString::fromUtf8(rd_kafka_topic_name(message->rkt));
    record.partition = message->partition;
    record.offset = message->offset;
    rd_kafka_timestamp_type_t type;
    record.timestampMs = rd_kafka_message_timestamp(message, &type);
    record.keyIsNull = message->key == nullptr;
    if (message->key)
        record.key = QByteArray(static_cast<const char *>(message->key), qsizetype(message->key_len));
    if (message->payload)
        record.value = QByteArray(static_cast<const char *>(message->payload), qsizetype(message->len));
    forEachHeader(message, [&record](QByteArrayView name, const void *value, size_t size) {
        RecordHeader h;
        h.name = name.toByteArray();
        h.isNull = value == nullptr;
        if (value)
            h.value = QByteArray(static_cast<const char *>(value), qsizetype(size));
        record.headers.append(std::move(h));
    });
    return record;
}
