#include "offsetpeeker.h"

#include "services/kafka/clusterinspector.h"

#include <QElapsedTimer>

using namespace Qt::StringLiterals;

std::unique_ptr<OffsetPeeker> OffsetPeeker::create(const KafkaProperties &cluster, QString *error)
{
    // One record is all it wants: small fetches and a small queue.
    const KafkaProperties props =
        KafkaConfig::readerProperties(cluster, {.clientId = u"berth-offset-peeker"_s,
                                                .groupId = u"berth-offset-peeker"_s,
                                                .fetchResponseBytes = 1 << 20,
                                                .queueMaxKbytes = 1024});
    KafkaHandle rk = KafkaConfig::createClient(RD_KAFKA_CONSUMER, props, error);
    if (!rk)
        return {};
    std::unique_ptr<OffsetPeeker> peeker(new OffsetPeeker);
    peeker->m_rk = std::move(rk);
    return peeker;
}

OffsetPeeker::~OffsetPeeker()
{
    if (m_rk)
        rd_kafka_assign(m_rk.get(), nullptr);
}

void OffsetPeeker::firstEvents(const PartitionOffsets &from, int timeoutMs,
                               const std::function<void(const TopicPartition &, const rd_kafka_message_t *)> &each)
{
    if (from.isEmpty())
        return;
    rd_kafka_topic_partition_list_t *assignment = rd_kafka_topic_partition_list_new(int(from.size()));
    for (auto it = from.cbegin(); it != from.cend(); ++it)
        rd_kafka_topic_partition_list_add(assignment, it.key().topic.toUtf8().constData(), it.key().partition)
            ->offset = it.value();
    rd_kafka_assign(m_rk.get(), assignment);
    rd_kafka_topic_partition_list_destroy(assignment);
    QSet<TopicPartition> waiting(from.keyBegin(), from.keyEnd());
    QElapsedTimer clock;
    clock.start();
    while (!waiting.isEmpty() && clock.elapsed() < timeoutMs) {
        rd_kafka_message_t *m = rd_kafka_consumer_poll(m_rk.get(), 50);
        if (!m)
            continue;
        if (m->rkt) {
            const TopicPartition tp{QString::fromUtf8(rd_kafka_topic_name(m->rkt)), int(m->partition)};
            if (waiting.remove(tp))
                each(tp, m);
        }
        rd_kafka_message_destroy(m);
    }
    rd_kafka_assign(m_rk.get(), nullptr);
}

QHash<TopicPartition, qint64> OffsetPeeker::timestamps(const PartitionOffsets &requests, int timeoutMs)
{
    QHash<TopicPartition, qint64> out;
    PartitionOffsets todo;
    for (auto it = requests.cbegin(); it != requests.cend(); ++it) {
        if (const qint64 *cached = m_cache.object({it.key(), it.value()}))
            out.insert(it.key(), *cached);
        else
            todo.insert(it.key(), it.value());
    }
    firstEvents(todo, timeoutMs, [&](const TopicPartition &tp, const rd_kafka_message_t *m) {
        if (m->err)
            return;
        const qint64 ts = rd_kafka_message_timestamp(m, nullptr);
        if (ts >= 0 && m->offset >= requests.value(tp)) { // compaction may have removed the exact record
            out.insert(tp, ts);
            m_cache.insert({tp, m->offset}, new qint64(ts));
        }
    });
    return out;
}

QHash<TopicPartition, qint64> OffsetPeeker::lastRecords(const PartitionOffsets &from, const PartitionOffsets &ends,
                                                        int timeoutMs)
{
    QHash<TopicPartition, qint64> out;
    firstEvents(from, timeoutMs, [&](const TopicPartition &tp, const rd_kafka_message_t *m) {
        const bool end = m->err == RD_KAFKA_RESP_ERR__PARTITION_EOF;
        if (m->err && !end)
            return; // not known this time
        // A record before the end: the consumer has something to read. The end (or a record past the
        // sampled end) first: nothing in between is handed to a consumer.
        out.insert(tp, !end && m->offset < ends.value(tp) ? m->offset : from.value(tp) - 1);
    });
    return out;
}
