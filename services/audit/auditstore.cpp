#include "auditstore.h"

#include "services/audit/audittransaction.h"
#include "services/inbox/pgsession.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QtEndian>

#include <algorithm>

#include <libpq-fe.h>

using namespace Qt::StringLiterals;

namespace {
QVariant nullIfEmpty(const QString &text)
{
    return text.isEmpty() ? QVariant() : QVariant(text);
}

QVariant nullIfZero(qint64 value)
{
    return value == 0 ? QVariant() : QVariant(value);
}

QJsonValue jsonHexOrNull(const std::optional<QByteArray> &bytes)
{
    return bytes ? QJsonValue(QString::fromLatin1(bytes->toHex())) : QJsonValue(QJsonValue::Null);
}

// PostgreSQL's text and jsonb cannot hold U+0000, which strings decoded from dead-letter headers can (an
// idempotency key of hostile bytes): it is stored as U+FFFD, as undecodable bytes already are, so one such
// record cannot make a whole request impossible to file. The record itself is pinned by its SHA-256.
QJsonValue storable(const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::String:
        return value.toString().replace(QChar(u'\0'), QChar::ReplacementCharacter);
    case QJsonValue::Array: {
        QJsonArray out;
        for (const QJsonValue &v : value.toArray())
            out.append(storable(v));
        return out;
    }
    case QJsonValue::Object: {
        QJsonObject out;
        const QJsonObject in = value.toObject();
        for (auto it = in.begin(); it != in.end(); ++it)
            out.insert(storable(it.key()).toString(), storable(it.value()));
        return out;
    }
    default:
        return value;
    }
}

QJsonObject parseObject(const QVariant &text)
{
    return QJsonDocument::fromJson(text.toString().toUtf8()).object();
}

// Columns of listRequests/requestDetail, in the order requestFromRow reads them.
const QString RequestColumns =
    u"r.id, r.action, r.requested_by, r.created_at, r.expires_at, r.status, r.reason_code, r.reason, "
    u"r.ticket, "
    "r.destination_topic, r.rate_limit, r.dry_run::text, r.policy_verdict, r.required_approvals, "
    "r.status_changed_at, r.status_changed_by, "
    "(SELECT count(*) FROM berth.request_items i WHERE i.request_id = r.id), "
    "(SELECT count(*) FROM berth.approvals a WHERE a.request_id = r.id AND a.decision = 'approve')"_s;

RemediationRequest requestFromRow(const QVariantList &row)
{
    RemediationRequest r;
    r.id = row.value(0).toLongLong();
    r.action = AuditText::actionFromName(row.value(1).toString()).value_or(RemediationAction::Replay);
    r.requestedBy = row.value(2).toString();
    r.createdAt = row.value(3).toDateTime();
    r.expiresAt = row.value(4).toDateTime();
    r.status = AuditText::statusFromName(row.value(5).toString()).value_or(RequestStatus::Pending);
    r.reasonCode = row.value(6).toString();
    r.reason = row.value(7).toString();
    r.ticket = row.value(8).toString();
    r.destinationTopic = row.value(9).toString();
    r.rateLimit = row.value(10).toDouble();
    r.dryRun = parseObject(row.value(11));
    r.policyVerdict = row.value(12).toString();
    r.requiredApprovals = row.value(13).toInt();
    r.statusChangedAt = row.value(14).toDateTime();
    r.statusChangedBy = row.value(15).toString();
    r.itemCount = row.value(16).toInt();
    r.approvalCount = row.value(17).toInt();
    return r;
}

// Columns of items(), in the order itemFromResult reads them, cast to the binary forms it decodes.
const char ItemColumns[] =
    "item_no::int4, source_topic, source_partition::int4, source_offset::int8, payload_sha256, record_key, "
    "idempotency_key, edited_payload, inbox_ref::text, offset_reset::text, record_key_sha256, "
    "idempotency_key_sha256";

