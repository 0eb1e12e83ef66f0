#include "services/inbox/inboxdiscovery.h"

#include "services/inbox/inboxtableinfo.h"
#include "services/inbox/pgsession.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace {
bool bounded(PgSession &session, QString *error)
{
    const PgResult r = session.exec(u"SELECT set_config('statement_timeout', $1, false)"_s,
                                    {QString::number(InboxDiscovery::StatementTimeoutMs)});
    if (!r.ok)
        *error = r.error;
    return r.ok;
}

// The first of the candidates that is a column (exact, then as a part of a longer name).
QString pick(const QHash<QString, QString> &types, const QStringList &names, const std::function<bool(const QString &)> &fits)
{
    QStringList columns = types.keys();
    std::sort(columns.begin(), columns.end());
    for (const QString &name : names) {
        for (const QString &c : std::as_const(columns)) {
            if (c.compare(name, Qt::CaseInsensitive) == 0 && fits(types.value(c)))
                return c;
        }
    }
    for (const QString &name : names) {
        for (const QString &c : std::as_const(columns)) {
            if (c.contains(name, Qt::CaseInsensitive) && fits(types.value(c)))
                return c;
        }
    }
    return {};
}
} // namespace

namespace InboxDiscovery {
QList<TableEntry> tables(PgSession &session, QString *error)
{
    QList<TableEntry> out;
    error->clear();
    if (!bounded(session, error))
        return out;
    const PgResult r = session.exec(
        u"SELECT n.nspname::text, c.relname::text, c.relkind::text, c.reltuples::float8 FROM pg_class AS c "
        u"JOIN pg_namespace AS n ON n.oid = c.relnamespace WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f') "
        u"AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%' "
        u"AND has_table_privilege(c.oid, 'SELECT') ORDER BY c.reltuples DESC, 1, 2"_s);
    if (!r.ok) {
        *error = r.error;
        return out;
    }
    for (const QVariantList &row : r.rows) {
        const double estimate = row.value(3).toDouble();
        out.append({row.value(0).toString(), row.value(1).toString(), InboxTableInfo::relkindText(row.value(2).toString()),
                    estimate < 0 ? -1 : qint64(estimate)});
    }
    return out;
}

InboxMapping suggestColumns(const QHash<QString, QString> &types)
{
    const auto any = [](const QString &) { return true; };
    const auto time = [](const QString &t) { return InboxTableInfo::timeKindOf(t) != InboxTimeKind::Unsupported; };
    const auto whole = [](const QString &t) { return t == u"smallint"_s || t == u"integer"_s || t == u"bigint"_s; };
    const auto text = [](const QString &t) {
        return t == u"text"_s || t.startsWith(u"character"_s) || t == u"uuid"_s || t.startsWith(u"varchar"_s);
    };
    InboxMapping m;
    m.messageIdColumn = pick(types, {u"message_id"_s, u"idempotency_key"_s, u"event_id"_s, u"messageid"_s,
                                     u"event_key"_s, u"dedup"_s, u"_key"_s, u"_id"_s},
                             text);
    m.statusColumn = pick(types, {u"status"_s, u"state"_s, u"outcome"_s, u"phase"_s}, text);
    m.consumerColumn = pick(types, {u"consumer_group"_s, u"consumer_name"_s, u"consumer"_s, u"group"_s,
                                    u"handler"_s, u"subscriber"_s},
                            text);
    m.updatedColumn = pick(types, {u"updated_at"_s, u"modified"_s, u"changed"_s, u"updated"_s, u"last_"_s}, time);
    m.firstSeenColumn = pick(types, {u"first_seen"_s, u"received_at"_s, u"created_at"_s, u"created"_s,
                                     u"received"_s, u"inserted"_s},
                             time);
    if (m.firstSeenColumn == m.updatedColumn)
        m.firstSeenColumn.clear();
    m.attemptsColumn = pick(types, {u"attempt_count"_s, u"attempts"_s, u"tries"_s, u"retries"_s, u"attempt"_s},
                            whole);
    m.errorColumn = pick(types, {u"last_error"_s, u"error_code"_s, u"error"_s, u"failure"_s, u"reason"_s}, any);
    m.topicColumn = pick(types, {u"topic"_s}, text);
    m.payloadColumn = pick(types, {u"payload"_s, u"body"_s, u"message"_s}, any);
    if (m.payloadColumn == m.messageIdColumn)
        m.payloadColumn.clear();
    return m;
}

StatusWords statusWords(PgSession &session, const QString &schema, const QString &table, const QString &statusColumn,
                        const QString &consumerColumn, QString *error)
{
    StatusWords out;
    error->clear();
    if (!bounded(session, error))
        return out;
    const QString t = session.escapeTable(schema, table);
    const QString s = session.escapeIdentifier(statusColumn);
    // Which index could walk the distinct values: one leading with status, or with (consumer, status).
    const PgResult idx = session.exec(
        u"SELECT a1.attname::text AS first, coalesce(a2.attname::text, '') AS second FROM pg_index AS i "
        u"JOIN pg_attribute AS a1 ON a1.attrelid = i.indrelid AND a1.attnum = i.indkey[0] "
        u"LEFT JOIN pg_attribute AS a2 ON a2.attrelid = i.indrelid AND a2.attnum = i.indkey[1] "
        u"WHERE i.indrelid = to_regclass($1) AND i.indisvalid AND i.indpred IS NULL"_s,
        {t});
    if (!idx.ok) {
        *error = idx.error;
        return out;
    }
    bool byStatus = false;
    bool byConsumer = false;
    for (const QVariantList &row : idx.rows) {
        byStatus |= row.value(0).toString() == statusColumn;
        byConsumer |= !consumerColumn.isEmpty() && row.value(0).toString() == consumerColumn
                      && row.value(1).toString() == statusColumn;
    }
    QString sql;
    bool consumerWalk = false;
    if (byStatus) {
        // Recursive "loose index scan": the next distinct value after the last one, one probe each.
        sql = u"WITH RECURSIVE w(v) AS ((SELECT "_s + s + u" FROM "_s + t + u" WHERE "_s + s + u" IS NOT NULL ORDER BY 1 LIMIT 1) "
              u"UNION ALL SELECT (SELECT "_s + s + u" FROM "_s + t + u" WHERE "_s + s + u" > w.v ORDER BY 1 LIMIT 1) "
              u"FROM w WHERE w.v IS NOT NULL) SELECT v::text FROM w WHERE v IS NOT NULL"_s;
        out.method = u"every distinct word, walked on the index over the status column"_s;
    } else if (byConsumer) {
        const QString c = session.escapeIdentifier(consumerColumn);
        consumerWalk = true;
        sql = u"WITH RECURSIVE w(c, v) AS ((SELECT "_s + c + u", "_s + s + u" FROM "_s + t + u" WHERE "_s + c + u" IS NOT NULL AND "_s
              + s + u" IS NOT NULL ORDER BY 1, 2 LIMIT 1) UNION ALL SELECT x.c, x.v FROM w CROSS JOIN LATERAL "
              u"(SELECT "_s + c + u" AS c, "_s + s + u" AS v FROM "_s + t + u" WHERE ("_s + c + u", "_s + s
              + u") > (w.c, w.v) AND "_s + s + u" IS NOT NULL ORDER BY 1, 2 LIMIT 1) AS x) "
              u"SELECT v::text, c::text FROM w"_s;
        out.method = u"every distinct word, walked on the index over the consumer and status columns"_s;
    } else {
        // No index to walk: a page sample (about 10,000 rows), which can miss rare words; said so.
        const PgResult est = session.exec(u"SELECT greatest(reltuples, 1)::float8 FROM pg_class WHERE oid = to_regclass($1)"_s, {t});
        const double rows = est.rows.value(0).value(0).toDouble();
        const double percent = std::clamp(10000.0 * 100.0 / std::max(rows, 1.0), 0.01, 100.0);
        sql = u"SELECT DISTINCT "_s + s + u"::text FROM "_s + t + u" TABLESAMPLE SYSTEM ("_s
              + QString::number(percent, 'f', 4) + u") WHERE "_s + s + u" IS NOT NULL"_s;
        out.method = u"a sample of the table's pages (no index leads with the status column: rare words may be "
                     u"missing; CREATE INDEX ON %1 (%2) finds them all)"_s.arg(t, s);
    }
    const PgResult r = session.exec(sql);
    if (!r.ok) {
        *error = r.error;
        return out;
    }
    QStringList consumers;
    for (const QVariantList &row : r.rows) {
        out.words << row.value(0).toString();
        if (consumerWalk && !consumers.contains(row.value(1).toString()))
            consumers << row.value(1).toString();
    }
    out.complete = byStatus || byConsumer;
    // Rows without a status: one seek per consumer when the index leads with the consumer (a plain
    // "IS NULL" could not use it and would read the whole table).
    const PgResult nulls =
        consumerWalk ? session.exec(u"SELECT EXISTS (SELECT 1 FROM unnest($1::text[]) AS k(c) WHERE EXISTS (SELECT 1 FROM "_s
                                        + t + u" WHERE "_s + session.escapeIdentifier(consumerColumn)
                                        + u"::text = k.c AND "_s + s + u" IS NULL))"_s,
                                    {consumers})
                     : session.exec(u"SELECT EXISTS (SELECT 1 FROM "_s + t + u" WHERE "_s + s + u" IS NULL)"_s);
    if (nulls.ok && nulls.rows.value(0).value(0).toBool())
        out.words << u"NULL"_s;
    std::sort(out.words.begin(), out.words.end());
    out.words.erase(std::unique(out.words.begin(), out.words.end()), out.words.end());
    return out;
}

InboxState guessState(const QString &word)
{
    const QString w = word.toLower();
    const auto has = [&w](std::initializer_list<const char16_t *> parts) {
        for (const char16_t *p : parts) {
            if (w.contains(QStringView(p)))
                return true;
        }
        return false;
    };
    if (has({u"skip", u"ignor", u"dropped"}))
        return InboxState::Skipped;
    if (has({u"park", u"quarant", u"hold", u"held", u"manual"}))
        return InboxState::Parked;
    if (has({u"dead", u"terminal", u"gave_up", u"giveup", u"abandon", u"fatal", u"poison", u"reject"}))
        return InboxState::FailedTerminal;
    if (has({u"fail", u"error", u"retry", u"bounce"}))
        return InboxState::FailedRetryable;
    if (has({u"done", u"complete", u"success", u"succeed", u"sent", u"processed", u"captured", u"applied"}) || w == u"ok"_s)
        return InboxState::Completed;
    if (has({u"progress", u"processing", u"received", u"pending", u"started", u"running", u"flight", u"new",
             u"claimed", u"locked"}))
        return InboxState::InProgress;
    return InboxState::Unknown;
}
} // namespace InboxDiscovery
