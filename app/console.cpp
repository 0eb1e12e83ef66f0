#include "console.h"

#include "app/remediationdesk.h"
#include "models/accountingmodel.h"
#include "models/alertmodel.h"
#include "models/approvalqueuemodel.h"
#include "models/checklistmodel.h"
#include "models/connectionsmodel.h"
#include "models/desksummary.h"
#include "models/dlqbrowsermodel.h"
#include "models/grouplagmodel.h"
#include "models/inboxboardmodel.h"
#include "models/inboxrowsmodel.h"
#include "models/lagseriesstore.h"
#include "models/lagtablemodel.h"
#include "models/logmodel.h"
#include "services/accounting/accountingservice.h"
#include "services/accounting/deliverysemantics.h"
#include "services/dlq/dlqscanner.h"
#include "services/inbox/inboxkeylookup.h"
#include "services/inbox/inboxmappingset.h"
#include "services/inbox/inboxrowsquery.h"
#include "services/inbox/inboxwatch.h"
#include "services/inbox/pgconnection.h"
#include "services/monitor/alertengine.h"
#include "services/monitor/alertrules.h"
#include "services/monitor/monitorservice.h"
#include "services/payload/keymask.h"
#include "services/payload/schemacatalog.h"
#include "services/payload/schemaregistryclient.h"
#include "services/policy/policywatcher.h"
#include "services/support/logging.h"
#include "services/support/profilestore.h"
#include "services/support/secretstore.h"
#include "views/accountingview.h"
#include "views/alertview.h"
#include "views/checklistview.h"
#include "views/dlqbrowserview.h"
#include "views/dlqinspectorview.h"
#include "views/inboxboardview.h"
#include "views/inboxmappingdialog.h"
#include "views/inboxrowsview.h"
#include "views/lagchartview.h"
#include "views/lagview.h"
#include "views/logview.h"
#include "views/mainwindow.h"
#include "views/profiledialog.h"
#include "views/replayexecutionpanel.h"
#include "views/summarystrip.h"

#include <QApplication>
#include <QDir>
#include <QLocale>
#include <QSettings>
#include <QStatusBar>
#include <QSystemTrayIcon>
#include <QTableView>
#include <QTimer>

using namespace Qt::StringLiterals;

Console::Console(const ConnectionProfile &profile, QObject *parent)
    : QObject(parent)
    , m_profile(profile)
    , m_monitor(new MonitorService(this))
    , m_database(new PgConnection(this))
    , m_alerts(m_monitor->alerts())
    , m_connections(new ConnectionsModel(this))
    , m_lagModel(new LagTableModel(this))
    , m_groupModel(new GroupLagModel(this))
    , m_series(new LagSeriesStore(this))
    , m_alertModel(new AlertModel(this))
    , m_summary(new DeskSummary(this))
    , m_window(std::make_unique<MainWindow>(m_connections))
{
    buildViews();
    wireInboxBoard(); // before the policy: its mappings are applied as it loads
    wirePolicy();
    wireAlerts();
    wireKafka();
    wireDatabase();
    wireSummary();
    refreshThresholds();
}

