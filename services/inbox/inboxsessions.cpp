#include "services/inbox/inboxsessions.h"

#include "services/inbox/pgsession.h"

using namespace Qt::StringLiterals;

InboxSessions::InboxSessions(InboxMappingSet set, PgSession *defaultSession)
    : m_set(std::move(set))
    , m_default(defaultSession)
{
}

InboxSessions::~InboxSessions() = default;

PgSession *InboxSessions::sessionFor(const InboxMapping &mapping, QString *error)
{
    QString problem;
    const QString conninfo = m_set.conninfoFor(mapping, &problem);
    const bool onDefault = mapping.database.isEmpty() || conninfo == m_set.defaultConninfo;
    if (onDefault && m_default && m_default->isOpen())
        return m_default;
    if (conninfo.isEmpty()) {
        if (error)
            *error = problem;
        return nullptr;
    }
    if (const auto it = m_failed.constFind(conninfo); it != m_failed.cend()) {
        if (error)
            *error = *it;
        return nullptr;
    }
    auto &session = m_open[conninfo];
    if (session && session->isOpen())
        return session.get();
    session = std::make_unique<PgSession>();
    QString why;
    if (!session->connect(conninfo, &why)) {
        why = u"cannot connect to %1: %2"_s.arg(m_set.databaseLabel(mapping), why);
        m_failed.insert(conninfo, why);
        if (error)
            *error = why;
        return nullptr;
    }
    session->exec(u"SELECT set_config('statement_timeout', $1, false)"_s, {QString::number(StatementTimeoutMs)});
    return session.get();
}
