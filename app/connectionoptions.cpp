#include "connectionoptions.h"

#include <QSettings>

using namespace Qt::StringLiterals;

namespace ConnectionOptions {
void add(QCommandLineParser &parser)
{
    parser.addOption({u"bootstrap"_s, u"Kafka bootstrap servers (host:port,...)."_s, u"servers"_s});
    parser.addOption({u"property"_s, u"Any librdkafka property, key=value (repeatable)."_s, u"key=value"_s});
    parser.addOption({u"group"_s, u"A consumer group to watch (repeatable); needed where brokers cannot list groups."_s,
                      u"name"_s});
    parser.addOption({u"db"_s, u"Inbox database: libpq conninfo, URI or service=name."_s, u"conninfo"_s});
}

ConnectionProfile read(const QCommandLineParser &parser)
{
    QSettings settings;
    ConnectionProfile profile;
    profile.name = u"command line"_s;
    const QString bootstrap = parser.isSet(u"bootstrap"_s) ? parser.value(u"bootstrap"_s)
                                                            : settings.value(u"profile/bootstrap"_s).toString();
    if (!bootstrap.isEmpty())
        profile.cluster.append({u"bootstrap.servers"_s, bootstrap});
    for (const QString &kv : parser.values(u"property"_s)) {
        const qsizetype eq = kv.indexOf(u'=');
        if (eq > 0)
            profile.cluster.append({kv.left(eq).trimmed(), kv.mid(eq + 1)});
        else
            profile.cluster.append({kv, QString()}); // librdkafka will say what is wrong with it
    }
    profile.namedGroups = parser.isSet(u"group"_s) ? parser.values(u"group"_s)
                                                   : settings.value(u"profile/groups"_s).toStringList();
    // The conninfo is kept only when it carries no password; secrets never go to the settings file.
    profile.databaseConninfo = parser.isSet(u"db"_s) ? parser.value(u"db"_s) : settings.value(u"profile/db"_s).toString();
    return profile;
}

void remember(const ConnectionProfile &profile)
{
    QSettings settings;
    settings.setValue(u"profile/bootstrap"_s, KafkaConfig::bootstrapOf(profile.cluster));
    settings.setValue(u"profile/groups"_s, profile.namedGroups);
    if (!profile.databaseConninfo.contains(u"password"_s, Qt::CaseInsensitive)
        && !profile.databaseConninfo.contains(u":"_s + u"//"_s + u"*:*@"_s))
        settings.setValue(u"profile/db"_s, profile.databaseConninfo);
}
}