void Console::buildViews()
{
    m_series->setRateTopics(m_profile.dlqTopics);
    m_lagView = new LagView(m_groupModel, m_lagModel);
    m_chartView = new LagChartView(m_series);
    m_window->addTab(u"lag"_s, m_lagView, tr("&Lag"));
    m_window->addTab(u"charts"_s, m_chartView, tr("&Charts"));
    m_dlqScanner = new DlqScanner(this);
    if (!m_profile.policyPath.isEmpty())
        m_dlqScanner->awaitMasking(); // nothing is read unmasked before the policy says what to mask
    wireSchemas();
    m_dlqView = new DlqBrowserView(m_dlqScanner);
    m_dlqView->setCluster(m_profile.cluster);
    // Each dead letter's key looked up in the consumers' inboxes: COMPLETED there means a replay is a no-op.
    m_inboxLookup = new InboxKeyLookup(this);
    m_dlqView->model()->setInboxLookup(m_inboxLookup);
    m_dlqView->setTopics(m_profile.dlqTopics);
    m_window->addTab(u"dlq"_s, m_dlqView, tr("&DLQ"));
    connect(m_dlqScanner, &DlqScanner::maskingChanged, m_dlqView, &DlqBrowserView::rescan);
    if (m_schemaRegistry)
        connect(m_schemaRegistry, &SchemaRegistryClient::schemaArrived, m_dlqView->inspector(),
                &DlqInspectorView::refreshPendingPayload);
    connect(m_dlqView, &DlqBrowserView::statusMessage, m_window.get(),
            [this](const QString &text) { m_window->statusBar()->showMessage(text, 10000); });
    m_inboxModel = new InboxBoardModel(this);
    m_inboxView = new InboxBoardView(m_inboxModel);
    m_window->addTab(u"inbox"_s, m_inboxView, tr("&Inbox"));
    m_inboxRowsModel = new InboxRowsModel(this);
    m_inboxRowsView = new InboxRowsView(m_inboxRowsModel);
    m_window->addTab(u"parked"_s, m_inboxRowsView, tr("&Parked"));
    // Alerts among the first nine views, so Alt+N reaches it like the others.
    m_alertView = new AlertView(m_alertModel);
    m_window->addTab(u"alerts"_s, m_alertView, tr("&Alerts"));
    m_desk = new RemediationDesk(m_profile, this); // requests, approvals, execution, audit trail
    m_desk->setSchemaCatalog(m_schemaCatalog);
    m_desk->addTo(m_window.get());
    m_desk->attachDlqBrowser(m_dlqView);
    m_desk->attachInboxRows(m_inboxRowsView);
    m_checklistModel = new ChecklistModel(this);
    m_checklistView = new ChecklistView(m_checklistModel);
    m_window->addTab(u"checklist"_s, m_checklistView, tr("C&hecklist"));
    m_accounting = new AccountingService(this);
    m_accountingModel = new AccountingModel(this);
    // The Accounting view's inspectors read through scanners of their own, masked and decoded as the DLQ
    // view's inspector is.
    for (DlqScanner *&scanner : m_accountingScanners) {
        scanner = new DlqScanner(this);
        if (!m_profile.policyPath.isEmpty())
            scanner->awaitMasking();
        scanner->setSchemaCatalog(m_schemaCatalog);
    }
    m_accountingView = new AccountingView(m_accountingModel, m_accountingScanners[0], m_accountingScanners[1]);
    m_accountingView->setCluster(m_profile.cluster);
    m_accountingView->setGroups(m_profile.namedGroups);
    for (DlqInspectorView *inspector : {m_accountingView->recordInspector(), m_accountingView->deadLetterInspector()}) {
        m_desk->attachInspector(inspector);
        if (m_schemaRegistry)
            connect(m_schemaRegistry, &SchemaRegistryClient::schemaArrived, inspector,
                    &DlqInspectorView::refreshPendingPayload);
    }
    m_window->addTab(u"accounting"_s, m_accountingView, tr("Accou&nting"));
    wireAccounting();
    connect(m_alertView, &AlertView::acknowledgeRequested, m_alerts, &AlertEngine::acknowledge);
    connect(m_alertView, &AlertView::snoozeRequested, m_alerts, [this](quint64 id, int minutes, const QString &reason) {
        m_alerts->snooze(id, QDateTime::currentMSecsSinceEpoch() + qint64(minutes) * 60000, reason);
    });
    // An alert names the main view that shows its evidence (the tab names above) and the subject there.
    connect(m_alertView, &AlertView::evidenceRequested, this, &Console::showEvidence);
    m_window->addPanel(u"log"_s, new LogView(new LogModel(LogBuffer::instance(), this)), tr("&Log"),
                       QKeySequence(Qt::CTRL | Qt::Key_L));
    m_window->setLayoutGroup(ProfileStore::layoutGroup(m_profile.name));
    connect(m_window.get(), &MainWindow::profilesRequested, this, &Console::editProfiles);
    connect(m_lagView, &LagView::groupActivated, this, [this](const QString &group) {
        m_chartView->showGroup(group);
        m_window->showView(m_chartView);
    });
    connect(m_window.get(), &MainWindow::filterRequested, this, [this](QWidget *) {
        m_window->showView(m_lagView);
        m_lagView->focusFilter();
    });
    m_lagView->restoreHeaderState(QSettings().value(u"lag/header"_s).toByteArray());
    m_dlqView->restoreState(QSettings().value(u"dlq/state"_s).toByteArray());
    m_chartView->setRangeSeconds(QSettings().value(u"charts/rangeSeconds"_s, 900).toInt());
    m_chartView->setSideIndex(QSettings().value(u"charts/side"_s, 0).toInt());
    connect(m_window.get(), &MainWindow::closing, this,
            [this] {
                QSettings settings;
                settings.setValue(u"lag/header"_s, m_lagView->saveHeaderState());
                settings.setValue(u"dlq/state"_s, m_dlqView->saveState());
                settings.setValue(u"charts/rangeSeconds"_s, m_chartView->rangeSecondsSetting());
                settings.setValue(u"charts/side"_s, m_chartView->sideIndex());
            });
}

void Console::wireSchemas()
{
    // Schemas for payloads: the profile's registry (fetched as payloads need them) and local files.
    auto catalog = std::make_shared<SchemaCatalog>();
    if (m_profile.schemaRegistry.isSet())
        m_schemaRegistry = new SchemaRegistryClient(m_profile.schemaRegistry, catalog.get(), this);
    for (const QString &spec : m_profile.schemaFiles) {
        QString error;
        if (!catalog->mapFile(spec, &error))
            qCWarning(lcDlq).noquote() << "schema file not used:" << error;
    }
    m_dlqScanner->setSchemaCatalog(catalog);
    m_schemaCatalog = std::move(catalog);
}

