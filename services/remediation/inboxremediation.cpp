#include "inboxremediation.h"

#include "services/inbox/pgsession.h"

#include <QJsonDocument>

using namespace Qt::StringLiterals;

namespace {
// "WHERE <id> = $1 [AND <consumer> = $2]" and its parameters, from the ref.
QString whereClause(PgSession &db, const InboxMapping &m, const QJsonObject &ref, QVariantList *params,
                    int firstParam)
{
    QString sql =
        u" WHERE "_s + db.escapeIdentifier(m.messageIdColumn) + u" = $"_s + QString::number(firstParam);
    params->append(ref.value(u"messageId"_s).toString());
    const QString consumer = ref.value(u"consumer"_s).toString();
    if (!m.consumerColumn.isEmpty() && !consumer.isEmpty()) {
        sql +=
            u" AND "_s + db.escapeIdentifier(m.consumerColumn) + u" = $"_s + QString::number(firstParam + 1);
        params->append(consumer);
    }
    return sql;
}
} // namespace

namespace InboxRemediation {
const InboxMapping *mappingFor(const QJsonObject &ref, const QList<InboxMapping> &mappings)
{
    const QString name = ref.value(u"mapping"_s).toString();
    for (const InboxMapping &m : mappings) {
        if (m.name == name)
            return &m;
    }
    return nullptr;
}

bool readRow(PgSession &db, const InboxMapping &mapping, const QJsonObject &ref, QJsonObject *row,
             QString *error)
{
    QVariantList params;
    const QString sql =
        u"SELECT to_jsonb(t)::text FROM "_s + db.escapeTable(mapping.schema, mapping.table) + u" AS t"_s
        + whereClause(db, mapping, ref, &params, 1).replace(u" WHERE "_s, u" WHERE t."_s) + u" LIMIT 1"_s;
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
    QVariantList params{mapping.skippedStatus};
    QString sql = u"UPDATE "_s + db.escapeTable(mapping.schema, mapping.table) + u" SET "_s
                  + db.escapeIdentifier(mapping.statusColumn) + u" = $1"_s;
    if (!mapping.updatedColumn.isEmpty())
        sql += u", "_s + db.escapeIdentifier(mapping.updatedColumn) + u" = now()"_s;
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
} // namespace InboxRemediation
