#pragma once

#include "services/monitor/lagsampler.h"
#include "services/monitor/lagsnapshot.h"
#include "services/policy/deliverypolicy.h"
#include "services/support/connectionprofile.h"

#include <QHash>
#include <QObject>

#include <array>
#include <memory>

class AccountingModel;
class AccountingService;
class AccountingView;
class AlertEngine;
class AlertModel;
class AlertView;
class ChecklistModel;
class ChecklistView;
class ConnectionsModel;
class DeskSummary;
class DlqBrowserView;
class DlqScanner;
class SchemaCatalog;
class SchemaRegistryClient;
class GroupLagModel;
class InboxBoardModel;
class InboxBoardQuery;
class InboxKeyLookup;
struct InboxMappingSet;
class InboxRowsQuery;
class RemediationDesk;
class InboxBoardView;
class InboxRowsModel;
class InboxRowsView;
class LagChartView;
class MonitorService;
class LagSeriesStore;
class LagTableModel;
class LagView;
class MainWindow;
class PgConnection;
class SummaryStrip;

// The composition root: services -> models -> views, wired here and nowhere else.
class Console final : public QObject {
    Q_OBJECT
public:
    explicit Console(const ConnectionProfile &profile, QObject *parent = nullptr);
    ~Console() override;

    void show();
    MainWindow *window() const { return m_window.get(); }
    LagTableModel *lagModel() const { return m_lagModel; }
    GroupLagModel *groupModel() const { return m_groupModel; }
    AlertEngine *alerts() const { return m_alerts; }
    // Writes one PNG per main view into dir once the first samples have arrived; then emits screenshotsDone.
    void writeScreenshots(const QString &dir, int warmUpMs);

Q_SIGNALS:
    void screenshotsDone(bool ok, const QString &message);
    // The operator picked another profile: the host replaces this console with one for it.
    void profileChosen(const ConnectionProfile &profile);

private:
    void buildViews();
    void wireKafka();
    void wireDatabase();
    void wireSchemas();
    void wirePolicy();
    void wireAlerts();
    void wireInboxBoard();
    void wireAccounting();
    void wireSummary();
    // Shows a main view by name (the tab names), and the subject in it: a group's chart, a DLQ topic.
    void showEvidence(const QString &view, const QString &subject);
    void applyInboxMappings();
    void wireServiceDatabases(const InboxMappingSet &set);
    void onSample(const LagSnapshot &snapshot);
    void refreshChecklist();
    void refreshThresholds();
    void editProfiles();
    void editInboxMappings(const QString &selected);
    void applyPolicyScope();

    ConnectionProfile m_profile;
    MonitorService *m_monitor; // sampler, tails, inbox boards and alert rules, shared with `berth watch`
    PgConnection *m_database;
    AlertEngine *m_alerts;
    ConnectionsModel *m_connections;
    LagTableModel *m_lagModel;
    GroupLagModel *m_groupModel;
    LagSeriesStore *m_series;
    AlertModel *m_alertModel;
    AlertView *m_alertView = nullptr;
    DeskSummary *m_summary;
    SummaryStrip *m_summaryStrip = nullptr;
    QStringList m_thresholdGroups; // the scope the thresholds list was built for
    QStringList m_thresholdTopics;
    bool m_thresholdsStale = true;
    std::unique_ptr<MainWindow> m_window;
    LagView *m_lagView = nullptr;
    LagChartView *m_chartView = nullptr;
    DlqScanner *m_dlqScanner = nullptr;
    std::shared_ptr<SchemaCatalog> m_schemaCatalog;
    SchemaRegistryClient *m_schemaRegistry = nullptr;
    DlqBrowserView *m_dlqView = nullptr;
    QStringList m_knownTopics;
    ChecklistModel *m_checklistModel = nullptr;
    ChecklistView *m_checklistView = nullptr;
    DeliveryPolicy m_policy;
    AccountingService *m_accounting = nullptr;
    AccountingModel *m_accountingModel = nullptr;
    AccountingView *m_accountingView = nullptr;
    std::array<DlqScanner *, 2> m_accountingScanners{}; // the Accounting view's record and dead-letter inspectors
    QHash<QString, QPair<QString, QStringList>> m_semantics; // group -> accounting verdict, contradictions
    LagSnapshot m_lastSample;
    QHash<QString, double> m_duplicatePercent; // by topic, last minute
    QHash<QString, qint64> m_parkedRows;       // by consumer: parked + failed terminal inbox rows
    QHash<QString, qint64> m_exhaustedRows;    // by consumer: failed rows at retry.maxAttempts (boards that count them)
    InboxBoardModel *m_inboxModel = nullptr;
    QHash<QString, PgConnection *> m_serviceDatabases; // by conninfo: the services' own inbox databases
    InboxKeyLookup *m_inboxLookup = nullptr;
    InboxRowsQuery *m_inboxRowsQuery = nullptr;
    RemediationDesk *m_desk = nullptr;
    InboxBoardView *m_inboxView = nullptr;
    InboxRowsModel *m_inboxRowsModel = nullptr;
    InboxRowsView *m_inboxRowsView = nullptr;
};
