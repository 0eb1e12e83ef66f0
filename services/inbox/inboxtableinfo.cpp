#include "services/inbox/inboxtableinfo.h"

#include "services/inbox/pgsession.h"

using namespace Qt::StringLiterals;

InboxTableInfo InboxTableInfo::read(PgSession &session, const QString &schema, const QString &table,
                                    QString *error)
{
    InboxTableInfo info;
    error->clear();
    const QString name = session.escapeTable(schema, table);
    // The escaped name is a value here: to_regclass parses it, nothing is spliced into SQL.
    const PgResult r = session.exec(
        u"SELECT c.relkind::text AS kind, c.reltuples::float8 AS estimate, c.relname::text AS rel, "
        u"c.relnamespace::regnamespace::text AS nsp, "
        u"has_table_privilege(c.oid, 'SELECT') AS can_select, has_any_column_privilege(c.oid, 'UPDATE') AS can_update, "
        u"has_table_privilege(c.oid, 'DELETE') AS can_delete, a.attname::text AS column, "
        u"format_type(a.atttypid, a.atttypmod) AS type "
        u"FROM pg_class AS c LEFT JOIN pg_attribute AS a ON a.attrelid = c.oid AND a.attnum > 0 "
        u"AND NOT a.attisdropped WHERE c.oid = to_regclass($1)"_s,
        {name});
    if (!r.ok) {
        *error = r.error;
        return info;
    }
    if (r.rows.isEmpty())
        return info;
    info.exists = true;
    const QString kind = r.value(0, u"kind").toString();
    info.relkindName = relkindText(kind);
    info.relationName = r.value(0, u"rel").toString();
    info.schemaName = r.value(0, u"nsp").toString();
    if (info.schemaName.startsWith(u'"')) // regnamespace quotes names that need it
        info.schemaName = info.schemaName.mid(1, info.schemaName.size() - 2).replace(u"\"\""_s, u"\""_s);
    info.isView = kind != u"r"_s && kind != u"p"_s;
    const double estimate = r.value(0, u"estimate").toDouble();
    info.estimatedRows = estimate < 0 ? -1 : qint64(estimate);
    info.canSelect = r.value(0, u"can_select").toBool();
    info.canUpdate = r.value(0, u"can_update").toBool();
    info.canDelete = r.value(0, u"can_delete").toBool();
    for (qsizetype row = 0; row < r.rows.size(); ++row) {
        const QVariant column = r.value(int(row), u"column");
        if (column.isValid())
            info.types.insert(column.toString(), r.value(int(row), u"type").toString());
    }
    return info;
}

QString InboxTableInfo::relkindText(const QString &relkind)
{
    static const QHash<QString, QString> kinds = {
        {u"r"_s, u"table"_s},         {u"p"_s, u"partitioned table"_s}, {u"v"_s, u"view"_s},
        {u"m"_s, u"materialized view"_s}, {u"f"_s, u"foreign table"_s},
    };
    return kinds.value(relkind, u"relation"_s);
}

InboxTimeKind InboxTableInfo::timeKindOf(const QString &type)
{
    if (type.startsWith(u"timestamp"_s) && type.endsWith(u" with time zone"_s))
        return InboxTimeKind::TimestampTz;
    if (type.startsWith(u"timestamp"_s) && type.endsWith(u" without time zone"_s))
        return InboxTimeKind::Timestamp;
    if (type == u"bigint"_s)
        return InboxTimeKind::EpochMillis;
    return InboxTimeKind::Unsupported;
}

QString InboxTableInfo::checkColumns(const InboxMapping &m) const
{
    QStringList problems;
    const struct {
        QString what;
        const QString &column;
        bool time;
    } columns[] = {
        {u"message id"_s, m.messageIdColumn, false}, {u"status"_s, m.statusColumn, false},
        {u"updated"_s, m.updatedColumn, true},       {u"first-seen"_s, m.firstSeenColumn, true},
        {u"attempts"_s, m.attemptsColumn, false},    {u"error"_s, m.errorColumn, false},
        {u"consumer"_s, m.consumerColumn, false},    {u"topic"_s, m.topicColumn, false},
        {u"payload"_s, m.payloadColumn, false},
    };
    for (const auto &c : columns) {
        if (c.column.isEmpty())
            continue;
        if (!types.contains(c.column)) {
            problems << u"the %1 column \u201c%2\u201d does not exist in the table"_s.arg(c.what, c.column);
            continue;
        }
        if (c.time && timeKindOf(types.value(c.column)) == InboxTimeKind::Unsupported)
            problems << u"the %1 column \u201c%2\u201d is %3, not timestamptz, timestamp or bigint epoch "
                        u"milliseconds"_s.arg(c.what, c.column, types.value(c.column));
    }
    if (!m.attemptsColumn.isEmpty() && types.contains(m.attemptsColumn)) {
        static const QStringList numbers{u"smallint"_s, u"integer"_s, u"bigint"_s};
        const QString type = types.value(m.attemptsColumn);
        if (!numbers.contains(type) && !type.startsWith(u"numeric"_s))
            problems << u"the attempts column \u201c%1\u201d is %2, not a whole number"_s.arg(
                m.attemptsColumn, types.value(m.attemptsColumn));
    }
    return problems.join(u"; "_s);
}

QString InboxTimeSql::asTimestamptz(const QString &column) const
{
    switch (kind) {
    case InboxTimeKind::EpochMillis:
        return u"to_timestamp("_s + column + u" / 1000.0)"_s;
    case InboxTimeKind::Timestamp:
        // A timestamp without zone is read in the session's time zone, as the writing service most
        // likely meant it (PostgreSQL's own rule for the cast).
        return column + u"::timestamptz"_s;
    default:
        return column;
    }
}

QString InboxTimeSql::fromTimestamptz(const QString &expression) const
{
    switch (kind) {
    case InboxTimeKind::EpochMillis:
        return u"(EXTRACT(EPOCH FROM ("_s + expression + u")) * 1000)::int8"_s;
    case InboxTimeKind::Timestamp:
        return u"("_s + expression + u")::timestamp"_s;
    default:
        return expression;
    }
}
