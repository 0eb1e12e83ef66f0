#include "replaycommandsupport.h"

#include "services/audit/auditmigrator.h"
#include "services/policy/policyloader.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QTextStream>

using namespace Qt::StringLiterals;

namespace ReplayCommandSupport {
void addRequestIdOption(QCommandLineParser &parser)
{
    parser.addOption({u"request"_s, u"The request id (or give it as the first argument)."_s, u"id"_s});
    parser.addPositionalArgument(u"id"_s, u"The request id."_s, u"[id]"_s);
}

qint64 requestId(const QCommandLineParser &parser)
{
    const QStringList positional = parser.positionalArguments();
    const QString given = !positional.isEmpty() ? positional.constFirst() : parser.value(u"request"_s);
    bool ok = false;
    const qint64 id = given.toLongLong(&ok);
    return ok && id > 0 ? id : 0;
}

void addCommonOptions(QCommandLineParser &parser, bool kafka)
{
    parser.addHelpOption();
    parser.addOption({u"db"_s, u"The audit database (libpq conninfo or URI); you act as its login role."_s,
                      u"conninfo"_s});
    parser.addOption({u"json"_s, u"Print one JSON object for scripts."_s});
    if (!kafka)
        return;
    parser.addOption({u"bootstrap"_s, u"Kafka bootstrap servers (host:port,...)."_s, u"servers"_s});
    parser.addOption({u"property"_s, u"Any librdkafka property, key=value (repeatable)."_s, u"key=value"_s});
    parser.addOption({u"inbox-db"_s,
                      u"The default inbox database for mappings that name none (default: --db)."_s,
                      u"conninfo"_s});
    parser.addOption({u"policy"_s,
                      u"Delivery policy file (YAML): the dry run's verdict and the consumers' inbox mappings."_s,
                      u"file"_s});
}

bool Connections::open(const QCommandLineParser &parser, bool kafkaOptions, bool needKafka, QString *error)
{
    if (needKafka && !(kafkaOptions && parser.isSet(u"bootstrap"_s))) {
        *error = u"give --bootstrap"_s;
        return false;
    }
    if (kafkaOptions && parser.isSet(u"bootstrap"_s)) {
        cluster.append({u"bootstrap.servers"_s, parser.value(u"bootstrap"_s)});
        for (const QString &kv : parser.values(u"property"_s)) {
            const qsizetype eq = kv.indexOf(u'=');
            cluster.append({kv.left(eq).trimmed(), eq > 0 ? kv.mid(eq + 1) : QString()});
        }
    }
    if (!parser.isSet(u"db"_s)) {
        *error = u"give --db (the audit database's conninfo)"_s;
        return false;
    }
    if (!audit.connect(parser.value(u"db"_s), error))
        return false;
    // Up to date is two reads; an older schema needs a role that may migrate it, and says so otherwise.
    const AuditMigrationOutcome migrated = AuditMigrator::migrate(audit);
    if (!migrated.ok) {
        *error = u"audit database: "_s + migrated.error;
        return false;
    }
    if (kafkaOptions && parser.isSet(u"inbox-db"_s) && !inbox.connect(parser.value(u"inbox-db"_s), error))
        return false;
    if (kafkaOptions && parser.isSet(u"policy"_s)) {
        const PolicyLoadResult loaded = loadPolicyFile(parser.value(u"policy"_s));
        if (!loaded.ok()) {
            *error = u"policy: "_s + loaded.messages().join(u"; "_s);
            return false;
        }
        policy = loaded.policy;
    }
    const QString defaultInbox =
        kafkaOptions && parser.isSet(u"inbox-db"_s) ? parser.value(u"inbox-db"_s) : parser.value(u"db"_s);
    inboxMappings = InboxMappingSet::resolve(policy.inboxMappings(), {}, defaultInbox);
    return true;
}

Output::Output(const QCommandLineParser &parser)
    : json(parser.isSet(u"json"_s))
{
}

void Output::text(const QString &text) const
{
    if (!json)
        QTextStream(stdout) << text;
}

void Output::progress(const QString &line) const
{
    QTextStream(stderr) << "berth: " << line << '\n';
}

void Output::done(const QJsonObject &result, const QString &text) const
{
    QTextStream out(stdout);
    if (json)
        out << QJsonDocument(result).toJson(QJsonDocument::Compact) << '\n';
    else
        out << text;
}

int Output::fail(int code, const QString &reason, QJsonObject result) const
{
    QString line = reason;
    line.replace(u'\n', u' ');
    QTextStream(stderr) << "berth: " << line << '\n';
    if (json) {
        result.insert(u"error"_s, reason);
        result.insert(u"exitCode"_s, code);
        QTextStream(stdout) << QJsonDocument(result).toJson(QJsonDocument::Compact) << '\n';
    }
    return code;
}
} // namespace ReplayCommandSupport
