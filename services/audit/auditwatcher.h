#pragma once

#include "services/audit/audittypes.h"

#include <QDateTime>
#include <QList>
#include <QObject>
#include <QThread>

class AuditWatcherWorker;

// What became of an approve or reject: the database's own words when it refused.
struct AuditDecisionOutcome {
    qint64 requestId = 0;
    bool approve = false;
    bool ok = false;
    QString error;    // the database's message, verbatim
    QString sqlState; // 42501: not allowed (e.g. own request), 55000: not in a state that allows it
};

// The approval queue of one desk, live. A worker thread holds its own audit database session, which
// LISTENs on `berth_requests` (004_journal_and_notify.sql): any desk's change to a request or its
// approvals arrives as a notification, and the pending requests are read again, so no desk has to refresh
// by hand. Decisions and request details go over the same session. On connect the audit schema is
// brought up to date (AuditMigrator), and a lost connection is retried with backoff.
// Every public call is asynchronous and thread-safe; signals arrive on this object's thread.
class AuditWatcher final : public QObject {
    Q_OBJECT
public:
    enum class State { Disconnected, Connecting, Connected, Reconnecting };
    Q_ENUM(State)

    static inline const QString Channel = QStringLiteral("berth_requests");

    explicit AuditWatcher(QObject *parent = nullptr);
    ~AuditWatcher() override; // closes the session and joins the thread

    void open(const QString &conninfo);
    void setBackoff(int minMs, int maxMs); // retry delays; tests shorten them
    void refresh();                        // read the queue again now
    void fetchDetail(qint64 requestId);
    // The database decides whether this session may: a refusal comes back in decisionFinished.
    void decide(qint64 requestId, bool approve, const QString &comment);

    State state() const { return m_state; }
    const AuditIdentity &identity() const { return m_identity; }

Q_SIGNALS:
    void stateChanged(AuditWatcher::State state, const QString &detail);
    void identityChanged(const AuditIdentity &identity);
    // The pending requests, newest first, and the database's clock when read (ages are measured on it).
    void queueChanged(const QList<RemediationRequest> &pending, const QDateTime &databaseNow);
    void queueFailed(const QString &error);
    // A notification arrived: some desk changed a request (the audit trail may want to re-read too).
    void requestsChanged();
    void detailReady(const RequestDetail &detail);
    void detailFailed(qint64 requestId, const QString &error);
    void decisionFinished(const AuditDecisionOutcome &outcome);

private:
    friend class AuditWatcherWorker;
    // Worker -> owner thread; everything the worker reports goes through here.
    void post(std::function<void()> call);

    QThread m_thread;
    AuditWatcherWorker *m_worker = nullptr; // lives in m_thread
    State m_state = State::Disconnected;
    AuditIdentity m_identity;
};
