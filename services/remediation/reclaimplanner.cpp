#include "reclaimplanner.h"

#include "services/accounting/recordfieldvalue.h"
#include "services/inbox/inboxrowsquery.h"
#include "services/inbox/inboxsessions.h"
#include "services/kafka/clusterinspector.h"
#include "services/remediation/topicrangereader.h"

#include <QJsonArray>

#include <algorithm>

using namespace Qt::StringLiterals;

int ReclaimPlan::found() const
{
    return int(std::count_if(rows.cbegin(), rows.cend(),
                             [](const ReclaimRow &r) { return r.record.partition >= 0; }));
}

int ReclaimPlan::committedPast() const
{
    return int(
        std::count_if(rows.cbegin(), rows.cend(), [](const ReclaimRow &r) { return r.committedPast; }));
}

QList<DlqSelection> ReclaimPlan::selection() const
{
    QList<DlqSelection> out;
    for (const ReclaimRow &r : rows) {
        if (r.record.partition >= 0)
            out.append(r.record);
    }
    return out;
}

QJsonObject ReclaimPlan::toJson() const
{
    QJsonArray list;
    for (const ReclaimRow &r : rows) {
        QJsonObject row{{u"messageId"_s, r.messageId},
                        {u"status"_s, r.status},
                        {u"updated"_s, r.updated.toUTC().toString(Qt::ISODateWithMs)}};
        if (r.record.partition >= 0) {
            row.insert(u"partition"_s, r.record.partition);
            row.insert(u"offset"_s, r.record.offset);
            row.insert(u"committedPast"_s, r.committedPast);
        }
        list.append(row);
    }
    return {{u"consumer"_s, consumer},
            {u"topic"_s, topic},
            {u"mapping"_s, mapping},
            {u"olderThanMs"_s, olderThanMs},
            {u"releaseTo"_s, releaseTo},
            {u"rows"_s, list},
            {u"moreRows"_s, moreRows},
            {u"recordsRead"_s, recordsRead},
            {u"budgetExhausted"_s, budgetExhausted}};
}

ReclaimPlan ReclaimPlan::fromJson(const QJsonObject &json)
{
    ReclaimPlan p;
    p.consumer = json.value(u"consumer"_s).toString();
    p.topic = json.value(u"topic"_s).toString();
    p.mapping = json.value(u"mapping"_s).toString();
    p.olderThanMs = json.value(u"olderThanMs"_s).toInteger();
    p.releaseTo = json.value(u"releaseTo"_s).toString();
    p.moreRows = json.value(u"moreRows"_s).toBool();
    p.recordsRead = json.value(u"recordsRead"_s).toInteger();
    p.budgetExhausted = json.value(u"budgetExhausted"_s).toBool();
    for (const QJsonValue &v : json.value(u"rows"_s).toArray()) {
        const QJsonObject o = v.toObject();
        ReclaimRow r;
        r.messageId = o.value(u"messageId"_s).toString();
        r.status = o.value(u"status"_s).toString();
        r.updated = QDateTime::fromString(o.value(u"updated"_s).toString(), Qt::ISODateWithMs);
        if (o.contains(u"partition"_s))
            r.record = {p.topic, o.value(u"partition"_s).toInt(), o.value(u"offset"_s).toInteger()};
        r.committedPast = o.value(u"committedPast"_s).toBool();
        p.rows.append(r);
    }
    return p;
}

ReclaimPlan ReclaimPlan::masked(const KeyMask &mask) const
{
    ReclaimPlan out = *this;
    if (mask.isEmpty())
        return out;
    for (ReclaimRow &row : out.rows)
        row.messageId = mask.shown(topic, {}, std::nullopt, row.messageId).idempotencyKey;
    return out;
}

