#include "pgconnection.h"

#include "services/support/logging.h"

#include <QMutex>
#include <QSocketNotifier>
#include <QTimer>

#include <libpq-fe.h>

using namespace Qt::StringLiterals;

// Carries one query result to the caller's context. Delivery goes through a queued connection to the
// context because Qt drops that connection, and any call already posted, when the context is destroyed:
// checking a QPointer from the worker and posting afterwards would race with that destruction.
class PgQueryRelay final : public QObject {
    Q_OBJECT
Q_SIGNALS:
    void finished(const PgResult &result);
};

// Everything that touches libpq. Lives in PgConnection's thread; its members are only used there,
// except cancelRunning(), which is guarded.
class PgConnectionWorker final : public QObject {
public:
    using State = PgConnection::State;
    using StateSink = std::function<void(State, const QString &)>;
    using NotificationSink = std::function<void(const QString &, const QString &)>;

    PgConnectionWorker(StateSink stateSink, NotificationSink notificationSink,
                       std::shared_ptr<std::atomic_bool> shuttingDown)
        : m_stateSink(std::move(stateSink))
        , m_notificationSink(std::move(notificationSink))
        , m_shuttingDown(std::move(shuttingDown))
        , m_retryTimer(new QTimer(this))
    {
        m_retryTimer->setSingleShot(true);
        QObject::connect(m_retryTimer, &QTimer::timeout, this, [this] { attempt(); });
    }
    ~PgConnectionWorker() override { dropSession(); }

    void open(const QString &conninfo)
    {
        dropSession();
        m_retryTimer->stop();
        m_wanted = false;
        // A malformed conninfo never gets better by retrying. A bare word is a database name to libpq.
        if (conninfo.contains(u'=') || conninfo.contains(u"://"_s)) {
            char *parseError = nullptr;
            PQconninfoOption *options = PQconninfoParse(conninfo.toUtf8().constData(), &parseError);
            if (!options) {
                const QString error =
                    parseError ? PgSession::readableError(parseError) : u"invalid connection string"_s;
                PQfreemem(parseError);
                report(State::Failed, error);
                return;
            }
            PQconninfoFree(options);
        }
        m_conninfo = conninfo;
        m_wanted = true;
        m_nextBackoff = m_minBackoff;
        report(State::Connecting, {});
        attempt();
    }

    void close()
    {
        m_wanted = false;
        m_retryTimer->stop();
        dropSession();
        report(State::Disconnected, {});
    }

    void shutdown()
    {
        m_wanted = false;
        m_retryTimer->stop();
        dropSession();
    }

    void setBackoff(int minMs, int maxMs)
    {
        m_minBackoff = std::max(1, minMs);
        m_maxBackoff = std::max(m_minBackoff, maxMs);
        m_nextBackoff = m_minBackoff;
    }

    void run(const QString &sql, const QVariantList &params, PgQueryRelay *relay)
    {
        if (m_shuttingDown->load()) {
            Q_EMIT relay->finished(PgResult::failure(u"the database connection was closed"_s));
            return;
        }
        if (!m_session.isOpen()) {
            Q_EMIT relay->finished(PgResult::failure(notConnectedError()));
            return;
        }
        m_inFlight.store(true);
        const PgResult result = m_session.exec(sql, params);
        m_inFlight.store(false);
        Q_EMIT relay->finished(result);
        if (!checkAlive())
            return;
        drainNotifications();
    }

    void listen(const QString &channel)
    {
        if (!m_channels.contains(channel))
            m_channels << channel;
        if (m_session.isOpen())
            issueListen(channel);
    }

    // Thread-safe: interrupts the statement the worker is blocked in, so shutdown does not wait for it.
    void cancelRunning()
    {
        QMutexLocker lock(&m_cancelMutex);
        if (m_cancel && m_inFlight.load()) {
            char buffer[256];
            PQcancel(m_cancel, buffer, sizeof buffer);
        }
    }

private:
    void attempt()
    {
        m_retryTimer->stop();
        if (!m_wanted)
            return;
        QString error;
        if (!m_session.connect(m_conninfo, &error)) {
            qCDebug(lcInbox).noquote() << "database connection attempt failed:" << error;
            retryLater(error);
            return;
        }
        m_nextBackoff = m_minBackoff;
        {
            QMutexLocker lock(&m_cancelMutex);
            m_cancel = PQgetCancel(m_session.handle());
        }
        m_notifier = new QSocketNotifier(PQsocket(m_session.handle()), QSocketNotifier::Read, this);
        QObject::connect(m_notifier, &QSocketNotifier::activated, this, [this] { onReadable(); });
        for (const QString &channel : std::as_const(m_channels)) {
            if (!issueListen(channel))
                return;
        }
        report(State::Connected, {});
    }

    bool issueListen(const QString &channel)
    {
        const PgResult result = m_session.exec(u"LISTEN "_s + m_session.escapeIdentifier(channel));
        if (!result.ok)
            qCWarning(lcInbox).noquote() << "LISTEN" << channel << "failed:" << result.error;
        return checkAlive();
    }

    // The server went away (shutdown, restart, network): tell the owner and start retrying.
    bool checkAlive(bool lastCallOk = true)
    {
        PGconn *conn = m_session.handle();
        if (conn && lastCallOk && PQstatus(conn) != CONNECTION_BAD)
            return true;
        const QString error = conn ? m_session.lastError() : u"the database connection was lost"_s;
        qCInfo(lcInbox).noquote() << "database connection lost:" << error;
        dropSession();
        if (m_wanted) {
            m_nextBackoff = m_minBackoff;
            retryLater(error);
        }
        return false;
    }

