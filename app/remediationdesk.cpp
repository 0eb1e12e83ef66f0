#include "remediationdesk.h"

#include "services/audit/auditstore.h"
#include "views/dlqinspectorview.h"

#include "models/approvalqueuemodel.h"
#include "models/audittrailexport.h"
#include "models/audittrailmodel.h"
#include "services/audit/audittrailquery.h"
#include "services/audit/auditwatcher.h"
#include "services/dlq/dlqheadercodec.h"
#include "services/dlq/dlqscanner.h"
#include "services/remediation/editedpayload.h"
#include "services/remediation/replayjob.h"
#include "views/approvalqueueview.h"
#include "views/audittrailview.h"
#include "views/dlqbrowserview.h"
#include "views/inboxrowsview.h"
#include "views/mainwindow.h"
#include "views/replayexecutionpanel.h"
#include "views/plannedrequestdialog.h"
#include "views/replayrequestdialog.h"

#include <QSettings>
#include <QStatusBar>

using namespace Qt::StringLiterals;

RemediationDesk::RemediationDesk(const ConnectionProfile &profile, QObject *parent)
    : QObject(parent)
    , m_profile(profile)
    // The profile's own mappings until the console hands over the policy's (setInboxMappings).
    , m_inboxMappings(InboxMappingSet::resolve({}, profile.inboxMappings, profile.databaseConninfo, profile.databases))
    , m_watcher(new AuditWatcher(this))
    , m_trailQuery(new AuditTrailQuery(this))
    , m_records(new DlqScanner(this))
    , m_queueModel(new ApprovalQueueModel(this))
    , m_trailModel(new AuditTrailModel(this))
    , m_queueView(new ApprovalQueueView(m_queueModel))
    , m_trailView(new AuditTrailView(m_trailModel))
    , m_executionPanel(new ReplayExecutionPanel)
    , m_replay(new ReplayJob(this))
{
    m_trailQuery->setConninfo(m_profile.databaseConninfo);
    if (!m_profile.policyPath.isEmpty())
        m_records->awaitMasking(); // the policy's masking before any original payload is shown
    wireQueue();
    wireTrail();
    wireExecution();
    // Every filing path ends in this one signal (adoptDialog); the lists follow it here.
    connect(this, &RemediationDesk::requestFiled, m_watcher, &AuditWatcher::refresh);
    connect(this, &RemediationDesk::requestFiled, this, &RemediationDesk::refreshExecutable);
    m_watcher->open(m_profile.databaseConninfo);
}

RemediationDesk::~RemediationDesk()
{
    // Views go before the models they show; a window that took them has deleted them already.
    delete m_dialog.data();
    delete m_queueView.data();
    delete m_executionPanel.data();
    delete m_trailView.data();
}

ReplayExecutionPanel *RemediationDesk::executionPanel() const
{
    return m_executionPanel;
}

ReplayRequestDialog *RemediationDesk::requestDialog() const
{
    return m_dialog;
}

RemediationSetup RemediationDesk::setup() const
{
    RemediationSetup setup;
    setup.cluster = m_profile.cluster;
    setup.auditConninfo = m_profile.databaseConninfo;
    // The profile's database holds the consumers' inboxes as well as the audit schema.
    setup.inboxConninfo = m_profile.databaseConninfo;
    setup.policyPath = m_profile.policyPath;
    setup.inboxMappings = m_inboxMappings;
    setup.schemas = m_schemas;
    setup.keyMask = m_keyMask;
    setup.revealed = m_revealed;
    return setup;
}

ApprovalQueueView *RemediationDesk::queueView() const
{
    return m_queueView;
}

AuditTrailView *RemediationDesk::trailView() const
{
    return m_trailView;
}

