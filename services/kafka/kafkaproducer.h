#pragma once

#include "kafkaconfig.h"
#include "kafkarecord.h"

#include <QHash>

#include <atomic>
#include <functional>

// What librdkafka reported for one record produced with produceTagged().
struct DeliveryReport {
    quint64 tag = 0; // the caller's handle, passed through untouched
    int partition = -1;
    qint64 offset = -1;
    rd_kafka_resp_err_t error = RD_KAFKA_RESP_ERR_NO_ERROR;
    bool possiblyPersisted = false; // failed, but the broker may have written it (a timeout in flight)
};

// A producer for worker threads (demo services, replay executor, tests). Idempotent and acks=all unless the
// caller overrides: Berth never wants its own retries to create duplicates.
class KafkaProducer final {
public:
    static std::unique_ptr<KafkaProducer> create(const KafkaProperties &properties, QString *error);
    ~KafkaProducer();

    // Enqueues; waits (serving delivery reports) while librdkafka's queue is full.
    bool produce(const OutgoingRecord &record, QString *error = nullptr);
    // The same, with a per-record delivery report carrying `tag` (the message opaque) to the handler.
    bool produceTagged(const OutgoingRecord &record, quint64 tag, QString *error = nullptr);
    // Called inside poll()/produce()/flush() on the thread that calls them: keep it cheap (append to a list).
    void setDeliveryHandler(std::function<void(const DeliveryReport &)> handler)
    {
        m_handler = std::move(handler);
    }
    // Has librdkafka look the topic's partitions and leaders up now. Without it the first record to a topic
    // new to this producer waits until librdkafka gets round to looking the topic up (an idempotent
    // producer waits longest); with it, the look-up has started already.
    void prepareTopic(const QString &topic);
    // Serves delivery reports for up to timeoutMs.
    void poll(int timeoutMs);
    // Records not yet reported (queued or in flight).
    int outstanding() const;
    bool flush(int timeoutMs, QString *error = nullptr);
    qint64 delivered() const { return m_delivered; }
    qint64 failed() const { return m_failed; }
    QString lastDeliveryError() const;
    rd_kafka_t *handle() const { return m_rk.get(); }

private:
    KafkaProducer() = default;
    static void onDelivery(rd_kafka_t *, const rd_kafka_message_t *message, void *opaque);
    KafkaHandle m_rk;
    std::atomic<qint64> m_delivered = 0;
    std::atomic<qint64> m_failed = 0;
    bool produceImpl(const OutgoingRecord &record, void *opaque, QString *error);
    rd_kafka_topic_t *topicHandle(const QString &topic);
    // Handles of the topics produced to, destroyed before the client: a record names its topic by handle
    // instead of by name (no UTF-8 copy and no look-up of the name per record).
    QHash<QString, rd_kafka_topic_t *> m_topics; // a null handle: rd_kafka_topic_new failed, tried again
    QString m_lastError; // written on the thread that polls (the producing thread)
    std::function<void(const DeliveryReport &)> m_handler;
};
