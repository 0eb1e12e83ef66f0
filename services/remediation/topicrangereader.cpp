#include "topicrangereader.h"

#include "services/kafka/fetchwaker.h"

#include <QElapsedTimer>
#include <QHash>

using namespace Qt::StringLiterals;

std::unique_ptr<TopicRangeReader> TopicRangeReader::create(const KafkaProperties &cluster, QString *error,
                                                           Use use)
{
    // A vanished offset must not silently become "from the end".
    KafkaConfig::ReaderOptions options{.clientId = u"berth-range-reader"_s,
                                       .autoOffsetReset = u"earliest"_s,
                                       .groupId = u"berth-range-reader"_s,
                                       .fetchWaitMs = 50};
    if (use == Use::Bulk) {
        options.fetchWaitMs = 100;
        options.fetchResponseBytes = BulkQueueKbytes / 2 * 1024; // two unread responses stop a broker
        options.fetchErrorBackoffMs = 20;
        options.queueMinMessages = BulkQueueMessages;
        options.queueMaxKbytes = BulkQueueKbytes;
    }
    const KafkaProperties props = KafkaConfig::readerProperties(cluster, options);
    KafkaHandle rk = KafkaConfig::createClient(RD_KAFKA_CONSUMER, props, error);
    if (!rk)
        return {};
    rd_kafka_poll_set_consumer(rk.get());
    std::unique_ptr<TopicRangeReader> reader(new TopicRangeReader);
    reader->m_rk = std::move(rk);
    reader->m_bulk = use == Use::Bulk;
    return reader;
}

TopicRangeReader::~TopicRangeReader()
{
    if (m_rk)
        rd_kafka_assign(m_rk.get(), nullptr);
}

bool TopicRangeReader::read(const QList<Range> &ranges,
                            const std::function<bool(const rd_kafka_message_t *)> &each, int idleTimeoutMs,
                            QString *error)
{
    struct Open {
        qint64 to;
        bool done = false;
    };
    QHash<QString, Open> open; // "topic\npartition"
    // The open range of a record's topic handle and partition, found by name once per pair: the values of
    // `open` stay where they are, as nothing is inserted once reading begins.
    QHash<std::pair<const rd_kafka_topic_t *, int>, Open *> seen;
    rd_kafka_topic_partition_list_t *list = rd_kafka_topic_partition_list_new(int(ranges.size()));
    int remaining = 0;
    for (const Range &r : ranges) {
        if (r.to <= r.from)
            continue;
        const QString id = r.topic + u'\n' + QString::number(r.partition);
        if (open.contains(id))
            continue;
        open.insert(id, Open{r.to});
        rd_kafka_topic_partition_list_add(list, r.topic.toUtf8().constData(), r.partition)->offset = r.from;
        ++remaining;
    }
    if (remaining == 0) {
        rd_kafka_topic_partition_list_destroy(list);
        return true;
    }
    rd_kafka_resp_err_t err = rd_kafka_assign(m_rk.get(), list);
    if (!err) {
        // An idle broker thread starts fetching newly assigned partitions only when it next wakes, up to
        // a second later (librdkafka 2.0). Asking each leader for an offset wakes them now; the answer
        // itself is not needed.
        rd_kafka_topic_partition_list_t *wake = rd_kafka_topic_partition_list_copy(list);
        for (int i = 0; i < wake->cnt; ++i)
            wake->elems[i].offset = RD_KAFKA_OFFSET_END;
        rd_kafka_offsets_for_times(m_rk.get(), wake, 250);
        rd_kafka_topic_partition_list_destroy(wake);
    }
    rd_kafka_topic_partition_list_destroy(list);
    if (err) {
        *error = u"Cannot read: "_s + KafkaConfig::errorText(err);
        return false;
    }
    // A bulk read keeps the brokers fetching: the consumer queue's depth goes to a FetchWaker.
    std::unique_ptr<FetchWaker> waker;
    rd_kafka_queue_t *queue = nullptr;
    if (m_bulk) {
        QList<TopicPartition> probes;
        for (const Range &r : ranges)
            probes.append({r.topic, r.partition});
        waker = std::make_unique<FetchWaker>(m_rk.get(), probes, 250);
        queue = rd_kafka_queue_get_consumer(m_rk.get());
    }
    qint64 records = 0;
    qint64 valueBytes = 0;
    bool ok = true;
    bool stopped = false;
    QElapsedTimer idle;
    idle.start();
    // A bulk read takes what is queued a slice at a time (one queue lock per slice, not per record), as the
    // DLQ scan does; the records of a slice not yet handled count as queued for the waker.
    constexpr ssize_t kSlice = 256;
    rd_kafka_message_t *slice[kSlice];
    ssize_t sliced = 0;
    ssize_t at = 0;
    while (remaining > 0 && !stopped) {
        rd_kafka_message_t *m = nullptr;
        if (!queue) {
            m = rd_kafka_consumer_poll(m_rk.get(), 100);
        } else {
            if (at == sliced) {
                sliced = std::max<ssize_t>(0, rd_kafka_consume_batch_queue(queue, 100, slice, kSlice));
                at = 0;
            }
            if (at < sliced)
                m = slice[at++];
        }
        if (!m) {
            if (idle.elapsed() > idleTimeoutMs) {
                *error = u"No progress reading within "_s + QString::number(idleTimeoutMs) + u" ms"_s;
                ok = false;
                break;
            }
            continue;
        }
        idle.restart();
        if (queue && m->payload) {
            ++records;
            valueBytes += qint64(m->len);
            if ((records & 255) == 0) {
                // librdkafka counts the queue's bytes by record value and stops at either limit.
                const qint64 average = std::max<qint64>(1, valueBytes / records);
                waker->observe(rd_kafka_queue_length(queue),
                               size_t(std::min<qint64>(BulkQueueMessages, BulkQueueKbytes * 1024LL / average)),
                               size_t(sliced - at));
            }
        }
        const std::pair<const rd_kafka_topic_t *, int> handle{m->rkt, int(m->partition)};
        auto known = seen.constFind(handle);
        if (known == seen.cend()) {
            const QString id = (m->rkt ? QString::fromUtf8(rd_kafka_topic_name(m->rkt)) : QString()) + u'\n'
                               + QString::number(m->partition);
            const auto named = open.find(id);
            known = seen.insert(handle, named == open.end() ? nullptr : &*named);
        }
        Open *const it = *known;
        if (m->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
            if (it && !it->done) {
                it->done = true;
                --remaining;
            }
        } else if (m->err) {
            if (m->err != RD_KAFKA_RESP_ERR__TRANSPORT && m->err != RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN) {
                *error = QString::fromUtf8(rd_kafka_message_errstr(m));
                ok = false;
                stopped = true;
            }
        } else if (it && !it->done) {
            if (m->offset >= it->to) {
                it->done = true;
                --remaining;
            } else if (!each(m)) {
                stopped = true;
            } else if (m->offset + 1 >= it->to) {
                it->done = true;
                --remaining;
            }
        }
        rd_kafka_message_destroy(m);
    }
    while (at < sliced) // what the slice held past a stop or the last range's end
        rd_kafka_message_destroy(slice[at++]);
    waker.reset();
    if (queue)
        rd_kafka_queue_destroy(queue);
    rd_kafka_assign(m_rk.get(), nullptr);
    return ok;
}

