#include "replayexecutor.h"

#include "services/inbox/pgsession.h"
#include "services/remediation/remediationtypes.h"
#include "services/remediation/replayrun.h"

#include <QThread>

#include <algorithm>

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

namespace ReplayRunDetail {
// One line per item: a later round's error replaces an earlier one's.
void Run::problem(int itemNo, const QString &error)
{
    if (const auto it = m_problemAt.constFind(itemNo); it != m_problemAt.cend()) {
        m_out.problems[*it].error = error;
        return;
    }
    if (m_out.problems.size() < 1000) {
        m_problemAt.insert(itemNo, m_out.problems.size());
        m_out.problems.append({itemNo, replayIdFor(m_requestId, itemNo), error});
    }
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

IntentJournal::Update Run::updateOf(int itemNo, State state) const
{
    IntentJournal::Update u;
    u.itemNo = itemNo;
    u.state = state;
    const RequestItem &item = m_items.at(m_index.value(itemNo));
    u.sourceTopic = item.sourceTopic;
    u.sourcePartition = item.sourcePartition;
    u.sourceOffset = item.sourceOffset;
    return u;
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
    const double rate =
        m_rate > 0 ? std::min(m_rate, p.ratePerSecond > 0 ? p.ratePerSecond : m_rate) : p.ratePerSecond;
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

// A replay's first batch re-reads its sources first: start those reads now, so the brokers answer while
// the rest of the items load. Only once the database has agreed to the run: a refused request reads
// nothing.
void Run::primeSources()
{
    if (m_request.action != RemediationAction::Replay && m_request.action != RemediationAction::EditReplay)
        return;
    QString ignored; // creating it again later reports the error
    m_source = SourceCursor::create(m_cluster, &ignored);
    if (!m_source)
        return;
    SourceCursor::Positions first;
    for (const RequestItem &item : std::as_const(m_items)) {
        if (item.isDlqRecord())
            first.append({item.sourceTopic, item.sourcePartition, item.sourceOffset});
        if (first.size() == m_options.batchSize)
            break;
    }
    m_source->prime(first);
}

bool Run::loadRequest(QString *error)
{
    const std::optional<RequestDetail> detail = m_store.requestDetail(m_requestId, error, 0);
    if (!detail) {
        if (error->isEmpty())
            *error = u"There is no request "_s + QString::number(m_requestId);
        return false;
    }
    m_request = detail->request;
    return true;
}

bool Run::loadItems(QString *error)
{
    int after = 0;
    for (;;) {
        const QList<RequestItem> page = m_store.items(m_requestId, after, 10'000, error);
        if (!error->isEmpty())
            return false;
        if (page.isEmpty())
            break;
        m_items.append(page);
        after = page.last().itemNo;
        if (m_items.size() == page.size())
            primeSources();
    }
    for (int i = 0; i < m_items.size(); ++i)
        m_index.insert(m_items.at(i).itemNo, i);
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
        const PgResult lock =
            m_audit.exec(u"SELECT pg_try_advisory_lock($1, $2)"_s, {ExecutorLockClass, lockKey});
        if (!lock.ok)
            return fail(lock.error);
        if (lock.rows.value(0).value(0).toBool())
            break;
        if (lockWait.elapsed() > LockWaitMs || m_control.isCancelled())
            return fail(u"Request "_s + QString::number(m_requestId)
                        + u" is being executed by another session"_s);
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

    if (!loadRequest(&error))
        return fail(error);
    if (m_request.action == RemediationAction::ResetOffsets)
        return fail(u"Request "_s + QString::number(m_requestId)
                    + u" is an offset reset: it executes through OffsetResetExecutor, not as a replay"_s);
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
    if (!loadItems(&error))
        return fail(error);
    m_out.total = int(m_items.size());
    report(ReplayPhase::Starting, true);
    if (!m_journal.load(&m_intents, &error))
        return fail(error);

    bool ok = true;
    if (m_request.action == RemediationAction::Skip || m_request.action == RemediationAction::Delete) {
        ok = disposeItems(&error);
    } else {
        m_rate = m_options.rateLimit < 0 ? m_request.rateLimit : m_options.rateLimit;
        m_reader = TopicRangeReader::create(m_cluster, &error);
        if (!m_reader)
            m_source.reset();
        else if (!m_source)
            m_source = SourceCursor::create(m_cluster, &error);
        if (!m_producer)
            m_producer = m_source ? KafkaProducer::create(producerProperties(), &error) : nullptr;
        if (!m_producer || !loadMarks(&error) || !markDeadLetters(&error))
            return fail(error);
        // A second session records delivery results while the next batch goes out; without one (a connection
        // limit, say) they are written in line.
        m_settler = std::make_unique<SettleQueue>(m_requestId);
        QString settleError;
        if (!m_settler->start(m_audit, &settleError))
            m_settler.reset();
        // And a third journals the next batch's intents while this one is produced.
        m_aheadDb = std::make_unique<PgSession>();
        if (m_aheadDb->connectLike(m_audit, &settleError))
            m_aheadJournal = std::make_unique<IntentJournal>(*m_aheadDb, m_requestId);
        else
            m_aheadDb.reset();
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
        // Retry rounds for failed deliveries: reconcile first (a timeout may have been written), then
        // produce.
        for (int round = 1;
             ok && round < m_options.maxRounds && !m_control.isCancelled() && !m_out.pausedStop; ++round) {
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
            // A fresh producer for the retry: librdkafka remembers some refusals per topic (authorization)
            // and fails every later record to it at once, whatever the broker would now say.
            if (ok && !still.isEmpty()) {
                m_producer->flush(5000);
                if (auto fresh = KafkaProducer::create(producerProperties(), &error))
                    m_producer = std::move(fresh);
                else
                    ok = false;
            }
            if (ok && !still.isEmpty())
                ok = produceItems(still, true, &error);
        }
        if (ok && m_producer)
            m_producer->flush(5000);
        QElapsedTimer draining;
        draining.start();
        if (m_settler && !m_settler->drain(ok ? &error : &settleError) && ok)
            ok = false;
        m_out.timings.drainMs = draining.elapsed();
        if (m_settler)
            m_out.timings.settleMs += m_settler->busyMs();
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
        const RequestStatus end =
            finished == m_items.size() ? RequestStatus::Completed : RequestStatus::PartiallyFailed;
        if (!m_store.setStatus(m_requestId, end, &error))
            return fail(error);
        m_out.finalStatus = end;
    }
    // Problems are of items that did not end delivered or skipped: a later round may have delivered some.
    m_out.problems.removeIf([this](const ReplayItemProblem &p) {
        const State s = m_intents.value(p.itemNo).state;
        return s == State::Delivered || s == State::Skipped;
    });
    m_out.elapsedMs = m_clock.elapsed();
    report(ReplayPhase::Done, true);
    return m_out;
}
} // namespace ReplayRunDetail

ReplayExecutor::ReplayExecutor(PgSession &auditDb, KafkaProperties cluster, PgSession *inboxDb)
    : m_audit(auditDb)
    , m_cluster(std::move(cluster))
    , m_inbox(inboxDb)
{
}

ReplayOutcome ReplayExecutor::run(qint64 requestId, const ReplayOptions &options, ReplayControl &control,
                                  const ProgressFn &progress)
{
    ReplayRunDetail::Run run(m_audit, m_cluster, m_inbox, requestId, options, control, progress);
    return run.execute();
}
