#include "connectionoptions.h"

#include "services/policy/policyloader.h"
#include "services/support/profilesecrets.h"
#include "services/support/secretstore.h"
#include "services/support/profilestore.h"

#include <QEventLoop>
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
    parser.addOption({u"policy"_s,
                      u"Delivery policy file (YAML): consumer groups, SLOs, owners, masking, and inbox mappings "
                      u"(mappings naming no database use --db)."_s,
                      u"file"_s});
    parser.addOption({u"profile"_s, u"A saved connection profile (File > Connection profiles); the options above override it."_s,
                      u"name"_s});
}

bool hasConnectionOptions(const QCommandLineParser &parser)
{
    return parser.isSet(u"bootstrap"_s) || parser.isSet(u"db"_s) || parser.isSet(u"property"_s)
        || parser.isSet(u"group"_s) || parser.isSet(u"profile"_s) || parser.isSet(u"policy"_s);
}

ConnectionProfile read(const QCommandLineParser &parser, QStringList *secretIds)
{
    QSettings settings;
    ConnectionProfile profile;
    profile.name = u"command line"_s;
    if (parser.isSet(u"profile"_s)) {
        if (const auto stored = ProfileStore().load(parser.value(u"profile"_s))) {
            profile = stored->profile;
            if (secretIds)
                *secretIds = stored->secretIds;
            if (parser.isSet(u"policy"_s))
                profile.policyPath = parser.value(u"policy"_s);
            if (!parser.isSet(u"bootstrap"_s) && !parser.isSet(u"db"_s) && !parser.isSet(u"group"_s))
                return profile;
        }
    }
    const QString bootstrap = parser.isSet(u"bootstrap"_s) ? parser.value(u"bootstrap"_s)
                                                            : settings.value(u"profile/bootstrap"_s).toString();
    if (!bootstrap.isEmpty()) {
        profile.cluster.removeIf([](const auto &p) { return p.first == u"bootstrap.servers"; });
        profile.cluster.prepend({u"bootstrap.servers"_s, bootstrap});
    }
    for (const QString &kv : parser.values(u"property"_s)) {
        const qsizetype eq = kv.indexOf(u'=');
        if (eq > 0)
            profile.cluster.append({kv.left(eq).trimmed(), kv.mid(eq + 1)});
        else
            profile.cluster.append({kv, QString()}); // librdkafka will say what is wrong with it
    }
    if (parser.isSet(u"group"_s) || profile.namedGroups.isEmpty())
        profile.namedGroups = parser.isSet(u"group"_s) ? parser.values(u"group"_s)
                                                       : settings.value(u"profile/groups"_s).toStringList();
    // The conninfo is kept only when it carries no password; secrets never go to the settings file.
    if (parser.isSet(u"db"_s) || profile.databaseConninfo.isEmpty())
        profile.databaseConninfo = parser.isSet(u"db"_s) ? parser.value(u"db"_s) : settings.value(u"profile/db"_s).toString();
    if (parser.isSet(u"policy"_s))
        profile.policyPath = parser.value(u"policy"_s);
    return profile;
}

bool readSecrets(ConnectionProfile *profile, const QStringList &secretIds, QString *error)
{
    if (secretIds.isEmpty())
        return true;
    SecretStore secrets;
    SecretStore::Outcome outcome;
    QEventLoop loop;
    secrets.fetch(profile->name, secretIds, [&](const SecretStore::Outcome &o) {
        outcome = o;
        loop.quit();
    });
    loop.exec();
    ProfileSecrets::apply(profile, outcome.secrets);
    QStringList missing;
    for (const QString &id : secretIds) {
        if (!outcome.secrets.contains(id))
            missing.append(id);
    }
    if (missing.isEmpty())
        return true;
    *error = u"the keychain gave no secret for %1 of profile %2: %3"_s.arg(
        missing.join(u", "_s), profile->name,
        outcome.ok ? u"no entry"_s : SecretStore::askEachTimeReason(outcome));
    return false;
}

bool readPolicy(const ConnectionProfile &profile, DeliveryPolicy *policy, InboxMappingSet *mappings, QString *error)
{
    if (!profile.policyPath.isEmpty()) {
        const PolicyLoadResult loaded = loadPolicyFile(profile.policyPath);
        if (!loaded.ok()) {
            *error = loaded.messages().join(u"\n"_s);
            return false;
        }
        *policy = loaded.policy;
    }
    *mappings = InboxMappingSet::resolve(policy->inboxMappings(), profile.inboxMappings, profile.databaseConninfo,
                                         profile.databases);
    return true;
}

void remember(const ConnectionProfile &profile)
{
    QSettings settings;
    settings.setValue(u"profile/bootstrap"_s, KafkaConfig::bootstrapOf(profile.cluster));
    settings.setValue(u"profile/groups"_s, profile.namedGroups);
    // Secrets never go to the settings file: the conninfo is kept without its password.
    QString password;
    settings.setValue(u"profile/db"_s, ProfileSecrets::stripPassword(profile.databaseConninfo, &password));
}
}