QString ReclaimPlan::summary() const
{
    const int withRecord = found();
    const int past = committedPast();
    const int missing = int(rows.size()) - withRecord;
    QString s = u"Reclaim: "_s + QString::number(rows.size()) + (moreRows ? u"+"_s : QString())
                + u" row(s) of "_s + consumer + u" in progress, not updated for over "_s
                + QString::number(olderThanMs / 1000) + u" s: each released for retry ("_s + releaseTo
                + u") right before its record from "_s + topic + u" is replayed\n"_s;
    if (past > 0)
        s += u"  "_s + QString::number(past)
             + u" record(s) are behind the group's committed offset: the consumer will not see them again "
               u"unless they are replayed\n"_s;
    if (withRecord - past > 0)
        s += u"  "_s + QString::number(withRecord - past)
             + u" record(s) are not committed yet: the consumer takes them again after the release, and "
               u"whichever comes second (redelivery or replay) is a no-op\n"_s;
    s += u"  A row updated again before the execution (its consumer slow, not dead) is not released and "
         u"its record not replayed\n"_s;
    if (missing > 0) {
        QStringList ids;
        for (const ReclaimRow &r : rows) {
            if (r.record.partition < 0 && ids.size() < 10)
                ids << r.messageId;
        }
        s += u"  "_s + QString::number(missing) + u" row(s) have no record in "_s + topic
             + (budgetExhausted ? u" within the read budget"_s : QString())
             + u" and are not part of this request (replay them from the DLQ or the accounting view): "_s
             + ids.join(u", "_s) + u'\n';
    }
    return s;
}

