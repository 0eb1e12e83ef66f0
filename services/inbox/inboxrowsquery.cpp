#include "inboxrowsquery.h"

#include "services/inbox/inboxboardquery.h"
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
         limit, mask = m_mask](const JobControl &) {
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
                page.readAt = QDateTime::currentDateTimeUtc();
                return page;
            }
            InboxRowsPage page = read(session, mapping, states, text, limit, mask);
            page.readAt = QDateTime::currentDateTimeUtc();
            return page;
        },
        [this](const InboxRowsPage &page) { Q_EMIT pageReady(page); });
}

InboxRowsPage InboxRowsQuery::read(PgSession &session, const InboxMapping &mapping,
                                   const QList<InboxState> &states, const QString &text, int limit,
                                   const KeyMask &mask)
{
    InboxRowsPage page;
    page.mappingName = mapping.name;
    page.table = mapping.qualifiedTable();
    page.states = states;
    page.text = text;
    // Whose rows' ids are masked, named as the Parked view names a row's consumer (inboxRefFor: the
    // consumer column's value, else the mapping's consumer; a row without one by the mapping's name).
    page.maskedIdConsumers = mask.idMaskedConsumersOf(mapping);
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
    const QString table = session.escapeTable(mapping.schema, mapping.table);
    const QString status = session.escapeIdentifier(mapping.statusColumn);
    const QString consumer = mapping.consumerColumn.isEmpty() ? QString() : session.escapeIdentifier(mapping.consumerColumn);
    const QString select = u"SELECT "_s + column(mapping.consumerColumn) + u", "_s + id + u"::text, "_s + status
                           + u"::text, "_s + attempts + u", "_s + firstSeen + u", "_s + updatedTime.asTimestamptz(updated)
                           + u", "_s + column(mapping.errorColumn) + u", "_s + column(mapping.topicColumn) + u", "_s
                           + updated + u" AS ord FROM "_s + table + u" WHERE "_s;
    QVariantList params;
    const auto param = [&params](const QVariant &value) -> QString {
        params << value;
        return u"$"_s + QString::number(params.size());
    };
    QString textFilter;
    if (!text.isEmpty()) {
        // The pattern is a parameter and its wildcards are escaped: the operator's text is matched literally.
        QString literal = text;
        literal.replace(u'\\', u"\\\\"_s).replace(u'%', u"\\%"_s).replace(u'_', u"\\_"_s);
        const QString p = param(QString(u'%' + literal + u'%'));
        textFilter = u" AND ("_s + id + u"::text ILIKE "_s + p
                     + (mapping.errorColumn.isEmpty() ? QString()
                                                      : u" OR "_s + session.escapeIdentifier(mapping.errorColumn)
                                                            + u"::text ILIKE "_s + p)
                     + u')';
        // A masked id is not searched by value (ARCHITECTURE.md, Masking), nor the error beside it, which
        // may quote it: such rows match no text.
        if (mapping.readsOneConsumer() && !page.maskedIdConsumers.isEmpty())
            textFilter = u" AND false"_s;
        else if (!page.maskedIdConsumers.isEmpty())
            textFilter += u" AND coalesce(nullif("_s + consumer + u"::text, ''), "_s + param(mapping.name)
                          + u") <> ALL("_s + param(page.maskedIdConsumers) + u"::text[])"_s;
    }
    const QString pageLimit = u" LIMIT "_s + QString::number(std::max(1, limit) + 1);
    const bool large = !info.isView && info.estimatedRows >= LargeTableRows;
    // On a huge table with the open-rows-by-time index (updated, status) WHERE status <> '<dominant word>'
    // (ARCHITECTURE.md, Inbox mapping): one range in time order, the words matched inside the index, so
    // about a page of rows is read; the planner proves the predicate from the words, none of which is
    // the one it leaves out.
    bool byTime = false;
    if (large) {
        // The board's one index check, on its cached reading of the catalogue (ARCHITECTURE.md, Inbox mapping).
        InboxIndexRequirement openByTime;
        openByTime.table = page.table;
        openByTime.leadingColumns = {mapping.updatedColumn, mapping.statusColumn};
        openByTime.keptStatuses = words;
        openByTime.purpose = u"the Parked tab's rows in time order"_s;
        QStringList missing;
        QString indexError;
        if (!InboxBoardQuery::missingIndexes(session, mapping, {openByTime}, &missing, &indexError)) {
            page.error = indexError;
            return page;
        }
        byTime = missing.isEmpty();
    }
    // Else, on a huge table, one ordered index range per (consumer, word), merged (Merge Append) so only
    // about a page of rows is read: a single range over several words would sort every matching row first.
    QStringList consumers;
    if (large && !byTime) {
        // The consumer walk and the ranges seek on the board's index; without it each would read the table,
        // so the tab names the index to create instead (ARCHITECTURE.md, Inbox mapping).
        QStringList missing;
        QString indexError;
        if (!InboxBoardQuery::missingIndexes(session, mapping, {InboxBoardQuery::indexRequirements(mapping).first()},
                                             &missing, &indexError)) {
            page.error = indexError;
            return page;
        }
        if (!missing.isEmpty()) {
            page.error = u"%1 has about %2 rows and no index to read its rows by: %3"_s.arg(
                page.table, QString::number(info.estimatedRows), missing.first());
            return page;
        }
        if (mapping.filtersConsumer()) {
            consumers << mapping.consumerValue;
        } else if (!consumer.isEmpty()) {
            const PgResult walk = session.exec(
                u"WITH RECURSIVE w(c) AS ((SELECT "_s + consumer + u" FROM "_s + table + u" WHERE "_s + consumer
                + u" IS NOT NULL ORDER BY 1 LIMIT 1) UNION ALL SELECT (SELECT "_s + consumer + u" FROM "_s + table
                + u" WHERE "_s + consumer + u" > w.c ORDER BY 1 LIMIT 1) FROM w WHERE w.c IS NOT NULL) "
                u"SELECT c::text FROM w WHERE c IS NOT NULL"_s);
            if (!walk.ok) {
                page.error = walk.error;
                return page;
            }
            for (const QVariantList &row : walk.rows)
                consumers << row.value(0).toString();
        }
    }
    QString sql;
    const qsizetype branches = std::max<qsizetype>(1, consumers.size()) * words.size();
    if (large && !byTime && branches <= MaxMergedRanges) {
        QStringList parts;
        for (const QString &word : std::as_const(words)) {
            const QStringList scopes = consumers.isEmpty() ? QStringList{QString()} : consumers;
            for (const QString &c : scopes) {
                QString where = status + u" = "_s + param(word);
                if (!consumer.isEmpty() && !consumers.isEmpty())
                    where = consumer + u"::text = "_s + param(c) + u" AND "_s + where;
                parts << u"("_s + select + where + textFilter + u" ORDER BY "_s + updated + pageLimit + u')';
            }
        }
        sql = u"SELECT * FROM ("_s + parts.join(u" UNION ALL "_s) + u") AS u ORDER BY ord"_s + pageLimit;
    } else {
        sql = select + status + u" = ANY("_s + param(words) + u')'; // the column's type: its index applies
        if (mapping.filtersConsumer())
            sql += u" AND "_s + consumer + u"::text = "_s + param(mapping.consumerValue);
        sql += textFilter + u" ORDER BY "_s + updated + pageLimit;
    }
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
