#include "remediationdesk.h"

#include "models/approvalqueuemodel.h"
#include "models/audittrailexport.h"
#include "models/audittrailmodel.h"
#include "services/audit/audittrailquery.h"
#include "services/audit/auditwatcher.h"
#include "services/dlq/dlqscanner.h"
#include "views/approvalqueueview.h"
#include "views/audittrailview.h"
#include "views/mainwindow.h"

#include <QSettings>
#include <QStatusBar>

using namespace Qt::StringLiterals;

RemediationDesk::RemediationDesk(const ConnectionProfile &profile, QObject *parent)
    : QObject(parent)
    , m_profile(profile)
    , m_watcher(new AuditWatcher(this))
    , m_trailQuery(new AuditTrailQuery(this))
    , m_records(new DlqScanner(this))
    , m_queueModel(new ApprovalQueueModel(this))
    , m_trailModel(new AuditTrailModel(this))
    , m_queueView(new ApprovalQueueView(m_queueModel))
    , m_trailView(new AuditTrailView(m_trailModel))
{
    m_trailQuery->setConninfo(m_profile.databaseConninfo);
    wireQueue();
    wireTrail();
    m_watcher->open(m_profile.databaseConninfo);
}

RemediationDesk::~RemediationDesk()
{
    // Views go before the models they show; a window that took them has deleted them already.
    delete m_queueView.data();
    delete m_trailView.data();
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
    window->addTab(u"approvals"_s, m_queueView, tr("Appr&ovals"));
    window->addTab(u"audit"_s, m_trailView, tr("A&udit trail"));
    m_queueView->restoreState(QSettings().value(u"approvals/state"_s).toByteArray());
    m_trailView->restoreState(QSettings().value(u"audit/state"_s).toByteArray());
    connect(window, &MainWindow::closing, this, [this] {
        QSettings settings;
        if (m_queueView)
            settings.setValue(u"approvals/state"_s, m_queueView->saveState());
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
            });
    connect(m_watcher, &AuditWatcher::queueFailed, m_queueView, [this](const QString &error) {
        m_queueView->setConnectionState(tr("Could not read the approval queue: %1").arg(error), false);
    });
    connect(m_queueView, &ApprovalQueueView::refreshRequested, m_watcher, &AuditWatcher::refresh);
    connect(m_queueView, &ApprovalQueueView::detailWanted, m_watcher, &AuditWatcher::fetchDetail);
    connect(m_watcher, &AuditWatcher::detailReady, m_queueView, &ApprovalQueueView::setDetail);
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
        m_queueView->setOriginalPayload(fetched.topic, fetched.partition, fetched.offset,
                                        fetched.record.value, fetched.error);
    });
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
                    [conninfo = m_profile.databaseConninfo, filter, path](const JobControl &control) {
                        return AuditTrailExport::writeAndRecord(conninfo, filter, path, control);
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
