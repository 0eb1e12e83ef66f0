#pragma once

#include "services/inbox/pgsession.h"

#include <QObject>
#include <QThread>

#include <atomic>
#include <functional>
#include <memory>

class PgConnectionWorker;

// The database connection the UI talks to. Every libpq call runs on a worker thread owned by this
// object, so the UI thread never blocks; results and notifications come back queued.
// open(), close(), listen(), query() are thread-safe; state() and lastError() belong to the owner
// thread (they follow stateChanged, which is delivered there).
class PgConnection final : public QObject {
    Q_OBJECT
public:
    enum class State { Disconnected, Connecting, Connected, Reconnecting, Failed };
    Q_ENUM(State)

    explicit PgConnection(QObject *parent = nullptr);
    ~PgConnection() override; // cancels a running query, closes the connection, joins the thread

    // Asynchronous. A failed attempt or a lost connection moves to Reconnecting and retries with
    // exponential backoff (250 ms doubling up to 10 s); a conninfo that cannot be parsed is Failed.
    void open(const QString &conninfo);
    void close();
    // Retry delays; tests shorten them.
    void setBackoff(int minMs, int maxMs);

    State state() const { return m_state; }
    QString lastError() const { return m_lastError; }

    // Runs on the worker, one statement at a time in issue order. `done` is invoked on `context`'s thread
    // (this object's when null), and dropped if the context is destroyed first. A query issued right
    // after open() waits for that attempt; while reconnecting or closed it fails at once with a
    // "not connected" error instead of queueing.
    void query(const QString &sql, const QVariantList &params, QObject *context,
               std::function<void(const PgResult &)> done);
    // LISTEN on the channel (escaped identifier); re-issued after every reconnect.
    void listen(const QString &channel);

Q_SIGNALS:
    void stateChanged(PgConnection::State state, const QString &detail);
    void notification(const QString &channel, const QString &payload);

private:
    void applyState(State state, const QString &detail);

    QThread m_thread;
    PgConnectionWorker *m_worker = nullptr; // lives in m_thread
    std::shared_ptr<std::atomic_bool> m_shuttingDown = std::make_shared<std::atomic_bool>(false);
    State m_state = State::Disconnected;
    QString m_lastError;
};