    void retryLater(const QString &error)
    {
        report(State::Reconnecting, error);
        m_retryTimer->start(m_nextBackoff);
        m_nextBackoff = std::min(m_nextBackoff * 2, m_maxBackoff);
    }

    void onReadable()
    {
        PGconn *conn = m_session.handle();
        if (!conn)
            return;
        // PQconsumeInput fails on EOF, which is how an idle connection learns that the server is gone.
        if (checkAlive(PQconsumeInput(conn) == 1))
            drainNotifications();
    }

    void drainNotifications()
    {
        PGconn *conn = m_session.handle();
        while (PGnotify *notify = conn ? PQnotifies(conn) : nullptr) {
            m_notificationSink(QString::fromUtf8(notify->relname), QString::fromUtf8(notify->extra));
            PQfreemem(notify);
        }
    }

    void dropSession()
    {
        if (m_notifier) {
            // We may be inside its activated() signal: detach now, delete later.
            m_notifier->setEnabled(false);
            m_notifier->deleteLater();
            m_notifier = nullptr;
        }
        {
            QMutexLocker lock(&m_cancelMutex);
            if (m_cancel)
                PQfreeCancel(std::exchange(m_cancel, nullptr));
        }
        m_session.close();
    }

    QString notConnectedError() const
    {
        if (m_wanted && !m_reportedDetail.isEmpty())
            return u"not connected to the database (reconnecting after: %1)"_s.arg(m_reportedDetail);
        return u"not connected to the database"_s;
    }

    // Only real changes reach the owner: a retry loop failing the same way stays quiet.
    void report(State state, const QString &detail)
    {
        if (state == m_reportedState && detail == m_reportedDetail)
            return;
        m_reportedState = state;
        m_reportedDetail = detail;
        m_stateSink(state, detail);
    }

    StateSink m_stateSink;
    NotificationSink m_notificationSink;
    std::shared_ptr<std::atomic_bool> m_shuttingDown;
    PgSession m_session;
    QString m_conninfo;
    bool m_wanted = false;
    QTimer *m_retryTimer;
    QSocketNotifier *m_notifier = nullptr;
    QStringList m_channels;
    int m_minBackoff = 250;
    int m_maxBackoff = 10'000;
    int m_nextBackoff = 250;
    State m_reportedState = State::Disconnected;
    QString m_reportedDetail;
    QMutex m_cancelMutex;
    PGcancel *m_cancel = nullptr;
    std::atomic_bool m_inFlight = false;
};

PgConnection::PgConnection(QObject *parent)
    : QObject(parent)
{
    qRegisterMetaType<PgResult>();
    qRegisterMetaType<PgConnection::State>();
    auto stateSink = [this](State state, const QString &detail) {
        QMetaObject::invokeMethod(
            this, [this, state, detail] { applyState(state, detail); }, Qt::QueuedConnection);
    };
    auto notificationSink = [this](const QString &channel, const QString &payload) {
        QMetaObject::invokeMethod(
            this, [this, channel, payload] { Q_EMIT notification(channel, payload); }, Qt::QueuedConnection);
    };
    m_worker = new PgConnectionWorker(stateSink, notificationSink, m_shuttingDown);
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    m_thread.setObjectName(u"berth-postgres"_s);
    m_thread.start();
}

PgConnection::~PgConnection()
{
    m_shuttingDown->store(true);
    m_worker->cancelRunning();
    // Queued behind whatever is pending, which now fails fast; the worker is deleted as the thread ends.
    QMetaObject::invokeMethod(
        m_worker,
        [worker = m_worker, thread = &m_thread] {
            worker->shutdown();
            thread->quit();
        },
        Qt::QueuedConnection);
    m_thread.wait();
}

void PgConnection::open(const QString &conninfo)
{
    QMetaObject::invokeMethod(
        m_worker, [worker = m_worker, conninfo] { worker->open(conninfo); }, Qt::QueuedConnection);
}

void PgConnection::close()
{
    QMetaObject::invokeMethod(
        m_worker, [worker = m_worker] { worker->close(); }, Qt::QueuedConnection);
}

void PgConnection::setBackoff(int minMs, int maxMs)
{
    QMetaObject::invokeMethod(
        m_worker, [worker = m_worker, minMs, maxMs] { worker->setBackoff(minMs, maxMs); },
        Qt::QueuedConnection);
}

void PgConnection::query(const QString &sql, const QVariantList &params, QObject *context,
                         std::function<void(const PgResult &)> done)
{
    // The relay is owned by the task: deleted on the worker after running, or with the task if the
    // worker shuts down before reaching it.
    auto relay = std::make_shared<PgQueryRelay>();
    relay->moveToThread(&m_thread);
    connect(
        relay.get(), &PgQueryRelay::finished, context ? context : this,
        [done = std::move(done)](const PgResult &result) {
            if (done)
                done(result);
        },
        Qt::QueuedConnection);
    QMetaObject::invokeMethod(
        m_worker, [worker = m_worker, sql, params, relay] { worker->run(sql, params, relay.get()); },
        Qt::QueuedConnection);
}

void PgConnection::listen(const QString &channel)
{
    QMetaObject::invokeMethod(
        m_worker, [worker = m_worker, channel] { worker->listen(channel); }, Qt::QueuedConnection);
}

void PgConnection::applyState(State state, const QString &detail)
{
    // The worker reports only real changes, so every call is worth a signal.
    if (!detail.isEmpty())
        m_lastError = detail;
    m_state = state;
    Q_EMIT stateChanged(state, detail);
}

#include "pgconnection.moc"
