#include "sourcecursor.h"

#include <QElapsedTimer>

#include <algorithm>
#include <map>

using namespace Qt::StringLiterals;

std::unique_ptr<SourceCursor> SourceCursor::create(const KafkaProperties &cluster, QString *error)
{
    // An offset that is gone must say so ("error"), not silently read another record.
    const KafkaProperties props = KafkaConfig::readerProperties(
        cluster, {.clientId = u"berth-replay-source"_s, .autoOffsetReset = u"error"_s, .fetchWaitMs = 20});
    KafkaHandle rk = KafkaConfig::createClient(RD_KAFKA_CONSUMER, props, error);
    if (!rk)
        return {};
    std::unique_ptr<SourceCursor> cursor(new SourceCursor);
    cursor->m_rk = std::move(rk);
    return cursor;
}

SourceCursor::~SourceCursor()
{
    for (const Stream &s : std::as_const(m_streams)) {
        if (s.started)
            rd_kafka_consume_stop(s.rkt, s.partition);
    }
    for (rd_kafka_topic_t *t : std::as_const(m_topics))
        rd_kafka_topic_destroy(t);
}

SourceCursor::Stream &SourceCursor::stream(const QString &topic, int partition, QString *error)
{
    const QString id = topic + u'\n' + QString::number(partition);
    auto it = m_streams.find(id);
    if (it != m_streams.end())
        return *it;
    rd_kafka_topic_t *rkt = m_topics.value(topic);
    if (!rkt) {
        rkt = rd_kafka_topic_new(m_rk.get(), topic.toUtf8().constData(), nullptr);
        if (!rkt)
            *error =
                u"Cannot open topic "_s + topic + u": "_s + KafkaConfig::errorText(rd_kafka_last_error());
        else
            m_topics.insert(topic, rkt);
    }
    Stream s;
    s.rkt = rkt;
    s.partition = partition;
    return *m_streams.insert(id, s);
}

bool SourceCursor::startAt(Stream &s, qint64 offset)
{
    if (rd_kafka_consume_start(s.rkt, s.partition, offset) != 0)
        return false;
    s.started = true;
    s.next = offset;
    return true;
}

void SourceCursor::startIfIdle(const QString &topic, int partition, qint64 offset)
{
    QString error;
    Stream &s = stream(topic, partition, &error);
    if (s.rkt && !s.started)
        startAt(s, offset); // a failure shows again, with its reason, in fetch()
}

void SourceCursor::prime(const Positions &positions)
{
    std::map<std::pair<QString, int>, qint64> lowest;
    for (const Position &p : positions) {
        auto [it, added] = lowest.try_emplace({p.topic, p.partition}, p.offset);
        if (!added)
            it->second = std::min(it->second, p.offset);
    }
    for (const auto &[where, offset] : lowest)
        startIfIdle(where.first, where.second, offset);
}

