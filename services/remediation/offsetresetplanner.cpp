#include "offsetresetplanner.h"

#include "services/accounting/recordfieldvalue.h"
#include "services/dlq/dlqscantypes.h"
#include "services/inbox/inboxkeylookup.h"
#include "services/inbox/inboxsessions.h"
#include "services/kafka/clusterinspector.h"
#include "services/remediation/topicrangereader.h"

#include <QJsonArray>

#include <algorithm>

using namespace Qt::StringLiterals;

std::optional<OffsetResetTo> OffsetResetTo::parse(const QString &text, QString *error)
{
    const QString t = text.trimmed();
    OffsetResetTo to;
    if (t == u"earliest"_s) {
        to.kind = Kind::Earliest;
        return to;
    }
    if (t == u"latest"_s) {
        to.kind = Kind::Latest;
        return to;
    }
    if (t.startsWith(u"time:"_s)) {
        // The one reading of positions by time (`berth dlq scan`, `berth account`).
        DlqScanRequest position;
        QString why;
        if (position.parseStart(t, &why) && position.start == DlqScanRequest::Start::Timestamp) {
            to.kind = Kind::Time;
            to.timeMs = position.startValue;
            return to;
        }
    } else if (t.startsWith(u"shift:"_s)) {
        bool ok = false;
        to.shift = t.sliced(6).toLongLong(&ok);
        if (ok && to.shift != 0) {
            to.kind = Kind::Shift;
            return to;
        }
    } else if (t.contains(u'=')) {
        to.kind = Kind::Explicit;
        bool ok = true;
        for (const QString &part : t.split(u',')) {
            const QStringList pair = part.split(u'=');
            bool okP = false;
            bool okO = false;
            const int p = pair.size() == 2 ? pair.at(0).trimmed().toInt(&okP) : -1;
            const qint64 o = pair.size() == 2 ? pair.at(1).trimmed().toLongLong(&okO) : -1;
            const bool repeated = std::any_of(to.offsets.cbegin(), to.offsets.cend(),
                                              [p](const QPair<int, qint64> &e) { return e.first == p; });
            if (!okP || !okO || p < 0 || o < 0 || repeated) {
                ok = false;
                break;
            }
            to.offsets.append({p, o});
        }
        if (ok && !to.offsets.isEmpty())
            return to;
    }
    *error = u"cannot read --to "_s + t
             + u": use earliest, latest, time:<ISO-8601 or epoch ms>, shift:N (negative: back) or "
               u"PARTITION=OFFSET,... (each partition once)"_s;
    return std::nullopt;
}

QString OffsetResetTo::text() const
{
    switch (kind) {
    case Kind::Earliest:
        return u"earliest"_s;
    case Kind::Latest:
        return u"latest"_s;
    case Kind::Time:
        return u"time:"_s + QDateTime::fromMSecsSinceEpoch(timeMs, Qt::UTC).toString(Qt::ISODateWithMs);
    case Kind::Shift:
        return u"shift:"_s + QString::number(shift);
    case Kind::Explicit: {
        QStringList parts;
        for (const auto &[p, o] : offsets)
            parts << QString::number(p) + u'=' + QString::number(o);
        return parts.join(u',');
    }
    }
    return {};
}

QJsonObject OffsetResetTarget::toJson() const
{
    return {{u"group"_s, group}, {u"topic"_s, topic}, {u"partition"_s, partition}, {u"from"_s, from},
            {u"to"_s, to}};
}

std::optional<OffsetResetTarget> OffsetResetTarget::fromJson(const QJsonObject &json)
{
    OffsetResetTarget t;
    t.group = json.value(u"group"_s).toString();
    t.topic = json.value(u"topic"_s).toString();
    t.partition = json.value(u"partition"_s).toInt(-1);
    t.from = json.value(u"from"_s).toInteger(-1);
    t.to = json.value(u"to"_s).toInteger(-1);
    if (t.group.isEmpty() || t.topic.isEmpty() || t.partition < 0 || t.to < 0)
        return std::nullopt;
    return t;
}