// A request's items are what a replay reads before its first record can go out (ARCHITECTURE.md,
// Performance): read straight from libpq's binary result, each cell once, without a QVariant per cell.
RequestItem itemFromResult(const PGresult *res, int row)
{
    auto isNull = [&](int col) { return PQgetisnull(res, row, col) != 0; };
    auto bytes = [&](int col) { return QByteArray(PQgetvalue(res, row, col), PQgetlength(res, row, col)); };
    auto text = [&](int col) {
        return isNull(col) ? QString() : QString::fromUtf8(PQgetvalue(res, row, col), PQgetlength(res, row, col));
    };
    RequestItem item;
    item.itemNo = qFromBigEndian<qint32>(PQgetvalue(res, row, 0));
    item.sourceTopic = text(1);
    item.sourcePartition = isNull(2) ? -1 : qFromBigEndian<qint32>(PQgetvalue(res, row, 2));
    item.sourceOffset = isNull(3) ? -1 : qFromBigEndian<qint64>(PQgetvalue(res, row, 3));
    item.payloadSha256 = bytes(4);
    if (!isNull(5))
        item.key = bytes(5);
    item.idempotencyKey = text(6);
    if (!isNull(7))
        item.editedPayload = bytes(7);
    if (!isNull(8))
        item.inboxRef = QJsonDocument::fromJson(bytes(8)).object();
    if (!isNull(9))
        item.offsetReset = QJsonDocument::fromJson(bytes(9)).object();
    item.keySha256 = bytes(10);
    item.idempotencyKeySha256 = bytes(11);
    return item;
}

QJsonObject itemToJson(const RequestItem &item, int itemNo)
{
    QJsonObject o;
    o.insert(u"item_no", itemNo);
    if (item.isDlqRecord()) {
        o.insert(u"source_topic", item.sourceTopic);
        o.insert(u"source_partition", item.sourcePartition);
        o.insert(u"source_offset", QString::number(item.sourceOffset)); // text: exact beyond 2^53
    }
    if (!item.payloadSha256.isEmpty())
        o.insert(u"payload_sha256", QString::fromLatin1(item.payloadSha256.toHex()));
    o.insert(u"record_key", jsonHexOrNull(item.key));
    if (!item.idempotencyKey.isEmpty())
        o.insert(u"idempotency_key", item.idempotencyKey);
    if (!item.keySha256.isEmpty())
        o.insert(u"record_key_sha256", QString::fromLatin1(item.keySha256.toHex()));
    if (!item.idempotencyKeySha256.isEmpty())
        o.insert(u"idempotency_key_sha256", QString::fromLatin1(item.idempotencyKeySha256.toHex()));
    o.insert(u"edited_payload", jsonHexOrNull(item.editedPayload));
    if (!item.editedMasked.isEmpty())
        o.insert(u"edited_masked", QJsonArray::fromStringList(item.editedMasked));
    if (!item.inboxRef.isEmpty())
        o.insert(u"inbox_ref", item.inboxRef);
    if (!item.offsetReset.isEmpty())
        o.insert(u"offset_reset", item.offsetReset);
    return o;
}
} // namespace

PgResult AuditStore::run(const QString &sql, const QVariantList &params, QString *error)
{
    PgResult r = m_db.exec(sql, params);
    m_lastSqlState = r.sqlState;
    m_lastOk = r.ok;
    if (!r.ok && error)
        *error = r.error;
    return r;
}

std::optional<AuditIdentity> AuditStore::identity(QString *error)
{
    const PgResult r =
        run(u"SELECT session_user::text, pg_has_role(session_user, 'berth_operator', 'MEMBER'), "
            "pg_has_role(session_user, 'berth_approver', 'MEMBER')"_s,
            {}, error);
    if (!r.ok || r.rows.isEmpty())
        return std::nullopt;
    return AuditIdentity{r.rows.at(0).value(0).toString(), r.rows.at(0).value(1).toBool(),
                         r.rows.at(0).value(2).toBool()};
}