void Console::wirePolicy()
{
    if (m_profile.policyPath.isEmpty())
        return;
    // The policy is the team's contract: edits to the file apply to the alert thresholds at once.
    auto *watcher = new PolicyWatcher(this);
    connect(watcher, &PolicyWatcher::policyChanged, this, [this](const PolicyLoadResult &result) {
        const bool mappingsChanged = result.policy.inboxMappings() != m_policy.inboxMappings();
        m_policy = result.policy;
        m_dlqScanner->setMasking(result.policy.masking);
        for (DlqScanner *scanner : m_accountingScanners)
            scanner->setMasking(result.policy.masking);
        m_dlqView->model()->setDeliveryPolicy(m_policy); // whose inbox each dead letter is asked about
        m_desk->setMasking(result.policy);
        m_inboxRowsModel->setKeyMask(KeyMask(m_policy));
        m_inboxRowsQuery->setKeyMask(KeyMask(m_policy));
        m_accountingView->setGroups(m_policy.consumerGroups() + m_profile.namedGroups);
        applyPolicyScope();
        if (mappingsChanged)
            applyInboxMappings();
        m_thresholdsStale = true;
        refreshThresholds();
        const int slos = int(std::count_if(m_policy.consumers.cbegin(), m_policy.consumers.cend(),
                                           [](const ConsumerPolicy &c) { return c.lagSloMaxLagSeconds.has_value(); }));
        m_checklistView->setPolicySource(QDir::toNativeSeparators(m_profile.policyPath));
        refreshChecklist();
        if (!result.ok())
            m_window->statusBar()->showMessage(
                tr("Delivery policy has errors; lag SLOs from it may be incomplete: %1")
                    .arg(result.messages().value(0)), 30000);
        else
            m_window->statusBar()->showMessage(tr("Delivery policy loaded: %n lag SLO(s)", nullptr, slos), 8000);
    });
    watcher->setPath(m_profile.policyPath);
}

void Console::applyPolicyScope()
{
    // The policy's groups and DLQ topics join the profile's (MonitorService decides the scope).
    m_monitor->setPolicy(m_policy);
    m_series->setRateTopics(m_monitor->dlqTopics());
}

void Console::wireAlerts()
{
    connect(m_alerts, &AlertEngine::changed, m_alertModel, [this] { m_alertModel->setAlerts(m_alerts->alerts()); });
    auto *tray = QSystemTrayIcon::isSystemTrayAvailable() ? new QSystemTrayIcon(m_window->windowIcon(), this) : nullptr;
    if (tray)
        tray->show();
    connect(m_alerts, &AlertEngine::fired, this, [this, tray](const Alert &alert) {
        if (alert.isSnoozed(alert.firedAt.toMSecsSinceEpoch()))
            return; // silenced by an operator, with a reason the alert list shows
        const QString title = tr("Berth alert: %1 — %2").arg(alert.rule, alert.subject);
        // A desktop notification where the desktop offers one; otherwise the window asks for attention.
        if (tray)
            tray->showMessage(title, alert.message, QSystemTrayIcon::Warning);
        QApplication::alert(m_window.get());
        m_window->statusBar()->showMessage(title, 15000);
    });
    connect(m_alertModel, &QAbstractItemModel::modelReset, this, [this] {
        const int active = m_alerts->activeCount();
        m_window->setWindowTitle(active ? tr("Berth — %n active alert(s)", nullptr, active)
                                        : tr("Berth — delivery correctness console"));
    });
}

Console::~Console()
{
    m_window.reset(); // views go before the models they show
}