qint64 OffsetResetPlan::reprocessed() const
{
    qint64 n = 0;
    for (const OffsetResetPartition &p : partitions)
        n += p.reprocessed();
    return n;
}

qint64 OffsetResetPlan::skipped() const
{
    qint64 n = 0;
    for (const OffsetResetPartition &p : partitions)
        n += p.skipped();
    return n;
}

int OffsetResetPlan::movedPartitions() const
{
    return int(std::count_if(partitions.cbegin(), partitions.cend(),
                             [](const OffsetResetPartition &p) { return p.moves(); }));
}

double OffsetResetPlan::predictedNoOpRate() const
{
    return keyedRecords > 0 ? double(predictedNoOps) / double(keyedRecords) : 0.0;
}

QList<RequestItem> OffsetResetPlan::items() const
{
    QList<RequestItem> out;
    for (const OffsetResetPartition &p : partitions) {
        if (!p.moves())
            continue;
        RequestItem item;
        item.offsetReset = OffsetResetTarget{group, topic, p.partition, p.current, p.target}.toJson();
        out.append(item);
    }
    return out;
}

QJsonObject OffsetResetPlan::toJson() const
{
    QJsonArray list;
    for (const OffsetResetPartition &p : partitions)
        list.append(QJsonObject{{u"partition"_s, p.partition},
                                {u"low"_s, p.low},
                                {u"high"_s, p.high},
                                {u"current"_s, p.current},
                                {u"target"_s, p.target}});
    return {{u"group"_s, group},
            {u"topic"_s, topic},
            {u"to"_s, to},
            {u"partitions"_s, list},
            {u"reprocessed"_s, reprocessed()},
            {u"skipped"_s, skipped()},
            {u"mapping"_s, mapping},
            {u"inboxChecked"_s, inboxChecked},
            {u"recordsRead"_s, recordsRead},
            {u"keyedRecords"_s, keyedRecords},
            {u"keysLookedUp"_s, keysLookedUp},
            {u"predictedNoOps"_s, predictedNoOps},
            {u"notPredicted"_s, notPredicted},
            {u"predictedNoOpRate"_s, predictedNoOpRate()},
            {u"inboxError"_s, inboxError},
            {u"orderingNotes"_s, QJsonArray::fromStringList(orderingNotes)}};
}

OffsetResetPlan OffsetResetPlan::fromJson(const QJsonObject &json)
{
    OffsetResetPlan plan;
    plan.group = json.value(u"group"_s).toString();
    plan.topic = json.value(u"topic"_s).toString();
    plan.to = json.value(u"to"_s).toString();
    for (const QJsonValue &v : json.value(u"partitions"_s).toArray()) {
        const QJsonObject o = v.toObject();
        plan.partitions.append({o.value(u"partition"_s).toInt(), o.value(u"low"_s).toInteger(),
                                o.value(u"high"_s).toInteger(), o.value(u"current"_s).toInteger(-1),
                                o.value(u"target"_s).toInteger()});
    }
    plan.mapping = json.value(u"mapping"_s).toString();
    plan.inboxChecked = json.value(u"inboxChecked"_s).toBool();
    plan.recordsRead = json.value(u"recordsRead"_s).toInteger();
    plan.keyedRecords = json.value(u"keyedRecords"_s).toInteger();
    plan.keysLookedUp = json.value(u"keysLookedUp"_s).toInteger();
    plan.predictedNoOps = json.value(u"predictedNoOps"_s).toInteger();
    plan.notPredicted = json.value(u"notPredicted"_s).toInteger();
    plan.inboxError = json.value(u"inboxError"_s).toString();
    for (const QJsonValue &v : json.value(u"orderingNotes"_s).toArray())
        plan.orderingNotes << v.toString();
    return plan;
}

