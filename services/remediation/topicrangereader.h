#pragma once

#include "services/kafka/kafkaconfig.h"
#include "services/kafka/kafkarecord.h"

#include <QHash>
#include <QList>
#include <QString>

#include <functional>

// Reads offset ranges of partitions without a group and without committing: the executor's source re-read
// and destination reconciliation, the dry run's ordering check. Blocking; one thread at a time.
class TopicRangeReader final {
public:
    // A bulk reader reads whole windows (the delivery accounting): a prefetch of BulkQueueKbytes for the
    // whole read, which the brokers keep filling (FetchWaker wakes a broker that found it full), and fetch
    // responses of half that, as the DLQ scan reads (ARCHITECTURE.md, Threads).
    enum class Use { Ranges, Bulk };
    static std::unique_ptr<TopicRangeReader> create(const KafkaProperties &cluster, QString *error,
                                                    Use use = Use::Ranges);
    ~TopicRangeReader();

    struct Range {
        QString topic;
        int partition = -1;
        qint64 from = 0; // inclusive
        qint64 to = 0;   // exclusive; records at or after it are not delivered
    };
    // Calls `each` for every record in the ranges (per partition in offset order); `each` returns false to
    // stop. Ends when every range is read, at a partition's end, or after timeoutMs without progress.
    bool read(const QList<Range> &ranges, const std::function<bool(const rd_kafka_message_t *)> &each,
              int idleTimeoutMs, QString *error);

    // Partition count of a topic (-1 and *error when it does not exist).
    int partitionCount(const QString &topic, int timeoutMs, QString *error);
    // Low and high watermark of one partition.
    bool watermarks(const QString &topic, int partition, qint64 *low, qint64 *high, int timeoutMs,
                    QString *error);

    // The first offset of a partition whose record timestamp is at or after `timestampMs`, found by reading
    // timestamps (a binary search over [low, high), one record per probe), so it works where brokers cannot
    // look offsets up by time (the mock cluster). Timestamps are taken as non-decreasing along the log
    // (CreateTime from one producer at a time, or LogAppendTime). The high watermark when none is.
    bool offsetForTime(const QString &topic, int partition, qint64 timestampMs, qint64 *offset, int timeoutMs,
                       QString *error);

    static constexpr int BulkQueueKbytes = 4 * 1024;
    static constexpr int BulkQueueMessages = 1'000'000;

private:
    TopicRangeReader() = default;
    KafkaHandle m_rk;
    bool m_bulk = false;
};
