#pragma once

#include "kafkaconfig.h"
#include "kafkatypes.h"

#include <QMutex>
#include <QStringList>

#include <map>

// Blocking, thread-safe questions to one cluster. Only service worker threads call it; the UI goes through
// ClusterService (or a sampler) which owns the threads.
class ClusterInspector final {
public:
    // Creates the client; fails only on invalid properties (connection problems surface per call).
    static std::unique_ptr<ClusterInspector> create(const KafkaProperties &properties, QString *error);
    ~ClusterInspector();

    KafkaResult<ClusterSnapshot> metadata(int timeoutMs) const;
    // One ListOffsets request per partition leader (librdkafka batches by leader), not one call per partition.
    KafkaResult<PartitionOffsets> endOffsets(const QList<TopicPartition> &partitions, int timeoutMs) const;
    KafkaResult<PartitionOffsets> startOffsets(const QList<TopicPartition> &partitions, int timeoutMs) const;
    // ListConsumerGroups; `unsupported` when the brokers do not implement it (then use named groups).
    KafkaResult<QStringList> listGroups(int timeoutMs) const;
    // Committed offsets of many groups, one ListConsumerGroupOffsets per group (librdkafka 2.0 allows one),
    // at most `concurrency` in flight. `partitions` empty: all the group has committed.
    // `perGroup`, when given, names the partitions to ask per group instead (groups it lacks get `partitions`).
    QList<GroupOffsets> committedOffsets(const QStringList &groups, const QList<TopicPartition> &partitions,
                                         int concurrency, int timeoutMs,
                                         const QHash<QString, QList<TopicPartition>> *perGroup = nullptr) const;
    // The same through a consumer handle per group (OffsetFetch via the group coordinator, no Admin API).
    // librdkafka 2.0.2's Admin API aborts the process when a coordinator connection drops mid-request
    // (rd_kafka_enq_once_del_source_return assertion), so this path is preferred for a handful of groups.
    QList<GroupOffsets> committedOffsetsViaGroupHandles(const QStringList &groups,
                                                        const QList<TopicPartition> &partitions, int timeoutMs) const;
    static constexpr int groupHandleLimit = 16;

    QString bootstrap() const { return m_bootstrap; }
    rd_kafka_t *handle() const { return m_rk.get(); }

private:
    ClusterInspector() = default;
    KafkaResult<PartitionOffsets> listOffsets(const QList<TopicPartition> &partitions, qint64 sentinel,
                                              int timeoutMs) const;
    KafkaHandle m_rk;
    QString m_bootstrap;
    KafkaProperties m_properties;
    mutable QMutex m_groupHandlesLock;
    mutable std::map<QString, KafkaHandle> m_groupHandles; // at most groupHandleLimit
};

// Conversions shared by the services that talk to librdkafka.
rd_kafka_topic_partition_list_t *toPartitionList(const QList<TopicPartition> &partitions, qint64 offset);
struct PartitionListDeleter {
    void operator()(rd_kafka_topic_partition_list_t *l) const { rd_kafka_topic_partition_list_destroy(l); }
};
using PartitionList = std::unique_ptr<rd_kafka_topic_partition_list_t, PartitionListDeleter>;
