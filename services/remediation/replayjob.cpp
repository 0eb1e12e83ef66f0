#include "replayjob.h"

#include "services/audit/auditmigrator.h"
#include "services/audit/auditstore.h"
#include "services/inbox/pgsession.h"

using namespace Qt::StringLiterals;

ReplayJob::ReplayJob(QObject *parent)
    : QObject(parent)
{
    m_pool.setMaxThreadCount(1); // one run at a time
    m_pool.setObjectName(u"berth-replay"_s);
}

ReplayJob::~ReplayJob()
{
    // The run posts its progress to this object: it must see the cancel and end before any member goes.
    if (m_control) {
        m_control->resume(); // a paused run wakes up to see the cancel
        m_control->cancel();
    }
    m_run.cancel();
    m_pool.waitForDone();
}

bool ReplayJob::isRunning() const
{
    return m_run.isRunning();
}

bool ReplayJob::start(const QString &auditConninfo, const KafkaProperties &cluster, qint64 requestId,
                      const ReplayOptions &options, const QString &inboxConninfo)
{
    if (isRunning())
        return false;
    m_control = std::make_shared<ReplayControl>();
    ReplayJob *self = this; // the run ends before this object does (see the destructor)
    // Cancelling goes through the ReplayControl, not the tracker: a cancelled run still reports its outcome.
    m_run.start(
        [auditConninfo, cluster, requestId, options, inboxConninfo, control = m_control,
         self](const JobControl &) {
            ReplayOutcome outcome;
            PgSession audit;
            PgSession inbox;
            QString error;
            const AuditMigrationOutcome migrated = audit.connect(auditConninfo, &error)
                                                       ? AuditMigrator::migrate(audit)
                                                       : AuditMigrationOutcome{};
            if (!audit.isOpen() || !migrated.ok) {
                outcome.error = error.isEmpty() ? migrated.error : error;
                return outcome;
            }
            if (!inboxConninfo.isEmpty() && !inbox.connect(inboxConninfo, &error)) {
                outcome.error = error;
                return outcome;
            }
            // An offset reset runs on the same job, through its own small path.
            if (const std::optional<RequestDetail> d = AuditStore(audit).requestDetail(requestId, &error, 0);
                d && d->request.action == RemediationAction::ResetOffsets) {
                OffsetResetOutcome reset = OffsetResetExecutor::run(audit, cluster, requestId);
                outcome.started = reset.started;
                outcome.finalStatus = reset.finalStatus;
                outcome.total = int(reset.partitions.size());
                outcome.error = reset.error;
                outcome.elapsedMs = reset.elapsedMs;
                outcome.offsetReset = std::move(reset);
                return outcome;
            }
            ReplayExecutor executor(audit, cluster, inboxConninfo.isEmpty() ? &audit : &inbox);
            // Coalesced by the executor (at most every 100 ms); posted, never waited for, and queued before
            // the outcome, so the last progress arrives before finished().
            return executor.run(requestId, options, *control, [self](const ReplayProgress &p) {
                QMetaObject::invokeMethod(
                    self, [self, p] { Q_EMIT self->progressed(p); }, Qt::QueuedConnection);
            });
        },
        [this](const ReplayOutcome &outcome) { Q_EMIT finished(outcome); });
    return true;
}

void ReplayJob::pause()
{
    if (m_control)
        m_control->pause();
}

void ReplayJob::resume()
{
    if (m_control)
        m_control->resume();
}

void ReplayJob::cancel()
{
    if (m_control)
        m_control->cancel();
}
