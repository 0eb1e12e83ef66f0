#pragma once

#include "services/kafka/kafkaconfig.h"

#include <librdkafka/rdkafka_mock.h>

#include <QString>

// librdkafka's in-process mock cluster on loopback: a real Kafka-protocol server that any client (kcat
// too) can reach. Used by the demo world and by every integration test.
class MockKafkaCluster final {
public:
    explicit MockKafkaCluster(int brokerCount = 3);
    ~MockKafkaCluster();
    MockKafkaCluster(const MockKafkaCluster &) = delete;
    MockKafkaCluster &operator=(const MockKafkaCluster &) = delete;

    bool isValid() const { return m_cluster != nullptr; }
    QString error() const { return m_error; }
    QString bootstrapServers() const { return m_bootstrap; }
    KafkaProperties clientProperties() const { return {{QStringLiteral("bootstrap.servers"), m_bootstrap}}; }
    int brokerCount() const { return m_brokerCount; }

    bool createTopic(const QString &name, int partitions, int replicationFactor = 1);
    void setBrokerDown(int brokerId);
    void setBrokerUp(int brokerId);
    // Moves a partition's leadership, as a real cluster does before a controlled broker shutdown.
    bool setPartitionLeader(const QString &topic, int partition, int brokerId);
    // Each of the next requests of this API (e.g. RD_KAFKAP_Produce) fails with the next error code.
    void pushRequestErrors(int apiKey, const QList<rd_kafka_resp_err_t> &errors);
    void clearRequestErrors(int apiKey);
    rd_kafka_mock_cluster_t *handle() const { return m_cluster; }

private:
    KafkaHandle m_owner; // the handle the mock cluster lives in
    rd_kafka_mock_cluster_t *m_cluster = nullptr;
    QString m_bootstrap;
    QString m_error;
    int m_brokerCount = 0;
};
