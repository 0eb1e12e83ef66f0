#pragma once

#include "kafkaconfig.h"
#include "kafkarecord.h"

#include <atomic>

// A producer for worker threads (demo services, replay executor, tests). Idempotent and acks=all unless the
// caller overrides: Berth never wants its own retries to create duplicates.
class KafkaProducer final {
public:
    static std::unique_ptr<KafkaProducer> create(const KafkaProperties &properties, QString *error);
    ~KafkaProducer();

    // Enqueues; waits (serving delivery reports) while librdkafka's queue is full.
    bool produce(const OutgoingRecord &record, QString *error = nullptr);
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
    QString m_lastError; // written on the thread that polls (the producing thread)
};
