#pragma once

#include "services/kafka/kafkaconfig.h"

#include <atomic>
#include <thread>

// Publishes the `outbox` table's pending rows to Kafka and marks them published. It stalls on a schedule
// (15 s of every 60 s) so the pending backlog visibly grows and drains.
class OutboxRelay final {
public:
    OutboxRelay(KafkaProperties cluster, QString conninfo);
    ~OutboxRelay();
    void start();
    void requestStop(); // returns at once; stop() joins
    void stop();
    qint64 published() const { return m_published; }

private:
    void run();
    KafkaProperties m_cluster;
    QString m_conninfo;
    std::thread m_thread;
    std::atomic_bool m_stop = false;
    std::atomic<qint64> m_published = 0;
};
