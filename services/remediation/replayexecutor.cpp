#include "replayexecutor.h"

#include "services/audit/auditstore.h"
#include "services/dlq/dlqheadercodec.h"
#include "services/inbox/pgsession.h"
#include "services/kafka/kafkaproducer.h"
#include "services/remediation/inboxremediation.h"
#include "services/remediation/intentjournal.h"
#include "services/remediation/remediationtypes.h"
#include "services/remediation/settlequeue.h"
#include "services/remediation/sourcecursor.h"
#include "services/remediation/topicrangereader.h"

#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QHash>
#include <QJsonArray>
#include <QSet>
#include <QThread>

#include <algorithm>
#include <chrono>
#include <future>

using namespace Qt::StringLiterals;

QString replayPhaseName(ReplayPhase phase)
{
    switch (phase) {
    case ReplayPhase::Starting:
        return u"starting"_s;
    case ReplayPhase::Reconciling:
        return u"reconciling"_s;
    case ReplayPhase::Producing:
        return u"producing"_s;
    case ReplayPhase::CanaryWatch:
        return u"canary"_s;
    case ReplayPhase::Paused:
        return u"paused"_s;
    case ReplayPhase::Finishing:
        return u"finishing"_s;
    case ReplayPhase::Done:
        return u"done"_s;
    }
    return {};
}

void ReplayControl::pause()
{
    std::lock_guard lock(m_mutex);
    m_paused = true;
}

void ReplayControl::resume()
{
    {
        std::lock_guard lock(m_mutex);
        m_paused = false;
    }
    m_wake.notify_all();
}

void ReplayControl::cancel()
{
    {
        std::lock_guard lock(m_mutex);
        m_cancelled = true;
    }
    m_wake.notify_all();
}

bool ReplayControl::waitWhilePaused()
{
    std::unique_lock lock(m_mutex);
    m_wake.wait(lock, [this] { return !m_paused.load() || m_cancelled.load(); });
    return !m_cancelled.load();
}

namespace {
using State = IntentJournal::State;

// The session advisory lock that makes one executor per request: a second `execute` of the same request
// refuses instead of producing alongside.
constexpr int ExecutorLockClass = 0x42455254; // 'BERT'
constexpr qint64 LockWaitMs = 5000;

// Where this request's records can first appear in a destination topic: the end offsets recorded in
// `replay.destination_marked` events before anything was produced to it. Earliest event wins.
using Marks = QHash<QString, QHash<int, qint64>>;

// Source records re-read for a batch of items: by index into the batch, or why not.
struct Sources {
    QList<int> itemNos;
    QHash<int, KafkaRecord> records;
    QHash<int, QString> problems;
};

class Run {
public:
    Run(PgSession &audit, const KafkaProperties &cluster, PgSession *inbox, qint64 requestId,
        const ReplayOptions &options, ReplayControl &control, const ReplayExecutor::ProgressFn &progress)
        : m_audit(audit)
        , m_store(audit)
        , m_cluster(cluster)
        , m_inbox(inbox)
        , m_requestId(requestId)
        , m_options(options)
        , m_control(control)
        , m_progressFn(progress)
        , m_journal(audit, requestId)
    {
    }

    ReplayOutcome execute();

private:
    KafkaProperties producerProperties() const;
    bool loadItems(QString *error);
    bool loadMarks(QString *error);
    bool markDestination(const QString &topic, QString *error);
    bool reconcile(const QList<int> &itemNos, QString *error);
    bool produceItems(QList<int> itemNos, bool retryRound, QString *error);
    bool produceBatch(const QList<int> &batch, const QList<int> &next, qsizetype *consumed, QString *error);
    Sources fetchSources(const QList<int> &itemNos);
    void prefetchSources(const QList<int> &itemNos);
    Sources takeSources(const QList<int> &itemNos);
    bool watchCanary(const QList<int> &canary, const QHash<QString, QHash<int, qint64>> &dlqMarks, QString *error);
    bool dlqEnds(const QStringList &topics, QHash<QString, QHash<int, qint64>> *ends, QString *error);
    bool disposeItems(QString *error);
    void pace();
    void report(ReplayPhase phase, bool force = false);
    void problem(int itemNo, const QString &error);
    void settleCounts();

