#pragma once

#include "services/kafka/kafkaconfig.h"
#include "services/kafka/kafkatypes.h"

#include <QCache>

#include <functional>

// Reads the one record at a given offset to learn its timestamp, without a group and without committing.
// The sampler uses it when a committed offset is older than its own history.
class OffsetPeeker final {
public:
    static std::unique_ptr<OffsetPeeker> create(const KafkaProperties &cluster, QString *error);
    ~OffsetPeeker();

    // Record timestamps (ms) for as many of the requests as answer within the timeout; cached.
    QHash<TopicPartition, qint64> timestamps(const PartitionOffsets &requests, int timeoutMs);
    // Per partition, the first offset in [from, end) a consumer is handed, or from - 1 when it reaches the
    // end first (nothing but markers, or records its isolation level skips, is left); partitions that do
    // not answer within the timeout are absent.
    QHash<TopicPartition, qint64> lastRecords(const PartitionOffsets &from, const PartitionOffsets &ends,
                                              int timeoutMs);

private:
    OffsetPeeker() = default;
    // Reads from each partition's offset until it gives its first event (a record, its end, an error) or
    // the timeout passes, and hands each first event to `each`.
    void firstEvents(const PartitionOffsets &from, int timeoutMs,
                     const std::function<void(const TopicPartition &, const rd_kafka_message_t *)> &each);
    KafkaHandle m_rk;
    struct Key {
        TopicPartition tp;
        qint64 offset;
        friend bool operator==(const Key &, const Key &) = default;
    };
    friend size_t qHash(const Key &k, size_t seed) noexcept { return qHashMulti(seed, k.tp, k.offset); }
    QCache<Key, qint64> m_cache{20000};
};