void RemediationDesk::addTo(MainWindow *window)
{
    m_autoSelect = true; // an operator's desk opens on the longest-waiting request
    window->addTab(u"approvals"_s, m_queueView, tr("Appr&ovals"));
    window->addTab(u"execution"_s, m_executionPanel, tr("E&xecution"));
    window->addTab(u"audit"_s, m_trailView, tr("A&udit trail"));
    m_queueView->restoreState(QSettings().value(u"approvals/state"_s).toByteArray());
    m_trailView->restoreState(QSettings().value(u"audit/state"_s).toByteArray());
    m_executionPanel->restoreState(QSettings().value(u"execution/state"_s).toByteArray());
    connect(window, &MainWindow::closing, this, [this] {
        QSettings settings;
        if (m_queueView)
            settings.setValue(u"approvals/state"_s, m_queueView->saveState());
        if (m_executionPanel)
            settings.setValue(u"execution/state"_s, m_executionPanel->saveState());
        if (m_trailView)
            settings.setValue(u"audit/state"_s, m_trailView->saveState());
    });
    connect(m_trailView, &AuditTrailView::statusMessage, window,
            [window](const QString &text) { window->statusBar()->showMessage(text, 15000); });
}

void RemediationDesk::wireQueue()
{
    connect(m_watcher, &AuditWatcher::stateChanged, this,
            [this](AuditWatcher::State state, const QString &detail) {
                switch (state) {
                case AuditWatcher::State::Connected: {
                    // The identity arrived just before (the worker reports it first).
                    const AuditIdentity &who = m_watcher->identity();
                    QStringList roles;
                    if (who.isOperator)
                        roles << tr("operator");
                    if (who.isApprover)
                        roles << tr("approver");
                    m_queueView->setConnectionState(
                        tr("Audit database: connected and live, as %1 (%2)")
                            .arg(who.role, roles.isEmpty() ? tr("no Berth role") : roles.join(u", "_s)),
                        true);
                }
                    // The first read waits for the schema check on connect, so a fresh database is migrated
                    // first.
                    if (!m_trailRead) {
                        m_trailRead = true;
                        m_trailView->requestRefresh();
                        refreshExecutable();
                    }
                    break;
                case AuditWatcher::State::Connecting:
                    m_queueView->setConnectionState(tr("Audit database: connecting…"), false);
                    break;
                case AuditWatcher::State::Reconnecting:
                    m_queueView->setConnectionState(
                        tr("Audit database unavailable, retrying: %1").arg(detail), false);
                    break;
                case AuditWatcher::State::Disconnected:
                    m_queueView->setConnectionState(tr("Audit database: %1").arg(detail), false);
                    break;
                }
            });
    connect(m_watcher, &AuditWatcher::identityChanged, m_queueModel, &ApprovalQueueModel::setIdentity);
    connect(m_watcher, &AuditWatcher::queueChanged, m_queueModel,
            [this](const QList<RemediationRequest> &pending, const QDateTime &now) {
                m_queueModel->setRequests(pending, now);
                if (m_autoSelect && !pending.isEmpty() && m_queueView->currentRequestId() == 0) {
                    m_autoSelect = false;
                    m_queueView->selectRequest(pending.constLast().id);
                }
            });
    connect(m_watcher, &AuditWatcher::queueFailed, m_queueView, [this](const QString &error) {
        m_queueView->setConnectionState(tr("Could not read the approval queue: %1").arg(error), false);
    });
    connect(m_queueView, &ApprovalQueueView::refreshRequested, m_watcher, &AuditWatcher::refresh);
    connect(m_queueView, &ApprovalQueueView::detailWanted, m_watcher, &AuditWatcher::fetchDetail);
    connect(m_watcher, &AuditWatcher::detailReady, m_queueView, [this](const RequestDetail &detail) {
        m_reviewed = detail; // its edits are decoded for the diff when their originals arrive
        m_queueView->setDetail(m_queueModel->shown(detail));
    });
    connect(m_watcher, &AuditWatcher::detailFailed, m_queueView, &ApprovalQueueView::setDetailError);
    connect(m_queueView, &ApprovalQueueView::decisionRequested, m_watcher, &AuditWatcher::decide);
    connect(m_watcher, &AuditWatcher::decisionFinished, m_queueView, &ApprovalQueueView::showDecisionOutcome);

    connect(m_queueView, &ApprovalQueueView::originalPayloadWanted, this,
            [this](const QString &topic, int partition, qint64 offset) {
                if (m_profile.cluster.isEmpty())
                    m_queueView->setOriginalPayload(topic, partition, offset, {},
                                                    tr("no Kafka cluster is configured for this desk"));
                else
                    m_records->fetchRecord(m_profile.cluster, topic, partition, offset);
            });
    connect(m_records, &DlqScanner::recordFetched, m_queueView, [this](const DlqFetchedRecord &fetched) {
        // A value with masked fields has its bytes hidden, and a schema payload's bytes are binary: the
        // display JSON stands for it, and the edits of its items are shown the same way.
        const bool shownAsJson = fetched.mask.rawHidden || fetched.payload.kind == DecodedPayload::Kind::Schema;
        QHash<int, QByteArray> editedShown;
        const QString originalTopic = decodeDlqHeaders(fetched.record.headers).originalTopic;
        for (const RequestItem &item : std::as_const(m_reviewed.items)) {
            if (item.editedPayload && item.sourceTopic == fetched.topic && item.sourcePartition == fetched.partition
                && item.sourceOffset == fetched.offset)
                editedShown.insert(item.itemNo, EditedPayload::shownForReview(*item.editedPayload, fetched.topic,
                                                                              originalTopic, m_schemas.get(),
                                                                              m_keyMask.policy().masking));
        }
        m_queueView->setOriginalPayload(fetched.topic, fetched.partition, fetched.offset,
                                        shownAsJson ? fetched.payload.json : fetched.record.value, fetched.error,
                                        fetched.valueSha256, editedShown);
    });
}

