#include "demoworld.h"

#include "demoincident.h"
#include "demorequests.h"
#include "demotraffic.h"
#include "emailsender.h"
#include "mockkafkacluster.h"
#include "orderprojection.h"
#include "outboxrelay.h"
#include "paymentcapture.h"
#include "temppostgres.h"
#include "services/audit/auditmigrator.h"
#include "services/policy/policyloader.h"
#include "services/support/logging.h"

#include <QFile>

using namespace Qt::StringLiterals;

namespace {
struct TopicSpec {
    const char16_t *name;
    int partitions;
};
constexpr TopicSpec topicSpecs[] = {
    {u"orders", 6}, {u"orders-dlt", 6}, {u"payments", 3}, {u"payments-dlq", 3}, {u"payment-events", 3},
    {u"notifications", 3}, {u"error.notifications.email-sender", 3}, {u"dlq-warehouse-sink", 1},
};
}

// The schema lives in the services library's resources; a static library's resources must be pulled in.
static void initResources()
{
    Q_INIT_RESOURCE(services);
}

DemoWorld::DemoWorld()
{
    initResources();
}

DemoWorld::~DemoWorld()
{
    stop();
}

QStringList DemoWorld::groups()
{
    return {u"connect-warehouse-sink"_s, u"email-sender"_s, u"order-projection"_s, u"payment-capture"_s};
}

QString DemoWorld::reprocessGroup()
{
    return u"connect-warehouse-sink"_s;
}

QStringList DemoWorld::topics()
{
    QStringList names;
    for (const auto &spec : topicSpecs)
        names << QString::fromUtf16(spec.name);
    return names;
}

bool DemoWorld::start(const Options &options, QString *error)
{
    m_cluster = std::make_unique<MockKafkaCluster>(3);
    if (!m_cluster->isValid()) {
        *error = m_cluster->error();
        return false;
    }
    for (const auto &spec : topicSpecs) {
        if (!m_cluster->createTopic(QString::fromUtf16(spec.name), spec.partitions)) {
            *error = u"Cannot create topic "_s + QString::fromUtf16(spec.name);
            return false;
        }
    }

    m_postgres = std::make_unique<TempPostgres>(options.dataDir);
    if (!m_postgres->start(error))
        return false;
    const QString db = QString::fromLatin1(databaseName);
    const bool fresh = m_postgres->exec(u"CREATE DATABASE "_s + db);
    if (fresh) {
        QFile schema(u":/berth/sql/demo_schema.sql"_s);
        if (!schema.open(QIODevice::ReadOnly)) {
            *error = u"The demo schema is missing from the resources"_s;
            return false;
        }
        PgSession setup;
        if (!setup.connect(m_postgres->conninfo(u"postgres"_s, db), error)
            || !setup.execScript(QString::fromUtf8(schema.readAll()), error))
            return false;
    }
    const QString notifyDb = QString::fromLatin1(notificationsDatabaseName);
    if (m_postgres->exec(u"CREATE DATABASE "_s + notifyDb)) {
        QFile schema(u":/berth/sql/demo_notifications.sql"_s);
        PgSession setup;
        if (!schema.open(QIODevice::ReadOnly) || !setup.connect(m_postgres->conninfo(u"postgres"_s, notifyDb), error)
            || !setup.execScript(QString::fromUtf8(schema.readAll()), error))
            return false;
    }
    {
        // The audit schema is an administrator's job (operators may not create schemas), done here as
        // the superuser, and on every start so a kept data directory gets newer migrations too.
        PgSession admin;
        if (!admin.connect(m_postgres->conninfo(u"postgres"_s, db), error))
            return false;
        const AuditMigrationOutcome audit = AuditMigrator::migrate(admin);
        if (!audit.ok) {
            *error = u"The audit schema could not be created: "_s + audit.error;
            return false;
        }
    }

    const KafkaProperties cluster = m_cluster->clientProperties();
    const QString serviceDb = m_postgres->conninfo(u"postgres"_s, db);
    const auto config = [&](const QString &group, const QString &topic, const QString &dlq, bool withDb) {
        return ReferenceConsumer::Config{group, topic, dlq, cluster, withDb ? serviceDb : QString()};
    };
    ReferenceConsumer::Config emailConfig =
        config(u"email-sender"_s, u"notifications"_s, u"error.notifications.email-sender"_s, true);
    emailConfig.conninfo = m_postgres->conninfo(u"postgres"_s, notifyDb);
    m_incident = std::make_shared<DemoIncident>();
    m_consumers.push_back(std::make_unique<OrderProjection>(
        config(u"order-projection"_s, u"orders"_s, u"orders-dlt"_s, true), m_incident));
    m_consumers.push_back(std::make_unique<PaymentCapture>(config(u"payment-capture"_s, u"payments"_s, u"payments-dlq"_s, true)));
    m_consumers.push_back(std::make_unique<EmailSender>(emailConfig, options.speed));
    ReferenceConsumer::Config sinkConfig = config(reprocessGroup(), u"orders"_s, u"dlq-warehouse-sink"_s, false);
    sinkConfig.assignPartitions = true;
    m_consumers.push_back(std::make_unique<WarehouseSink>(sinkConfig));
    m_reprocessConsumer = m_consumers.back().get();
    for (auto &consumer : m_consumers)
        consumer->start();

    DemoTraffic::Rates rates;
    rates.orders *= options.speed;
    rates.payments *= options.speed;
    rates.notifications *= options.speed;
    m_traffic = std::make_unique<DemoTraffic>(cluster, rates);
    m_traffic->start();
    m_relay = std::make_unique<OutboxRelay>(cluster, serviceDb);
    m_relay->start();
    m_requests = std::make_unique<DemoRequests>(
        DemoRequests::Settings{cluster, conninfo(u"bob"_s), conninfo(u"alice"_s), demoPolicyPath(),
                               [this] { endWarmUp(); }});
    m_requests->start();
    return true;
}

