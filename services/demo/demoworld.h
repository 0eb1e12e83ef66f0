#pragma once

#include "services/support/connectionprofile.h"

#include <QString>
#include <QStringList>

#include <memory>
#include <vector>

class DemoIncident;
class MockKafkaCluster;
class TempPostgres;
class DemoRequests;
class DemoTraffic;
class OutboxRelay;
class ReferenceConsumer;

// The built-in world the demo and the integration tests run against: a 3-broker mock cluster, a private
// PostgreSQL, and reference services that behave like the seed articles' consumers, with faults.
class DemoWorld final {
public:
    struct Options {
        QString dataDir;    // empty: a temporary directory
        double speed = 1.0; // traffic and consumer speed multiplier (tests warm up faster)
    };
    static constexpr const char *databaseName = "berth_demo";
    // The notifications service's own database (one database per service): email-sender's inbox.
    static constexpr const char *notificationsDatabaseName = "berth_notifications";

    DemoWorld();
    ~DemoWorld();

    // Blocking (a few seconds: initdb, topics, joins); call it before any window exists or off the UI thread.
    bool start(const Options &options, QString *error);
    void stop();

    QString bootstrapServers() const;
    QString conninfo(const QString &user = QStringLiteral("alice")) const;
    ConnectionProfile profile(const QString &user = QStringLiteral("alice")) const;
    QString connectionHelp() const; // what to paste into kcat and psql

    static QStringList groups();
    // The group the world stops after its warm-up, "for a reprocess": it has no active member then, so an
    // operator can file, approve and execute an offset reset on it (on `orders`).
    static QString reprocessGroup();
    static QStringList topics();
    MockKafkaCluster &cluster() const { return *m_cluster; }
    TempPostgres &postgres() const { return *m_postgres; }
    qint64 produced() const;
    qint64 deadLettered() const;
    qint64 duplicatesSent() const;

private:
    // After the warm-up: the incident's fix deployed, the reprocess group's consumer stopped. Called once,
    // on DemoRequests' thread.
    void endWarmUp();

    std::shared_ptr<DemoIncident> m_incident;
    std::unique_ptr<MockKafkaCluster> m_cluster;
    std::unique_ptr<TempPostgres> m_postgres;
    std::unique_ptr<DemoTraffic> m_traffic;
    std::unique_ptr<OutboxRelay> m_relay;
    std::vector<std::unique_ptr<ReferenceConsumer>> m_consumers;
    ReferenceConsumer *m_reprocessConsumer = nullptr; // one of m_consumers
    std::unique_ptr<DemoRequests> m_requests; // seeds the approval queue and the trail once dead letters exist
};