QHash<int, KafkaRecord> SourceCursor::fetch(const Positions &positions, int timeoutMs,
                                            QHash<int, QString> *problems)
{
    QHash<int, KafkaRecord> found;
    found.reserve(positions.size()); // one table for the batch, not grown (and its records moved) as it fills
    // Per stream: wanted offset -> indexes (a position may be asked twice).
    QHash<QString, std::map<qint64, QList<int>>> wanted;
    for (int i = 0; i < positions.size(); ++i) {
        const Position &p = positions.at(i);
        wanted[p.topic + u'\n' + QString::number(p.partition)][p.offset].append(i);
    }
    // Every idle partition's first fetch at once, not one after another below.
    for (auto w = wanted.cbegin(); w != wanted.cend(); ++w) {
        const Position &first = positions.at(w->begin()->second.first());
        startIfIdle(first.topic, first.partition, w->begin()->first);
    }
    for (auto w = wanted.begin(); w != wanted.end(); ++w) {
        const Position &first = positions.at(w->begin()->second.first());
        const QString where = first.topic + u'/' + QString::number(first.partition);
        QString error;
        Stream &s = stream(first.topic, first.partition, &error);
        auto failAll = [&](const QString &why) {
            for (const auto &[offset, indexes] : *w) {
                if (!found.contains(indexes.first())) {
                    for (int i : indexes)
                        problems->insert(i, why);
                }
            }
        };
        if (!s.rkt) {
            failAll(error);
            continue;
        }
        // Serve what the previous fetch read ahead; forget what lies before this batch.
        qint64 lowest = -1;
        for (const auto &[offset, indexes] : *w) {
            auto a = s.ahead.find(offset);
            if (a != s.ahead.end()) {
                for (int i : indexes)
                    found.insert(i, a->second);
            } else if (lowest < 0) {
                lowest = offset;
            }
        }
        const qint64 highest = w->rbegin()->first;
        s.ahead.erase(s.ahead.begin(), s.ahead.upper_bound(highest));
        if (lowest < 0)
            continue; // all served
        if (s.started && s.next > lowest) {
            rd_kafka_consume_stop(s.rkt, s.partition);
            s.started = false;
            s.ahead.clear();
        }
        if (!s.started && !startAt(s, lowest)) {
            failAll(u"Cannot read "_s + where + u": "_s + KafkaConfig::errorText(rd_kafka_last_error()));
            continue;
        }
        QElapsedTimer idle;
        idle.start();
        rd_kafka_message_t *batch[1000];
        bool stop = false;
        while (!stop && s.next <= highest) {
            // Ask for no more than the batch still needs: consume_batch waits for a full count (or the
            // timeout), so asking for more than the partition holds would stall every call.
            const size_t want = size_t(std::clamp<qint64>(highest - s.next + 1, 1, 1000));
            const ssize_t n = rd_kafka_consume_batch(s.rkt, s.partition, 100, batch, want);
            if (n <= 0) {
                if (idle.elapsed() > timeoutMs) {
                    failAll(u"No answer reading "_s + where + u" within "_s + QString::number(timeoutMs)
                            + u" ms"_s);
                    rd_kafka_consume_stop(s.rkt, s.partition);
                    s.started = false;
                    stop = true;
                }
                continue;
            }
            idle.restart();
            for (ssize_t k = 0; k < n; ++k) {
                rd_kafka_message_t *m = batch[k];
                if (!stop) {
                    if (m->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
                        // Everything still wanted lies past the end.
                        for (const auto &[offset, indexes] : *w) {
                            if (offset >= m->offset) {
                                for (int i : indexes)
                                    problems->insert(i, u"There is no record at "_s + where + u'/'
                                                            + QString::number(offset)
                                                            + u": the partition ends at "_s
                                                            + QString::number(m->offset));
                            }
                        }
                        s.next = m->offset;
                        stop = true;
                    } else if (m->err) {
                        failAll(u"Cannot read "_s + where + u": "_s
                                + QString::fromUtf8(rd_kafka_message_errstr(m)));
                        rd_kafka_consume_stop(s.rkt, s.partition);
                        s.started = false;
                        stop = true;
                    } else if (m->offset > highest) {
                        s.ahead.emplace(m->offset, KafkaRecord::fromMessage(m));
                        s.next = m->offset + 1;
                    } else {
                        auto hit = w->find(m->offset);
                        if (hit != w->end()) {
                            const KafkaRecord record = KafkaRecord::fromMessage(m);
                            for (int i : hit->second)
                                found.insert(i, record);
                        }
                        s.next = m->offset + 1;
                    }
                }
                // Records past `highest` are kept in `ahead` for the next batch (at most one fetch's worth).
                rd_kafka_message_destroy(m);
            }
        }
        // Wanted offsets skipped over (compacted or deleted) were never seen.
        for (const auto &[offset, indexes] : *w) {
            for (int i : indexes) {
                if (!found.contains(i) && !problems->contains(i))
                    problems->insert(i, u"The record at "_s + where + u'/' + QString::number(offset)
                                            + u" no longer exists (compacted or deleted)"_s);
            }
        }
    }
    return found;
}
