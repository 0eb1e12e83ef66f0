#pragma once

#include "services/inbox/inboxmappingset.h"

#include "models/remediationtasks.h"
#include "services/support/connectionprofile.h"
#include "services/support/jobtracker.h"

#include <QJsonObject>
#include <QObject>
#include <QPointer>

class ApprovalQueueModel;
class ApprovalQueueView;
class AuditTrailModel;
class AuditTrailQuery;
class AuditTrailView;
class AuditWatcher;
class DlqBrowserView;
class DlqInspectorView;
class DlqScanner;
class InboxRowsView;
class MainWindow;
class ReplayExecutionPanel;
class PlannedRequestDialog;
class ReplayJob;
class ReplayRequestDialog;

// The remediation desk's composition: the request dialog opened from the DLQ browser and the parked rows,
// the audit database's live approval queue, the execution of approved requests, and the trail, each from
// service to model to view. The audit database is the profile's database, as this desk's role: identity is
// the database login, never a name typed in. Built on its own (tests) or added to the console's window.
class RemediationDesk final : public QObject {
    Q_OBJECT
public:
    explicit RemediationDesk(const ConnectionProfile &profile, QObject *parent = nullptr);
    ~RemediationDesk() override; // deletes the views unless a window took them

    // Adds the "approvals", "execution" and "audit" tabs, restores their layout and saves it when the window
    // closes.
    void addTo(MainWindow *window);
    // "Request replay / skip…" in the DLQ browser and "Skip / delete…" in the parked rows open this desk's
    // request dialog.
    void attachDlqBrowser(DlqBrowserView *view);
    // The inspector's reveals are recorded in the audit database before it shows them.
    void attachInspector(DlqInspectorView *inspector);
    void attachInboxRows(InboxRowsView *view);
    // The inbox mappings in force (policy and profile): dry runs, skips and deletes use these.
    void setInboxMappings(const InboxMappingSet &set) { m_inboxMappings = set; }
    // The policy's masking rules: the approver's view of an original payload is masked like the DLQ view's,
    // and a request's items' keys as the policy says (the policy's consumers tell a DLQ's original topics).
    void setMasking(const DeliveryPolicy &policy);
    // The console's schemas: the editor and the approver's diff decode with them, an edit is encoded with them.
    void setSchemaCatalog(std::shared_ptr<SchemaCatalog> catalog);
    // A non-modal request dialog for these records or inbox rows (deleted when closed).
    ReplayRequestDialog *openRequestDialog(const QList<DlqSelection> &records, QWidget *parent = nullptr);
    // A topic's own records that `consumer` committed past or dead-lettered (the Accounting view's).
    ReplayRequestDialog *openRequestDialog(const QList<DlqSelection> &records, const QString &consumer,
                                           QWidget *parent);
    ReplayRequestDialog *openRequestDialog(const QList<QJsonObject> &inboxRows, QWidget *parent = nullptr);
    ReplayRequestDialog *requestDialog() const; // the last one opened, while it is open
    // "Reset offsets…" of a group (Lag view) and "Reclaim stuck rows…" of a consumer (Inbox view): a
    // non-modal request dialog with its preview (deleted when closed).
    PlannedRequestDialog *openOffsetResetDialog(const QString &group, const QStringList &topics,
                                                QWidget *parent = nullptr);
    PlannedRequestDialog *openReclaimDialog(const QString &consumer, QWidget *parent = nullptr);
    RemediationSetup setup() const;

    AuditWatcher *watcher() const { return m_watcher; }
    AuditTrailQuery *trailQuery() const { return m_trailQuery; }
    ApprovalQueueModel *queueModel() const { return m_queueModel; }
    AuditTrailModel *trailModel() const { return m_trailModel; }
    ApprovalQueueView *queueView() const;
    AuditTrailView *trailView() const;
    ReplayExecutionPanel *executionPanel() const;
    ReplayJob *replayJob() const { return m_replay; }

Q_SIGNALS:
    // A request filed from any of this desk's dialogs (DLQ, Accounting, Parked, Lag, Inbox): the approval
    // queue and the Execution panel read it at once, not only when the database's notification arrives.
    void requestFiled(qint64 requestId);

private:
    void wireQueue();
    void wireTrail();
    void wireExecution();
    void refreshExecutable();
    void adoptDialog(ReplayRequestDialog *dialog);
    void adoptDialog(PlannedRequestDialog *dialog);

    ConnectionProfile m_profile;
    InboxMappingSet m_inboxMappings;
    AuditWatcher *m_watcher;
    AuditTrailQuery *m_trailQuery;
    DlqScanner *m_records; // reads the original of an edited payload, for the diff
    std::shared_ptr<SchemaCatalog> m_schemas;
    KeyMask m_keyMask;
    QSet<QString> m_revealed; // records whose reveal the audit database recorded in this session
    RequestDetail m_reviewed; // the request on the approval queue's screen
    ApprovalQueueModel *m_queueModel;
    AuditTrailModel *m_trailModel;
    QPointer<ApprovalQueueView> m_queueView;
    QPointer<AuditTrailView> m_trailView;
    QPointer<ReplayExecutionPanel> m_executionPanel;
    QPointer<ReplayRequestDialog> m_dialog;
    QStringList m_topics; // destinations offered by the dialog, from the DLQ browser's chooser
    ReplayJob *m_replay;
    JobTracker m_listings{this};
    JobTracker m_runbooks{this};
    JobTracker m_verifications{this}; // after a replay: one pass at a time until decided or the deadline
    JobTracker m_storedVerifications{this}; // the recorded verification of the request selected
    void verifyPass(qint64 requestId, qint64 deadlineMs);
    qint64 m_executingId = 0;  // the request the replay job runs
    bool m_autoSelect = false; // in a window: select the longest-waiting request once, for the reviewer
    JobTracker m_exports{this};
    JobTracker m_reveals{this}; // recording a reveal of masked values before it is shown
    QString m_exportPath;
    bool m_trailRead = false;
};
