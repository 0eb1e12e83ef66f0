#include "auditwatcher.h"

#include "services/audit/auditmigrator.h"
#include "services/audit/auditstore.h"
#include "services/inbox/pgsession.h"
#include "services/support/logging.h"

#include <QSocketNotifier>
#include <QTimer>

#include <libpq-fe.h>

using namespace Qt::StringLiterals;

// Everything that touches libpq; lives in the watcher's thread and is only used there.
class AuditWatcherWorker final : public QObject {
public:
    explicit AuditWatcherWorker(AuditWatcher *owner)
        : m_owner(owner)
        , m_retry(new QTimer(this))
        , m_coalesce(new QTimer(this))
    {
        m_retry->setSingleShot(true);
        connect(m_retry, &QTimer::timeout, this, [this] { attempt(); });
        // One transaction can notify several times (a decision changes the approval and the status): one
        // read.
        m_coalesce->setSingleShot(true);
        m_coalesce->setInterval(50);
        connect(m_coalesce, &QTimer::timeout, this, [this] { readQueue(); });
    }
    ~AuditWatcherWorker() override { drop(); }

    void open(const QString &conninfo)
    {
        drop();
        m_conninfo = conninfo;
        m_wanted = !conninfo.isEmpty();
        m_nextBackoff = m_minBackoff;
        if (!m_wanted) {
            report(AuditWatcher::State::Disconnected, u"no audit database is configured"_s);
            return;
        }
        report(AuditWatcher::State::Connecting, {});
        attempt();
    }

    void setBackoff(int minMs, int maxMs)
    {
        m_minBackoff = std::max(1, minMs);
        m_maxBackoff = std::max(m_minBackoff, maxMs);
        m_nextBackoff = m_minBackoff;
    }

    void shutdown()
    {
        m_wanted = false;
        m_retry->stop();
        drop();
    }

    void readQueue()
    {
        if (!m_session.isOpen())
            return;
        QString error;
        AuditStore store(m_session);
        const QList<RemediationRequest> pending = store.pendingRequests(&error);
        const PgResult clock = m_session.exec(u"SELECT clock_timestamp()"_s);
        if (!alive())
            return;
        if (!error.isEmpty()) {
            m_owner->post([o = m_owner, error] { Q_EMIT o->queueFailed(error); });
            return;
        }
        const QDateTime now = clock.ok ? clock.value(0, u"clock_timestamp").toDateTime() : QDateTime();
        m_owner->post([o = m_owner, pending, now] { Q_EMIT o->queueChanged(pending, now); });
        drainNotifications();
    }

    void fetchDetail(qint64 requestId)
    {
        QString error = notConnected();
        std::optional<RequestDetail> detail;
        if (m_session.isOpen()) {
            AuditStore store(m_session);
            detail = store.requestDetail(requestId, &error, DetailItems);
            alive();
        }
        if (detail)
            m_owner->post([o = m_owner, d = *detail] { Q_EMIT o->detailReady(d); });
        else
            m_owner->post([o = m_owner, requestId, error] { Q_EMIT o->detailFailed(requestId, error); });
        drainNotifications();
    }

    void decide(qint64 requestId, bool approve, const QString &comment)
    {
        AuditDecisionOutcome outcome{requestId, approve, false, notConnected(), {}};
        if (m_session.isOpen()) {
            AuditStore store(m_session);
            outcome.error.clear();
            outcome.ok = approve ? store.approve(requestId, comment, &outcome.error)
                                 : store.reject(requestId, comment, &outcome.error);
            outcome.sqlState = store.lastSqlState();
            alive();
        }
        m_owner->post([o = m_owner, outcome] { Q_EMIT o->decisionFinished(outcome); });
        // Our own NOTIFY arrives like any other desk's, and re-reads the queue.
        drainNotifications();
    }

private:
    // Enough items to review in a window; the count of all of them is in the request.
    static constexpr int DetailItems = 500;

    void attempt()
    {
        if (!m_wanted)
            return;
        QString error;
        if (!m_session.connect(m_conninfo, &error)) {
            retryLater(error);
            return;
        }
        // Up to date is two cheap reads; a database without the schema is set up if this role may.
        const AuditMigrationOutcome migration = AuditMigrator::migrate(m_session);
        if (!migration.ok) {
            retryLater(u"the audit database is not ready: "_s + migration.error);
            return;
        }
        AuditStore store(m_session);
        const std::optional<AuditIdentity> identity = store.identity(&error);
        const PgResult listen =
            m_session.exec(u"LISTEN "_s + m_session.escapeIdentifier(AuditWatcher::Channel));
        if (!identity || !listen.ok) {
            retryLater(identity ? listen.error : error);
            return;
        }
        m_notifier = new QSocketNotifier(PQsocket(m_session.handle()), QSocketNotifier::Read, this);
        connect(m_notifier, &QSocketNotifier::activated, this, [this] { onReadable(); });
        m_nextBackoff = m_minBackoff;
        m_owner->post([o = m_owner, id = *identity] {
            o->m_identity = id;
            Q_EMIT o->identityChanged(id);
        });
        report(AuditWatcher::State::Connected, {});
        readQueue();
    }

