#include "replayjob.h"

#include "services/audit/auditmigrator.h"
#include "services/inbox/pgsession.h"

#include <QElapsedTimer>
#include <QPointer>
#include <QThread>

using namespace Qt::StringLiterals;

ReplayJob::ReplayJob(QObject *parent)
    : QObject(parent)
{
}

ReplayJob::~ReplayJob()
{
    if (m_thread) {
        m_control->resume();
        m_control->cancel();
        m_thread->wait();
        delete m_thread; // not a QObject child: the thread object is ours to free
    }
}

bool ReplayJob::isRunning() const
{
    return m_thread && m_thread->isRunning();
}

bool ReplayJob::start(const QString &auditConninfo, const KafkaProperties &cluster, qint64 requestId,
                      const ReplayOptions &options, const QString &inboxConninfo)
{
    if (isRunning())
        return false;
    if (m_thread) {
        m_thread->wait();
        delete m_thread;
    }
    m_control = std::make_shared<ReplayControl>();
    auto control = m_control;
    QPointer<ReplayJob> self(this);
    m_thread = QThread::create([=] {
        ReplayOutcome outcome;
        PgSession audit;
        PgSession inbox;
        QString error;
        const AuditMigrationOutcome migrated =
            audit.connect(auditConninfo, &error) ? AuditMigrator::migrate(audit) : AuditMigrationOutcome{};
        if (!audit.isOpen() || !migrated.ok) {
            outcome.error = error.isEmpty() ? migrated.error : error;
        } else if (!inboxConninfo.isEmpty() && !inbox.connect(inboxConninfo, &error)) {
            outcome.error = error;
        } else {
            ReplayExecutor executor(audit, cluster, inboxConninfo.isEmpty() ? &audit : &inbox);
            // Progress is coalesced by the executor (at most every 100 ms); posted, never waited for.
            outcome = executor.run(requestId, options, *control, [self](const ReplayProgress &p) {
                if (self)
                    QMetaObject::invokeMethod(
                        self.data(),
                        [self, p] {
                            if (self)
                                Q_EMIT self->progressed(p);
                        },
                        Qt::QueuedConnection);
            });
        }
        if (self)
            QMetaObject::invokeMethod(
                self.data(),
                [self, outcome] {
                    if (self)
                        Q_EMIT self->finished(outcome);
                },
                Qt::QueuedConnection);
    });
    m_thread->start();
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
