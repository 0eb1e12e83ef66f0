#include "inboxkeylookup.h"

#include "services/inbox/pgsession.h"
#include "services/support/logging.h"

using namespace Qt::StringLiterals;

InboxKeyLookup::InboxKeyLookup(QObject *parent)
    : QObject(parent)
    , m_session(std::make_shared<PgSession>())
{
    qRegisterMetaType<InboxKeyLookupResult>();
}

InboxKeyLookup::~InboxKeyLookup() = default;

void InboxKeyLookup::setConninfo(const QString &conninfo)
{
    if (conninfo == m_conninfo)
        return;
    m_conninfo = conninfo;
    clear(); // answers from another database would be wrong
}

void InboxKeyLookup::setMappings(const QList<InboxMapping> &mappings)
{
    m_mappings = mappings;
}

void InboxKeyLookup::enqueue(quint64 tag, const QList<quint32> &ids, const QStringList &keys)
{
    Q_ASSERT(ids.size() == keys.size());
    for (qsizetype from = 0; from < keys.size(); from += BatchSize) {
        InboxKeyLookupResult batch;
        batch.tag = tag;
        batch.ids = ids.mid(from, BatchSize);
        batch.keys = keys.mid(from, BatchSize);
        m_queue.enqueue(std::move(batch));
    }
    startNext();
}

void InboxKeyLookup::clear()
{
    m_jobs.cancel();
    m_queue.clear();
    m_running = false;
    m_session = std::make_shared<PgSession>();
}

void InboxKeyLookup::startNext()
{
    if (m_running || m_queue.isEmpty())
        return;
    if (!isConfigured()) {
        m_queue.clear();
        return;
    }
    m_running = true;
    m_jobs.start(
        [batch = m_queue.dequeue(), session = m_session, conninfo = m_conninfo,
         mappings = m_mappings](const JobControl &) mutable {
            if (!session->isOpen()) {
                QString error;
                if (!session->connect(conninfo, &error)) {
                    batch.error = error;
                    return batch;
                }
            }
            batch.found = lookup(*session, mappings, batch.keys, &batch.error);
            if (!batch.error.isEmpty() && !session->isOpen())
                session->close(); // reconnect on the next batch
            return batch;
        },
        [this](InboxKeyLookupResult result) {
            m_running = false;
            if (!result.error.isEmpty())
                qCWarning(lcInbox) << "inbox key look-up:" << result.error;
            Q_EMIT resolved(result);
            startNext();
        });
}

InboxKeyStates InboxKeyLookup::lookup(PgSession &session, const QList<InboxMapping> &mappings,
                                      const QStringList &keys, QString *error)
{
    InboxKeyStates found;
    if (keys.isEmpty())
        return found;
    QStringList problems;
    for (const InboxMapping &mapping : mappings) {
        if (!mapping.validate().isEmpty())
            continue;
        const QString table = session.escapeTable(mapping.schema, mapping.table);
        // A preset for a table this database does not have is not an error: skip it quietly.
        const PgResult exists = session.exec(u"SELECT to_regclass($1) IS NOT NULL"_s, {table});
        if (!exists.ok) {
            problems << exists.error;
            break; // the connection is in trouble; the other tables would fail the same way
        }
        if (!exists.rows.value(0).value(0).toBool())
            continue;
        const QString consumer = mapping.consumerColumn.isEmpty()
                                     ? u"NULL"_s
                                     : session.escapeIdentifier(mapping.consumerColumn) + u"::text"_s;
        const QString id = session.escapeIdentifier(mapping.messageIdColumn);
        // `id = ANY($1)`: the parameter takes the column's type, so the id index answers the probe.
        const QString sql = u"SELECT "_s + id + u"::text, "_s + session.escapeIdentifier(mapping.statusColumn)
                            + u"::text, "_s + consumer + u" FROM "_s + table + u" WHERE "_s + id + u" = ANY($1)"_s;
        const PgResult rows = session.exec(sql, {keys});
        if (!rows.ok) {
            problems << mapping.qualifiedTable() + u": "_s + rows.error;
            continue;
        }
        for (const QVariantList &row : rows.rows) {
            InboxKeyState state;
            state.status = row.value(1).toString();
            state.state = mapping.stateOf(state.status);
            state.consumer = row.value(2).toString();
            state.table = mapping.qualifiedTable();
            auto it = found.find(row.value(0).toString());
            if (it == found.end())
                found.insert(row.value(0).toString(), state);
            else if (state.state == InboxState::Completed && it->state != InboxState::Completed)
                *it = state;
        }
    }
    if (error)
        *error = problems.join(u"; "_s);
    return found;
}
