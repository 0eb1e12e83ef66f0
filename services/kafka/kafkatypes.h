#pragma once

#include <QDateTime>
#include <QHash>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

// Value snapshots that cross threads. Plain data: copied, never shared with a worker.

struct TopicPartition {
    QString topic;
    int partition = -1;
    friend bool operator==(const TopicPartition &, const TopicPartition &) = default;
    friend auto operator<=>(const TopicPartition &a, const TopicPartition &b)
    {
        if (const int c = a.topic.compare(b.topic); c != 0)
            return c <=> 0;
        return a.partition <=> b.partition;
    }
};
inline size_t qHash(const TopicPartition &tp, size_t seed = 0) noexcept
{
    return qHashMulti(seed, tp.topic, tp.partition);
}
using PartitionOffsets = QHash<TopicPartition, qint64>;

struct BrokerInfo {
    int id = -1;
    QString host;
    int port = 0;
};

struct TopicInfo {
    QString name;
    QList<int> leaders; // leader broker id per partition, index = partition
    QString error;      // per-topic metadata error, if any
    int partitionCount() const { return int(leaders.size()); }
};

struct ClusterSnapshot {
    QString bootstrap;
    int controllerId = -1;
    QList<BrokerInfo> brokers;
    QList<TopicInfo> topics; // sorted by name; internal topics (leading "__") excluded
    QDateTime takenAt;
};

// Result of one blocking call against the cluster: the value, or why there is none.
template<typename T>
struct KafkaResult {
    T value{};
    QString error;
    bool unsupported = false; // the broker answered "not supported" (e.g. the mock cluster and ListGroups)
    bool ok() const { return error.isEmpty(); }
};

struct GroupOffsets {
    QString group;
    PartitionOffsets committed; // partitions without a committed offset are absent
    QString error;
};

Q_DECLARE_METATYPE(ClusterSnapshot)
