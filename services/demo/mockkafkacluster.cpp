#include "mockkafkacluster.h"

using namespace Qt::StringLiterals;

MockKafkaCluster::MockKafkaCluster(int brokerCount)
    : m_brokerCount(brokerCount)
{
    // The owner handle never connects anywhere; it only hosts the mock brokers' threads.
    m_owner = KafkaConfig::createClient(RD_KAFKA_PRODUCER, {{u"log_level"_s, u"3"_s}}, &m_error);
    if (!m_owner)
        return;
    m_cluster = rd_kafka_mock_cluster_new(m_owner.get(), brokerCount);
    if (!m_cluster) {
        m_error = u"librdkafka could not start its mock cluster"_s;
        return;
    }
    m_bootstrap = QString::fromUtf8(rd_kafka_mock_cluster_bootstraps(m_cluster));
}

MockKafkaCluster::~MockKafkaCluster()
{
    if (m_cluster)
        rd_kafka_mock_cluster_destroy(m_cluster);
}

bool MockKafkaCluster::createTopic(const QString &name, int partitions, int replicationFactor)
{
    return m_cluster
        && rd_kafka_mock_topic_create(m_cluster, name.toUtf8().constData(), partitions, replicationFactor)
               == RD_KAFKA_RESP_ERR_NO_ERROR;
}

void MockKafkaCluster::setBrokerDown(int brokerId)
{
    rd_kafka_mock_broker_set_down(m_cluster, brokerId);
}

void MockKafkaCluster::setBrokerUp(int brokerId)
{
    rd_kafka_mock_broker_set_up(m_cluster, brokerId);
}

bool MockKafkaCluster::setPartitionLeader(const QString &topic, int partition, int brokerId)
{
    return m_cluster
        && rd_kafka_mock_partition_set_leader(m_cluster, topic.toUtf8().constData(), partition, brokerId)
               == RD_KAFKA_RESP_ERR_NO_ERROR;
}

void MockKafkaCluster::pushRequestErrors(int apiKey, const QList<rd_kafka_resp_err_t> &errors)
{
    rd_kafka_mock_push_request_errors_array(m_cluster, int16_t(apiKey), errors.size(), errors.constData());
}

void MockKafkaCluster::clearRequestErrors(int apiKey)
{
    rd_kafka_mock_clear_request_errors(m_cluster, int16_t(apiKey));
}
