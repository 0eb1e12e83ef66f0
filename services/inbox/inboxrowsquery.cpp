#include "inboxrowsquery.h"

#include "services/inbox/inboxtableinfo.h"
#include "services/inbox/pgsession.h"

using namespace Qt::StringLiterals;

InboxRowsQuery::InboxRowsQuery(QObject *parent)
    : QObject(parent)
{
    qRegisterMetaType<InboxRowsPage>();
}

void InboxRowsQuery::fetch(const InboxMapping &mapping, const QList<InboxState> &states, const QString &text, int limit)
{
    m_jobs.start(
        [conninfo = m_set.find(mapping.name) ? m_set.conninfoFor(mapping) : m_conninfo, mapping, states, text,
         limit](const JobControl &) {
            PgSession session;
            QString error;
            bool connected = !conninfo.isEmpty() && session.connect(conninfo, &error);
            // Bounded: a table without the documented index must not hold a connection for minutes.
            if (connected)
                session.exec(u"SELECT set_config('statement_timeout', $1, false)"_s, {QString::number(StatementTimeoutMs)});
            if (!connected) {
                InboxRowsPage page;
                page.mappingName = mapping.name;
                page.table = mapping.qualifiedTable();
                page.states = states;
                page.error = conninfo.isEmpty() ? u"no inbox database is configured"_s
                                                : u"cannot connect to the inbox database: "_s + error;
                return page;
            }
            return read(session, mapping, states, text, limit);
        },
        [this](const InboxRowsPage &page) { Q_EMIT pageReady(page); });
}

InboxRowsPage InboxRowsQuery::read(PgSession &session, const InboxMapping &mapping, const QList<InboxState> &states,
                                   const QString &text, int limit)
{
    InboxRowsPage page;
    page.mappingName = mapping.name;
    page.table = mapping.qualifiedTable();
    page.states = states;
    if (const QString problem = mapping.validate(); !problem.isEmpty()) {
        page.error = problem;
        return page;
    }
    QStringList words;
    for (InboxState state : states)
        words += mapping.statusesFor(state);
    if (words.isEmpty())
        return page; // the consumer's vocabulary has no word for these states: nothing can be in them

    QString catalogueError;
    const InboxTableInfo info = InboxTableInfo::read(session, mapping.schema, mapping.table, &catalogueError);
    if (!catalogueError.isEmpty() || !info.exists || !info.canSelect) {
        page.error = !catalogueError.isEmpty() ? catalogueError
                     : !info.exists ? u"%1 does not exist in this database (renamed or dropped?)"_s.arg(page.table)
                                    : u"no SELECT permission on %1"_s.arg(page.table);
        return page;
    }
    if (const QString problem = info.checkColumns(mapping); !problem.isEmpty()) {
        page.error = problem;
        return page;
    }
    page.isView = info.isView;
    const InboxTimeSql updatedTime{info.timeKind(mapping.updatedColumn)};
    const InboxTimeSql firstSeenTime{mapping.firstSeenColumn.isEmpty() ? InboxTimeKind::TimestampTz
                                                                       : info.timeKind(mapping.firstSeenColumn)};
    const auto column = [&session](const QString &name) {
        return name.isEmpty() ? u"NULL"_s : session.escapeIdentifier(name) + u"::text"_s;
    };
    const QString id = session.escapeIdentifier(mapping.messageIdColumn);
    const QString updated = session.escapeIdentifier(mapping.updatedColumn);
    const QString attempts =
        mapping.attemptsColumn.isEmpty() ? u"NULL"_s : session.escapeIdentifier(mapping.attemptsColumn) + u"::int"_s;
    const QString firstSeen = mapping.firstSeenColumn.isEmpty()
                                  ? u"NULL::timestamptz"_s
                                  : firstSeenTime.asTimestamptz(session.escapeIdentifier(mapping.firstSeenColumn));
    QString sql = u"SELECT "_s + column(mapping.consumerColumn) + u", "_s + id + u"::text, "_s
                  + session.escapeIdentifier(mapping.statusColumn) + u"::text, "_s + attempts + u", "_s + firstSeen
                  + u", "_s + updatedTime.asTimestamptz(updated) + u", "_s + column(mapping.errorColumn) + u", "_s + column(mapping.topicColumn)
                  + u" FROM "_s + session.escapeTable(mapping.schema, mapping.table) + u" WHERE "_s
                  + session.escapeIdentifier(mapping.statusColumn) + u" = ANY($1)"_s; // the column's type: its index applies
    QVariantList params = {words};
    if (mapping.filtersConsumer()) {
        sql += u" AND "_s + session.escapeIdentifier(mapping.consumerColumn) + u"::text = $"_s
               + QString::number(params.size() + 1);
        params << mapping.consumerValue;
    }
    if (!text.isEmpty()) {
        // The pattern is a parameter and its wildcards are escaped: the operator's text is matched literally.
        QString literal = text;
        literal.replace(u'\\', u"\\\\"_s).replace(u'%', u"\\%"_s).replace(u'_', u"\\_"_s);
        const QString p = u"$"_s + QString::number(params.size() + 1);
        sql += u" AND ("_s + id + u"::text ILIKE "_s + p
               + (mapping.errorColumn.isEmpty() ? QString()
                                                : u" OR "_s + session.escapeIdentifier(mapping.errorColumn) + u"::text ILIKE "_s + p)
               + u')';
        params << QString(u'%' + literal + u'%');
    }
    sql += u" ORDER BY "_s + updated + u" LIMIT "_s + QString::number(std::max(1, limit) + 1);
    const PgResult r = session.exec(sql, params);
    if (!r.ok) {
        page.error = r.error;
        return page;
    }
    for (const QVariantList &values : r.rows) {
        if (page.rows.size() == limit) {
            page.more = true;
            break;
        }
        InboxRow row;
        row.consumer = mapping.consumerColumn.isEmpty() ? mapping.consumerLabel() : values.value(0).toString();
        row.messageId = values.value(1).toString();
        row.status = values.value(2).toString();
        row.state = mapping.stateOf(row.status);
        row.attempts = values.value(3).isValid() ? values.value(3).toInt() : -1;
        row.firstSeen = values.value(4).toDateTime();
        row.updated = values.value(5).toDateTime();
        row.error = values.value(6).toString();
        row.topic = values.value(7).toString();
        page.rows << row;
    }
    return page;
}
