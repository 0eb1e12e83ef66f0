#include "dlqrecordfetcher.h"

#include <QElapsedTimer>

using namespace Qt::StringLiterals;

std::unique_ptr<DlqRecordFetcher> DlqRecordFetcher::create(const KafkaProperties &cluster, QString *error)
{
    // One record is all we want: no deep prefetch (a record larger than the fetch size still comes whole).
    // An offset that is gone must say so, not silently read another record.
    const KafkaProperties props = KafkaConfig::readerProperties(cluster, {.clientId = u"berth-dlq-inspect"_s,
                                                                          .autoOffsetReset = u"error"_s,
                                                                          .fetchWaitMs = 50,
                                                                          .fetchPartitionBytes = 65536,
                                                                          .queueMinMessages = 1,
                                                                          .queueMaxKbytes = 1024});
    KafkaHandle rk = KafkaConfig::createClient(RD_KAFKA_CONSUMER, props, error);
    if (!rk)
        return {};
    std::unique_ptr<DlqRecordFetcher> fetcher(new DlqRecordFetcher);
    fetcher->m_rk = std::move(rk);
    return fetcher;
}

DlqRecordFetcher::~DlqRecordFetcher()
{
    for (rd_kafka_topic_t *t : std::as_const(m_topics))
        rd_kafka_topic_destroy(t);
}

rd_kafka_topic_t *DlqRecordFetcher::topic(const QString &name)
{
    if (rd_kafka_topic_t *t = m_topics.value(name))
        return t;
    rd_kafka_topic_t *t = rd_kafka_topic_new(m_rk.get(), name.toUtf8().constData(), nullptr);
    if (t)
        m_topics.insert(name, t);
    return t;
}

KafkaRecord DlqRecordFetcher::fetch(const QString &topicName, int partition, qint64 offset, int timeoutMs,
                                    const std::function<bool()> &cancelled, QString *error)
{
    const QString where =
        topicName + u'[' + QString::number(partition) + u"] offset "_s + QString::number(offset);
    rd_kafka_topic_t *rkt = topic(topicName);
    if (!rkt) {
        *error =
            u"Cannot open topic "_s + topicName + u": "_s + KafkaConfig::errorText(rd_kafka_last_error());
        return {};
    }
    if (rd_kafka_consume_start(rkt, partition, offset) != 0) {
        *error = u"Cannot read "_s + where + u": "_s + KafkaConfig::errorText(rd_kafka_last_error());
        return {};
    }
    KafkaRecord record;
    bool done = false;
    QElapsedTimer clock;
    clock.start();
    while (!done && clock.elapsed() < timeoutMs && !(cancelled && cancelled())) {
        rd_kafka_message_t *m = rd_kafka_consume(rkt, partition, 100);
        if (!m)
            continue;
        if (m->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
            *error = u"There is no record at "_s + where + u": the partition ends at offset "_s
                     + QString::number(m->offset);
            done = true;
        } else if (m->err) {
            *error = u"Cannot read "_s + where + u": "_s + QString::fromUtf8(rd_kafka_message_errstr(m));
            done = true;
        } else if (m->offset > offset) {
            *error = u"The record at "_s + where
                     + u" no longer exists (compacted or deleted); the next one is at "_s
                     + QString::number(m->offset);
            done = true;
        } else if (m->offset == offset) {
            record = KafkaRecord::fromMessage(m);
            done = true;
        }
        rd_kafka_message_destroy(m);
    }
    rd_kafka_consume_stop(rkt, partition);
    if (!done && error->isEmpty())
        *error = (cancelled && cancelled())
                     ? u"Cancelled"_s
                     : u"No answer for "_s + where + u" within "_s + QString::number(timeoutMs) + u" ms"_s;
    return record;
}