qint64 AuditStore::createRequest(const NewRemediationRequest &request, QString *error)
{
    AuditTransaction tx(m_db);
    if (!tx.isOpen()) {
        if (error)
            *error = tx.error();
        return 0;
    }
    const PgResult inserted = run(
        u"INSERT INTO berth.requests (action, expires_at, reason_code, reason, ticket, destination_topic, "
        "rate_limit, dry_run, policy_verdict, required_approvals) "
        "VALUES ($1, coalesce($2::timestamptz, now() + interval '24 hours'), $3, $4, $5, $6, $7, $8::jsonb, "
        "$9, $10) RETURNING id"_s,
        {AuditText::actionName(request.action),
         request.expiresAt.isValid() ? QVariant(request.expiresAt) : QVariant(),
         nullIfEmpty(request.reasonCode), request.reason, nullIfEmpty(request.ticket),
         nullIfEmpty(request.destinationTopic),
         request.rateLimit > 0 ? QVariant(request.rateLimit) : QVariant(),
         QJsonDocument(storable(request.dryRun).toObject()), nullIfEmpty(request.policyVerdict),
         request.requiredApprovals},
        error);
    if (!inserted.ok)
        return 0;
    const qint64 id = inserted.rows.value(0).value(0).toLongLong();
    if (!insertItems(id, request.items, error))
        return 0;
    if (!tx.commit()) {
        if (error)
            *error = tx.error();
        return 0;
    }
    return id;
}

bool AuditStore::insertItems(qint64 requestId, const QList<RequestItem> &items, QString *error)
{
    // One statement per batch: the items travel as one JSON parameter (NULLs included), and the database
    // checks and journals each statement once.
    for (qsizetype start = 0; start < items.size(); start += ItemBatchSize) {
        QJsonArray batch;
        const qsizetype end = std::min(items.size(), start + ItemBatchSize);
        for (qsizetype i = start; i < end; ++i) {
            const RequestItem &item = items.at(i);
            batch.append(itemToJson(item, item.itemNo > 0 ? item.itemNo : int(i + 1)));
        }
        // The digest columns (schema 012) only when an item of the batch has one: a batch without masked
        // keys files on a database of any version this build reads.
        const bool digests =
            std::any_of(items.begin() + start, items.begin() + end, [](const RequestItem &i) {
                return !i.keySha256.isEmpty() || !i.idempotencyKeySha256.isEmpty();
            });
        const PgResult r = run(
            u"INSERT INTO berth.request_items (request_id, item_no, source_topic, source_partition, "
            "source_offset, payload_sha256, record_key, idempotency_key, edited_payload, edited_masked, "
            "inbox_ref, offset_reset"_s
                + (digests ? u", record_key_sha256, idempotency_key_sha256"_s : QString())
                + u") SELECT $1, x.item_no, x.source_topic, x.source_partition, x.source_offset, "
                  "decode(x.payload_sha256, 'hex'), decode(x.record_key, 'hex'), x.idempotency_key, "
                  "decode(x.edited_payload, 'hex'), x.edited_masked, x.inbox_ref, x.offset_reset"_s
                + (digests
                       ? u", decode(x.record_key_sha256, 'hex'), decode(x.idempotency_key_sha256, 'hex')"_s
                       : QString())
                + u" FROM jsonb_to_recordset($2::jsonb) AS x(item_no integer, source_topic text, "
                  "source_partition integer, source_offset bigint, payload_sha256 text, record_key text, "
                  "idempotency_key text, edited_payload text, edited_masked text[], inbox_ref jsonb, "
                  "offset_reset jsonb, record_key_sha256 text, idempotency_key_sha256 text)"_s,
            {requestId, QJsonDocument(storable(batch).toArray())}, error);
        if (!r.ok)
            return false;
    }
    return true;
}

bool AuditStore::decide(qint64 requestId, bool approve, const QString &comment, QString *error)
{
    // The approver is session_user, filled in by the database.
    return run(u"INSERT INTO berth.approvals (request_id, decision, comment) VALUES ($1, $2, $3)"_s,
               {requestId, approve ? u"approve"_s : u"reject"_s, comment}, error)
        .ok;
}

bool AuditStore::approve(qint64 requestId, const QString &comment, QString *error)
{
    return decide(requestId, true, comment, error);
}

bool AuditStore::reject(qint64 requestId, const QString &comment, QString *error)
{
    return decide(requestId, false, comment, error);
}