void Console::wireKafka()
{
    connect(m_monitor, &MonitorService::clusterUpdated, m_connections, &ConnectionsModel::setCluster);
    connect(m_monitor, &MonitorService::clusterUpdated, this, [this](const ClusterSnapshot &cluster) {
        QStringList topics;
        for (const TopicInfo &topic : cluster.topics)
            topics << topic.name;
        if (topics != m_knownTopics) { // refill the chooser only when the cluster's topics change
            m_knownTopics = topics;
            m_dlqView->setTopics(topics);
        }
    });
    connect(m_monitor, &MonitorService::sampled, this, &Console::onSample);
    connect(m_monitor, &MonitorService::stateChanged, this, [this](LagSampler::State state, const QString &detail) {
        const QString bootstrap = KafkaConfig::bootstrapOf(m_profile.cluster);
        switch (state) {
        case LagSampler::State::Idle:
        case LagSampler::State::Connecting:
            m_connections->setClusterHealth(ConnectionsModel::Health::Unknown, tr("connecting…"), detail);
            m_window->setKafkaStatus(tr("Kafka: connecting to %1…").arg(bootstrap));
            break;
        case LagSampler::State::Connected:
            m_connections->setClusterHealth(ConnectionsModel::Health::Good, tr("connected"), bootstrap);
            m_window->setKafkaStatus(tr("Kafka: connected to %1").arg(bootstrap));
            m_window->setBanner(MainWindow::BannerKind::None, {});
            break;
        case LagSampler::State::Degraded:
            m_connections->setClusterHealth(ConnectionsModel::Health::Degraded, tr("degraded"), detail);
            m_window->setKafkaStatus(tr("Kafka: degraded (%1)").arg(bootstrap));
            m_window->setBanner(MainWindow::BannerKind::Warning,
                                tr("Kafka cluster %1 answered only in part; figures may be incomplete.\n%2")
                                    .arg(bootstrap, detail));
            break;
        case LagSampler::State::Rejected:
            m_connections->setClusterHealth(ConnectionsModel::Health::Down, tr("settings rejected"), detail);
            m_window->setKafkaStatus(tr("Kafka: settings rejected"));
            m_window->setBanner(MainWindow::BannerKind::Error,
                                tr("librdkafka rejected the cluster settings — fix the profile and reconnect.\n%1")
                                    .arg(detail));
            break;
        case LagSampler::State::Unreachable:
            m_connections->setClusterHealth(ConnectionsModel::Health::Down, tr("unreachable"), detail);
            m_window->setKafkaStatus(tr("Kafka: unreachable (%1)").arg(bootstrap));
            m_window->setBanner(MainWindow::BannerKind::Error,
                                tr("Kafka cluster unreachable — the lag shown is from the last good sample, "
                                   "and Berth keeps retrying.\n%1")
                                    .arg(detail));
            break;
        }
    });
    connect(m_window.get(), &MainWindow::refreshRequested, m_monitor, &MonitorService::sampleNow);

    MonitorService::Settings monitor;
    LagSampler::Settings &settings = monitor.sampler;
    settings.namedGroups = m_profile.namedGroups;
    settings.extraTopics = m_profile.dlqTopics;
    settings.cluster = m_profile.cluster;
    settings.intervalMs = m_profile.sampleIntervalMs;
    settings.evaluation.rules.allowedLag = QSettings().value(u"lag/allowedLag"_s, 0).toLongLong();
    m_lagView->setAllowedLag(settings.evaluation.rules.allowedLag);
    connect(m_lagView, &LagView::allowedLagChanged, this, [this](qint64 messages) {
        LagEvaluation evaluation = m_monitor->settings().sampler.evaluation;
        evaluation.rules.allowedLag = messages;
        m_monitor->setEvaluation(evaluation);
        QSettings().setValue(u"lag/allowedLag"_s, messages);
    });
    monitor.duplicateTopics = m_profile.duplicateTopics;
    connect(m_monitor, &MonitorService::duplicatesUpdated, this, [this](const DuplicateStats &stats) {
        QStringList parts;
            for (auto it = stats.topics.cbegin(); it != stats.topics.cend(); ++it)
                parts << tr("%1 %2/min (%3 %)").arg(it.key()).arg(it->duplicateRatePerMinute, 0, 'f', 0)
                             .arg(it->duplicatePercent, 0, 'f', 1);
            parts.sort();
            const qint64 now = QDateTime::currentMSecsSinceEpoch();
            for (auto it = stats.topics.cbegin(); it != stats.topics.cend(); ++it)
                m_duplicatePercent.insert(it.key(), it->duplicatePercent);
            for (auto it = stats.topics.cbegin(); it != stats.topics.cend(); ++it)
                m_series->appendSide(LagSeriesStore::Side::Duplicates, it.key(),
                                     QDateTime::fromMSecsSinceEpoch(now), it->duplicateRatePerMinute);
            m_lagView->setDuplicates(stats.error.isEmpty()
                                         ? tr("Duplicate idempotency keys arriving, last minute: %1").arg(parts.join(u"   "))
                                         : tr("Duplicate counting unavailable: %1").arg(stats.error));
    });
    m_monitor->start(monitor);
    m_series->setRateTopics(m_monitor->dlqTopics());
}

