#pragma once

#include "services/support/connectionprofile.h"
#include "services/support/jobtracker.h"

#include <QObject>
#include <QPointer>

class ApprovalQueueModel;
class ApprovalQueueView;
class AuditTrailModel;
class AuditTrailQuery;
class AuditTrailView;
class AuditWatcher;
class DlqScanner;
class MainWindow;

// The remediation desk's composition: the audit database's live approval queue and its trail, each from
// service to model to view. The audit database is the profile's database, as this desk's role: identity is
// the database login, never a name typed in. Built on its own (tests) or added to the console's window.
class RemediationDesk final : public QObject {
    Q_OBJECT
public:
    explicit RemediationDesk(const ConnectionProfile &profile, QObject *parent = nullptr);
    ~RemediationDesk() override; // deletes the views unless a window took them

    // Adds the "approvals" and "audit" tabs, restores their layout and saves it when the window closes.
    void addTo(MainWindow *window);

    AuditWatcher *watcher() const { return m_watcher; }
    AuditTrailQuery *trailQuery() const { return m_trailQuery; }
    ApprovalQueueModel *queueModel() const { return m_queueModel; }
    AuditTrailModel *trailModel() const { return m_trailModel; }
    ApprovalQueueView *queueView() const;
    AuditTrailView *trailView() const;

private:
    void wireQueue();
    void wireTrail();

    ConnectionProfile m_profile;
    AuditWatcher *m_watcher;
    AuditTrailQuery *m_trailQuery;
    DlqScanner *m_records; // reads the original of an edited payload, for the diff
    ApprovalQueueModel *m_queueModel;
    AuditTrailModel *m_trailModel;
    QPointer<ApprovalQueueView> m_queueView;
    QPointer<AuditTrailView> m_trailView;
    JobTracker m_exports{this};
    QString m_exportPath;
    bool m_trailRead = false;
};