    void onReadable()
    {
        PGconn *conn = m_session.handle();
        if (!conn)
            return;
        // PQconsumeInput fails on EOF: that is how an idle session learns the server went away.
        if (PQconsumeInput(conn) != 1 || PQstatus(conn) == CONNECTION_BAD) {
            lost(m_session.lastError());
            return;
        }
        drainNotifications();
    }

    // libpq queues notifications that arrive while a statement runs; the socket will not signal them again.
    void drainNotifications()
    {
        PGconn *conn = m_session.handle();
        bool any = false;
        while (PGnotify *notify = conn ? PQnotifies(conn) : nullptr) {
            any = true;
            PQfreemem(notify);
        }
        if (!any)
            return;
        m_owner->post([o = m_owner] { Q_EMIT o->requestsChanged(); });
        m_coalesce->start();
    }

    bool alive()
    {
        PGconn *conn = m_session.handle();
        if (conn && PQstatus(conn) != CONNECTION_BAD)
            return true;
        lost(conn ? m_session.lastError() : u"the audit database connection was lost"_s);
        return false;
    }

    void lost(const QString &error)
    {
        qCInfo(lcAudit).noquote() << "audit database connection lost:" << error;
        drop();
        m_nextBackoff = m_minBackoff;
        retryLater(error);
    }

    void retryLater(const QString &error)
    {
        drop();
        if (!m_wanted)
            return;
        report(AuditWatcher::State::Reconnecting, error);
        m_retry->start(m_nextBackoff);
        m_nextBackoff = std::min(m_nextBackoff * 2, m_maxBackoff);
    }

    void drop()
    {
        m_coalesce->stop();
        if (m_notifier) {
            // We may be inside its activated() signal: detach now, delete later.
            m_notifier->setEnabled(false);
            m_notifier->deleteLater();
            m_notifier = nullptr;
        }
        m_session.close();
    }

    QString notConnected() const
    {
        return m_lastDetail.isEmpty() ? u"not connected to the audit database"_s
                                      : u"not connected to the audit database (%1)"_s.arg(m_lastDetail);
    }

    // Only real changes reach the owner: a retry loop failing the same way stays quiet.
    void report(AuditWatcher::State state, const QString &detail)
    {
        if (state == m_lastState && detail == m_lastDetail)
            return;
        m_lastState = state;
        m_lastDetail = detail;
        m_owner->post([o = m_owner, state, detail] {
            o->m_state = state;
            Q_EMIT o->stateChanged(state, detail);
        });
    }

    AuditWatcher *m_owner;
    PgSession m_session;
    QString m_conninfo;
    bool m_wanted = false;
    QTimer *m_retry;
    QTimer *m_coalesce;
    QSocketNotifier *m_notifier = nullptr;
    int m_minBackoff = 500;
    int m_maxBackoff = 15'000;
    int m_nextBackoff = 500;
    AuditWatcher::State m_lastState = AuditWatcher::State::Disconnected;
    QString m_lastDetail;
};

AuditWatcher::AuditWatcher(QObject *parent)
    : QObject(parent)
{
    m_worker = new AuditWatcherWorker(this);
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    m_thread.setObjectName(u"berth-audit-watch"_s);
    m_thread.start();
}

AuditWatcher::~AuditWatcher()
{
    // Queued behind whatever is pending; the worker is deleted as the thread ends, before this object is.
    QMetaObject::invokeMethod(
        m_worker,
        [worker = m_worker, thread = &m_thread] {
            worker->shutdown();
            thread->quit();
        },
        Qt::QueuedConnection);
    m_thread.wait();
}

void AuditWatcher::post(std::function<void()> call)
{
    QMetaObject::invokeMethod(this, std::move(call), Qt::QueuedConnection);
}

void AuditWatcher::open(const QString &conninfo)
{
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, conninfo] { w->open(conninfo); }, Qt::QueuedConnection);
}

void AuditWatcher::setBackoff(int minMs, int maxMs)
{
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, minMs, maxMs] { w->setBackoff(minMs, maxMs); }, Qt::QueuedConnection);
}

void AuditWatcher::refresh()
{
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker] { w->readQueue(); }, Qt::QueuedConnection);
}

void AuditWatcher::fetchDetail(qint64 requestId)
{
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, requestId] { w->fetchDetail(requestId); }, Qt::QueuedConnection);
}

void AuditWatcher::decide(qint64 requestId, bool approve, const QString &comment)
{
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, requestId, approve, comment] { w->decide(requestId, approve, comment); },
        Qt::QueuedConnection);
}