void Console::wireInboxBoard()
{
    m_inboxRowsQuery = new InboxRowsQuery(this);
    connect(m_inboxRowsView, &InboxRowsView::refreshRequested, m_inboxRowsQuery,
            [this](const InboxMapping &mapping, const QList<InboxState> &states, const QString &text) {
                m_inboxRowsQuery->fetch(mapping, states, text);
            });
    connect(m_inboxRowsQuery, &InboxRowsQuery::pageReady, m_inboxRowsModel, &InboxRowsModel::setPage);
    // F5 reads every live source now, not only the lag (ARCHITECTURE.md, Views: live views).
    connect(m_window.get(), &MainWindow::refreshRequested, m_inboxRowsView, &InboxRowsView::requestRefresh);
    connect(m_window.get(), &MainWindow::refreshRequested, m_monitor, &MonitorService::refreshAllInboxes);
    // The monitor reads every mapped table on its own clock (alerts per mapping); the view shows the
    // selected one's latest board.
    connect(m_inboxView, &InboxBoardView::refreshRequested, m_monitor, &MonitorService::refreshInbox);
    connect(m_inboxView, &InboxBoardView::editMappingsRequested, this, &Console::editInboxMappings);
    connect(m_inboxView, &InboxBoardView::reclaimRequested, this,
            [this](const QString &consumer) { m_desk->openReclaimDialog(consumer, m_inboxView); });
    connect(m_lagView, &LagView::resetOffsetsRequested, this,
            [this](const QString &group, const QStringList &topics) {
                m_desk->openOffsetResetDialog(group, topics, m_lagView);
            });
    connect(m_monitor, &MonitorService::boardReady, this, [this](const InboxBoard &board) {
        if (board.mappingName == m_inboxView->currentMapping().name)
            m_inboxView->setBoard(board);
        if (board.ok()) {
            for (const InboxConsumerCounts &consumer : board.consumers) {
                m_parkedRows.insert(consumer.consumer, consumer.count(InboxState::Parked)
                                                           + consumer.count(InboxState::FailedTerminal));
                if (board.hasExhausted)
                    m_exhaustedRows.insert(consumer.consumer, consumer.exhausted);
            }
            refreshChecklist(); // the inbox rows are evidence too
            for (const InboxConsumerCounts &consumer : board.consumers)
                m_series->appendSide(LagSeriesStore::Side::InboxFailures, consumer.consumer, board.takenAt,
                                     double(InboxBoard::failedRows(consumer.counts)));
            const double redeliveries = m_inboxModel->redeliveriesPerMinute();
            if (redeliveries >= 0 && board.mappingName == m_inboxView->currentMapping().name)
                m_series->appendSide(LagSeriesStore::Side::Duplicates, tr("inbox redeliveries (%1)").arg(board.table),
                                     board.takenAt, redeliveries);
        }
    });
    applyInboxMappings(); // the profile's; the policy's are applied when it loads (wirePolicy)
}

void Console::showEvidence(const QString &view, const QString &subject)
{
    if (view == u"charts" && !subject.isEmpty())
        m_chartView->showGroup(subject);
    else if (view == u"dlq" && !subject.isEmpty())
        m_dlqView->setTopic(subject);
    for (const MainWindow::MainView &main : m_window->mainViews()) {
        if (main.name == view)
            m_window->showView(main.widget);
    }
}

void Console::wireSummary()
{
    m_summaryStrip = new SummaryStrip;
    m_window->followSummary(m_summary, m_summaryStrip);
    m_summary->follow(m_monitor, m_alerts);
    m_summary->followApprovals(m_desk->queueModel());
    connect(m_inboxRowsView, &InboxRowsView::mappingChosen, m_summary, &DeskSummary::setParkedFocus);
    m_summary->setParkedFocus(m_inboxRowsView->currentMapping());
    connect(m_summaryStrip, &SummaryStrip::viewRequested, this, &Console::showEvidence);
}

void Console::wireAccounting()
{
    // The request comes from the policy (its DLQ topic, key, isolation level, inbox and sequence field).
    connect(m_accountingView, &AccountingView::runRequested, this,
            [this](const QString &group, const QString &topic, const QString &from, const QString &to) {
                AccountingRequest request = AccountingRequest::fromPolicy(
                    m_policy,
                    InboxMappingSet::resolve(m_policy.inboxMappings(), m_profile.inboxMappings,
                                             m_profile.databaseConninfo, m_profile.databases),
                    group, topic);
                request.cluster = m_profile.cluster;
                request.from = from;
                request.to = to;
                m_accounting->start(request);
            });
    connect(m_monitor, &MonitorService::orderTailUpdated, m_accountingView, &AccountingView::setOrderTail);
    connect(m_accountingView, &AccountingView::cancelRequested, m_accounting, &AccountingService::cancel);
    connect(m_accounting, &AccountingService::progress, m_accountingView, &AccountingView::setProgress);
    connect(m_accounting, &AccountingService::finished, this, [this](const AccountingResultPtr &result) {
        m_accountingView->setResult(result);
        if (!result->error.isEmpty() || result->cancelled)
            return;
        m_monitor->observeAccounting(*result);
        if (const ConsumerPolicy *consumer = m_policy.consumer(result->group)) {
            const DeliverySemanticsVerdict verdict =
                DeliverySemantics::classify(*consumer, m_policy.topic(result->topic), result.get());
            ConsumerEvidence shown;
            DeliverySemantics::addToEvidence(verdict, &shown);
            m_semantics.insert(result->group, {shown.deliverySemantics, shown.semanticsContradictions});
            m_accountingView->setSemantics(shown.deliverySemantics, shown.semanticsContradictions);
            refreshChecklist();
        } else {
            m_accountingView->setSemantics(tr("%1 is not in the delivery policy: no promise to check.").arg(result->group), {});
        }
    });
    connect(m_accountingView, &AccountingView::exportRequested, this,
            [this](const QList<AccountClass> &classes, bool csv, const QString &path) {
                m_accounting->exportRecords(m_accountingModel->result(), classes,
                                            csv ? AccountingService::ExportFormat::Csv
                                                : AccountingService::ExportFormat::JsonLines,
                                            path);
            });
    connect(m_accounting, &AccountingService::exported, m_accountingView, &AccountingView::showExported);
    connect(m_accountingView, &AccountingView::replayRequested, this,
            [this](const QList<DlqSelection> &records) {
                const AccountingResultPtr result = m_accountingModel->result();
                m_desk->openRequestDialog(records, result ? result->group : QString(), m_accountingView);
            });
}

