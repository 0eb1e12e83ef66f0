#pragma once

#include "services/inbox/inboxmappingset.h"

#include <QHash>
#include <QString>

#include <map>
#include <memory>

class PgSession;

// Blocking connections to the databases of a mapping set, for one piece of work on a worker thread (a
// dry run, a replay's skips and deletes, a command): each database is connected once, on first use.
// Mappings on the default database use the borrowed default session when one is given (the desk's audit
// session serves the profile's database). Every session gets the statement timeout.
class InboxSessions final {
public:
    static constexpr int StatementTimeoutMs = 15'000;

    explicit InboxSessions(InboxMappingSet set, PgSession *defaultSession = nullptr);
    ~InboxSessions();
    InboxSessions(const InboxSessions &) = delete;
    InboxSessions &operator=(const InboxSessions &) = delete;

    const InboxMappingSet &set() const { return m_set; }
    // nullptr, with *error saying why, when the mapping names no usable database or it cannot be reached
    // (a failed database is not retried within this piece of work).
    PgSession *sessionFor(const InboxMapping &mapping, QString *error);

private:
    InboxMappingSet m_set;
    PgSession *m_default;
    std::map<QString, std::unique_ptr<PgSession>> m_open; // by conninfo
    QHash<QString, QString> m_failed;                     // conninfo -> why
};
