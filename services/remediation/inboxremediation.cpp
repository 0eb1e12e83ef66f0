#include "inboxremediation.h"

#include "services/inbox/inboxtableinfo.h"
#include "services/inbox/pgsession.h"
#include "services/payload/payloadmask.h"

#include <QJsonDocument>

using namespace Qt::StringLiterals;

namespace {
// "WHERE <id> = $1 [AND <consumer> = $2]" and its parameters, from the ref. A ref naming its row by the
// message id's digest alone (ARCHITECTURE.md, Masking: request items) matches the id's SHA-256 among the
// rows still open to remediation (parked, failed): the only ones the Inbox view files skip and delete for,
// and few, so the digest is computed over a bounded set rather than the whole table.
QString whereClause(PgSession &db, const InboxMapping &m, const QJsonObject &ref, QVariantList *params,
                    int firstParam, const QString &alias = {})
{
    const auto column = [&](const QString &name) -> QString {
        return (alias.isEmpty() ? QString() : alias + u'.') + db.escapeIdentifier(name);
    };
    QString sql;
    if (ref.contains(u"messageIdSha256"_s) && !ref.contains(u"messageId"_s)) {
        sql = u" WHERE encode(sha256(convert_to("_s + column(m.messageIdColumn)
              + u"::text, 'UTF8')), 'hex') = $"_s + QString::number(firstParam);
        params->append(ref.value(u"messageIdSha256"_s).toString());
        params->append(m.statusesFor(InboxState::Parked) + m.statusesFor(InboxState::FailedTerminal)
                       + m.statusesFor(InboxState::FailedRetryable));
        sql += u" AND "_s + column(m.statusColumn) + u"::text = ANY($"_s + QString::number(firstParam + 1)
               + u"::text[])"_s;
        ++firstParam;
    } else {
        sql = u" WHERE "_s + column(m.messageIdColumn) + u" = $"_s + QString::number(firstParam);
        params->append(ref.value(u"messageId"_s).toString());
    }
    QString consumer = ref.value(u"consumer"_s).toString();
    if (consumer.isEmpty() && m.filtersConsumer())
        consumer = m.consumerValue;
    if (!m.consumerColumn.isEmpty() && !consumer.isEmpty()) {
        sql += u" AND "_s + column(m.consumerColumn) + u" = $"_s + QString::number(firstParam + 1);
        params->append(consumer);
    }
    return sql;
}

// Berth writes only to a table it may write to, never through a view (whose rules or triggers would
// decide what a write does); the reason is the request's error, shown where the operator acts.
bool writableCheck(PgSession &db, const InboxMapping &m, const QString &verb, bool needsUpdate,
                   InboxTimeSql *updated, QString *error)
{
    QString problem;
    const InboxTableInfo info = InboxTableInfo::read(db, m.schema, m.table, &problem);
    if (!problem.isEmpty()) {
        *error = problem;
        return false;
    }
    const QString table = m.qualifiedTable();
    if (!info.exists)
        *error = u"%1 does not exist in this database: %2 refused"_s.arg(table, verb);
    else if (info.isView)
        *error = u"%1 is a %2, not a table: Berth does not write through it (%3 refused)"_s.arg(
            table, info.relkindName, verb);
    else if (needsUpdate ? !info.canUpdate : !info.canDelete)
        *error = u"no %1 permission on %2: %3 refused"_s.arg(needsUpdate ? u"UPDATE"_s : u"DELETE"_s, table, verb);
    if (!error->isEmpty())
        return false;
    if (updated && !m.updatedColumn.isEmpty())
        updated->kind = info.timeKind(m.updatedColumn);
    return true;
}
} // namespace