void Console::applyInboxMappings()
{
    // The policy's mappings win over the profile's (ARCHITECTURE.md, Contracts: Inbox mapping).
    const InboxMappingSet set = InboxMappingSet::resolve(m_policy.inboxMappings(), m_profile.inboxMappings,
                                                         m_profile.databaseConninfo, m_profile.databases);
    m_inboxLookup->setMappingSet(set);
    m_inboxRowsQuery->setMappingSet(set);
    m_inboxView->setMappings(set.mappings);
    m_inboxRowsView->setMappings(set.mappings);
    m_desk->setInboxMappings(set);
    m_monitor->setInboxMappings(set);
    m_inboxRowsView->requestRefresh();
    wireServiceDatabases(set);
    for (const QString &note : set.notes)
        m_window->statusBar()->showMessage(note, 15000);
    if (set.isEmpty())
        m_inboxView->setBoard(InboxBoard{});
}

void Console::wireServiceDatabases(const InboxMappingSet &set)
{
    // One connection per service database beside the default one, each with its own row and state.
    QStringList inUse = set.conninfos();
    inUse.removeAll(m_profile.databaseConninfo);
    for (auto it = m_serviceDatabases.begin(); it != m_serviceDatabases.end();) {
        if (inUse.contains(it.key())) {
            ++it;
            continue;
        }
        it.value()->deleteLater();
        it = m_serviceDatabases.erase(it);
    }
    m_connections->keepInboxDatabases(inUse);
    for (const QString &conninfo : std::as_const(inUse)) {
        const QString title = set.databaseTitle(conninfo);
        if (m_serviceDatabases.contains(conninfo)) {
            m_connections->setInboxDatabase(conninfo, title, ConnectionsModel::Health::Unknown, tr("connecting…"), {});
            continue;
        }
        auto *connection = new PgConnection(this);
        m_serviceDatabases.insert(conninfo, connection);
        m_connections->setInboxDatabase(conninfo, title, ConnectionsModel::Health::Unknown, tr("connecting…"), {});
        connect(connection, &PgConnection::stateChanged, this,
                [this, conninfo, title](PgConnection::State state, const QString &detail) {
                    using Health = ConnectionsModel::Health;
                    const bool up = state == PgConnection::State::Connected;
                    const bool trying = state == PgConnection::State::Connecting;
                    m_connections->setInboxDatabase(conninfo, title,
                                                    up ? Health::Good : trying ? Health::Unknown : Health::Down,
                                                    up ? tr("connected") : trying ? tr("connecting…") : tr("unavailable"),
                                                    detail);
                });
        connection->open(conninfo);
    }
}

void Console::onSample(const LagSnapshot &snapshot)
{
    if (!snapshot.reachable)
        return; // keep showing the last good numbers; the banner says why they are old
    m_lagModel->setSnapshot(snapshot);
    m_groupModel->setSnapshot(snapshot);
    m_series->append(snapshot);
    m_connections->setGroups(snapshot.groups, snapshot.groupSource);
    m_lastSample = snapshot;
    refreshChecklist();
    refreshThresholds();
    qint64 total = 0;
    int troubled = 0;
    for (const auto &group : snapshot.groupRows) {
        total += group.lag;
        troubled += group.status != LagStatus::Ok;
    }
    m_lagView->setSummary(tr("%n group(s), %1 not OK, total lag %2 — sampled %3 in %4 ms", nullptr,
                             int(snapshot.groupRows.size()))
                              .arg(troubled)
                              .arg(QLocale().toString(total),
                                   QLocale().toString(snapshot.takenAt.toLocalTime().time(), QLocale::ShortFormat))
                              .arg(snapshot.durationMs));
}