int TopicRangeReader::partitionCount(const QString &topic, int timeoutMs, QString *error)
{
    const QByteArray name = topic.toUtf8();
    rd_kafka_topic_t *rkt = rd_kafka_topic_new(m_rk.get(), name.constData(), nullptr);
    const rd_kafka_metadata_t *md = nullptr;
    const rd_kafka_resp_err_t err = rd_kafka_metadata(m_rk.get(), 0, rkt, &md, timeoutMs);
    rd_kafka_topic_destroy(rkt);
    if (err) {
        *error = u"Cannot read the metadata of "_s + topic + u": "_s + KafkaConfig::errorText(err);
        return -1;
    }
    int count = -1;
    if (md->topic_cnt == 1) {
        if (md->topics[0].err)
            *error = u"Topic "_s + topic + u": "_s + KafkaConfig::errorText(md->topics[0].err);
        else
            count = md->topics[0].partition_cnt;
    }
    rd_kafka_metadata_destroy(md);
    return count;
}

bool TopicRangeReader::watermarks(const QString &topic, int partition, qint64 *low, qint64 *high,
                                  int timeoutMs, QString *error)
{
    int64_t lo = 0;
    int64_t hi = 0;
    const rd_kafka_resp_err_t err = rd_kafka_query_watermark_offsets(m_rk.get(), topic.toUtf8().constData(),
                                                                     partition, &lo, &hi, timeoutMs);
    if (err) {
        *error = u"Cannot read the offsets of "_s + topic + u'/' + QString::number(partition) + u": "_s
                 + KafkaConfig::errorText(err);
        return false;
    }
    *low = lo;
    *high = hi;
    return true;
}

bool TopicRangeReader::offsetForTime(const QString &topic, int partition, qint64 timestampMs, qint64 *offset,
                                     int timeoutMs, QString *error)
{
    qint64 low = 0;
    qint64 high = 0;
    if (!watermarks(topic, partition, &low, &high, timeoutMs, error))
        return false;
    // Invariant: every record below `low` is older than timestampMs; the answer is in [low, high].
    qint64 top = high;
    while (low < top) {
        const qint64 mid = low + (top - low) / 2;
        qint64 found = -1;
        qint64 stamp = -1;
        // From mid on: the first record at or after it (an offset may be a gap, e.g. a control record).
        if (!read(
                {{topic, partition, mid, high}},
                [&](const rd_kafka_message_t *m) {
                    found = m->offset;
                    stamp = rd_kafka_message_timestamp(m, nullptr);
                    return false;
                },
                timeoutMs, error))
            return false;
        if (found < 0) {
            top = mid; // nothing readable from mid to the end
        } else if (stamp >= timestampMs) {
            top = mid;
        } else {
            low = found + 1;
        }
    }
    *offset = low;
    return true;
}