namespace ReclaimPlanner {
namespace {
bool cancelled(const ReclaimInput &input)
{
    return input.cancelled && input.cancelled();
}

// The latest record of `topic` carrying each wanted message id, read from a while before the oldest row
// was first seen up to the partitions' ends, bounded by the read budget.
bool findRecords(const ReclaimInput &input, ReclaimPlan &plan, const QDateTime &oldest, QString *error)
{
    const ConsumerPolicy *consumer = input.policy.consumer(input.consumer);
    const RecordField field = consumer && consumer->idempotencyKey.isStated()
                                  ? consumer->idempotencyKey
                                  : RecordField{RecordField::Kind::Header, u"idempotency-key"_s};
    QHash<QByteArray, qsizetype> wanted; // message id -> row
    for (qsizetype i = 0; i < plan.rows.size(); ++i)
        wanted.insert(plan.rows.at(i).messageId.toUtf8(), i);
    std::unique_ptr<TopicRangeReader> reader = TopicRangeReader::create(input.cluster, error);
    if (!reader)
        return false;
    const int partitions = reader->partitionCount(plan.topic, input.timeoutMs, error);
    if (partitions < 0)
        return false;
    QList<TopicRangeReader::Range> ranges;
    const qint64 from = oldest.isValid() ? oldest.toMSecsSinceEpoch() - input.lookBackMs : 0;
    for (int p = 0; p < partitions; ++p) {
        qint64 low = 0;
        qint64 high = 0;
        qint64 start = 0;
        if (!reader->watermarks(plan.topic, p, &low, &high, input.timeoutMs, error)
            || !reader->offsetForTime(plan.topic, p, from, &start, input.timeoutMs, error))
            return false;
        if (start < high)
            ranges.append({plan.topic, p, std::max(start, low), high});
    }
    QHash<qsizetype, qint64> foundAt; // row -> the record's timestamp
    const bool read = reader->read(
        ranges,
        [&](const rd_kafka_message_t *m) {
            if (plan.recordsRead >= input.readBudget
                || (plan.recordsRead % 10'000 == 0 && cancelled(input))) {
                plan.budgetExhausted = plan.recordsRead >= input.readBudget;
                return false;
            }
            ++plan.recordsRead;
            QByteArray id;
            RecordFieldValue value(m);
            if (value.bytes(field, &id) != RecordFieldValue::Outcome::Found)
                return true;
            const auto row = wanted.constFind(id);
            if (row == wanted.cend())
                return true;
            rd_kafka_timestamp_type_t type;
            const qint64 at = rd_kafka_message_timestamp(m, &type);
            if (!foundAt.contains(*row) || at >= foundAt.value(*row)) {
                foundAt.insert(*row, at);
                plan.rows[*row].record = {plan.topic, int(m->partition), qint64(m->offset)};
            }
            return true;
        },
        input.timeoutMs, error);
    if (cancelled(input)) {
        *error = u"Cancelled"_s;
        return false;
    }
    return read || plan.budgetExhausted;
}

// Whether the group has committed past each found record.
bool markCommitted(const ReclaimInput &input, ReclaimPlan &plan, QString *error)
{
    QList<TopicPartition> partitions;
    for (const ReclaimRow &r : std::as_const(plan.rows)) {
        const TopicPartition tp{plan.topic, r.record.partition};
        if (r.record.partition >= 0 && !partitions.contains(tp))
            partitions.append(tp);
    }
    if (partitions.isEmpty())
        return true;
    std::unique_ptr<ClusterInspector> inspector = ClusterInspector::create(input.cluster, error);
    if (!inspector)
        return false;
    const QList<GroupOffsets> groups =
        inspector->committedOffsetsViaGroupHandles({plan.consumer}, partitions, input.timeoutMs);
    if (groups.isEmpty() || !groups.first().error.isEmpty()) {
        *error = u"committed offsets of "_s + plan.consumer + u": "_s
                 + (groups.isEmpty() ? u"no answer"_s : groups.first().error);
        return false;
    }
    for (ReclaimRow &r : plan.rows) {
        if (r.record.partition < 0)
            continue;
        const qint64 committed = groups.first().committed.value({plan.topic, r.record.partition}, -1);
        r.committedPast = committed > r.record.offset;
    }
    return true;
}
} // namespace

ReclaimPlan plan(const ReclaimInput &input, PgSession *inboxDb)
{
    ReclaimPlan plan;
    plan.consumer = input.consumer;
    plan.topic = input.topic;
    const ConsumerPolicy *consumer = input.policy.consumer(input.consumer);
    if (plan.topic.isEmpty()) {
        if (!consumer || consumer->topics.size() != 1) {
            plan.error = u"Name the topic of "_s + input.consumer
                         + u" whose records are replayed (--topic): the policy "_s
                         + (consumer ? u"lists "_s + QString::number(consumer->topics.size()) + u" topics"_s
                                     : u"does not know the consumer"_s);
            return plan;
        }
        plan.topic = consumer->topics.first();
    }
    const InboxMapping *mapping = input.inboxMappings.find(input.consumer);
    if (!mapping) {
        plan.error = u"No inbox mapping for "_s + input.consumer + u": reclaim needs its inbox"_s;
        return plan;
    }
    plan.mapping = mapping->name;
    plan.releaseTo = mapping->releaseTo;
    if (mapping->releaseTo.isEmpty()) {
        plan.error = u"The inbox mapping of "_s + input.consumer
                     + u" states no releaseTo: reclaim needs to know what a release writes"_s;
        return plan;
    }
    if (mapping->updatedColumn.isEmpty()) {
        plan.error = u"The inbox mapping of "_s + input.consumer
                     + u" has no updated column: how long a row has been in progress is unknown"_s;
        return plan;
    }
    plan.olderThanMs = input.olderThanMs >= 0 ? input.olderThanMs : qint64(mapping->stuckAfterSeconds) * 1000;

    InboxSessions sessions(input.inboxMappings, inboxDb);
    PgSession *db = sessions.sessionFor(*mapping, &plan.error);
    if (!db)
        return plan;
    // Oldest update first: the rows past the threshold are a prefix of the page.
    const InboxRowsPage page =
        InboxRowsQuery::read(*db, *mapping, {InboxState::InProgress}, {}, input.rowLimit);
    if (!page.error.isEmpty()) {
        plan.error = page.error;
        return plan;
    }
    const QDateTime cutoff = QDateTime::currentDateTimeUtc().addMSecs(-plan.olderThanMs);
    QDateTime oldest;
    bool allStuck = true;
    for (const InboxRow &row : page.rows) {
        if (!row.updated.isValid() || row.updated >= cutoff) {
            allStuck = false;
            continue;
        }
        plan.rows.append({row.messageId, row.status, row.updated, {plan.topic, -1, -1}, false});
        const QDateTime seen = row.firstSeen.isValid() ? row.firstSeen : row.updated;
        if (!oldest.isValid() || seen < oldest)
            oldest = seen;
    }
    plan.moreRows = page.more && allStuck;
    if (plan.rows.isEmpty())
        return plan;
    QString error;
    if (!findRecords(input, plan, oldest, &error) || !markCommitted(input, plan, &error))
        plan.error = error;
    return plan;
}
} // namespace ReclaimPlanner
