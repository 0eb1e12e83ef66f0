#include "replayrun.h"

#include "services/dlq/dlqheadercodec.h"
#include "services/remediation/remediationtypes.h"

#include <QCryptographicHash>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace ReplayRunDetail {
void Run::pace()
{
    if (m_rate <= 0)
        return;
    for (;;) {
        const double dueMs = double(m_paced) * 1000.0 / m_rate;
        const qint64 waitMs = qint64(dueMs) - m_paceClock.elapsed();
        if (waitMs <= 0)
            return;
        // Serve delivery reports while waiting, in short slices so pause and cancel stay prompt.
        m_producer->poll(int(std::min<qint64>(waitMs, 20)));
        if (m_control.isCancelled() || m_control.isPaused())
            return;
    }
}

Sources Run::fetchSources(const QList<int> &itemNos)
{
    Sources out;
    out.itemNos = itemNos;
    QList<SourceCursor::Position> positions;
    positions.reserve(itemNos.size());
    for (int no : itemNos) {
        const RequestItem &item = m_items.at(m_index.value(no));
        positions.append({item.sourceTopic, item.sourcePartition, item.sourceOffset});
    }
    out.records = m_source->fetch(positions, 15'000, &out.problems);
    return out;
}

// Only one read at a time uses the source cursor: takeSources() always collects this one before reading.
void Run::prefetchSources(const QList<int> &itemNos)
{
    if (itemNos.isEmpty())
        return;
    m_prefetch = std::async(std::launch::async, [this, itemNos] { return fetchSources(itemNos); });
}

Sources Run::takeSources(const QList<int> &itemNos)
{
    if (m_prefetch.valid()) {
        Sources ready = m_prefetch.get();
        if (ready.itemNos == itemNos)
            return ready;
        // A pause or the canary changed where the batch starts: this prefetch is of no use.
    }
    return fetchSources(itemNos);
}

// *consumed: how many items from the front of the batch were dealt with (refused, or handed to the producer).
// `next`: the items the following batch will probably hold.
// The rest were never produced (pause, cancel) and come first in the next batch.
bool Run::produceBatch(const QList<int> &batch, const QList<int> &next, qsizetype *consumed, QString *error)
{
    // 1. Re-read the sources and check them against the pins.
    const Sources sources = takeSources(batch);
    prefetchSources(next); // the likely next batch, read while this one is journaled and produced
    const QHash<int, KafkaRecord> &records = sources.records;
    const QHash<int, QString> &problems = sources.problems;
    struct Ready {
        int index; // in the batch
        int itemNo;
        OutgoingRecord record;
    };
    QList<Ready> ready;
    QHash<int, QString> refused; // item no -> why
    QList<IntentJournal::Update> journal;
    QSet<QString> topics;
    for (int i = 0; i < batch.size(); ++i) {
        const int no = batch.at(i);
        const RequestItem &item = m_items.at(m_index.value(no));
        QString destTopic = m_request.destinationTopic;
        auto it = records.constFind(i);
        if (it == records.cend()) {
            refused.insert(no, u"refused: source unreadable: "_s + problems.value(i));
        } else if (QCryptographicHash::hash(it->value, QCryptographicHash::Sha256) != item.payloadSha256) {
            refused.insert(no, u"refused: the source record's SHA-256 differs from the pinned one"_s);
        } else {
            const KafkaRecord &src = *it;
            if (destTopic.isEmpty())
                destTopic = decodeDlqHeaders(src.headers).originalTopic;
            if (destTopic.isEmpty()) {
                refused.insert(no, u"refused: no destination (no original topic in the headers)"_s);
            } else {
                OutgoingRecord out;
                out.topic = destTopic;
                out.key = src.key;
                out.keyIsNull = src.keyIsNull;
                out.value = m_request.action == RemediationAction::EditReplay && item.editedPayload
                                ? *item.editedPayload
                                : src.value;
                int previousCount = 0;
                for (const RecordHeader &h : src.headers) {
                    if (h.name.startsWith("berth-replay") || h.name == RemediationHeaders::RequestId
                        || h.name == RemediationHeaders::ReplayedFrom) {
                        if (h.name == RemediationHeaders::ReplayCount)
                            previousCount = h.value.toInt();
                        continue; // replaced below
                    }
                    if (!m_options.keepDiagnosticHeaders && isDiagnosticDlqHeader(h.name))
                        continue;
                    out.headers.append(h);
                }
                out.headers.append({RemediationHeaders::ReplayId, replayIdFor(m_requestId, no).toUtf8()});
                out.headers.append({RemediationHeaders::RequestId, QByteArray::number(m_requestId)});
                out.headers.append({RemediationHeaders::ReplayedFrom,
                                    (item.sourceTopic + u'/' + QString::number(item.sourcePartition) + u'/'
                                     + QString::number(item.sourceOffset))
                                        .toUtf8()});
                out.headers.append({RemediationHeaders::ReplayCount, QByteArray::number(previousCount + 1)});
                ready.append({i, no, out});
                topics.insert(destTopic);
            }
        }
        if (m_intents.value(no).state == State::None) {
            IntentJournal::Update u;
            u.itemNo = no;
            u.destTopic = destTopic;
            journal.append(u);
        }
    }
    // 2. Mark new destinations, then journal the intents: both durable before anything is produced.
    for (const QString &topic : std::as_const(topics)) {
        if (!markDestination(topic, error))
            return false;
    }
    if (!m_journal.journal(journal, error))
        return false;
    for (const IntentJournal::Update &u : std::as_const(journal)) {
        IntentJournal::Intent &in = m_intents[u.itemNo];
        in.state = State::Pending;
        in.destTopic = u.destTopic;
    }
    // 3. Produce, paced; stop early on pause or cancel (the rest stays pending, never produced).
    QHash<quint64, DeliveryReport> reports;
    m_producer->setDeliveryHandler([&reports](const DeliveryReport &r) { reports.insert(r.tag, r); });
    QHash<int, QString> produceErrors;
    int produced = 0;
    *consumed = batch.size();
    for (const Ready &r : std::as_const(ready)) {
        pace();
        if (m_control.isCancelled() || m_control.isPaused()) {
            *consumed = r.index;
            break;
        }
        QString why;
        if (m_producer->produceTagged(r.record, quint64(r.itemNo), &why))
            ++produced;
        else
            produceErrors.insert(r.itemNo, why);
        ++m_paced;
        ++m_out.producedThisRun;
        report(ReplayPhase::Producing);
    }
    // 4. Wait for every report of this batch (librdkafka retries inside message.timeout.ms).
    QElapsedTimer wait;
    wait.start();
    while (reports.size() < produced && wait.elapsed() < m_options.deliveryTimeoutMs + 10'000)
        m_producer->poll(20);
    m_producer->setDeliveryHandler({});
    // 5. One UPDATE (and one dispositions INSERT) for the batch.
    QList<IntentJournal::Update> settle;
    for (qsizetype i = 0; i < *consumed; ++i) {
        const int no = batch.at(i);
        IntentJournal::Update u;
        u.itemNo = no;
        u.destTopic = m_intents.value(no).destTopic;
        if (refused.contains(no)) {
            u.state = State::Failed;
            u.error = refused.value(no);
            m_refused.insert(no);
            ++m_out.refused;
        } else if (produceErrors.contains(no)) {
            u.state = State::Failed;
            u.error = produceErrors.value(no);
        } else if (auto it = reports.constFind(quint64(no)); it != reports.cend()) {
            if (it->error) {
                u.state = State::Failed;
                u.error = KafkaConfig::errorText(it->error)
                          + (it->possiblyPersisted ? u" (possibly persisted: reconciled before a retry)"_s
                                                   : QString());
            } else {
                u.state = State::Delivered;
                u.destPartition = it->partition;
                u.destOffset = it->offset;
            }
        } else {
            // No report within the delivery timeout: it may or may not be written. It stays pending and is
            // reconciled (never blindly produced again) by the next run.
            continue;
        }
        if (u.state == State::Failed)
            problem(no, u.error);
        settle.append(u);
    }
    // Written behind the next batch when a settle queue runs; the in-memory state moves on now.
    if (m_settler)
        m_settler->enqueue(settle);
    else if (!m_journal.settle(settle, {}, {}, error))
        return false;
    for (const IntentJournal::Update &u : std::as_const(settle)) {
        IntentJournal::Intent &in = m_intents[u.itemNo];
        in.state = u.state;
        in.destPartition = u.destPartition;
        in.destOffset = u.destOffset;
        in.error = u.error;
    }
    return true;
}

bool Run::produceItems(QList<int> todo, bool retryRound, QString *error)
{
    int canaryLeft = retryRound ? 0 : m_options.canaryCount;
    qsizetype pos = 0;
    while (pos < todo.size()) {
        if (m_control.isCancelled())
            return true;
        if (m_control.isPaused()) {
            report(ReplayPhase::Paused, true);
            if (m_options.stopWhenPaused) {
                m_out.pausedStop = true;
                return true;
            }
            if (!m_control.waitWhilePaused())
                return true;
            m_paceClock.restart(); // no catching up for the paused time
            m_paced = 0;
        }
        int size = m_options.batchSize;
        if (m_rate > 0)
            size = std::clamp(int(m_rate / 2), 1, size); // about two journal statements per second
        if (canaryLeft > 0)
            size = canaryLeft;
        const QList<int> batch = todo.mid(pos, size);
        QHash<QString, QHash<int, qint64>> dlqMarks;
        if (canaryLeft > 0) {
            QStringList dlqTopics;
            if (!m_options.canaryDlqTopic.isEmpty()) {
                dlqTopics << m_options.canaryDlqTopic;
            } else {
                for (int no : batch) {
                    const QString t = m_items.at(m_index.value(no)).sourceTopic;
                    if (!dlqTopics.contains(t))
                        dlqTopics << t;
                }
            }
            if (!dlqEnds(dlqTopics, &dlqMarks, error))
                return false;
        }
        // Whatever the batch did not produce (pause, cancel) is still pending and comes first next time;
        // an item handed to the producer is never handed over again in this round, reported or not.
        qsizetype consumed = 0;
        // Reading the sources of the following batch overlaps with journaling and producing this one.
        const QList<int> next = canaryLeft == 0 ? todo.mid(pos + batch.size(), size) : QList<int>();
        if (!produceBatch(batch, next, &consumed, error))
            return false;
        pos += consumed;
        if (canaryLeft > 0) {
            canaryLeft = 0;
            if (!watchCanary(batch, dlqMarks, error))
                return false;
        }
        report(ReplayPhase::Producing);
    }
    return true;
}

} // namespace ReplayRunDetail
