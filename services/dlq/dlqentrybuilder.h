#pragma once

#include "services/dlq/dlqfastdecode.h"
#include "services/dlq/dlqindexentry.h"
#include "services/kafka/kafkarecord.h"

#include <librdkafka/rdkafka.h>

#include <vector>

// Turns one consumed record into an index entry: decodes its DLQ headers and interns the strings. The
// scanner calls it a million times, so it reads librdkafka's buffers in place, takes the allocation-free
// path for well-formed headers (decodeDlqHeadersFast) and decodeDlqHeaders for everything else; stack
// traces are not decoded (the index only notes that there is one, the inspector shows it).
class DlqEntryBuilder final {
public:
    explicit DlqEntryBuilder(StringPool &pool);

    DlqIndexEntry build(const rd_kafka_message_t *message);
    DlqIndexEntry build(const KafkaRecord &record);

    // Tests build the same records both ways and compare.
    void setFastPath(bool enabled) { m_fastPath = enabled; }
    qint64 fastDecoded() const { return m_fastDecoded; }
    qint64 slowDecoded() const { return m_slowDecoded; }

    // Interned text is cut to this many characters (and ends in "…"); the idempotency key is kept whole.
    static constexpr qsizetype MaxReason = 1000;
    static constexpr qsizetype MaxName = 500;

private:
    struct Raw {
        int partition = 0;
        qint64 offset = -1;
        qint64 timestampMs = -1;
        QByteArrayView key;
        bool keyIsNull = true;
        QByteArrayView value;
        bool valueIsNull = true;
    };
    // Adds a header to m_views; returns the flags the header implies.
    quint8 addHeader(QByteArrayView name, const void *value, size_t size);
    DlqIndexEntry finish(const Raw &raw, quint8 headerFlags);
    bool decodeFast(DlqIndexEntry &e);
    void decodeSlow(DlqIndexEntry &e);
    quint32 internText(const QString &text, qsizetype max);
    // Consecutive dead letters mostly share exception, cause, topic and consumer: one remembered
    // string per field spares the conversion and the look-up.
    struct Recent {
        QString text;
        quint32 id = 0;
    };
    quint32 internRecent(Recent &recent, const QString &text);
    quint32 route(quint32 topic, quint32 consumer);

    StringPool &m_pool;
    std::vector<DlqHeaderView> m_views; // into the record being built; reused
    RecordHeaders m_headers;            // the same for decodeDlqHeaders; reused
    Recent m_exception, m_cause, m_topic, m_consumer;
    quint32 m_routeTopic = 0, m_routeConsumer = 0, m_route = 0;
    bool m_fastPath = true;
    qint64 m_fastDecoded = 0;
    qint64 m_slowDecoded = 0;
};
