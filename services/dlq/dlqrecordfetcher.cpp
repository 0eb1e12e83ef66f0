#include "dlqrecordfetcher.h"

#include <QElapsedTimer>

using namespace Qt::StringLiterals;

std::unique_ptr<DlqRecordFetcher> DlqRecordFetcher::create(const KafkaProperties &cluster, QString *error)
{
    KafkaProperties props = KafkaConfig::readerProperties(cluster, u"berth-dlq-inspect"_s);
    // One record is all we want: no deep prefetch (a record larger than the fetch size still comes whole).
    props.append({u"fetch.message.max.bytes"_s, u"65536"_s});
    props.append({u"queued.min.messages"_s, u"1"_s});
    props.append({u"queued.max.messages.kbytes"_s, u"1024"_s});
    props.append({u"fetch.wait.max.ms"_s, u"50"_s});
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
    rd_kafka_topic_conf_t *tconf = rd_kafka_topic_conf_new();
    char errstr[256];
    // An offset that is gone must say so, not silently read another record.
    rd_kafka_topic_conf_set(tconf, "auto.offset.reset", "error", errstr, sizeof errstr);
    rd_kafka_topic_t *t = rd_kafka_topic_new(m_rk.get(), name.toUtf8().constData(), tconf);
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
