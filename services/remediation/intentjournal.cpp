#include "intentjournal.h"

#include "services/inbox/pgsession.h"
#include "services/remediation/remediationtypes.h"

#include <QJsonDocument>

#include <algorithm>

using namespace Qt::StringLiterals;

QString IntentJournal::stateName(State state)
{
    switch (state) {
    case State::Pending:
        return u"pending"_s;
    case State::Delivered:
        return u"delivered"_s;
    case State::Failed:
        return u"failed"_s;
    case State::Skipped:
        return u"skipped"_s;
    case State::None:
        break;
    }
    return {};
}

IntentJournal::State IntentJournal::stateFromName(const QString &name)
{
    if (name == u"pending"_s)
        return State::Pending;
    if (name == u"delivered"_s)
        return State::Delivered;
    if (name == u"failed"_s)
        return State::Failed;
    if (name == u"skipped"_s)
        return State::Skipped;
    return State::None;
}

bool IntentJournal::load(QHash<int, Intent> *intents, QString *error)
{
    // The state derived by the database (berth.intent_states: delivered <=> a replayed disposition with a
    // destination, or an intent delivered before audit schema version 11; ARCHITECTURE.md, Audit database).
    const PgResult r = m_db.exec(u"SELECT item_no, state, dest_topic, dest_partition, dest_offset, attempts, error "
                                 u"FROM berth.intent_states WHERE request_id = $1"_s,
                                 {m_requestId});
    if (!r.ok) {
        *error = r.error;
        return false;
    }
    intents->clear();
    intents->reserve(r.rows.size());
    for (const QVariantList &row : r.rows) {
        Intent i;
        i.state = stateFromName(row.at(1).toString());
        i.destTopic = row.at(2).toString();
        i.destPartition = row.at(3).isValid() ? row.at(3).toInt() : -1;
        i.destOffset = row.at(4).isValid() ? row.at(4).toLongLong() : -1;
        i.attempts = row.at(5).toInt();
        i.error = row.at(6).toString();
        intents->insert(row.at(0).toInt(), i);
    }
    return true;
}

bool IntentJournal::journal(const QList<Update> &rows, QString *error)
{
    if (rows.isEmpty())
        return true;
    QStringList items;
    QStringList ids;
    QStringList topics;
    for (const Update &u : rows) {
        items << QString::number(u.itemNo);
        ids << replayIdFor(m_requestId, u.itemNo);
        topics << u.destTopic;
    }
    const PgResult r =
        m_db.exec(u"INSERT INTO berth.intents (request_id, item_no, replay_id, dest_topic) "
                  u"SELECT $1, u.item_no, u.replay_id, NULLIF(u.dest_topic, '') "
                  u"FROM unnest($2::int[], $3::text[], $4::text[]) AS u(item_no, replay_id, dest_topic)"_s,
                  {m_requestId, items, ids, topics});
    if (!r.ok)
        *error = r.error;
    return r.ok;
}