namespace InboxRemediation {
bool checkWritable(PgSession &db, const InboxMapping &mapping, bool remove, QString *error)
{
    error->clear();
    return writableCheck(db, mapping, remove ? u"delete"_s : u"skip"_s, !remove, nullptr, error);
}

const InboxMapping *mappingFor(const QJsonObject &ref, const QList<InboxMapping> &mappings)
{
    const QString name = ref.value(u"mapping"_s).toString();
    for (const InboxMapping &m : mappings) {
        if (m.name == name)
            return &m;
    }
    return nullptr;
}

QJsonObject rowForAudit(const InboxMapping &mapping, const QJsonObject &ref, const QJsonObject &row)
{
    if (!ref.contains(u"messageIdSha256"_s) || ref.contains(u"messageId"_s) || row.isEmpty())
        return row;
    const QJsonValue idValue = row.value(mapping.messageIdColumn);
    const QString id = idValue.isString()   ? idValue.toString()
                       : idValue.isDouble() ? QString::number(idValue.toInteger(qint64(idValue.toDouble())))
                                            : QString();
    const QString masked = QString::fromLatin1(PayloadMask::kMasked);
    QJsonObject out;
    for (auto it = row.constBegin(); it != row.constEnd(); ++it) {
        const QJsonValue v = it.value();
        if (it.key() == mapping.messageIdColumn || it.key() == mapping.payloadColumn) {
            out.insert(it.key(), v.isNull() ? v : QJsonValue(masked));
        } else if (v.isString()) {
            QString text = v.toString();
            if (!id.isEmpty())
                PayloadMask::scrub(text, {id});
            out.insert(it.key(), text);
        } else if ((v.isObject() || v.isArray()) && !id.isEmpty()
                   && QString::fromUtf8(QJsonDocument::fromVariant(v.toVariant()).toJson()).contains(id)) {
            out.insert(it.key(), masked); // a jsonb column quoting the id
        } else {
            out.insert(it.key(), v);
        }
    }
    out.insert(u"messageIdSha256"_s, ref.value(u"messageIdSha256"_s));
    return out;
}

bool readRow(PgSession &db, const InboxMapping &mapping, const QJsonObject &ref, QJsonObject *row,
             QString *error)
{
    QVariantList params;
    const QString sql = u"SELECT to_jsonb(t)::text FROM "_s + db.escapeTable(mapping.schema, mapping.table)
                        + u" AS t"_s + whereClause(db, mapping, ref, &params, 1, u"t"_s) + u" LIMIT 1"_s;
    const PgResult r = db.exec(sql, params);
    if (!r.ok) {
        *error = r.error;
        return false;
    }
    *row = r.rows.isEmpty() ? QJsonObject()
                            : QJsonDocument::fromJson(r.rows.first().first().toString().toUtf8()).object();
    return true;
}

bool markSkipped(PgSession &db, const InboxMapping &mapping, const QJsonObject &ref, int *rows,
                 QString *error)
{
    if (mapping.skippedStatus.isEmpty()) {
        *error = u"Inbox mapping "_s + mapping.name + u" has no skipped status: skipping is not offered"_s;
        return false;
    }
    error->clear();
    InboxTimeSql updated;
    if (!writableCheck(db, mapping, u"skip"_s, true, &updated, error))
        return false;
    QVariantList params{mapping.skippedStatus};
    QString sql = u"UPDATE "_s + db.escapeTable(mapping.schema, mapping.table) + u" SET "_s
                  + db.escapeIdentifier(mapping.statusColumn) + u" = $1"_s;
    if (!mapping.updatedColumn.isEmpty() && updated.kind != InboxTimeKind::Unsupported)
        sql += u", "_s + db.escapeIdentifier(mapping.updatedColumn) + u" = "_s + updated.fromTimestamptz(u"now()"_s);
    sql += whereClause(db, mapping, ref, &params, 2);
    const PgResult r = db.exec(sql, params);
    if (!r.ok) {
        *error = r.error;
        return false;
    }
    *rows = int(r.affected);
    return true;
}

bool deleteParked(PgSession &db, const InboxMapping &mapping, const QJsonObject &ref, int *rows,
                  QString *error)
{
    const QStringList parked = mapping.statusesFor(InboxState::Parked);
    if (parked.isEmpty()) {
        *error = u"Inbox mapping "_s + mapping.name + u" has no parked status: nothing can be deleted"_s;
        return false;
    }
    error->clear();
    if (!writableCheck(db, mapping, u"delete"_s, false, nullptr, error))
        return false;
    QVariantList params;
    QString sql = u"DELETE FROM "_s + db.escapeTable(mapping.schema, mapping.table)
                  + whereClause(db, mapping, ref, &params, 1);
    params.append(parked);
    sql += u" AND "_s + db.escapeIdentifier(mapping.statusColumn) + u" = ANY($"_s
           + QString::number(params.size()) + u"::text[])"_s;
    const PgResult r = db.exec(sql, params);
    if (!r.ok) {
        *error = r.error;
        return false;
    }
    *rows = int(r.affected);
    return true;
}
bool release(PgSession &db, const InboxMapping &mapping, const QJsonObject &ref, ReleaseResult *result,
             QString *currentStatus, QString *error)
{
    const QString releaseTo = ref.value(u"release"_s).toString();
    const QString pinned = ref.value(u"pinnedStatus"_s).toString();
    if (releaseTo.isEmpty() || releaseTo != mapping.releaseTo) {
        *error = u"Inbox mapping "_s + mapping.name + u" does not release to \u201c"_s + releaseTo
                 + u"\u201d (now: \u201c"_s + mapping.releaseTo + u"\u201d): release refused"_s;
        return false;
    }
    const bool remove = releaseTo == u"delete"_s;
    error->clear();
    InboxTimeSql updated;
    if (!writableCheck(db, mapping, u"release"_s, !remove, &updated, error))
        return false;
    const QString table = db.escapeTable(mapping.schema, mapping.table);
    QVariantList params;
    QString sql;
    if (remove) {
        sql = u"DELETE FROM "_s + table + whereClause(db, mapping, ref, &params, 1);
    } else {
        params.append(releaseTo);
        sql = u"UPDATE "_s + table + u" SET "_s + db.escapeIdentifier(mapping.statusColumn) + u" = $1"_s;
        if (!mapping.updatedColumn.isEmpty() && updated.kind != InboxTimeKind::Unsupported)
            sql += u", "_s + db.escapeIdentifier(mapping.updatedColumn) + u" = "_s
                   + updated.fromTimestamptz(u"now()"_s);
        sql += whereClause(db, mapping, ref, &params, 2);
    }
    params.append(pinned);
    sql += u" AND "_s + db.escapeIdentifier(mapping.statusColumn) + u"::text = $"_s
           + QString::number(params.size());
    // Reclaim pins a row as idle for the threshold: one its consumer touched since is alive after all
    // (slow, not dead), and releasing it would let the replay do its work a second time.
    if (ref.contains(u"idleForMs"_s) && !mapping.updatedColumn.isEmpty()
        && updated.kind != InboxTimeKind::Unsupported) {
        params.append(ref.value(u"idleForMs"_s).toInteger());
        sql += u" AND "_s + db.escapeIdentifier(mapping.updatedColumn) + u" < "_s
               + updated.fromTimestamptz(u"(now() - $"_s + QString::number(params.size())
                                         + u"::bigint * interval '1 millisecond')"_s);
    }
    const PgResult r = db.exec(sql, params);
    if (!r.ok) {
        *error = r.error;
        return false;
    }
    if (r.affected > 0) {
        *result = ReleaseResult::Released;
        *currentStatus = remove ? QString() : releaseTo;
        return true;
    }
    // Not at the pinned status: released already (a resumed run), or changed by someone else.
    QJsonObject row;
    if (!readRow(db, mapping, ref, &row, error))
        return false;
    const QJsonValue status = row.value(mapping.statusColumn);
    *currentStatus = row.isEmpty()       ? QString()
                     : status.isString() ? status.toString()
                                         : QString::number(status.toDouble());
    const bool released = remove ? row.isEmpty() : !row.isEmpty() && *currentStatus == releaseTo;
    *result = released ? ReleaseResult::AlreadyReleased : ReleaseResult::Changed;
    return true;
}
} // namespace InboxRemediation
