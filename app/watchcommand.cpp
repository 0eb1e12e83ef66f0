#include "commands.h"
#include "connectionoptions.h"
#include "terminationsignals.h"

#include "services/monitor/metricsexposition.h"
#include "services/monitor/monitorservice.h"
#include "services/policy/policywatcher.h"

#include <QHostAddress>
#include <QHttpServer>
#include <QHttpServerResponse>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>
#include <QTcpServer>


using namespace Qt::StringLiterals;

namespace {
QString isoTime(const QDateTime &time)
{
    return time.isValid() ? time.toUTC().toString(Qt::ISODateWithMs) : QString();
}

// One JSON line per alert that fires or clears.
QByteArray alertLine(const Alert &alert, const char *state)
{
    QJsonObject o{{u"type"_s, u"alert"_s},
                  {u"state"_s, QString::fromLatin1(state)},
                  {u"id"_s, qint64(alert.id)},
                  {u"rule"_s, alert.rule},
                  {u"subject"_s, alert.subject},
                  {u"message"_s, alert.message},
                  {u"owner"_s, alert.owner},
                  {u"view"_s, alert.view},
                  {u"firedAt"_s, isoTime(alert.firedAt)}};
    if (!alert.note.isEmpty())
        o.insert(u"note"_s, alert.note);
    if (alert.clearedAt.isValid())
        o.insert(u"clearedAt"_s, isoTime(alert.clearedAt));
    return QJsonDocument(o).toJson(QJsonDocument::Compact) + '\n';
}

void writeLine(const QByteArray &line)
{
    static QTextStream out(stdout);
    out << line;
    out.flush(); // one line at a time: a pipe reader sees each alert as it happens
}
} // namespace

namespace Commands {
int watch(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        u"Watches lag, dead letters, duplicates and inbox boards without a window: alerts as JSON lines on "
        "stdout, metrics in the Prometheus text format at /metrics. Stops cleanly on SIGTERM."_s);
    parser.addHelpOption();
    ConnectionOptions::add(parser);
    parser.addOption({u"dlq-topic"_s, u"A dead-letter topic to watch (repeatable)."_s, u"topic"_s});
    parser.addOption({u"duplicate-topic"_s, u"A topic tailed for duplicate idempotency keys (repeatable)."_s, u"topic"_s});
    parser.addOption({u"interval"_s, u"Sample clock in milliseconds."_s, u"ms"_s, u"5000"_s});
    parser.addOption({u"metrics-address"_s, u"Serve /metrics at HOST:PORT (port 0: any free port)."_s, u"host:port"_s});
    parser.process(arguments);
    QTextStream err(stderr);
    ConnectionProfile profile = ConnectionOptions::read(parser);
    if (profile.cluster.isEmpty()) {
        err << "berth watch: give --bootstrap or --profile\n";
        return 2;
    }
    for (const QString &topic : parser.values(u"dlq-topic"_s)) {
        if (!profile.dlqTopics.contains(topic))
            profile.dlqTopics << topic;
    }
    for (const QString &topic : parser.values(u"duplicate-topic"_s)) {
        if (!profile.duplicateTopics.contains(topic))
            profile.duplicateTopics << topic;
    }
    bool intervalOk = false;
    const int interval = parser.value(u"interval"_s).toInt(&intervalOk);
    if (!intervalOk || interval < 100) {
        err << "berth watch: --interval needs a number of milliseconds, at least 100\n";
        return 2;
    }

    QObject root;
    if (!quitOnTerminationSignals(&root))
        err << "berth watch: cannot install the SIGTERM handler; stop it with SIGKILL\n";
    MonitorService monitor;
    QObject::connect(monitor.alerts(), &AlertEngine::fired, &root, [](const Alert &a) { writeLine(alertLine(a, "firing")); });
    QObject::connect(monitor.alerts(), &AlertEngine::cleared, &root, [](const Alert &a) { writeLine(alertLine(a, "resolved")); });
    QObject::connect(&monitor, &MonitorService::stateChanged, &root, [&err](LagSampler::State state, const QString &detail) {
        if (state == LagSampler::State::Unreachable || state == LagSampler::State::Rejected
            || state == LagSampler::State::Degraded) {
            err << "berth watch: Kafka " << (state == LagSampler::State::Degraded ? "degraded" : "unreachable")
                << ": " << detail.section(u'\n', 0, 0) << "\n";
            err.flush();
        }
    });
    QObject::connect(&monitor, &MonitorService::deadLetterTailFailed, &root, [&err](const QString &error) {
        err << "berth watch: dead-letter tail: " << error << "\n";
        err.flush();
    });

