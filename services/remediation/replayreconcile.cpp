#include "replayrun.h"

#include "services/remediation/remediationtypes.h"

#include <QJsonObject>
#include <QThread>

using namespace Qt::StringLiterals;

namespace ReplayRunDetail {
bool Run::loadMarks(QString *error)
{
    EventFilter filter;
    filter.requestId = m_requestId;
    filter.actions = {u"replay.destination_marked"_s};
    filter.limit = 1000;
    for (;;) {
        const QList<AuditEvent> events = m_store.listEvents(filter, error);
        if (!error->isEmpty())
            return false;
        for (const AuditEvent &e : events) {
            const QString topic = e.details.value(u"topic"_s).toString();
            const QJsonObject ends = e.details.value(u"ends"_s).toObject();
            QHash<int, qint64> &marks = m_marks[topic];
            for (auto it = ends.begin(); it != ends.end(); ++it) {
                const int p = it.key().toInt();
                const qint64 off = it.value().toInteger();
                if (!marks.contains(p) || marks.value(p) > off)
                    marks.insert(p, off);
            }
        }
        if (events.size() < filter.limit)
            return true;
        filter.afterSeq = events.last().seq;
    }
}

bool Run::markDestination(const QString &topic, QString *error)
{
    if (m_marks.contains(topic))
        return true; // an earlier mark is earlier still: reconciliation reads from there
    if (m_producer)
        m_producer->prepareTopic(topic); // while the mark is read and written
    const int partitions = m_reader->partitionCount(topic, 10'000, error);
    if (partitions <= 0) {
        if (error->isEmpty())
            *error = u"Topic "_s + topic + u" has no partitions"_s;
        return false;
    }
    QJsonObject ends;
    QHash<int, qint64> marks;
    for (int p = 0; p < partitions; ++p) {
        qint64 low = 0;
        qint64 high = 0;
        if (!m_reader->watermarks(topic, p, &low, &high, 10'000, error))
            return false;
        ends.insert(QString::number(p), high);
        marks.insert(p, high);
    }
    // Durable before the first record to this topic is produced: a restart reads from here.
    if (m_store.appendEvent(u"replay.destination_marked"_s, m_requestId,
                            {{u"topic"_s, topic}, {u"ends"_s, ends}}, error)
        == 0)
        return false;
    m_marks.insert(topic, marks);
    return true;
}

// Where the items' dead-letter topics end as this run starts: a record that fails again at the consumer
// comes back after these offsets, which is where verification looks for its berth-replay-id
// (ARCHITECTURE.md, Data flows: Remediation).
bool Run::markDeadLetters(QString *error)
{
    QStringList topics;
    for (const RequestItem &item : std::as_const(m_items)) {
        if (!item.sourceTopic.isEmpty() && !topics.contains(item.sourceTopic))
            topics.append(item.sourceTopic);
    }
    QHash<QString, QHash<int, qint64>> ends;
    if (topics.isEmpty() || !dlqEnds(topics, &ends, error))
        return topics.isEmpty();
    QJsonObject marks;
    for (auto t = ends.cbegin(); t != ends.cend(); ++t) {
        QJsonObject partitions;
        for (auto p = t->cbegin(); p != t->cend(); ++p)
            partitions.insert(QString::number(p.key()), p.value());
        marks.insert(t.key(), partitions);
    }
    return m_store.appendEvent(u"replay.dlq_marked"_s, m_requestId, {{u"ends"_s, marks}}, error) != 0;
}

bool Run::reconcile(const QList<int> &itemNos, QString *error)
{
    if (itemNos.isEmpty())
        return true;
    // Queued results first: a failure still queued must not land after the delivery found here.
    if (m_settler && !m_settler->drain(error))
        return false;
    report(ReplayPhase::Reconciling, true);
    QHash<QString, QSet<int>> byTopic;
    for (int no : itemNos)
        byTopic[m_intents.value(no).destTopic].insert(no);
    QList<IntentJournal::Update> found;
    QSet<int> seen;
    for (auto t = byTopic.cbegin(); t != byTopic.cend(); ++t) {
        if (t.key().isEmpty() || !m_marks.contains(t.key()))
            continue; // never marked: nothing of this request was ever produced there
        QList<TopicRangeReader::Range> ranges;
        const QHash<int, qint64> &marks = m_marks.value(t.key());
        const int partitions = m_reader->partitionCount(t.key(), 10'000, error);
        if (partitions < 0)
            return false;
        for (int p = 0; p < partitions; ++p) {
            qint64 low = 0;
            qint64 high = 0;
            if (!m_reader->watermarks(t.key(), p, &low, &high, 10'000, error))
                return false;
            const qint64 from = std::max(marks.value(p, 0), low);
            if (high > from)
                ranges.append({t.key(), p, from, high});
        }
        const QSet<int> &wanted = t.value();
        const bool ok = m_reader->read(
            ranges,
            [&](const rd_kafka_message_t *m) {
                const void *value = nullptr;
                size_t size = 0;
                rd_kafka_headers_t *hdrs = nullptr;
                if (rd_kafka_message_headers(m, &hdrs) != RD_KAFKA_RESP_ERR_NO_ERROR)
                    return true;
                if (rd_kafka_header_get_last(hdrs, RemediationHeaders::ReplayId, &value, &size)
                    != RD_KAFKA_RESP_ERR_NO_ERROR)
                    return true;
                qint64 request = 0;
                int item = 0;
                if (!parseReplayId(QByteArrayView(static_cast<const char *>(value), qsizetype(size)),
                                   &request, &item)
                    || request != m_requestId || !wanted.contains(item))
                    return true;
                if (seen.contains(item)) {
                    problem(item, u"found more than once in "_s + t.key());
                    return true;
                }
                seen.insert(item);
                IntentJournal::Update u = updateOf(item, State::Delivered);
                u.destTopic = t.key();
                u.destPartition = m->partition;
                u.destOffset = m->offset;
                u.error = u"reconciled"_s;
                found.append(u);
                return true;
            },
            30'000, error);
        if (!ok)
            return false;
    }
    // Record in batches; the marker "reconciled" stays in the error column so the history shows why.
    for (qsizetype i = 0; i < found.size(); i += m_options.batchSize) {
        const QList<IntentJournal::Update> part = found.mid(i, m_options.batchSize);
        if (!m_journal.settle(part, {}, {}, error))
            return false;
        for (const IntentJournal::Update &u : part) {
            IntentJournal::Intent &in = m_intents[u.itemNo];
            in.state = State::Delivered;
            in.destPartition = u.destPartition;
            in.destOffset = u.destOffset;
        }
    }
    m_out.reconciled += int(found.size());
    return true;
}

bool Run::dlqEnds(const QStringList &topics, QHash<QString, QHash<int, qint64>> *ends, QString *error)
{
    for (const QString &topic : topics) {
        const int partitions = m_reader->partitionCount(topic, 10'000, error);
        if (partitions < 0)
            return false;
        for (int p = 0; p < partitions; ++p) {
            qint64 low = 0;
            qint64 high = 0;
            if (!m_reader->watermarks(topic, p, &low, &high, 10'000, error))
                return false;
            (*ends)[topic].insert(p, high);
        }
    }
    return true;
}

// Reads the DLQ from where it ended before the canary went out, for canaryWatchMs: a canary record that
// failed again comes back there carrying its berth-replay-id (consumers keep the original headers).
bool Run::watchCanary(const QList<int> &canary, const QHash<QString, QHash<int, qint64>> &dlqMarks,
                      QString *error)
{
    report(ReplayPhase::CanaryWatch, true);
    const QSet<int> ids(canary.cbegin(), canary.cend());
    QHash<QString, QHash<int, qint64>> from = dlqMarks;
    QElapsedTimer watch;
    watch.start();
    int returned = 0;
    while (watch.elapsed() < m_options.canaryWatchMs && returned == 0 && !m_control.isCancelled()) {
        QHash<QString, QHash<int, qint64>> now;
        if (!dlqEnds(from.keys(), &now, error))
            return false;
        QList<TopicRangeReader::Range> ranges;
        for (auto t = now.cbegin(); t != now.cend(); ++t) {
            for (auto p = t->cbegin(); p != t->cend(); ++p) {
                const qint64 start = from.value(t.key()).value(p.key(), 0);
                if (p.value() > start)
                    ranges.append({t.key(), p.key(), start, p.value()});
            }
        }
        if (!m_reader->read(
                ranges,
                [&](const rd_kafka_message_t *m) {
                    rd_kafka_headers_t *hdrs = nullptr;
                    const void *value = nullptr;
                    size_t size = 0;
                    qint64 request = 0;
                    int item = 0;
                    if (rd_kafka_message_headers(m, &hdrs) == RD_KAFKA_RESP_ERR_NO_ERROR
                        && rd_kafka_header_get_last(hdrs, RemediationHeaders::ReplayId, &value, &size)
                               == RD_KAFKA_RESP_ERR_NO_ERROR
                        && parseReplayId(QByteArrayView(static_cast<const char *>(value), qsizetype(size)),
                                         &request, &item)
                        && request == m_requestId && ids.contains(item)) {
                        ++returned;
                        problem(item, u"canary: came back to the dead-letter topic"_s);
                    }
                    return true;
                },
                10'000, error))
            return false;
        from = now;
        if (returned == 0)
            QThread::msleep(200);
    }
    if (returned > 0) {
        m_out.canaryTripped = true;
        m_control.pause();
        m_store.appendEvent(u"replay.canary_tripped"_s, m_requestId,
                            {{u"returned"_s, returned}, {u"canary"_s, int(canary.size())}}, error);
    }
    return true;
}

} // namespace ReplayRunDetail