void Console::refreshThresholds()
{
    QStringList groups = m_lastSample.groups;
    for (const QString &group : m_policy.consumerGroups()) {
        if (!groups.contains(group))
            groups.append(group);
    }
    const QStringList dlqTopics = m_monitor->dlqTopics();
    if (groups == m_thresholdGroups && dlqTopics == m_thresholdTopics && !m_thresholdsStale)
        return; // rebuilt only when the scope or the policy changes
    m_thresholdGroups = groups;
    m_thresholdTopics = dlqTopics;
    m_thresholdsStale = false;
    m_alertView->setThresholds(m_monitor->rules().thresholds(groups, dlqTopics));
}

void Console::refreshChecklist()
{
    // Evidence from the latest sample, duplicate tail and inbox boards, against the policy's answers.
    ChecklistEvidence evidence;
    evidence.clusterKnown = m_lastSample.reachable;
    evidence.clusterTopics = m_knownTopics;
    for (const ConsumerPolicy &consumer : std::as_const(m_policy.consumers)) {
        ConsumerEvidence live;
        for (const GroupLag &group : std::as_const(m_lastSample.groupRows)) {
            if (group.group == consumer.name && group.partitions > 0) {
                live.groupSeen = true;
                live.lagStatus = lagStatusName(group.status);
                live.maxTimeLagMs = group.maxTimeLagMs;
            }
        }
        if (!consumer.dlqTopic.isEmpty() && m_lastSample.topicRatePerMinute.contains(consumer.dlqTopic))
            live.dlqRatePerMinute = m_lastSample.topicRatePerMinute.value(consumer.dlqTopic);
        live.dlqTopicExists = m_knownTopics.contains(consumer.dlqTopic);
        for (const QString &topic : consumer.topics) {
            if (m_duplicatePercent.contains(topic))
                live.duplicatePercent = std::max(live.duplicatePercent, m_duplicatePercent.value(topic));
        }
        live.parkedRows = m_parkedRows.value(consumer.name, -1);
        live.exhaustedRows = m_exhaustedRows.value(consumer.name, -1);
        live.lagP95Ms = m_monitor->rules().lagSlo().p95Ms(consumer.name);
        live.retriesExhausted = m_monitor->rules().retriesExhausted().recentCount(consumer.name);
        if (!consumer.dlqTopic.isEmpty())
            live.deserializationFailures = m_monitor->rules().deserialization().recentCount(consumer.dlqTopic);
        if (const auto semantics = m_semantics.constFind(consumer.name); semantics != m_semantics.cend()) {
            live.deliverySemantics = semantics->first;
            live.semanticsContradictions = semantics->second;
        }
        evidence.groups.insert(consumer.name, live);
    }
    m_checklistModel->setChecklists(evaluateChecklists(m_policy, evidence));
}

void Console::wireDatabase()
{
    const QString label = m_profile.databaseLabel.isEmpty() ? tr("Inbox database") : m_profile.databaseLabel;
    if (m_profile.databaseConninfo.isEmpty()) {
        m_connections->setDatabase(label, ConnectionsModel::Health::Unknown, tr("not configured"), {});
        m_window->setDatabaseStatus(tr("Database: not configured"));
        return;
    }
    connect(m_database, &PgConnection::stateChanged, this, [this, label](PgConnection::State state, const QString &detail) {
        using Health = ConnectionsModel::Health;
        switch (state) {
        case PgConnection::State::Connected:
            m_connections->setDatabase(label, Health::Good, tr("connected"), detail);
            m_window->setDatabaseStatus(tr("Database: connected"));
            break;
        case PgConnection::State::Connecting:
            m_connections->setDatabase(label, Health::Unknown, tr("connecting…"), detail);
            m_window->setDatabaseStatus(tr("Database: connecting…"));
            break;
        case PgConnection::State::Reconnecting:
        case PgConnection::State::Failed:
            m_connections->setDatabase(label, Health::Down, tr("unavailable"), detail);
            m_window->setDatabaseStatus(tr("Database: unavailable — retrying (%1)").arg(detail.section(u'\n', 0, 0)));
            break;
        case PgConnection::State::Disconnected:
            m_connections->setDatabase(label, Health::Unknown, tr("disconnected"), detail);
            m_window->setDatabaseStatus(tr("Database: disconnected"));
            break;
        }
    });
    m_database->open(m_profile.databaseConninfo);
}

void Console::editProfiles()
{
    ProfileStore store;
    auto *secrets = new SecretStore(QStringLiteral("Berth"), this);
    ProfileDialog dialog(&store, secrets, m_window.get());
    dialog.showProfileInUse(m_profile);
    std::optional<ConnectionProfile> chosen;
    connect(&dialog, &ProfileDialog::connectRequested, this, [&chosen](const ConnectionProfile &p) { chosen = p; });
    dialog.exec();
    secrets->deleteLater();
    // Announced once the dialog is gone: the host replaces this console, dialog and all.
    if (chosen)
        Q_EMIT profileChosen(*chosen);
}