QString OffsetResetPlan::summary() const
{
    QString s = u"Offset reset of group "_s + group + u" on "_s + topic + u" to "_s + to + u": "_s
                + QString::number(movedPartitions()) + u" of "_s + QString::number(partitions.size())
                + u" partition(s) move; "_s + QString::number(reprocessed()) + u" record(s) processed again, "_s
                + QString::number(skipped()) + u" skipped (never processed by this group)\n"_s;
    for (const OffsetResetPartition &p : partitions) {
        s += u"  partition "_s + QString::number(p.partition) + u": committed "_s
             + (p.current < 0 ? u"none"_s : QString::number(p.current)) + u" -> "_s + QString::number(p.target)
             + u" (log "_s + QString::number(p.low) + u".."_s + QString::number(p.high) + u")"_s;
        if (p.reprocessed() > 0)
            s += u", "_s + QString::number(p.reprocessed()) + u" again"_s;
        if (p.skipped() > 0)
            s += u", "_s + QString::number(p.skipped()) + u" skipped"_s;
        if (!p.moves())
            s += u", unchanged"_s;
        s += u'\n';
    }
    if (reprocessed() > 0) {
        if (inboxChecked)
            s += u"  Expected no-op rate of the records processed again: "_s
                 + QString::number(predictedNoOpRate() * 100.0, 'f', 1) + u"% ("_s
                 + QString::number(predictedNoOps) + u" of "_s + QString::number(keyedRecords)
                 + u" already done in the inbox of "_s + mapping
                 + (notPredicted > 0 ? u"; "_s + QString::number(notPredicted) + u" not predictable"_s
                                     : QString())
                 + u")\n"_s;
        else
            s += u"  Expected no-op rate: unknown ("_s + inboxError + u")\n"_s;
    }
    for (const QString &note : orderingNotes)
        s += u"  Ordering: "_s + note + u'\n';
    s += u"  Executed only while the group has no active member (stop its consumers first); the committed "
         u"offsets are read back and verified\n"_s;
    return s;
}

namespace {
QString shellWord(const QString &value)
{
    QString v = value;
    v.replace(u'\'', u"'\\''"_s);
    return u'\'' + v + u'\'';
}
} // namespace

QString OffsetResetPlan::command(const QString &berth) const
{
    return berth + u" replay request --reset-offsets --group "_s + shellWord(group) + u" --topic "_s
           + shellWord(topic) + u" --to "_s + shellWord(to);
}