bool AuditStore::setStatus(qint64 requestId, RequestStatus status, QString *error)
{
    const PgResult r = run(u"UPDATE berth.requests SET status = $2 WHERE id = $1"_s,
                           {requestId, AuditText::statusName(status)}, error);
    if (r.ok && r.affected == 0) {
        if (error)
            *error = u"request %1 does not exist"_s.arg(requestId);
        return false;
    }
    return r.ok;
}

QList<qint64> AuditStore::expireOverdue(QString *error)
{
    const PgResult r = run(u"SELECT id FROM berth.expire_overdue_requests() AS id ORDER BY id"_s, {}, error);
    QList<qint64> ids;
    for (const QVariantList &row : r.rows)
        ids << row.value(0).toLongLong();
    return ids;
}

QList<RemediationRequest> AuditStore::listRequests(const RequestFilter &filter, QString *error)
{
    QStringList statuses;
    for (RequestStatus s : filter.statuses)
        statuses << AuditText::statusName(s);
    const PgResult r =
        run(u"SELECT "_s + RequestColumns
                + u" FROM berth.requests r "
                  "WHERE ($1::text[] IS NULL OR r.status = ANY ($1::text[])) "
                  "AND ($2::text IS NULL OR r.requested_by = $2) "
                  "AND ($3::bigint IS NULL OR r.id < $3) "
                  "ORDER BY r.id DESC LIMIT $4",
            {statuses.isEmpty() ? QVariant() : QVariant(statuses), nullIfEmpty(filter.requestedBy),
             nullIfZero(filter.beforeId), std::max(1, filter.limit)},
            error);
    QList<RemediationRequest> out;
    out.reserve(r.rows.size());
    for (const QVariantList &row : r.rows)
        out << requestFromRow(row);
    return out;
}

QList<RemediationRequest> AuditStore::pendingRequests(QString *error)
{
    RequestFilter filter;
    filter.statuses = {RequestStatus::Pending};
    filter.limit = 10'000;
    return listRequests(filter, error);
}

std::optional<RequestDetail> AuditStore::requestDetail(qint64 requestId, QString *error, int maxItems)
{
    // One snapshot: the items and approvals belong to the request as read.
    AuditTransaction tx(m_db, u"ISOLATION LEVEL REPEATABLE READ READ ONLY"_s);
    if (!tx.isOpen()) {
        if (error)
            *error = tx.error();
        return std::nullopt;
    }
    const PgResult r =
        run(u"SELECT "_s + RequestColumns + u" FROM berth.requests r WHERE r.id = $1", {requestId}, error);
    if (!r.ok)
        return std::nullopt;
    if (r.rows.isEmpty()) {
        if (error)
            *error = u"request %1 does not exist"_s.arg(requestId);
        return std::nullopt;
    }
    RequestDetail detail;
    detail.request = requestFromRow(r.rows.at(0));
    const int limit = std::max(0, maxItems);
    detail.items = items(requestId, 0, limit + 1, error);
    if (!m_lastOk)
        return std::nullopt;
    detail.itemsTruncated = detail.items.size() > limit;
    if (detail.itemsTruncated)
        detail.items.resize(limit);
    const PgResult a =
        run(u"SELECT approver, decision, comment, at FROM berth.approvals WHERE request_id = $1 "
            "ORDER BY at, approver"_s,
            {requestId}, error);
    if (!a.ok)
        return std::nullopt;
    for (const QVariantList &row : a.rows) {
        detail.approvals << Approval{requestId, row.value(0).toString(),
                                     row.value(1).toString() == u"approve", row.value(2).toString(),
                                     row.value(3).toDateTime()};
    }
    tx.commit();
    return detail;
}