void Console::editInboxMappings(const QString &selected)
{
    // The editor edits the profile's mappings; the policy's are named so the dialog can say they win.
    QStringList policyNames;
    for (const InboxMapping &m : m_policy.inboxMappings())
        policyNames << m.name;
    const InboxMappingSet databases =
        InboxMappingSet::resolve({}, {}, m_profile.databaseConninfo, m_profile.databases);
    InboxMappingDialog dialog(databases, m_profile.inboxMappings, policyNames, m_window.get());
    dialog.explorer()->setKeyMask(KeyMask(m_policy));
    dialog.selectMapping(selected);
    if (dialog.exec() != QDialog::Accepted)
        return;
    m_profile.inboxMappings = dialog.mappings();
    if (!ProfileStore().saveInboxMappings(m_profile.name, m_profile.inboxMappings))
        m_window->statusBar()->showMessage(tr("Inbox mappings apply to this session only: profile “%1” is not stored.")
                                        .arg(m_profile.name), 15000);
    applyInboxMappings();
}

void Console::show()
{
    m_window->show();
}

void Console::writeScreenshots(const QString &dir, int warmUpMs)
{
    // Fresh inbox figures for the picture, rather than the reading taken while the world was empty, and
    // a scan of the first dead-letter topic so the DLQ desk has rows.
    QTimer::singleShot(std::max(0, warmUpMs - 2000), m_monitor, &MonitorService::refreshAllInboxes);
    QTimer::singleShot(std::max(0, warmUpMs - 2000), m_inboxRowsView, &InboxRowsView::requestRefresh);
    m_chartView->setRangeSeconds(300); // a short warm-up fills five minutes better than fifteen
    QTimer::singleShot(std::max(0, warmUpMs - 3000), m_dlqView, [this] {
        if (!m_profile.dlqTopics.isEmpty())
            m_dlqView->setTopic(m_profile.dlqTopics.first());
        m_dlqView->startScan();
    });
    // An accounting of the policy's first consumer, so the Accounting view shows a real window.
    QTimer::singleShot(std::max(0, warmUpMs - 3000), m_accountingView, [this] {
        for (const ConsumerPolicy &consumer : std::as_const(m_policy.consumers)) {
            if (consumer.topics.isEmpty())
                continue;
            m_accountingView->groupBox()->setCurrentText(consumer.name);
            m_accountingView->topicEdit()->setText(consumer.topics.first());
            m_accountingView->runButton()->click();
            break;
        }
    });
    // The executed request open in the Execution panel, so its picture shows a run and its verification.
    QTimer::singleShot(std::max(0, warmUpMs - 1500), this, [this] {
        if (!m_desk || !m_desk->executionPanel())
            return;
        ReplayExecutionPanel *panel = m_desk->executionPanel();
        const QString completed = ApprovalQueueModel::statusText(RequestStatus::Completed);
        for (int row = 0; row < panel->table()->rowCount(); ++row) {
            const QTableWidgetItem *id = panel->table()->item(row, 0);
            const QTableWidgetItem *status = panel->table()->item(row, 2);
            if (id && status && status->text() == completed) {
                panel->selectRequest(id->text().toLongLong());
                break;
            }
        }
    });
    // One dead letter open in the inspector (it fetches the record, so ahead of the picture).
    QTimer::singleShot(std::max(0, warmUpMs - 1500), m_dlqView, [this] {
        if (m_dlqView->table()->model()->rowCount() > 0)
            m_dlqView->table()->selectRow(0);
    });
    QTimer::singleShot(warmUpMs, this, [this, dir] {
        if (!QDir().mkpath(dir)) {
            Q_EMIT screenshotsDone(false, tr("Cannot create %1").arg(dir));
            return;
        }
        QStringList written;
        const QPixmap whole = m_window->grab();
        const QString wholePath = QDir(dir).filePath(u"console.png"_s);
        if (!whole.save(wholePath)) {
            Q_EMIT screenshotsDone(false, tr("Cannot write %1").arg(wholePath));
            return;
        }
        written << wholePath;
        // Tabs first: a panel shown for its picture would otherwise sit in every later one.
        QList<MainWindow::MainView> views = m_window->mainViews();
        std::stable_partition(views.begin(), views.end(), [](const MainWindow::MainView &v) { return v.isTab; });
        for (const auto &view : std::as_const(views)) {
            m_window->showView(view.widget);
            QCoreApplication::processEvents(); // a panel just shown needs its layout before the picture
            const QString path = QDir(dir).filePath(view.name + u".png");
            if (!(view.isTab ? m_window->grab() : view.widget->grab()).save(path)) {
                Q_EMIT screenshotsDone(false, tr("Cannot write %1").arg(path));
                return;
            }
            written << path;
        }
        Q_EMIT screenshotsDone(true, written.join(u'\n'));
    });
}