    // An inbox board that cannot be read is said once, and again when the reason changes or it reads again.
    QHash<QString, QString> inboxProblems; // by mapping
    QObject::connect(&monitor, &MonitorService::boardReady, &root, [&err, &inboxProblems](const InboxBoard &board) {
        if (inboxProblems.value(board.mappingName) == board.error)
            return;
        inboxProblems.insert(board.mappingName, board.error);
        if (board.ok())
            err << "berth watch: inbox " << board.mappingName << ": reading again\n";
        else
            err << "berth watch: inbox " << board.mappingName << ": " << board.error << "\n";
        err.flush();
    });

    // Inbox tables: the profile's mappings, and the policy's, which win (ARCHITECTURE.md, Contracts: Inbox
    // mapping).
    const auto mappingsWith = [&profile](const DeliveryPolicy &policy) {
        return InboxMappingSet::resolve(policy.inboxMappings(), profile.inboxMappings, profile.databaseConninfo,
                                        profile.databases);
    };
    monitor.setInboxMappings(mappingsWith(DeliveryPolicy{}));
    PolicyWatcher policy;
    if (!profile.policyPath.isEmpty()) {
        QObject::connect(&policy, &PolicyWatcher::policyChanged, &root, [&](const PolicyLoadResult &result) {
            for (const QString &message : result.messages())
                err << "berth watch: " << message << "\n";
            err.flush();
            monitor.setPolicy(result.policy);
            monitor.setInboxMappings(mappingsWith(result.policy));
        });
        policy.setPath(profile.policyPath);
        if (!policy.current().ok())
            err << "berth watch: the policy has errors; watching with what could be read\n";
    }

    std::unique_ptr<QHttpServer> http;
    if (parser.isSet(u"metrics-address"_s)) {
        const QString address = parser.value(u"metrics-address"_s);
        const qsizetype colon = address.lastIndexOf(u':');
        bool portOk = false;
        const uint port = colon > 0 ? address.mid(colon + 1).toUInt(&portOk) : 0;
        const QHostAddress host(address.left(colon).remove(u'[').remove(u']'));
        if (!portOk || port > 65535 || host.isNull()) {
            err << "berth watch: --metrics-address needs HOST:PORT with a numeric address, e.g. 127.0.0.1:9464\n";
            return 2;
        }
        http = std::make_unique<QHttpServer>();
        http->route(u"/metrics"_s, [&monitor] {
            return QHttpServerResponse("text/plain; version=0.0.4; charset=utf-8", prometheusExposition(monitor));
        });
        const quint16 bound = http->listen(host, quint16(port));
        if (bound == 0) {
            err << "berth watch: cannot listen on " << address << "\n";
            return 2;
        }
        writeLine(QJsonDocument(QJsonObject{{u"type"_s, u"listening"_s},
                                            {u"metrics"_s, u"http://%1:%2/metrics"_s.arg(
                                                               host.protocol() == QAbstractSocket::IPv6Protocol
                                                                   ? u'[' + host.toString() + u']'
                                                                   : host.toString())
                                                               .arg(bound)}})
                      .toJson(QJsonDocument::Compact)
                  + '\n');
    }

    MonitorService::Settings settings;
    settings.sampler.cluster = profile.cluster;
    settings.sampler.namedGroups = profile.namedGroups;
    settings.sampler.extraTopics = profile.dlqTopics;
    settings.sampler.intervalMs = interval;
    settings.duplicateTopics = profile.duplicateTopics;
    monitor.start(settings);
    const int code = QCoreApplication::exec();
    http.reset(); // no scrape is answered from a monitor being torn down
    err << "berth watch: stopped\n";
    return code;
}
}
