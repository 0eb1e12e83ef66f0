#pragma once

#include "services/audit/audittypes.h"
#include "services/payload/keymask.h"

#include <QAbstractTableModel>
#include <QDateTime>

// The pending remediation requests of the audit database, newest first, as one desk sees them: who
// asked, how long ago, until when, what the dry run predicted. Updates are merged by request id, so a live
// refresh keeps the operator's selection and scroll position. Whether this desk may decide a request is
// answered here for the buttons; the database has the last word either way.
class ApprovalQueueModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Id,
        Action,
        Requester,
        Items,
        Age,
        Expires,
        Approvals,
        DryRun,
        Reason,
        Ticket,
        ColumnCount
    };
    static constexpr int SortRole = Qt::UserRole + 1;
    static constexpr int RequestIdRole = Qt::UserRole + 2;

    explicit ApprovalQueueModel(QObject *parent = nullptr);

    // databaseNow: the database's clock when the list was read; ages and expiry are measured on it.
    void setRequests(const QList<RemediationRequest> &requests, const QDateTime &databaseNow = {});
    void setIdentity(const AuditIdentity &identity);
    const AuditIdentity &identity() const { return m_identity; }
    // Ages move on without a database read: the view calls this every few seconds.
    void tick();

    QDateTime now() const; // the database's clock, estimated
    int rowOf(qint64 requestId) const;
    const RemediationRequest *request(int row) const;
    const QList<RemediationRequest> &requests() const { return m_requests; }

    struct Permission {
        bool allowed = false;
        QString why; // when not allowed: one sentence for the tooltip and the status line
    };
    Permission mayDecide(const RemediationRequest &request) const;

    // The policy's masking: what of a request's items the approver is shown (RequestMask).
    void setKeyMask(const KeyMask &mask) { m_keyMask = mask; }
    const KeyMask &keyMask() const { return m_keyMask; }
    // A request as the approver may see it: its items' keys and idempotency keys masked as the policy says,
    // and the dry run's words without them. The view is handed this, never the request as stored.
    RequestDetail shown(const RequestDetail &detail) const;

    // The dry run stored with a request: one line for the table, and the whole of it for the detail pane.
    static QString dryRunSummary(const QJsonObject &dryRun);
    static QString dryRunDetails(const QJsonObject &dryRun);
    static QString actionText(RemediationAction action);
    // A request's status in the interface's language (the database's words stay in the CLI and exports).
    static QString statusText(RequestStatus status);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QString cellText(const RemediationRequest &r, int column) const;

    QList<RemediationRequest> m_requests; // id descending
    AuditIdentity m_identity;
    KeyMask m_keyMask;
    qint64 m_clockOffsetMs = 0; // database clock minus this machine's
};