void DemoWorld::endWarmUp()
{
    m_incident->deployFix();
    m_reprocessConsumer->stop();
    qCInfo(lcDemo).noquote() << reprocessGroup() << "stopped for a reprocess of the warehouse table: its group "
                                "has no active member, so an offset reset of it on orders can be executed "
                                "(berth replay request --reset-offsets --group"
                             << reprocessGroup() << "--topic orders --to ...)";
}

void DemoWorld::stop()
{
    // Every worker is told before any is joined, so they wind down side by side (their consumers leave
    // their groups at the same time): a stop takes the slowest worker's last step, not the sum of all.
    // The cluster and the database go only once nothing talks to them.
    if (m_requests)
        m_requests->requestStop();
    if (m_traffic)
        m_traffic->requestStop();
    if (m_relay)
        m_relay->requestStop();
    for (auto &consumer : m_consumers)
        consumer->requestStop();
    m_requests.reset();
    if (m_traffic)
        m_traffic->stop();
    if (m_relay)
        m_relay->stop();
    for (auto &consumer : m_consumers)
        consumer->stop();
    m_consumers.clear();
    m_reprocessConsumer = nullptr;
    m_traffic.reset();
    m_relay.reset();
    m_cluster.reset();
    m_postgres.reset();
}

QString DemoWorld::bootstrapServers() const
{
    return m_cluster ? m_cluster->bootstrapServers() : QString();
}

QString DemoWorld::conninfo(const QString &user) const
{
    return m_postgres ? m_postgres->conninfo(user, QString::fromLatin1(databaseName)) : QString();
}

ConnectionProfile DemoWorld::profile(const QString &user) const
{
    ConnectionProfile profile;
    profile.name = u"demo"_s;
    profile.cluster = m_cluster->clientProperties();
    profile.namedGroups = groups();
    profile.policyPath = demoPolicyPath();
    profile.duplicateTopics = {u"orders"_s, u"payments"_s, u"notifications"_s};
    profile.dlqTopics = {u"orders-dlt"_s, u"payments-dlq"_s, u"error.notifications.email-sender"_s, u"dlq-warehouse-sink"_s};
    profile.databaseConninfo = conninfo(user);
    profile.databaseLabel = u"Inbox database "_s + QString::fromLatin1(databaseName) + u" (as " + user + u")";
    // The demo policy's email-sender inbox names this entry.
    profile.databases.insert(u"notifications"_s,
                             m_postgres->conninfo(user, QString::fromLatin1(notificationsDatabaseName)));
    return profile;
}

QString DemoWorld::connectionHelp() const
{
    return u"Kafka bootstrap servers: "_s + bootstrapServers() + u"\n"
         + u"  kcat -b " + bootstrapServers() + u" -L\n"
         + u"  kcat -b " + bootstrapServers() + u" -C -t orders-dlt -e -J\n"
         + u"PostgreSQL (operators alice and bob; the services use postgres):\n"
         + u"  psql \"" + conninfo(u"alice"_s) + u"\"\n"
         + u"  psql \"" + conninfo(u"bob"_s) + u"\"\n"
         + u"  psql \"" + m_postgres->conninfo(u"alice"_s, QString::fromLatin1(notificationsDatabaseName))
         + u"\"   (notifications: email-sender's inbox)\n"
         + u"Consumer groups: " + groups().join(u", ") + u"\n";
}

qint64 DemoWorld::produced() const
{
    return m_traffic ? m_traffic->produced() : 0;
}

qint64 DemoWorld::duplicatesSent() const
{
    return m_traffic ? m_traffic->duplicatesSent() : 0;
}

qint64 DemoWorld::deadLettered() const
{
    qint64 total = 0;
    for (const auto &c : m_consumers)
        total += c->deadLettered();
    return total;
}
