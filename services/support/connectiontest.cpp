#include "connectiontest.h"

#include "services/inbox/pgsession.h"
#include "services/kafka/clusterinspector.h"
#include "services/support/profilesecrets.h"

#include <libpq-fe.h>

#include <QCoreApplication>

using namespace Qt::StringLiterals;

namespace {
QString tr(const char *text)
{
    return QCoreApplication::translate("ConnectionTest", text);
}
} // namespace

namespace ConnectionTest {
ConnectionCheck kafka(const KafkaProperties &properties, int timeoutMs)
{
    ConnectionCheck check;
    QString error;
    auto inspector = ClusterInspector::create(properties, &error);
    if (!inspector) {
        check.summary = tr("Rejected by librdkafka: %1").arg(error);
        return check;
    }
    const auto metadata = inspector->metadata(timeoutMs);
    if (!metadata.ok()) {
        check.summary = tr("Could not reach %1: %2").arg(inspector->bootstrap(), metadata.error);
        return check;
    }
    check.ok = true;
    check.summary = tr("Connected to %1: %2 broker(s), %3 topic(s)")
                        .arg(inspector->bootstrap())
                        .arg(metadata.value.brokers.size())
                        .arg(metadata.value.topics.size());
    QStringList lines;
    for (const BrokerInfo &b : metadata.value.brokers)
        lines.append(tr("broker %1 at %2:%3%4")
                         .arg(b.id)
                         .arg(b.host)
                         .arg(b.port)
                         .arg(b.id == metadata.value.controllerId ? tr(" (controller)") : QString()));
    for (const auto &[key, value] : properties) {
        if (key == u"security.protocol" || key == u"sasl.mechanisms" || key == u"sasl.mechanism")
            lines.append(key + u": "_s + value);
    }
    check.detail = lines.join(u'\n');
    return check;
}

ConnectionCheck database(const QString &conninfo)
{
    ConnectionCheck check;
    PgSession session;
    QString error;
    const QString sslMode = ProfileSecrets::sslModeOf(conninfo);
    if (!session.connect(conninfo, &error)) {
        check.summary = tr("Could not connect: %1").arg(error);
        check.detail = tr("sslmode: %1").arg(sslMode);
        return check;
    }
    const PgResult who = session.exec(u"SELECT session_user, current_database(), version()"_s);
    PGconn *conn = session.handle();
    const QString host = QString::fromUtf8(PQhost(conn));
    check.ok = who.ok;
    check.summary = who.ok ? tr("Connected to database %1 as %2")
                                 .arg(who.value(0, u"current_database").toString(), who.value(0, u"session_user").toString())
                           : tr("Connected, but a first query failed: %1").arg(who.error);
    QStringList lines;
    lines.append(tr("server: %1").arg(who.value(0, u"version").toString().section(u',', 0, 0)));
    lines.append(tr("host: %1").arg(host.startsWith(u'/') ? tr("Unix socket in %1").arg(host) : host));
    lines.append(tr("sslmode: %1; TLS in use: %2").arg(sslMode, PQsslInUse(conn) ? tr("yes") : tr("no")));
    check.detail = lines.join(u'\n');
    return check;
}
} // namespace ConnectionTest