bool IntentJournal::settle(const QList<Update> &rows, const QString &skipDisposition,
                           const QHash<int, QJsonObject> &dispositionDetails, QString *error)
{
    if (rows.isEmpty())
        return true;
    // Intents that change (failed, skipped, pending again): UPDATEd.
    QStringList items;
    QStringList states;
    QStringList topics;
    QStringList partitions;
    QStringList offsets;
    QStringList errors;
    // Dispositions: a delivery is its replayed disposition, with where the record went; a skip's follows its
    // intent's UPDATE.
    QStringList dispItems;
    QStringList dispKinds;
    QStringList dispDetails;
    QStringList dispTopics;
    QStringList dispPartitions;
    QStringList dispOffsets;
    QStringList dispSourceTopics;
    QStringList dispSourcePartitions;
    QStringList dispSourceOffsets;
    int lowest = rows.first().itemNo;
    int highest = lowest;
    for (const Update &u : rows) {
        const bool delivered = u.state == State::Delivered;
        if (!delivered) {
            lowest = items.isEmpty() ? u.itemNo : std::min(lowest, u.itemNo);
            highest = items.isEmpty() ? u.itemNo : std::max(highest, u.itemNo);
            items << QString::number(u.itemNo);
            states << stateName(u.state);
            topics << u.destTopic;
            partitions << (u.destPartition >= 0 ? QString::number(u.destPartition) : QString());
            offsets << (u.destOffset >= 0 ? QString::number(u.destOffset) : QString());
            errors << u.error;
        }
        if (delivered || (u.state == State::Skipped && !skipDisposition.isEmpty())) {
            dispItems << QString::number(u.itemNo);
            dispKinds << (delivered ? u"replayed"_s : skipDisposition);
            QJsonObject details = dispositionDetails.value(u.itemNo);
            if (delivered && u.error == u"reconciled"_s)
                details.insert(u"reconciled"_s, true); // found in the destination, not produced by this run
            // Empty: no details ({} without a JSON text to parse per row).
            dispDetails << (details.isEmpty() ? QString()
                                              : QString::fromUtf8(QJsonDocument(details).toJson(QJsonDocument::Compact)));
            dispTopics << (delivered ? u.destTopic : QString());
            dispPartitions << (delivered ? QString::number(u.destPartition) : QString());
            dispOffsets << (delivered ? QString::number(u.destOffset) : QString());
            dispSourceTopics << u.sourceTopic;
            dispSourcePartitions << (u.sourcePartition >= 0 ? QString::number(u.sourcePartition) : QString());
            dispSourceOffsets << (u.sourceOffset >= 0 ? QString::number(u.sourceOffset) : QString());
        }
    }
    // One statement: atomic without a transaction, and the audit chain's lock (taken by the journal triggers
    // at the end of the statement) is held only for its commit, so other sessions' writes proceed meanwhile.
    // A batch that only delivered is one INSERT: its items' intents stay as journaled. attempts counts produce
    // attempts; a reconciled failure or a skip does not add one.
    // The source coordinates come with the rows (the database checks them against the items, 013), so the
    // statement reads no item itself.
    const QString insert =
        u"INSERT INTO berth.dispositions (request_id, item_no, source_topic, source_partition, "
        u"source_offset, disposition, details, dest_topic, dest_partition, dest_offset) "
        u"SELECT $1, d.item_no, NULLIF(d.st, ''), NULLIF(d.sp, '')::int, NULLIF(d.so, '')::bigint, d.kind, "
        u"CASE WHEN d.details = '' THEN '{}'::jsonb ELSE d.details::jsonb END, NULLIF(d.dt, ''), "
        u"NULLIF(d.dp, '')::int, NULLIF(d.dof, '')::bigint "
        u"FROM unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], "
        u"$9::text[], $10::text[]) WITH ORDINALITY AS d(item_no, kind, details, dt, dp, dof, st, sp, so, n) "_s;
    const QVariantList dispositions = {m_requestId,      dispItems,        dispKinds,
                                       dispDetails,      dispTopics,       dispPartitions,
                                       dispOffsets,      dispSourceTopics, dispSourcePartitions,
                                       dispSourceOffsets};
    PgResult r;
    if (items.isEmpty()) {
        r = m_db.exec(insert + u"ORDER BY d.n"_s, dispositions);
    } else {
        QVariantList params = dispositions;
        params << items << states << topics << partitions << offsets << errors << lowest << highest;
        r = m_db.exec(
            u"WITH settled AS ("
            u"UPDATE berth.intents i SET state = x.state, dest_topic = COALESCE(NULLIF(x.dest_topic, ''), "
            u"i.dest_topic), "
            u"dest_partition = NULLIF(x.p, '')::int, dest_offset = NULLIF(x.o, '')::bigint, "
            u"error = NULLIF(x.err, ''), attempts = i.attempts + CASE WHEN x.state = 'failed' "
            u"AND x.err <> 'reconciled' THEN 1 ELSE 0 END, updated_at = clock_timestamp() "
            u"FROM unnest($11::int[], $12::text[], $13::text[], $14::text[], $15::text[], $16::text[]) "
            u"AS x(item_no, state, dest_topic, p, o, err) "
            u"WHERE i.request_id = $1 AND i.item_no BETWEEN $17 AND $18 AND i.item_no = x.item_no "
            u"RETURNING i.item_no) "_s
                + insert
                + u"WHERE d.kind = 'replayed' OR d.item_no IN (SELECT s.item_no FROM settled s) ORDER BY d.n"_s,
            params);
    }
    if (!r.ok)
        *error = r.error;
    return r.ok;
}

bool IntentJournal::disposed(QList<int> *itemNos, QString *error)
{
    // Each disposition is in one of two partial indexes by request (audit schema 014): read both.
    const PgResult r = m_db.exec(u"SELECT item_no FROM berth.dispositions WHERE request_id = $1 "
                                 u"AND disposition = 'replayed' UNION SELECT item_no FROM berth.dispositions "
                                 u"WHERE request_id = $1 AND disposition <> 'replayed'"_s,
                                 {m_requestId});
    if (!r.ok) {
        *error = r.error;
        return false;
    }
    for (const QVariantList &row : r.rows)
        itemNos->append(row.at(0).toInt());
    return true;
}

bool IntentJournal::recordDisposition(int itemNo, const QString &disposition, const QJsonObject &details,
                                      QString *error)
{
    const PgResult r =
        m_db.exec(u"INSERT INTO berth.dispositions (request_id, item_no, source_topic, source_partition, "
                  u"source_offset, "
                  u"disposition, details) SELECT request_id, item_no, source_topic, source_partition, "
                  u"source_offset, $3, "
                  u"$4::jsonb FROM berth.request_items WHERE request_id = $1 AND item_no = $2"_s,
                  {m_requestId, itemNo, disposition, details});
    if (!r.ok)
        *error = r.error;
    return r.ok;
}
