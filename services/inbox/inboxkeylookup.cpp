#include "inboxkeylookup.h"

#include "services/inbox/inboxboardquery.h"
#include "services/inbox/inboxtableinfo.h"
#include "services/inbox/pgsession.h"
#include "services/payload/payloadmask.h"

#include <QRegularExpression>
#include "services/support/logging.h"

using namespace Qt::StringLiterals;

InboxKeyLookup::InboxKeyLookup(QObject *parent)
    : QObject(parent)
    , m_sessions(std::make_shared<Sessions>())
{
    qRegisterMetaType<InboxKeyLookupResult>();
}

InboxKeyLookup::~InboxKeyLookup() = default;

void InboxKeyLookup::setMappingSet(const InboxMappingSet &set)
{
    if (set == m_set)
        return;
    m_set = set;
    clear(); // answers from other tables or databases would be wrong
    Q_EMIT mappingsChanged();
}

void InboxKeyLookup::enqueue(quint64 tag, const QString &mapping, const QList<quint32> &ids,
                             const QStringList &keys)
{
    Q_ASSERT(ids.size() == keys.size());
    for (qsizetype from = 0; from < keys.size(); from += BatchSize) {
        InboxKeyLookupResult batch;
        batch.tag = tag;
        batch.mapping = mapping;
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
    m_sessions = std::make_shared<Sessions>();
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
        [batch = m_queue.dequeue(), sessions = m_sessions, set = m_set](const JobControl &) mutable {
            const InboxMapping *mapping = set.find(batch.mapping);
            QString problem;
            const QString conninfo = mapping ? set.conninfoFor(*mapping, &problem) : QString();
            if (!mapping) {
                batch.error = u"no inbox mapping for \u201c%1\u201d"_s.arg(batch.mapping);
                return batch;
            }
            if (conninfo.isEmpty()) {
                batch.error = problem;
                return batch;
            }
            // One reused connection per database; one that cannot be reached costs only its own answers.
            std::shared_ptr<PgSession> &session = (*sessions)[conninfo];
            if (!session)
                session = std::make_shared<PgSession>();
            QString error;
            if (!session->isOpen()) {
                if (!session->connect(conninfo, &error)) {
                    batch.error = error;
                    return batch;
                }
                // Bounded: a table without an index on its key must not hold the look-ups for minutes.
                session->exec(u"SELECT set_config('statement_timeout', $1, false)"_s,
                              {QString::number(StatementTimeoutMs)});
            }
            batch.found = lookup(*session, {*mapping}, batch.keys, &error);
            batch.error = error;
            if (!error.isEmpty() && !session->isOpen())
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
    // Each key once, in order: the probes walk the key index from one end to the other, so neighbouring
    // keys share the pages a probe has just read.
    QStringList ordered = keys;
    ordered.sort();
    ordered.removeDuplicates();
    QStringList problems;
    for (const InboxMapping &mapping : mappings) {
        if (!mapping.validate().isEmpty())
            continue;
        const QString table = session.escapeTable(mapping.schema, mapping.table);
        // A preset for a table this database does not have is not an error: skip it quietly.
        QString catalogueError;
        const InboxTableInfo info = InboxTableInfo::read(session, mapping.schema, mapping.table, &catalogueError);
        if (!catalogueError.isEmpty()) {
            problems << catalogueError;
            break; // the connection is in trouble; the other tables would fail the same way
        }
        if (!info.exists)
            continue;
        if (!info.types.contains(mapping.messageIdColumn)) {
            problems << mapping.qualifiedTable() + u": the message id column \u201c%1\u201d does not exist"_s.arg(mapping.messageIdColumn);
            continue;
        }
        // A huge table without an index on the message id would be read whole per key until the statement
        // timeout: the look-up is refused with the index to create instead (ARCHITECTURE.md, Inbox mapping).
        if (!info.isView && info.estimatedRows >= InboxBoardQuery::LargeTableRows) {
            InboxIndexRequirement byKey;
            byKey.table = mapping.qualifiedTable();
            byKey.leadingColumns = {mapping.messageIdColumn};
            byKey.purpose = u"the DLQ inbox column's key look-ups"_s;
            // The probe also states this consumer's value: a key on (consumer, message id) seeks as well.
            if (mapping.filtersConsumer()) {
                byKey.alternativeLeadingColumns = {mapping.consumerColumn, mapping.messageIdColumn};
                byKey.purpose += u" (or an index on (%1, %2))"_s.arg(mapping.consumerColumn, mapping.messageIdColumn);
            }
            QStringList missing;
            QString indexError;
            if (!InboxBoardQuery::missingIndexes(session, mapping, {byKey}, &missing, &indexError)) {
                problems << indexError;
                continue;
            }
            if (!missing.isEmpty()) {
                problems << u"%1 has about %2 rows and no index on its message id, so keys are not looked up: "
                            u"%3"_s.arg(mapping.qualifiedTable(), QString::number(info.estimatedRows), missing.first());
                continue;
            }
        }
        // The key as the column's own type (without a length, which would truncate a longer key into a
        // false match), so each probe is an index seek.
        QString keyType = info.types.value(mapping.messageIdColumn);
        keyType.remove(QRegularExpression(u"\\([^)]*\\)"_s));
        const QString consumer = mapping.consumerColumn.isEmpty()
                                     ? u"NULL"_s
                                     : session.escapeIdentifier(mapping.consumerColumn) + u"::text"_s;
        const QString id = session.escapeIdentifier(mapping.messageIdColumn);
        const QString status = session.escapeIdentifier(mapping.statusColumn);
        const QString updatedColumn =
            mapping.updatedColumn.isEmpty() ? QString() : session.escapeIdentifier(mapping.updatedColumn);
        // One index probe per key (LATERAL keeps it a nested loop: a long `= ANY` list tempts the planner
        // into reading the whole table). Only the columns read below, so an index on the key that INCLUDEs
        // them answers without visiting the table (ARCHITECTURE.md, Inbox mapping).
        QString inner = u"SELECT r."_s + id + u", r."_s + status
                        + (mapping.consumerColumn.isEmpty()
                               ? QString()
                               : u", r."_s + session.escapeIdentifier(mapping.consumerColumn))
                        + (updatedColumn.isEmpty() ? QString() : u", r."_s + updatedColumn) + u" FROM "_s + table
                        + u" AS r WHERE r."_s + id + u" = k.key::"_s + keyType;
        QVariantList params{ordered};
        if (mapping.filtersConsumer()) {
            inner += u" AND r."_s + consumer + u" = $2"_s;
            params << mapping.consumerValue;
        }
        // When the row was last written, in ms (a verification tells "became completed" from "was").
        const InboxTimeKind updatedKind = info.timeKind(mapping.updatedColumn);
        const QString updated = mapping.updatedColumn.isEmpty() || updatedKind == InboxTimeKind::Unsupported
                                    ? u"NULL::bigint"_s
                                    : u"(extract(epoch FROM "_s
                                          + InboxTimeSql{updatedKind}.asTimestamptz(
                                              u"t."_s + session.escapeIdentifier(mapping.updatedColumn))
                                          + u") * 1000)::bigint"_s;
        const QString sql =
            u"SELECT t."_s + id + u"::text, t."_s + status + u"::text, "_s + (mapping.consumerColumn.isEmpty() ? u"NULL"_s : u"t."_s + consumer) + u", "_s
            + updated + u" FROM unnest($1::text[]) AS k(key) CROSS JOIN LATERAL ("_s + inner + u") AS t"_s;
        const PgResult rows = session.exec(sql, params);
        if (!rows.ok) {
            // The server quotes a key it cannot take (`invalid input syntax for type uuid: "..."`); the error
            // reaches the log, the desk and a verification's audit event, which never say a key that a
            // policy may mask (ARCHITECTURE.md, Masking): the keys are taken out.
            QString problem = rows.error;
            PayloadMask::scrub(problem, ordered);
            problems << mapping.qualifiedTable() + u": "_s + problem;
            continue;
        }
        for (const QVariantList &row : rows.rows) {
            InboxKeyState state;
            state.status = row.value(1).toString();
            state.state = mapping.stateOf(state.status);
            state.consumer = mapping.consumerColumn.isEmpty() ? mapping.consumerLabel() : row.value(2).toString();
            state.mapping = mapping.name;
            state.table = mapping.qualifiedTable();
            state.updatedMs = row.value(3).isNull() ? -1 : row.value(3).toLongLong();
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
