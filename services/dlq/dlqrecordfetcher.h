#pragma once

#include "services/kafka/kafkaconfig.h"
#include "services/kafka/kafkarecord.h"

#include <QHash>

#include <functional>

// Reads the one record at a given offset, whole (payload and all headers), without a group and without
// committing: the inspector's on-demand fetch. Blocking; one thread at a time.
class DlqRecordFetcher final {
public:
    static std::unique_ptr<DlqRecordFetcher> create(const KafkaProperties &cluster, QString *error);
    ~DlqRecordFetcher();
    DlqRecordFetcher(const DlqRecordFetcher &) = delete;
    DlqRecordFetcher &operator=(const DlqRecordFetcher &) = delete;

    // The record at exactly `offset`, or an empty record and why (deleted, compacted, past the end...).
    KafkaRecord fetch(const QString &topic, int partition, qint64 offset, int timeoutMs,
                      const std::function<bool()> &cancelled, QString *error);

private:
    DlqRecordFetcher() = default;
    rd_kafka_topic_t *topic(const QString &name);
    KafkaHandle m_rk;
    QHash<QString, rd_kafka_topic_t *> m_topics;
};
