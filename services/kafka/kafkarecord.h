#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

#include <librdkafka/rdkafka.h>

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
