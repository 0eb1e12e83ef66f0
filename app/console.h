#pragma once

#include "services/monitor/lagsampler.h"
#include "services/monitor/lagsnapshot.h"
#include "services/policy/deliverypolicy.h"
#include "services/support/connectionprofile.h"

#include <QHash>
#include <QObject>

#include <memory>

class AlertEngine;
class AlertModel;
class ChecklistModel;
class ChecklistView;
class ConnectionsModel;
class DlqBrowserView;
class DlqScanner;
class GroupLagModel;
class InboxBoardModel;
class InboxBoardQuery;
class InboxKeyLookup;
struct InboxMappingSet;
class InboxRowsQuery;
class InboxWatch;
class RemediationDesk;
class InboxBoardView;
class InboxRowsModel;
class InboxRowsView;
class LagChartView;
class LagSampler;
class LagSeriesStore;
class LagTableModel;
class LagView;
class MainWindow;
class PgConnection;

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
    void wirePolicy();
    void wireAlerts();
    void wireInboxBoard();
    void applyInboxMappings();
    void wireServiceDatabases(const InboxMappingSet &set);
    void onSample(const LagSnapshot &snapshot);
    void refreshChecklist();
    void editProfiles();
    void applyPolicyScope();

    ConnectionProfile m_profile;
    LagSampler *m_sampler;
    PgConnection *m_database;
    AlertEngine *m_alerts;
    ConnectionsModel *m_connections;
    LagTableModel *m_lagModel;
    GroupLagModel *m_groupModel;
    LagSeriesStore *m_series;
    AlertModel *m_alertModel;
    QHash<QString, qint64> m_sloSeconds; // per group, from the delivery policy
    LagSampler::Settings m_samplerSettings; // groups and DLQ topics: the profile's plus the policy's
    bool m_samplerStarted = false;
    std::unique_ptr<MainWindow> m_window;
    LagView *m_lagView = nullptr;
    LagChartView *m_chartView = nullptr;
    DlqScanner *m_dlqScanner = nullptr;
    DlqBrowserView *m_dlqView = nullptr;
    QStringList m_knownTopics;
    ChecklistModel *m_checklistModel = nullptr;
    ChecklistView *m_checklistView = nullptr;
    DeliveryPolicy m_policy;
    LagSnapshot m_lastSample;
    QHash<QString, double> m_duplicatePercent; // by topic, last minute
    QHash<QString, qint64> m_parkedRows;       // by consumer: parked + failed terminal inbox rows
    InboxBoardModel *m_inboxModel = nullptr;
    InboxWatch *m_inboxWatch = nullptr;
    QHash<QString, PgConnection *> m_serviceDatabases; // by conninfo: the services' own inbox databases
    InboxKeyLookup *m_inboxLookup = nullptr;
    InboxRowsQuery *m_inboxRowsQuery = nullptr;
    RemediationDesk *m_desk = nullptr;
    InboxBoardView *m_inboxView = nullptr;
    InboxRowsModel *m_inboxRowsModel = nullptr;
    InboxRowsView *m_inboxRowsView = nullptr;
};
