#include "services/inbox/inboxmappingset.h"

#include "services/support/profilesecrets.h"

using namespace Qt::StringLiterals;

namespace {
bool looksLikeConninfo(const QString &text)
{
    return text.contains(u'=') || text.startsWith(u"postgres://"_s) || text.startsWith(u"postgresql://"_s);
}
} // namespace

InboxMappingSet InboxMappingSet::resolve(const QList<InboxMapping> &policy, const QList<InboxMapping> &profile,
                                         const QString &defaultConninfo, const QMap<QString, QString> &databases)
{
    InboxMappingSet set;
    set.defaultConninfo = defaultConninfo;
    set.databases = databases;
    for (const InboxMapping &m : policy) {
        set.mappings.append(m);
        set.sources.append(Source::Policy);
    }
    for (const InboxMapping &m : profile) {
        if (set.find(m.name)) {
            set.notes << u"the policy's inbox mapping for %1 is used; the profile's is ignored"_s.arg(m.name);
            continue;
        }
        set.mappings.append(m);
        set.sources.append(Source::Profile);
    }
    return set;
}

const InboxMapping *InboxMappingSet::find(const QString &name) const
{
    for (const InboxMapping &m : mappings) {
        if (m.name == name)
            return &m;
    }
    return nullptr;
}

QString InboxMappingSet::conninfoFor(const InboxMapping &mapping, QString *problem) const
{
    QString why;
    QString conninfo;
    if (mapping.database.isEmpty()) {
        conninfo = defaultConninfo;
        if (conninfo.isEmpty())
            why = u"no database: the mapping names none and no default inbox database is configured"_s;
    } else if (databases.contains(mapping.database)) {
        conninfo = databases.value(mapping.database);
    } else if (looksLikeConninfo(mapping.database)) {
        conninfo = mapping.database;
    } else {
        why = u"the database \u201c%1\u201d is neither a conninfo nor one of the profile's databases"_s.arg(
            mapping.database);
    }
    if (problem)
        *problem = why;
    return conninfo;
}

QString InboxMappingSet::databaseLabel(const InboxMapping &mapping) const
{
    if (mapping.database.isEmpty())
        return u"default database"_s;
    if (databases.contains(mapping.database))
        return mapping.database;
    QString password;
    return ProfileSecrets::stripPassword(mapping.database, &password);
}

QStringList InboxMappingSet::conninfos() const
{
    QStringList out;
    for (const InboxMapping &m : mappings) {
        const QString c = conninfoFor(m);
        if (!c.isEmpty() && !out.contains(c))
            out << c;
    }
    return out;
}

QList<InboxMapping> InboxMappingSet::mappingsOn(const QString &conninfo) const
{
    QList<InboxMapping> out;
    for (const InboxMapping &m : mappings) {
        if (conninfoFor(m) == conninfo)
            out << m;
    }
    return out;
}

QString InboxMappingSet::databaseTitle(const QString &conninfo) const
{
    const QList<InboxMapping> on = mappingsOn(conninfo);
    QStringList names;
    for (const InboxMapping &m : on)
        names << m.name;
    const QString label = on.isEmpty() ? QString() : databaseLabel(on.first());
    return label + u": "_s + names.join(u", "_s);
}