    PgSession &m_audit;
    AuditStore m_store;
    KafkaProperties m_cluster;
    PgSession *m_inbox;
    qint64 m_requestId;
    ReplayOptions m_options;
    ReplayControl &m_control;
    const ReplayExecutor::ProgressFn &m_progressFn;
    IntentJournal m_journal;

    RemediationRequest m_request;
    QList<RequestItem> m_items;
    QHash<int, int> m_index; // item no -> index in m_items
    QHash<int, IntentJournal::Intent> m_intents;
    Marks m_marks;
    std::unique_ptr<SourceCursor> m_source;
    // The next batch's sources, read while this one is journaled and produced. Declared after m_source: it
    // is destroyed (waited for) first.
    std::future<Sources> m_prefetch;
    std::unique_ptr<TopicRangeReader> m_reader;
    std::unique_ptr<KafkaProducer> m_producer;
    std::unique_ptr<SettleQueue> m_settler; // null: delivery results are written in line, on m_audit
    QSet<int> m_refused; // source changed or gone: not produced again in this run
    double m_rate = 0;
    QElapsedTimer m_clock;       // since the run started
    QElapsedTimer m_paceClock;   // since pacing (re)started
    qint64 m_paced = 0;          // records produced since pacing (re)started
    qint64 m_lastReportMs = -1000;
    ReplayOutcome m_out;
    ReplayPhase m_phase = ReplayPhase::Starting;
};

void Run::problem(int itemNo, const QString &error)
{
    if (m_out.problems.size() < 1000)
        m_out.problems.append({itemNo, replayIdFor(m_requestId, itemNo), error});
}

void Run::settleCounts()
{
    int delivered = 0;
    int failed = 0;
    int skipped = 0;
    for (const IntentJournal::Intent &i : std::as_const(m_intents)) {
        delivered += i.state == State::Delivered;
        failed += i.state == State::Failed;
        skipped += i.state == State::Skipped;
    }
    m_out.delivered = delivered;
    m_out.failed = failed;
    m_out.skipped = skipped;
}

void Run::report(ReplayPhase phase, bool force)
{
    m_phase = phase;
    if (!m_progressFn)
        return;
    const qint64 now = m_clock.elapsed();
    if (!force && now - m_lastReportMs < 100)
        return;
    m_lastReportMs = now;
    settleCounts();
    ReplayProgress p;
    p.requestId = m_requestId;
    p.phase = phase;
    p.total = int(m_items.size());
    p.delivered = m_out.delivered;
    p.failed = m_out.failed;
    p.skipped = m_out.skipped;
    p.reconciled = m_out.reconciled;
    p.done = p.delivered + p.failed + p.skipped;
    p.canaryTripped = m_out.canaryTripped;
    p.ratePerSecond = now > 0 ? double(m_out.producedThisRun) * 1000.0 / double(now) : 0;
    const int left = p.total - p.done;
    const double rate = m_rate > 0 ? std::min(m_rate, p.ratePerSecond > 0 ? p.ratePerSecond : m_rate)
                                   : p.ratePerSecond;
    p.etaMs = left <= 0 ? 0 : (rate > 0 ? qint64(double(left) * 1000.0 / rate) : -1);
    m_progressFn(p);
}

KafkaProperties Run::producerProperties() const
{
    KafkaProperties props = m_cluster;
    props.append({u"message.timeout.ms"_s, QString::number(m_options.deliveryTimeoutMs)});
    props.append({u"queue.buffering.max.messages"_s, u"1000000"_s});
    props.append({u"batch.num.messages"_s, u"10000"_s});
    props.append(m_options.producerProperties);
    return props;
}

bool Run::loadItems(QString *error)
{
    const std::optional<RequestDetail> detail = m_store.requestDetail(m_requestId, error, 0);
    if (!detail) {
        if (error->isEmpty())
            *error = u"There is no request "_s + QString::number(m_requestId);
        return false;
    }
    m_request = detail->request;
    int after = 0;
    for (;;) {
        const QList<RequestItem> page = m_store.items(m_requestId, after, 10'000, error);
        if (!error->isEmpty())
            return false;
        if (page.isEmpty())
            break;
        m_items.append(page);
        after = page.last().itemNo;
    }
    for (int i = 0; i < m_items.size(); ++i)
        m_index.insert(m_items.at(i).itemNo, i);
    return true;
}

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
    if (m_store.appendEvent(u"replay.destination_marked"_s, m_requestId, {{u"topic"_s, topic}, {u"ends"_s, ends}},
                            error)
        == 0)
        return false;
    m_marks.insert(topic, marks);
    return true;
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
                if (!parseReplayId(QByteArrayView(static_cast<const char *>(value), qsizetype(size)), &request, &item)
                    || request != m_requestId || !wanted.contains(item))
                    return true;
                if (seen.contains(item)) {
                    problem(item, u"found more than once in "_s + t.key());
                    return true;
                }
                seen.insert(item);
                IntentJournal::Update u;
                u.itemNo = item;
                u.state = State::Delivered;
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
bool Run::watchCanary(const QList<int> &canary, const QHash<QString, QHash<int, qint64>> &dlqMarks, QString *error)
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
                        && parseReplayId(QByteArrayView(static_cast<const char *>(value), qsizetype(size)), &request,
                                         &item)
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
                          + (it->possiblyPersisted ? u" (possibly persisted: reconciled before a retry)"_s : QString());
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

bool Run::disposeItems(QString *error)
{
    const bool remove = m_request.action == RemediationAction::Delete;
    const QString kind = remove ? u"deleted"_s : u"skipped"_s;
    QList<int> alreadyDisposed;
    if (!m_journal.disposed(&alreadyDisposed, error))
        return false;
    const QSet<int> disposed(alreadyDisposed.cbegin(), alreadyDisposed.cend());
    const QList<InboxMapping> mappings =
        m_options.inboxMappings.isEmpty() ? InboxMapping::presets() : m_options.inboxMappings;
    const QJsonObject why{{u"reason_code"_s, m_request.reasonCode},
                          {u"reason"_s, m_request.reason},
                          {u"ticket"_s, m_request.ticket}};
    QList<int> todo;
    for (const RequestItem &item : std::as_const(m_items)) {
        const State s = m_intents.value(item.itemNo).state;
        if (s == State::None || s == State::Pending || s == State::Failed)
            todo.append(item.itemNo);
    }
    for (qsizetype pos = 0; pos < todo.size() && !m_control.isCancelled(); pos += m_options.batchSize) {
        const QList<int> batch = todo.mid(pos, m_options.batchSize);
        QList<IntentJournal::Update> journal;
        for (int no : batch) {
            if (m_intents.value(no).state == State::None)
                journal.append({no, State::Pending, {}, -1, -1, {}});
        }
        if (!m_journal.journal(journal, error))
            return false;
        for (const IntentJournal::Update &u : std::as_const(journal))
            m_intents[u.itemNo].state = State::Pending;
        QList<IntentJournal::Update> settle;
        QHash<int, QJsonObject> details;
        for (int no : batch) {
            const RequestItem &item = m_items.at(m_index.value(no));
            IntentJournal::Update u{no, State::Skipped, {}, -1, -1, {}};
            QJsonObject d = why;
            QString failure;
            if (!item.inboxRef.isEmpty()) {
                const InboxMapping *mapping = InboxRemediation::mappingFor(item.inboxRef, mappings);
                int rows = 0;
                if (!mapping) {
                    failure = u"no inbox mapping named "_s + item.inboxRef.value(u"mapping"_s).toString();
                } else if (!m_inbox) {
                    failure = u"no inbox database to act on"_s;
                } else if (remove) {
                    // The row's content goes into the disposition (and so the audit log) before it is deleted.
                    QJsonObject row;
                    if (!InboxRemediation::readRow(*m_inbox, *mapping, item.inboxRef, &row, &failure)) {
                    } else if (!row.isEmpty()
                               && !mapping->statusesFor(InboxState::Parked)
                                       .contains(row.value(mapping->statusColumn).toString())) {
                        // Checked before the disposition is written, so the audit never says "deleted" for a
                        // row that the DELETE below would refuse.
                        failure = u"the inbox row is not parked: not deleted"_s;
                    } else if (!disposed.contains(no)) {
                        d.insert(u"inbox_row"_s, row);
                        d.insert(u"table"_s, mapping->qualifiedTable());
                        if (!m_journal.recordDisposition(no, kind, d, error))
                            return false;
                    }
                    if (failure.isEmpty()
                        && InboxRemediation::deleteParked(*m_inbox, *mapping, item.inboxRef, &rows, &failure)
                        && rows == 0 && !row.isEmpty())
                        failure = u"the inbox row is not parked: not deleted"_s;
                } else if (InboxRemediation::markSkipped(*m_inbox, *mapping, item.inboxRef, &rows, &failure)) {
                    d.insert(u"inbox_status"_s, mapping->skippedStatus);
                    d.insert(u"inbox_rows"_s, rows);
                }
            }
            if (!failure.isEmpty()) {
                u.state = State::Failed;
                u.error = failure;
                problem(no, failure);
            }
            details.insert(no, d);
            settle.append(u);
        }
        // Delete recorded its disposition with the row already; skip records it with the intent.
        if (!m_journal.settle(settle, remove ? QString() : kind, details, error))
            return false;
        for (const IntentJournal::Update &u : std::as_const(settle))
            m_intents[u.itemNo].state = u.state;
        report(ReplayPhase::Producing);
    }
    return true;
}

ReplayOutcome Run::execute()
{
    m_clock.start();
    QString error;
    auto fail = [&](const QString &why) {
        m_out.error = why;
        m_out.elapsedMs = m_clock.elapsed();
        return m_out;
    };
    const int lockKey = int(m_requestId % 2147483647);
    // A crashed executor's server session can outlive it by a moment (the server notices the closed socket
    // when it next reads): wait a few seconds for its lock before calling the request busy.
    QElapsedTimer lockWait;
    lockWait.start();
    for (;;) {
        const PgResult lock = m_audit.exec(u"SELECT pg_try_advisory_lock($1, $2)"_s, {ExecutorLockClass, lockKey});
        if (!lock.ok)
            return fail(lock.error);
        if (lock.rows.value(0).value(0).toBool())
            break;
        if (lockWait.elapsed() > LockWaitMs || m_control.isCancelled())
            return fail(u"Request "_s + QString::number(m_requestId) + u" is being executed by another session"_s);
        QThread::msleep(100);
    }
    struct Unlock {
        PgSession &db;
        int key;
        ~Unlock() { db.exec(u"SELECT pg_advisory_unlock($1, $2)"_s, {ExecutorLockClass, key}); }
    } unlock{m_audit, lockKey};
    // An idempotent producer needs a producer id from the cluster before its first record can go out: let
    // it fetch one while the request and the journal load. Nothing is produced before the database agrees.
    m_producer = KafkaProducer::create(producerProperties(), &error);
    error.clear();

    if (!loadItems(&error))
        return fail(error);
    m_out.total = int(m_items.size());
    const RequestStatus status = m_request.status;
    if (status == RequestStatus::Approved || status == RequestStatus::PartiallyFailed) {
        // The database decides: approvals, no rejection, not expired, an operator executing.
        if (!m_store.setStatus(m_requestId, RequestStatus::Executing, &error))
            return fail(error);
    } else if (status != RequestStatus::Executing) {
        return fail(u"Request "_s + QString::number(m_requestId) + u" is "_s + AuditText::statusName(status)
                    + u": nothing is executed"_s);
    }
    m_out.started = true;
    report(ReplayPhase::Starting, true);
    if (!m_journal.load(&m_intents, &error))
        return fail(error);

    bool ok = true;
    if (m_request.action == RemediationAction::Skip || m_request.action == RemediationAction::Delete) {
        ok = disposeItems(&error);
    } else {
        m_rate = m_options.rateLimit < 0 ? m_request.rateLimit : m_options.rateLimit;
        m_reader = TopicRangeReader::create(m_cluster, &error);
        m_source = m_reader ? SourceCursor::create(m_cluster, &error) : nullptr;
        if (!m_producer)
            m_producer = m_source ? KafkaProducer::create(producerProperties(), &error) : nullptr;
        if (!m_producer || !loadMarks(&error))
            return fail(error);
        // A second session records delivery results while the next batch goes out; without one (a connection
        // limit, say) they are written in line.
        m_settler = std::make_unique<SettleQueue>(m_requestId);
        QString settleError;
        if (!m_settler->start(m_audit, &settleError))
            m_settler.reset();
        // Reconcile before producing anything: an earlier run may have delivered what it did not record.
        QList<int> open;
        for (auto it = m_intents.cbegin(); it != m_intents.cend(); ++it) {
            if (it->state == State::Pending || it->state == State::Failed)
                open.append(it.key());
        }
        std::sort(open.begin(), open.end());
        ok = reconcile(open, &error);
        QList<int> todo;
        for (const RequestItem &item : std::as_const(m_items)) {
            const State s = m_intents.value(item.itemNo).state;
            if (s == State::None || s == State::Pending || s == State::Failed)
                todo.append(item.itemNo);
        }
        m_paceClock.start();
        if (ok)
            ok = produceItems(todo, false, &error);
        // Retry rounds for failed deliveries: reconcile first (a timeout may have been written), then produce.
        for (int round = 1; ok && round < m_options.maxRounds && !m_control.isCancelled() && !m_out.pausedStop;
             ++round) {
            QList<int> failed;
            for (const RequestItem &item : std::as_const(m_items)) {
                if (m_intents.value(item.itemNo).state == State::Failed && !m_refused.contains(item.itemNo))
                    failed.append(item.itemNo);
            }
            if (failed.isEmpty())
                break;
            ok = reconcile(failed, &error);
            QList<int> still;
            for (int no : std::as_const(failed)) {
                if (m_intents.value(no).state == State::Failed)
                    still.append(no);
            }
            if (ok && !still.isEmpty())
                ok = produceItems(still, true, &error);
        }
        if (ok && m_producer)
            m_producer->flush(5000);
        if (m_settler && !m_settler->drain(ok ? &error : &settleError) && ok)
            ok = false;
    }
    if (!ok)
        return fail(error); // the request stays executing: the next run reconciles and continues

    report(ReplayPhase::Finishing, true);
    settleCounts();
    if (m_control.isCancelled()) {
        m_out.cancelled = true;
        if (!m_store.setStatus(m_requestId, RequestStatus::Cancelled, &error))
            return fail(error);
        m_out.finalStatus = RequestStatus::Cancelled;
    } else if (m_out.pausedStop) {
        m_out.finalStatus = RequestStatus::Executing;
    } else {
        int finished = 0;
        for (const RequestItem &item : std::as_const(m_items)) {
            const State s = m_intents.value(item.itemNo).state;
            finished += s == State::Delivered || s == State::Skipped;
        }
        const RequestStatus end = finished == m_items.size() ? RequestStatus::Completed : RequestStatus::PartiallyFailed;
        if (!m_store.setStatus(m_requestId, end, &error))
            return fail(error);
        m_out.finalStatus = end;
    }
    m_out.elapsedMs = m_clock.elapsed();
    report(ReplayPhase::Done, true);
    return m_out;
}
} // namespace

ReplayExecutor::ReplayExecutor(PgSession &auditDb, KafkaProperties cluster, PgSession *inboxDb)
    : m_audit(auditDb)
    , m_cluster(std::move(cluster))
    , m_inbox(inboxDb)
{
}

ReplayOutcome ReplayExecutor::run(qint64 requestId, const ReplayOptions &options, ReplayControl &control,
                                  const ProgressFn &progress)
{
    Run run(m_audit, m_cluster, m_inbox, requestId, options, control, progress);
    return run.execute();
}