QList<RequestItem> AuditStore::items(qint64 requestId, int afterItemNo, int limit, QString *error)
{
    static const QByteArray sql = QByteArray("SELECT ") + ItemColumns
                                  + " FROM berth.request_items WHERE request_id = $1 AND item_no > $2 "
                                    "ORDER BY item_no LIMIT $3";
    const QByteArray id = QByteArray::number(requestId);
    const QByteArray after = QByteArray::number(afterItemNo);
    const QByteArray count = QByteArray::number(std::max(0, limit));
    const char *values[] = {id.constData(), after.constData(), count.constData()};
    QList<RequestItem> out;
    m_lastOk = false;
    m_lastSqlState.clear();
    if (!m_db.handle()) {
        if (error)
            *error = u"Not connected to the audit database"_s;
        return out;
    }
    // Each page is read in item order along the primary key. Right after a request is filed the table's
    // statistics do not know its rows yet, and the planner would answer every page by reading and sorting
    // all the request's remaining items (ARCHITECTURE.md, Performance): sorting is off for this statement.
    PQclear(PQexec(m_db.handle(), "SET enable_sort = off"));
    PGresult *res = PQexecParams(m_db.handle(), sql.constData(), 3, nullptr, values, nullptr, nullptr, 1);
    PQclear(PQexec(m_db.handle(), "RESET enable_sort"));
    if (PQresultStatus(res) != PGRES_TUPLES_OK) {
        m_lastSqlState = QString::fromLatin1(PQresultErrorField(res, PG_DIAG_SQLSTATE));
        if (error)
            *error = PgSession::resultError(res, m_db.handle());
        PQclear(res);
        return out;
    }
    const int rows = PQntuples(res);
    out.reserve(rows);
    for (int row = 0; row < rows; ++row)
        out << itemFromResult(res, row);
    PQclear(res);
    m_lastOk = true;
    return out;
}

qint64 AuditStore::appendEvent(const QString &action, qint64 requestId, const QJsonObject &details,
                               QString *error)
{
    const PgResult r =
        run(u"INSERT INTO berth.audit_events (action, request_id, details) "
            "VALUES ($1, $2, $3::jsonb) RETURNING seq"_s,
            {action, nullIfZero(requestId), QJsonDocument(storable(details).toObject())}, error);
    return r.ok ? r.rows.value(0).value(0).toLongLong() : 0;
}

qint64 AuditStore::recordReveal(const QString &topic, int partition, qint64 offset, const QStringList &fields,
                                const QString &reason, QString *error)
{
    const QJsonObject details{{u"topic"_s, topic},
                              {u"partition"_s, partition},
                              {u"offset"_s, offset},
                              {u"fields"_s, QJsonArray::fromStringList(fields)},
                              {u"reason"_s, reason}};
    return appendEvent(u"record.reveal"_s, 0, details, error);
}

qint64 AuditStore::recordReveal(const QString &conninfo, const QString &topic, int partition, qint64 offset,
                                const QStringList &fields, const QString &reason, QString *error)
{
    PgSession session;
    if (!session.connect(conninfo, error))
        return 0;
    return AuditStore(session).recordReveal(topic, partition, offset, fields, reason, error);
}

QList<AuditEvent> AuditStore::listEvents(const EventFilter &filter, QString *error)
{
    const PgResult r = run(
        u"SELECT seq, at, actor, action, request_id, details::text, prev_hash, hash FROM berth.audit_events "
        "WHERE ($1::text IS NULL OR actor = $1) "
        "AND ($2::text[] IS NULL OR action = ANY ($2::text[])) "
        "AND ($3::timestamptz IS NULL OR at >= $3) "
        "AND ($4::timestamptz IS NULL OR at < $4) "
        "AND ($5::bigint IS NULL OR request_id = $5) "
        "AND seq > $6 "
        "ORDER BY seq LIMIT $7"_s,
        {nullIfEmpty(filter.actor), filter.actions.isEmpty() ? QVariant() : QVariant(filter.actions),
         filter.from.isValid() ? QVariant(filter.from) : QVariant(),
         filter.to.isValid() ? QVariant(filter.to) : QVariant(), nullIfZero(filter.requestId),
         filter.afterSeq, std::max(1, filter.limit)},
        error);
    QList<AuditEvent> out;
    out.reserve(r.rows.size());
    for (const QVariantList &row : r.rows) {
        AuditEvent e;
        e.seq = row.value(0).toLongLong();
        e.at = row.value(1).toDateTime();
        e.actor = row.value(2).toString();
        e.action = row.value(3).toString();
        e.requestId = row.value(4).toLongLong();
        e.details = parseObject(row.value(5));
        e.prevHash = row.value(6).toByteArray();
        e.hash = row.value(7).toByteArray();
        out << e;
    }
    return out;
}
