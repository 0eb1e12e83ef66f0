#include "replayrun.h"

#include "services/dlq/dlqheadercodec.h"
#include "services/remediation/remediationtypes.h"
#include "services/remediation/requestitemdigests.h"
#include "services/support/digest.h"


#include <algorithm>
#include <charconv>

using namespace Qt::StringLiterals;

namespace ReplayRunDetail {
void Run::pace()
{
    if (m_rate <= 0)
        return;
    // The pace starts with the first record (not with the slow first read of the sources), and time lost
    // later (waiting for a batch's acknowledgements, a journal write) is made up for at most one second's
    // worth of records: the average holds the limit, and no long stall turns into a burst the limit was
    // set to prevent.
    if (m_paced == 0) {
        m_paceClock.restart();
        return;
    }
    if (double(m_paceClock.elapsed()) - double(m_paced) * 1000.0 / m_rate > 1000.0) {
        m_paceClock.restart();
        m_paced = 0;
        return;
    }
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

// Re-reads the sources of a batch, checks them against the pins and builds what goes out. Reads only what
// does not change during a run, and the source cursor, which one reader at a time uses: whoever reads takes
// (joins) the read running ahead first (readTaken).
Prepared Run::readSources(const QList<int> &itemNos)
{
    QElapsedTimer clock;
    clock.start();
    Prepared out;
    out.itemNos = itemNos;
    QList<SourceCursor::Position> positions;
    positions.reserve(itemNos.size());
    for (int no : itemNos) {
        const RequestItem &item = m_items.at(m_index.value(no));
        positions.append({item.sourceTopic, item.sourcePartition, item.sourceOffset});
    }
    QHash<int, QString> problems;
    const QHash<int, KafkaRecord> records = m_source->fetch(positions, 15'000, &problems);
    out.ready.reserve(itemNos.size());
    // The header names and the request id are the same for every record: shared, not allocated for each.
    static const QByteArray replayIdName(RemediationHeaders::ReplayId);
    static const QByteArray requestIdName(RemediationHeaders::RequestId);
    static const QByteArray replayedFromName(RemediationHeaders::ReplayedFrom);
    static const QByteArray replayCountName(RemediationHeaders::ReplayCount);
    const QByteArray requestId = QByteArray::number(m_requestId);
    QString lastDestTopic;
    QString sourceTopic; // the last item's, and its UTF-8
    QByteArray sourceTopicUtf8;
    const auto appendNumber = [](QByteArray &out, qint64 value) {
        char digits[24];
        const std::to_chars_result end = std::to_chars(digits, digits + sizeof digits, value);
        out.append(digits, end.ptr - digits);
    };
    for (int i = 0; i < itemNos.size(); ++i) {
        const int no = itemNos.at(i);
        const RequestItem &item = m_items.at(m_index.value(no));
        QString destTopic = m_request.destinationTopic;
        auto it = records.constFind(i);
        if (it == records.cend()) {
            out.refused.insert(no, u"refused: source unreadable: "_s + problems.value(i));
        } else if (Digest::sha256(it->value) != item.payloadSha256) {
            out.refused.insert(no, u"refused: the source record's SHA-256 differs from the pinned one"_s);
        } else if (!RequestItemDigests::keyMatches(item, *it)) {
            out.refused.insert(no, u"refused: the source record's key differs from the pinned one"_s);
        } else {
            const KafkaRecord &src = *it;
            if (destTopic.isEmpty())
                destTopic = dlqOriginalTopic(src.headers);
            if (destTopic.isEmpty()) {
                out.refused.insert(no, u"refused: no destination (no original topic in the headers)"_s);
            } else {
                OutgoingRecord record;
                record.topic = destTopic;
                record.key = src.key;
                record.keyIsNull = src.keyIsNull;
                const bool edited = m_request.action == RemediationAction::EditReplay && item.editedPayload;
                record.value = edited ? *item.editedPayload : src.value;
                record.valueIsNull = !edited && src.value.isNull(); // a tombstone replays as a tombstone
                int previousCount = 0;
                record.headers.reserve(src.headers.size() + 4);
                for (const RecordHeader &h : src.headers) {
                    if (h.name.startsWith("berth-replay") || h.name == RemediationHeaders::RequestId
                        || h.name == RemediationHeaders::ReplayedFrom) {
                        if (h.name == RemediationHeaders::ReplayCount)
                            previousCount = h.value.toInt();
                        continue; // replaced below
                    }
                    if (!m_options.keepDiagnosticHeaders && isDiagnosticDlqHeader(h.name))
                        continue;
                    record.headers.append(h);
                }
                QByteArray replayId;
                replayId.reserve(requestId.size() + 12);
                replayId.append(requestId).append('-');
                appendNumber(replayId, no);
                if (item.sourceTopic != sourceTopic) {
                    sourceTopic = item.sourceTopic;
                    sourceTopicUtf8 = sourceTopic.toUtf8();
                }
                QByteArray replayedFrom;
                replayedFrom.reserve(sourceTopicUtf8.size() + 32);
                replayedFrom.append(sourceTopicUtf8).append('/');
                appendNumber(replayedFrom, item.sourcePartition);
                replayedFrom.append('/');
                appendNumber(replayedFrom, item.sourceOffset);
                record.headers.append({replayIdName, replayId});
                record.headers.append({requestIdName, requestId});
                record.headers.append({replayedFromName, replayedFrom});
                record.headers.append({replayCountName, QByteArray::number(previousCount + 1)});
                out.ready.append({i, no, std::move(record), {}});
                if (!item.idempotencyKeySha256.isEmpty() && item.inboxRef.contains(u"release"_s))
                    out.ready.last().inboxRef = RequestItemDigests::inboxRefWith(
                        item.inboxRef, RequestItemDigests::idempotencyKeyOf(
                                           item, src, RequestItemDigests::messageIdField(item.inboxRef)));
                if (destTopic != lastDestTopic) { // most items of a request share it: one set insert each run
                    out.topics.insert(destTopic);
                    lastDestTopic = destTopic;
                }
            }
        }
        out.destTopics.append(destTopic);
    }
    out.readMs = clock.elapsed();
    return out;
}

// The batch's sources as read ahead, or read now when the read ahead was of other items (a pause or the
// canary moved where the batch starts).
Prepared Run::readTaken(const QList<int> &itemNos)
{
    if (m_readAhead.isHanded()) {
        Prepared ahead = m_readAhead.take();
        if (ahead.itemNos == itemNos)
            return ahead;
    }
    return readSources(itemNos);
}

// Reads a batch (or takes it as read ahead), starts reading the one after it (`following`), and lists the
// batch's new intents. With a journal, also journals them: it runs ahead on its own session while the
// previous batch is produced, and only when every destination is marked already (a mark must precede the
// intents that lead to the topic). So three batches are in flight: one produced, the next journaled, the
// one after it read.
Prepared Run::prepare(const QList<int> &itemNos, const QList<int> &following, const QSet<int> &unjournaled,
                      const QSet<QString> &marked, IntentJournal *journal)
{
    Prepared out = readTaken(itemNos);
    if (!following.isEmpty())
        m_readAhead.handOver([this, following] { return readSources(following); });
    for (int i = 0; i < out.itemNos.size(); ++i) {
        const int no = out.itemNos.at(i);
        if (unjournaled.contains(no)) {
            IntentJournal::Update u;
            u.itemNo = no;
            u.destTopic = out.destTopics.at(i);
            out.journal.append(u);
        }
    }
    if (journal && !out.journal.isEmpty() && marked.contains(out.topics)) {
        QElapsedTimer clock;
        clock.start();
        out.journaled = journal->journal(out.journal, &out.error);
        out.journalMs = clock.elapsed();
        if (!out.journaled && out.error.isEmpty())
            out.error = u"The intents could not be journaled"_s;
    }
    return out;
}

QSet<int> Run::unjournaled(const QList<int> &itemNos) const
{
    QSet<int> out;
    for (int no : itemNos) {
        if (m_intents.value(no).state == State::None)
            out.insert(no);
    }
    return out;
}

// Prepares the likely next batch on the look-ahead thread while this one is produced. What it needs of the
// run's changing state (which items need an intent, which topics are marked) is copied for it now.
void Run::prepareAhead(const QList<int> &itemNos, const QList<int> &following)
{
    if (itemNos.isEmpty())
        return;
    QSet<QString> marked;
    for (auto it = m_marks.cbegin(); it != m_marks.cend(); ++it)
        marked.insert(it.key());
    m_ahead.handOver([this, itemNos, following, fresh = unjournaled(itemNos), marked] {
        return prepare(itemNos, following, fresh, marked, m_aheadJournal.get());
    });
}

Prepared Run::takePrepared(const QList<int> &itemNos)
{
    if (m_ahead.isHanded()) {
        QElapsedTimer waited;
        waited.start();
        Prepared ahead = m_ahead.take();
        m_out.timings.aheadWaitMs += waited.elapsed();
        m_out.timings.readMs += ahead.readMs;
        m_out.timings.journalMs += ahead.journalMs;
        // Whatever it journaled is pending now, used for this batch or not.
        if (ahead.journaled) {
            for (const IntentJournal::Update &u : std::as_const(ahead.journal)) {
                IntentJournal::Intent &in = m_intents[u.itemNo];
                in.state = State::Pending;
                in.destTopic = u.destTopic;
            }
        }
        if (ahead.itemNos == itemNos && ahead.error.isEmpty())
            return ahead;
        // A pause or the canary changed where the batch starts, or journaling ahead failed: prepare in line
        // (a journaling error repeats there, on the run's own session, and ends the run as before).
    }
    Prepared now = prepare(itemNos, {}, unjournaled(itemNos), {}, nullptr);
    m_out.timings.readMs += now.readMs;
    return now;
}

// *consumed: how many items from the front of the batch were dealt with (refused, or handed to the producer).
// `next`: the items the following batch will probably hold, `afterNext` those of the one after it.
// The rest were never produced (pause, cancel) and come first in the next batch.
bool Run::produceBatch(const QList<int> &batch, const QList<int> &next, const QList<int> &afterNext,
                       qsizetype *consumed, QString *error)
{
    // 1. This batch, prepared ahead or now; then the next one, prepared while this one is produced.
    const Prepared prepared = takePrepared(batch);
    QList<Prepared::Ready> ready = prepared.ready;
    QHash<int, QString> refused = prepared.refused;
    // 2. Mark new destinations, then journal the intents: both durable before anything is produced.
    if (!prepared.journaled) {
        for (const QString &topic : std::as_const(prepared.topics)) {
            if (!markDestination(topic, error))
                return false;
        }
        QElapsedTimer journaling;
        journaling.start();
        if (!m_journal.journal(prepared.journal, error))
            return false;
        m_out.timings.journalMs += journaling.elapsed();
        for (const IntentJournal::Update &u : prepared.journal) {
            IntentJournal::Intent &in = m_intents[u.itemNo];
            in.state = State::Pending;
            in.destTopic = u.destTopic;
        }
    }
    prepareAhead(next, afterNext);
    // Release and replay: the batch's inbox rows are released after their intents, right before producing.
    if (!releaseRows(&ready, &refused, error))
        return false;
    // 3. Produce, paced; stop early on pause or cancel (the rest stays pending, never produced).
    InFlight sent;
    sent.batch = batch;
    sent.refused = std::move(refused);
    *consumed = batch.size();
    QElapsedTimer producing;
    producing.start();
    for (const Prepared::Ready &r : ready) {
        pace();
        if (m_control.isCancelled() || m_control.isPaused()) {
            *consumed = r.index;
            break;
        }
        QString why;
        if (m_producer->produceTagged(r.record, quint64(r.itemNo), &why))
            ++sent.produced;
        else
            sent.produceErrors.insert(r.itemNo, why);
        ++m_paced;
        ++m_out.producedThisRun;
        report(ReplayPhase::Producing);
    }
    sent.consumed = *consumed;
    m_out.timings.produceMs += producing.elapsed();
    // 4. The previous batch's reports came in while this one was produced: settle it now, and leave this
    // one in flight (its reports arrive while the next batch is journaled and produced).
    if (!settleInFlight(error))
        return false;
    m_inFlight = std::move(sent);
    return true;
}

void Run::startReports()
{
    m_producer->setDeliveryHandler([this](const DeliveryReport &r) { m_reports.insert(r.tag, r); });
}

// Waits for every report of the batch in flight (librdkafka retries inside message.timeout.ms) and records
// what became of its items: one statement per batch, or queued behind the next batch on the settle queue.
bool Run::settleInFlight(QString *error)
{
    if (!m_inFlight)
        return true;
    const InFlight sent = std::move(*m_inFlight);
    m_inFlight.reset();
    QElapsedTimer wait;
    wait.start();
    const auto reported = [&] {
        int n = 0;
        for (qsizetype i = 0; i < sent.consumed; ++i)
            n += m_reports.contains(quint64(sent.batch.at(i)));
        return n;
    };
    int got = reported();
    while (got < sent.produced && wait.elapsed() < m_options.deliveryTimeoutMs + 10'000) {
        m_producer->poll(20);
        got = reported();
    }
    m_out.timings.reportsMs += wait.elapsed();
    if (got > 0)
        m_out.lastDeliveryMs = m_clock.elapsed();
    // 5. One statement for the batch.
    QList<IntentJournal::Update> settle;
    for (qsizetype i = 0; i < sent.consumed; ++i) {
        const int no = sent.batch.at(i);
        IntentJournal::Update u = updateOf(no, State::Pending);
        if (const auto in = m_intents.constFind(no); in != m_intents.cend())
            u.destTopic = in->destTopic;
        if (sent.refused.contains(no)) {
            u.state = State::Failed;
            u.error = sent.refused.value(no);
            m_refused.insert(no);
            ++m_out.refused;
        } else if (sent.produceErrors.contains(no)) {
            u.state = State::Failed;
            u.error = sent.produceErrors.value(no);
        } else if (const std::optional<DeliveryReport> report = takeReport(quint64(no))) {
            const DeliveryReport &it = *report;
            if (it.error) {
                u.state = State::Failed;
                u.error = KafkaConfig::errorText(it.error)
                          + (it.possiblyPersisted ? u" (possibly persisted: reconciled before a retry)"_s
                                                  : QString());
            } else if (it.offset < 0) {
                // Acknowledged without an offset: the broker had it already from an earlier attempt of the
                // idempotent producer (a duplicate sequence). Delivered, but the journal records where:
                // reconciliation finds it by its replay id before any retry.
                u.state = State::Failed;
                u.error = u"delivered without an offset (reconciled before a retry)"_s;
            } else {
                u.state = State::Delivered;
                u.destPartition = it.partition;
                u.destOffset = it.offset;
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
    if (m_settler) {
        m_settler->enqueue(settle);
    } else {
        QElapsedTimer settling;
        settling.start();
        if (!m_journal.settle(settle, {}, {}, error))
            return false;
        m_out.timings.settleMs += settling.elapsed();
    }
    for (const IntentJournal::Update &u : std::as_const(settle)) {
        IntentJournal::Intent &in = m_intents[u.itemNo];
        in.state = u.state;
        in.destPartition = u.destPartition;
        in.destOffset = u.destOffset;
        in.error = u.error;
    }
    return true;
}

std::optional<DeliveryReport> Run::takeReport(quint64 tag)
{
    const auto it = m_reports.constFind(tag);
    if (it == m_reports.cend())
        return std::nullopt;
    DeliveryReport r = *it;
    m_reports.erase(it);
    return r;
}

// Every exit settles the batch still in flight first (its items' reports are waited for), except an error,
// after which its items stay pending and the next run reconciles them.
bool Run::produceItems(QList<int> todo, bool retryRound, QString *error)
{
    startReports();
    const bool ok = produceRound(std::move(todo), retryRound, error) && settleInFlight(error);
    m_producer->setDeliveryHandler({});
    m_inFlight.reset();
    m_reports.clear();
    return ok;
}

bool Run::produceRound(QList<int> todo, bool retryRound, QString *error)
{
    int canaryLeft = retryRound ? 0 : m_options.canaryCount;
    qsizetype pos = 0;
    while (pos < todo.size()) {
        if (m_control.isCancelled())
            return true;
        if (m_control.isPaused()) {
            if (!settleInFlight(error))
                return false;
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
        const QList<int> afterNext =
            next.isEmpty() ? QList<int>() : todo.mid(pos + batch.size() + next.size(), size);
        if (!produceBatch(batch, next, afterNext, &consumed, error))
            return false;
        pos += consumed;
        if (canaryLeft > 0) {
            canaryLeft = 0;
            if (!settleInFlight(error) || !watchCanary(batch, dlqMarks, error))
                return false;
        }
        report(ReplayPhase::Producing);
    }
    return true;
}

} // namespace ReplayRunDetail