void RemediationDesk::setMasking(const DeliveryPolicy &policy)
{
    m_records->setMasking(policy.masking);
    m_keyMask = KeyMask(policy);
    m_queueModel->setKeyMask(m_keyMask);
    m_trailModel->setKeyMask(m_keyMask);
}

void RemediationDesk::setSchemaCatalog(std::shared_ptr<SchemaCatalog> catalog)
{
    m_records->setSchemaCatalog(catalog);
    m_schemas = std::move(catalog);
}

void RemediationDesk::wireTrail()
{
    connect(m_trailView, &AuditTrailView::fetchRequested, m_trailQuery, &AuditTrailQuery::fetch);
    connect(m_trailQuery, &AuditTrailQuery::pageReady, m_trailModel, &AuditTrailModel::setPage);
    // Another desk changed a request: its journal rows are new at the end of the log.
    connect(m_watcher, &AuditWatcher::requestsChanged, m_trailView, &AuditTrailView::requestTail);
    connect(m_trailView, &AuditTrailView::verifyRequested, m_trailQuery, &AuditTrailQuery::verify);
    connect(m_trailView, &AuditTrailView::verifyCancelRequested, m_trailQuery,
            &AuditTrailQuery::cancelVerify);
    connect(m_trailQuery, &AuditTrailQuery::verifyProgress, m_trailView, &AuditTrailView::setVerifyProgress);
    connect(m_trailQuery, &AuditTrailQuery::verified, m_trailView, [this](const ChainVerification &result) {
        m_trailView->showVerification(result);
        m_trailView->requestTail(); // the verification itself was recorded
    });
    connect(m_trailView, &AuditTrailView::exportRequested, this,
            [this](const QString &path, const EventFilter &filter) {
                m_exportPath = path;
                m_exports.start(
                    [conninfo = m_profile.databaseConninfo, filter, path,
                     mask = m_queueModel->keyMask()](const JobControl &control) {
                        return AuditTrailExport::writeAndRecord(conninfo, filter, path, control, mask);
                    },
                    [this, path](const AuditTrailExport::Outcome &outcome) {
                        m_trailView->showExportResult(path, outcome.rows, outcome.error);
                        m_trailView->requestTail();
                    },
                    [this](qint64 rows, qint64) { m_trailView->setExportProgress(rows); });
            });
    connect(m_trailView, &AuditTrailView::exportCancelRequested, this, [this] {
        m_exports.cancel();
        m_trailView->showExportResult(m_exportPath, 0, tr("cancelled"));
    });
}

