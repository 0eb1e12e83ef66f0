#pragma once

#include "services/audit/audittypes.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

class PgSession;
struct PgResult;

// Requests, approvals and audit events in the audit database, over one open PgSession (borrowed; it must
// outlive the store). Every call blocks on the network: worker threads, the command line and tests only.
//
// The database is the authority: it records who (session_user), enforces four eyes, legal status changes,
// expiry, and writes the audit events of every change itself. This class only phrases requests and reads
// answers; a refusal comes back as the database's own message in *error (and its SQLSTATE in
// lastSqlState(): 42501 not allowed, 55000 not in a state that allows it). Every value is a $n parameter.
class AuditStore final {
public:
    static constexpr int ItemBatchSize = 2000; // items per INSERT statement (one audit event each)
    static constexpr int DefaultDetailItems = 10'000;

    explicit AuditStore(PgSession &session)
        : m_db(session)
    {
    }

    std::optional<AuditIdentity> identity(QString *error = nullptr);

    // A request with its items, in one transaction (a savepoint inside the caller's). Returns the new id,
    // 0 on failure.
    qint64 createRequest(const NewRemediationRequest &request, QString *error = nullptr);
    bool approve(qint64 requestId, const QString &comment, QString *error = nullptr);
    bool reject(qint64 requestId, const QString &comment, QString *error = nullptr);
    // Cancel, and the executor's steps (executing, completed, partially_failed); the database decides.
    bool setStatus(qint64 requestId, RequestStatus status, QString *error = nullptr);
    // Marks overdue pending/approved requests expired (berth.expire_overdue_requests); their ids.
    QList<qint64> expireOverdue(QString *error = nullptr);

    // Newest first.
    QList<RemediationRequest> listRequests(const RequestFilter &filter, QString *error = nullptr);
    QList<RemediationRequest> pendingRequests(QString *error = nullptr);
    std::optional<RequestDetail> requestDetail(qint64 requestId, QString *error = nullptr,
                                               int maxItems = DefaultDetailItems);
    // Items with itemNo > afterItemNo, in order.
    QList<RequestItem> items(qint64 requestId, int afterItemNo, int limit, QString *error = nullptr);

    // An event of Berth's own (verify, export, pause...). Actions are lower case, dotted
    // ("chain.verified"); the database's journal actions (request.*, approval.*, intent.*, disposition.*)
    // are refused. requestId 0: none. Returns the event's seq, 0 on failure.
    qint64 appendEvent(const QString &action, qint64 requestId, const QJsonObject &details,
                       QString *error = nullptr);
    // The audit event a reveal of one masked record needs before it may be shown (ARCHITECTURE.md,
    // Contracts: masking): its coordinates, the masked field paths ("$.customer.email", "header:x-email",
    // "key") and the operator's reason, never the values. The database refuses it unless the session's role
    // is a member of berth_revealer. Returns the event's seq, 0 on failure.
    qint64 recordReveal(const QString &topic, int partition, qint64 offset, const QStringList &fields,
                        const QString &reason, QString *error = nullptr);
    // The same on a connection of its own (blocking: a JobTracker job). Returns the seq, 0 and *error.
    static qint64 recordReveal(const QString &conninfo, const QString &topic, int partition, qint64 offset,
                               const QStringList &fields, const QString &reason, QString *error);
    // Oldest first; page on with filter.afterSeq = the last seq returned.
    QList<AuditEvent> listEvents(const EventFilter &filter, QString *error = nullptr);

    QString lastSqlState() const { return m_lastSqlState; }

private:
    PgResult run(const QString &sql, const QVariantList &params, QString *error);
    bool insertItems(qint64 requestId, const QList<RequestItem> &items, QString *error);
    bool decide(qint64 requestId, bool approve, const QString &comment, QString *error);

    PgSession &m_db;
    QString m_lastSqlState;
    bool m_lastOk = true;
};
