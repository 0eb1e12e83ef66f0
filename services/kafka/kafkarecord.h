#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

#include <librdkafka/rdkafka.h>

#include <cstring>

struct RecordHeader {
    QByteArray name;
    QByteArray value;
    bool isNull = false;
};
using RecordHeaders = QList<RecordHeader>;

// One consumed record, copied out of librdkafka's buffer.
struct KafkaRecord {
    QString topic;
    int partition = -1;
    qint64 offset = -1;
    qint64 timestampMs = -1;
    QByteArray key;
    bool keyIsNull = true;
    QByteArray value; // a null QByteArray (isNull()) for a NULL value (a tombstone), empty for an empty one
    RecordHeaders headers;

    QByteArray header(QByteArrayView name) const; // last occurrence wins
    static KafkaRecord fromMessage(const rd_kafka_message_t *message);
};

// Calls each(name, value, size) for every header of a consumed message, in order, as librdkafka's public
// API hands them out (rd_kafka_message_headers, rd_kafka_header_get_all); a null value comes as nullptr.
// Name and value stay valid while the message does.
template <typename Each> void forEachHeader(const rd_kafka_message_t *message, Each &&each)
{
    rd_kafka_headers_t *headers = nullptr;
    if (rd_kafka_message_headers(message, &headers) != RD_KAFKA_RESP_ERR_NO_ERROR || !headers)
        return;
    const char *name = nullptr;
    const void *value = nullptr;
    size_t size = 0;
    for (size_t i = 0;
         rd_kafka_header_get_all(headers, i, &name, &value, &size) == RD_KAFKA_RESP_ERR_NO_ERROR; ++i)
        each(QByteArrayView(name, qsizetype(std::strlen(name))), value, size);
}

// One record to produce. partition -1: let the partitioner choose by key.
struct OutgoingRecord {
    QString topic;
    int partition = -1;
    QByteArray key;
    bool keyIsNull = false;
    QByteArray value;
    RecordHeaders headers;
    qint64 timestampMs = 0; // 0: now
    // NULL value (a tombstone: compaction deletes the key) rather than an empty one. Explicit, never read
    // from value.isNull(): a payload that merely happens to be a null QByteArray must not delete anything.
    bool valueIsNull = false;
};