void RemediationDesk::wireExecution()
{
    // Any desk's change to a request (approved elsewhere, executed, cancelled) may change what runs here.
    connect(m_watcher, &AuditWatcher::requestsChanged, this, &RemediationDesk::refreshExecutable);
    connect(m_executionPanel, &ReplayExecutionPanel::refreshRequested, this,
            &RemediationDesk::refreshExecutable);
    connect(m_executionPanel, &ReplayExecutionPanel::executeRequested, this, [this](qint64 id, int canary) {
        ReplayOptions options;
        options.canaryCount = canary;
        options.inboxMappings = m_inboxMappings;
        // The inbox rows a skip or delete names live in the profile's database: the audit session serves.
        m_executingId = id;
        if (!m_replay->start(m_profile.databaseConninfo, m_profile.cluster, id, options))
            m_executionPanel->setStartRefused(tr("Another run is still going on this desk."));
    });
    connect(m_executionPanel, &ReplayExecutionPanel::pauseRequested, m_replay, &ReplayJob::pause);
    connect(m_executionPanel, &ReplayExecutionPanel::resumeRequested, m_replay, &ReplayJob::resume);
    connect(m_executionPanel, &ReplayExecutionPanel::cancelRequested, m_replay, [this] {
        m_replay->resume(); // a paused run wakes up to see the cancel
        m_replay->cancel();
    });
    connect(m_replay, &ReplayJob::progressed, m_executionPanel, &ReplayExecutionPanel::setProgress);
    connect(m_replay, &ReplayJob::finished, m_executionPanel, [this](const ReplayOutcome &outcome) {
        const qint64 id = m_executingId;
        m_executionPanel->setOutcome(outcome);
        m_trailView->requestTail();
        // A replay that delivered something is followed to its consumer (ARCHITECTURE.md, Data flows:
        // Remediation): a pass at a time, shown as it goes, for up to two minutes.
        if (outcome.started && outcome.delivered > 0 && id > 0)
            verifyPass(id, QDateTime::currentMSecsSinceEpoch() + 120'000);
    });
    connect(m_executionPanel, &ReplayExecutionPanel::storedVerificationRequested, this, [this](qint64 id) {
        m_storedVerifications.start(
            [conninfo = m_profile.databaseConninfo, id](const JobControl &) {
                return RemediationTasks::storedVerification(conninfo, id);
            },
            [this](const RemediationTasks::StoredVerification &stored) {
                m_executionPanel->setStoredVerification(stored.requestId, stored.verification, stored.error);
            });
    });
    connect(m_executionPanel, &ReplayExecutionPanel::runbookRequested, this,
            [this](qint64 id, const QString &path) {
                m_runbooks.start(
                    [conninfo = m_profile.databaseConninfo,
                     bootstrap = KafkaConfig::bootstrapOf(m_profile.cluster), id, path,
                     mask = m_queueModel->keyMask()](const JobControl &) {
                        return RemediationTasks::writeRunbook(conninfo, id, bootstrap, path, mask);
                    },
                    [this](const RemediationTasks::RunbookWritten &written) {
                        m_executionPanel->showRunbookResult(written.path, written.error);
                    });
            });
}

void RemediationDesk::verifyPass(qint64 requestId, qint64 deadlineMs)
{
    const bool final = QDateTime::currentMSecsSinceEpoch() >= deadlineMs;
    m_verifications.start(
        [setup = setup(), requestId, final](const JobControl &control) {
            // A short wait per pass: the panel shows each item's outcome as it becomes known.
            return RemediationTasks::verify(setup, requestId, 2000, final, control);
        },
        [this, requestId, deadlineMs, final](const ReplayVerification &v) {
            const bool done = final || !v.error.isEmpty() || v.result != VerificationResult::Unverified;
            m_executionPanel->setVerification(v, done);
            if (done)
                m_trailView->requestTail();
            else
                verifyPass(requestId, deadlineMs);
        });
}

void RemediationDesk::refreshExecutable()
{
    if (m_profile.databaseConninfo.isEmpty())
        return;
    m_listings.start([conninfo = m_profile.databaseConninfo](
                         const JobControl &) { return RemediationTasks::listForExecution(conninfo); },
                     [this](const RemediationTasks::ExecutionListing &listing) {
                         if (!listing.error.isEmpty())
                             m_executionPanel->setListingError(listing.error);
                         else
                             m_executionPanel->setListing(listing.requests, listing.identity);
                     });
}

void RemediationDesk::attachDlqBrowser(DlqBrowserView *view)
{
    attachInspector(view->inspector());
    connect(view, &DlqBrowserView::remediationRequested, this,
            [this, view](const QList<DlqSelection> &records) {
                m_topics = view->knownTopics();
                openRequestDialog(records, view);
            });
}

void RemediationDesk::attachInspector(DlqInspectorView *inspector)
{
    // A reveal is shown only once the audit database has recorded it (and so allowed it).
    connect(inspector, &DlqInspectorView::revealRequested, this,
            [this, inspector](const QString &topic, int partition, qint64 offset, const QStringList &fields,
                              const QString &reason) {
                m_reveals.start(
                    [conninfo = m_profile.databaseConninfo, topic, partition, offset, fields, reason](const JobControl &) {
                        QString error;
                        if (conninfo.isEmpty())
                            error = tr("no audit database: a reveal must be recorded");
                        else
                            AuditStore::recordReveal(conninfo, topic, partition, offset, fields, reason, &error);
                        return error;
                    },
                    [this, inspector, key = topic + u'/' + QString::number(partition) + u'/' + QString::number(offset)](
                        const QString &error) {
                        if (error.isEmpty()) {
                            m_revealed.insert(key); // an edit of it may change its masked fields
                            inspector->showRevealed();
                        } else {
                            inspector->showRevealRefused(error);
                        }
                    });
            });
}

void RemediationDesk::attachInboxRows(InboxRowsView *view)
{
    connect(view, &InboxRowsView::remediationRequested, this,
            [this, view](const QList<QJsonObject> &rows) { openRequestDialog(rows, view); });
}

ReplayRequestDialog *RemediationDesk::openRequestDialog(const QList<DlqSelection> &records, QWidget *parent)
{
    auto *dialog = new ReplayRequestDialog(setup(), records, parent ? parent->window() : nullptr);
    dialog->setTopics(m_topics);
    adoptDialog(dialog);
    return dialog;
}

ReplayRequestDialog *RemediationDesk::openRequestDialog(const QList<DlqSelection> &records,
                                                        const QString &consumer, QWidget *parent)
{
    auto *dialog = new ReplayRequestDialog(setup(), records, consumer, parent ? parent->window() : nullptr);
    dialog->setTopics(m_topics);
    adoptDialog(dialog);
    return dialog;
}

ReplayRequestDialog *RemediationDesk::openRequestDialog(const QList<QJsonObject> &inboxRows, QWidget *parent)
{
    auto *dialog = new ReplayRequestDialog(setup(), inboxRows, parent ? parent->window() : nullptr);
    adoptDialog(dialog);
    return dialog;
}

PlannedRequestDialog *RemediationDesk::openOffsetResetDialog(const QString &group, const QStringList &topics,
                                                             QWidget *parent)
{
    auto *dialog = PlannedRequestDialog::offsetReset(setup(), group, topics, parent ? parent->window() : nullptr);
    adoptDialog(dialog);
    return dialog;
}

PlannedRequestDialog *RemediationDesk::openReclaimDialog(const QString &consumer, QWidget *parent)
{
    auto *dialog = PlannedRequestDialog::reclaim(setup(), consumer, parent ? parent->window() : nullptr);
    adoptDialog(dialog);
    return dialog;
}

void RemediationDesk::adoptDialog(ReplayRequestDialog *dialog)
{
    // Non-modal: the desk keeps running while the operator reads the dry run.
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &ReplayRequestDialog::submitted, this, &RemediationDesk::requestFiled);
    m_dialog = dialog;
    dialog->show();
}

void RemediationDesk::adoptDialog(PlannedRequestDialog *dialog)
{
    connect(dialog, &PlannedRequestDialog::submitted, this, &RemediationDesk::requestFiled);
    dialog->show();
}