namespace OffsetResetPlanner {
namespace {
bool cancelled(const OffsetResetInput &input)
{
    return input.cancelled && input.cancelled();
}

// Where each partition goes. A target outside the log is refused rather than clamped: the operator named
// an offset that does not exist (explicit), or the log moved since (shift past either end is clamped).
bool targets(const OffsetResetInput &input, TopicRangeReader &reader, OffsetResetPlan &plan, QString *error)
{
    for (OffsetResetPartition &p : plan.partitions) {
        switch (input.to.kind) {
        case OffsetResetTo::Kind::Earliest:
            p.target = p.low;
            break;
        case OffsetResetTo::Kind::Latest:
            p.target = p.high;
            break;
        case OffsetResetTo::Kind::Time:
            // The first record at or after the time, found by reading timestamps (works on the mock too).
            if (!reader.offsetForTime(plan.topic, p.partition, input.to.timeMs, &p.target, input.timeoutMs,
                                      error))
                return false;
            p.target = std::clamp(p.target, p.low, p.high);
            break;
        case OffsetResetTo::Kind::Shift:
            if (p.current < 0) {
                p.target = p.current; // nothing to shift from: stays as it is
                plan.orderingNotes << u"partition "_s + QString::number(p.partition)
                                          + u" has no committed offset: shift leaves it alone"_s;
            } else {
                p.target = std::clamp(p.current + input.to.shift, p.low, p.high);
            }
            break;
        case OffsetResetTo::Kind::Explicit:
            p.target = p.current;
            break;
        }
    }
    if (input.to.kind == OffsetResetTo::Kind::Explicit) {
        for (const auto &[partition, offset] : input.to.offsets) {
            if (partition >= plan.partitions.size()) {
                *error = plan.topic + u" has no partition "_s + QString::number(partition) + u" (it has "_s
                         + QString::number(plan.partitions.size()) + u')';
                return false;
            }
            OffsetResetPartition &p = plan.partitions[partition];
            if (offset < p.low || offset > p.high) {
                *error = u"offset "_s + QString::number(offset) + u" is outside partition "_s
                         + QString::number(partition) + u" of "_s + plan.topic + u" ("_s
                         + QString::number(p.low) + u".."_s + QString::number(p.high) + u')';
                return false;
            }
            p.target = offset;
        }
    }
    return true;
}

// The keys of the records processed again, looked up in the group's inbox.
void predictNoOps(const OffsetResetInput &input, PgSession *inboxDb, TopicRangeReader &reader,
                  OffsetResetPlan &plan)
{
    if (plan.reprocessed() == 0)
        return;
    const InboxMapping *mapping = input.inboxMappings.find(plan.group);
    if (!mapping) {
        plan.inboxError = u"no inbox mapping for "_s + plan.group + u": no-op rate not predicted"_s;
        return;
    }
    plan.mapping = mapping->name;
    const ConsumerPolicy *consumer = input.policy.consumer(plan.group);
    const RecordField field = consumer && consumer->idempotencyKey.isStated()
                                  ? consumer->idempotencyKey
                                  : RecordField{RecordField::Kind::Header, u"idempotency-key"_s};
    QList<TopicRangeReader::Range> ranges;
    for (const OffsetResetPartition &p : std::as_const(plan.partitions)) {
        if (p.reprocessed() > 0)
            ranges.append({plan.topic, p.partition, std::max(p.target, p.low), p.current});
    }
    QStringList keyOfRecord; // per record read; empty: no key
    QString error;
    const bool read = reader.read(
        ranges,
        [&](const rd_kafka_message_t *m) {
            if (plan.recordsRead >= input.predictionBudget
                || (plan.recordsRead % 10'000 == 0 && cancelled(input)))
                return false;
            ++plan.recordsRead;
            QByteArray id;
            RecordFieldValue value(m);
            keyOfRecord << (value.bytes(field, &id) == RecordFieldValue::Outcome::Found ? QString::fromUtf8(id)
                                                                                          : QString());
            return true;
        },
        input.timeoutMs, &error);
    if (!read && plan.recordsRead < input.predictionBudget) {
        plan.inboxError = error.isEmpty() ? u"the records could not be read"_s : error;
        return;
    }
    plan.notPredicted = plan.reprocessed() - plan.recordsRead; // beyond the budget, or compacted away
    QStringList keys = keyOfRecord;
    keys.removeAll(QString());
    keys.sort();
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    plan.keysLookedUp = keys.size();
    InboxSessions sessions(input.inboxMappings, inboxDb);
    PgSession *db = sessions.sessionFor(*mapping, &error);
    if (!db) {
        plan.inboxError = error;
        return;
    }
    InboxKeyStates states;
    constexpr qsizetype Batch = 5'000;
    for (qsizetype i = 0; i < keys.size(); i += Batch) {
        const InboxKeyStates part = InboxKeyLookup::lookup(*db, {*mapping}, keys.mid(i, Batch), &error);
        if (!error.isEmpty()) {
            plan.inboxError = error;
            return;
        }
        states.insert(part);
    }
    plan.notPredicted = std::max<qint64>(plan.notPredicted, 0);
    for (const QString &key : std::as_const(keyOfRecord)) {
        if (key.isEmpty()) {
            ++plan.notPredicted;
            continue;
        }
        ++plan.keyedRecords;
        const auto found = states.constFind(key);
        if (found != states.cend() && !mapping->retakesFrom(found->state))
            ++plan.predictedNoOps;
    }
    plan.inboxChecked = true;
}

void addOrderingNotes(const OffsetResetInput &input, OffsetResetPlan &plan)
{
    const TopicPolicy *topic = input.policy.topic(plan.topic);
    const bool perKey = topic && (topic->ordering == u"per-key"_s || topic->sequence.isStated());
    if (plan.reprocessed() > 0)
        plan.orderingNotes
            << (perKey ? u"the records processed again arrive in their original order per partition, after "
                         u"newer records of the same keys were applied: "_s
                             + topic->name
                             + u" is ordered per key, so each key's state goes back until the group catches "
                               u"up again unless the consumer's inbox or version check makes them no-ops"_s
                       : u"the records processed again arrive in their original order per partition, after "
                         u"newer ones were applied"_s);
    if (plan.skipped() > 0)
        plan.orderingNotes << QString::number(plan.skipped())
                                  + u" record(s) are skipped: the group never processes them, they are neither "
                                    u"dead-lettered nor in its inbox (the accounting shows them as not "
                                    u"consumed)"_s;
    const bool back = std::any_of(plan.partitions.cbegin(), plan.partitions.cend(),
                                  [](const OffsetResetPartition &p) { return p.reprocessed() > 0; });
    const bool forward = std::any_of(plan.partitions.cbegin(), plan.partitions.cend(),
                                     [](const OffsetResetPartition &p) { return p.skipped() > 0; });
    if (back && forward)
        plan.orderingNotes << u"partitions move in both directions: some records are processed again while "
                              u"others are skipped"_s;
    for (const OffsetResetPartition &p : std::as_const(plan.partitions)) {
        if (p.current < 0 && p.moves())
            plan.orderingNotes << u"partition "_s + QString::number(p.partition)
                                      + u" has no committed offset: the group would start where its "
                                        u"auto.offset.reset says; after the reset it starts at "_s
                                      + QString::number(p.target);
    }
}
} // namespace

OffsetResetPlan plan(const OffsetResetInput &input, PgSession *inboxDb)
{
    OffsetResetPlan plan;
    plan.group = input.group;
    plan.topic = input.topic;
    plan.to = input.to.text();
    if (plan.group.isEmpty() || plan.topic.isEmpty()) {
        plan.error = u"an offset reset names its group and topic"_s;
        return plan;
    }
    std::unique_ptr<TopicRangeReader> reader = TopicRangeReader::create(input.cluster, &plan.error);
    if (!reader)
        return plan;
    const int count = reader->partitionCount(plan.topic, input.timeoutMs, &plan.error);
    if (count < 0)
        return plan;
    QList<TopicPartition> tps;
    for (int p = 0; p < count; ++p) {
        OffsetResetPartition part;
        part.partition = p;
        if (!reader->watermarks(plan.topic, p, &part.low, &part.high, input.timeoutMs, &plan.error))
            return plan;
        plan.partitions.append(part);
        tps.append({plan.topic, p});
    }
    std::unique_ptr<ClusterInspector> inspector = ClusterInspector::create(input.cluster, &plan.error);
    if (!inspector)
        return plan;
    const QList<GroupOffsets> committed =
        inspector->committedOffsetsViaGroupHandles({plan.group}, tps, input.timeoutMs);
    if (committed.isEmpty() || !committed.first().error.isEmpty()) {
        plan.error = u"committed offsets of "_s + plan.group + u": "_s
                     + (committed.isEmpty() ? u"no answer"_s : committed.first().error);
        return plan;
    }
    for (OffsetResetPartition &p : plan.partitions) {
        const qint64 c = committed.first().committed.value({plan.topic, p.partition}, -1);
        p.current = c >= 0 ? c : -1;
    }
    if (!targets(input, *reader, plan, &plan.error))
        return plan;
    predictNoOps(input, inboxDb, *reader, plan);
    if (cancelled(input)) {
        plan.error = u"Cancelled"_s;
        return plan;
    }
    addOrderingNotes(input, plan);
    return plan;
}
} // namespace OffsetResetPlanner
