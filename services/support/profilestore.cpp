#include "profilestore.h"

#include "services/policy/inboxpolicyyaml.h"
#include "services/support/profilesecrets.h"

#include <QSettings>
#include <QUrl>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace {
// Profile names are free text; percent-encoding keeps "/" and "\" from turning into settings subgroups.
QString groupOf(const QString &name)
{
    return u"profiles/"_s + QString::fromLatin1(QUrl::toPercentEncoding(name));
}

// Properties as "key=value" strings: readable in the file, and a secret left in them would be visible
// to a reviewer (and to the tests that scan the file), not hidden in a serialised blob.
QStringList flatten(const KafkaProperties &properties)
{
    QStringList out;
    for (const auto &[key, value] : properties)
        out.append(key + u'=' + value);
    return out;
}

KafkaProperties unflatten(const QStringList &lines)
{
    KafkaProperties properties;
    for (const QString &line : lines) {
        const qsizetype eq = line.indexOf(u'=');
        if (eq > 0)
            properties.append({line.left(eq), line.mid(eq + 1)});
    }
    return properties;
}
} // namespace

ProfileStore::ProfileStore(QSettings *settings)
    : m_settings(settings)
{
    if (!m_settings) {
        m_owned = std::make_unique<QSettings>();
        m_settings = m_owned.get();
    }
}

ProfileStore::~ProfileStore() = default;

QSettings &ProfileStore::settings() const
{
    return *m_settings;
}

QStringList ProfileStore::names() const
{
    QSettings &s = settings();
    s.beginGroup(u"profiles"_s);
    QStringList names;
    for (const QString &group : s.childGroups())
        names.append(QUrl::fromPercentEncoding(group.toLatin1()));
    s.endGroup();
    std::sort(names.begin(), names.end(),
              [](const QString &a, const QString &b) { return a.compare(b, Qt::CaseInsensitive) < 0; });
    return names;
}

std::optional<StoredProfile> ProfileStore::load(const QString &name) const
{
    QSettings &s = settings();
    s.beginGroup(groupOf(name));
    if (!s.contains(u"name"_s)) {
        s.endGroup();
        return std::nullopt;
    }
    StoredProfile stored;
    ConnectionProfile &p = stored.profile;
    p.name = s.value(u"name"_s).toString();
    p.cluster = unflatten(s.value(u"properties"_s).toStringList());
    p.namedGroups = s.value(u"groups"_s).toStringList();
    p.dlqTopics = s.value(u"dlqTopics"_s).toStringList();
    p.duplicateTopics = s.value(u"duplicateTopics"_s).toStringList();
    p.databaseConninfo = s.value(u"database"_s).toString();
    p.databaseLabel = s.value(u"databaseLabel"_s).toString();
    p.policyPath = s.value(u"policy"_s).toString();
    p.schemaRegistry.url = s.value(u"schemaRegistry/url"_s).toString();
    p.schemaRegistry.username = s.value(u"schemaRegistry/username"_s).toString();
    p.schemaRegistry.caFile = s.value(u"schemaRegistry/caFile"_s).toString();
    p.schemaFiles = s.value(u"schemaFiles"_s).toStringList();
    p.sampleIntervalMs = s.value(u"sampleIntervalMs"_s, p.sampleIntervalMs).toInt();
    // Mappings are kept as the policy file's inbox block: readable, and read by the one policy parser.
    p.inboxMappings = InboxPolicyYaml::read(s.value(u"inboxMappings"_s).toString(), nullptr);
    const KafkaProperties databases = unflatten(s.value(u"databases"_s).toStringList());
    for (const auto &[name, conninfo] : databases)
        p.databases.insert(name, conninfo);
    stored.secretIds = s.value(u"secrets"_s).toStringList();
    s.endGroup();
    return stored;
}

QHash<QString, QString> ProfileStore::save(const ConnectionProfile &profile, const QStringList &keptSecretIds)
{
    ConnectionProfile open = profile;
    const QHash<QString, QString> secrets = ProfileSecrets::extract(&open);
    QStringList ids = secrets.keys();
    for (const QString &kept : keptSecretIds) {
        if (!ids.contains(kept) && ProfileSecrets::hasPlaceFor(open, kept))
            ids.append(kept);
    }
    ids.sort();
    QSettings &s = settings();
    s.remove(groupOf(profile.name)); // no leftovers from an earlier shape of this profile
    s.beginGroup(groupOf(profile.name));
    s.setValue(u"name"_s, open.name);
    s.setValue(u"properties"_s, flatten(open.cluster));
    s.setValue(u"groups"_s, open.namedGroups);
    s.setValue(u"dlqTopics"_s, open.dlqTopics);
    s.setValue(u"duplicateTopics"_s, open.duplicateTopics);
    s.setValue(u"database"_s, open.databaseConninfo);
    s.setValue(u"databaseLabel"_s, open.databaseLabel);
    s.setValue(u"policy"_s, open.policyPath);
    s.setValue(u"schemaRegistry/url"_s, open.schemaRegistry.url);
    s.setValue(u"schemaRegistry/username"_s, open.schemaRegistry.username);
    s.setValue(u"schemaRegistry/caFile"_s, open.schemaRegistry.caFile);
    s.setValue(u"schemaFiles"_s, open.schemaFiles);
    s.setValue(u"sampleIntervalMs"_s, open.sampleIntervalMs);
    if (!open.inboxMappings.isEmpty())
        s.setValue(u"inboxMappings"_s, InboxPolicyYaml::write(open.inboxMappings));
    KafkaProperties databases; // "name=conninfo" lines, like the cluster properties
    for (auto it = open.databases.cbegin(); it != open.databases.cend(); ++it)
        databases.append({it.key(), it.value()});
    if (!databases.isEmpty())
        s.setValue(u"databases"_s, flatten(databases));
    s.setValue(u"secrets"_s, ids);
    s.endGroup();
    s.sync();
    return secrets;
}

bool ProfileStore::saveInboxMappings(const QString &name, const QList<InboxMapping> &mappings)
{
    if (!load(name))
        return false;
    QSettings &s = settings();
    s.beginGroup(groupOf(name));
    if (mappings.isEmpty())
        s.remove(u"inboxMappings"_s);
    else
        s.setValue(u"inboxMappings"_s, InboxPolicyYaml::write(mappings));
    s.endGroup();
    s.sync();
    return true;
}

void ProfileStore::remove(const QString &name)
{
    settings().remove(groupOf(name));
    settings().remove(layoutGroup(name));
    if (lastUsed() == name)
        settings().remove(u"lastProfile"_s);
    settings().sync();
}

QString ProfileStore::lastUsed() const
{
    return settings().value(u"lastProfile"_s).toString();
}

void ProfileStore::setLastUsed(const QString &name)
{
    settings().setValue(u"lastProfile"_s, name);
}

QString ProfileStore::layoutGroup(const QString &profileName)
{
    return u"layout/"_s + QString::fromLatin1(QUrl::toPercentEncoding(profileName));
}
