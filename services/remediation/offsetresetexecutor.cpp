#include "offsetresetexecutor.h"

#include "services/audit/auditstore.h"
#include "services/kafka/clusterinspector.h"
#include "services/kafka/offsetcommitter.h"
#include "services/remediation/offsetresetplanner.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QMultiHash>

using namespace Qt::StringLiterals;

namespace OffsetResetExecutor {
namespace {
// What a broker answers a commit from outside a group that has members (a "simple" commit: no member id,
// no generation): the group is in use, nothing was committed.
bool groupInUse(rd_kafka_resp_err_t err)
{
    return err == RD_KAFKA_RESP_ERR_UNKNOWN_MEMBER_ID || err == RD_KAFKA_RESP_ERR_ILLEGAL_GENERATION
           || err == RD_KAFKA_RESP_ERR_REBALANCE_IN_PROGRESS;
}

// The group's committed offsets of the outcome's partitions (before the commit, or read back after it).
bool readCommitted(const ClusterInspector &inspector, const QString &group, const QString &topic,
                   QList<OffsetResetPartitionOutcome> &list, bool after, int timeoutMs, QString *error)
{
    QList<TopicPartition> tps;
    for (const OffsetResetPartitionOutcome &p : std::as_const(list))
        tps.append({topic, p.partition});
    const QList<GroupOffsets> read = inspector.committedOffsetsViaGroupHandles({group}, tps, timeoutMs);
    if (read.isEmpty() || !read.first().error.isEmpty()) {
        *error = u"Cannot read the committed offsets of "_s + group + u": "_s
                 + (read.isEmpty() ? u"no answer"_s : read.first().error);
        return false;
    }
    for (OffsetResetPartitionOutcome &p : list)
        (after ? p.committed : p.before) = read.first().committed.value({topic, p.partition}, -1);
    return true;
}
} // namespace

QJsonArray partitionsJson(const QList<OffsetResetPartitionOutcome> &list, bool withCommitted)
{
    QJsonArray out;
    for (const OffsetResetPartitionOutcome &p : list) {
        QJsonObject o{{u"partition"_s, p.partition}, {u"from"_s, p.before}, {u"to"_s, p.target}};
        if (withCommitted)
            o.insert(u"committed"_s, p.committed);
        if (p.recognised)
            o.insert(u"recognised"_s, true);
        if (p.movedSince)
            o.insert(u"movedSince"_s, true);
        out.append(o);
    }
    return out;
}

QString partitionText(const OffsetResetPartitionOutcome &p)
{
    return u"partition "_s + QString::number(p.partition) + u": "_s
           + (p.before < 0 ? u"none"_s : QString::number(p.before)) + u" -> "_s + QString::number(p.target)
           + u", committed "_s + QString::number(p.committed)
           + (p.verified()   ? u""_s
              : p.movedSince ? u" (moved since the reset: left where it is, not reset again)"_s
                             : u" (differs)"_s);
}

QList<OffsetResetPartitionOutcome> partitionsFromJson(const QJsonArray &array)
{
    QList<OffsetResetPartitionOutcome> out;
    for (const QJsonValue &v : array) {
        const QJsonObject o = v.toObject();
        out.append({o.value(u"partition"_s).toInt(-1), o.value(u"from"_s).toInteger(-1),
                    o.value(u"to"_s).toInteger(-1), o.value(u"committed"_s).toInteger(-1),
                    o.value(u"recognised"_s).toBool(), o.value(u"movedSince"_s).toBool()});
    }
    return out;
}

int activeMembers(const KafkaProperties &cluster, const QString &group, int timeoutMs, QString *error)
{
    KafkaHandle rk = KafkaConfig::createClient(RD_KAFKA_CONSUMER, cluster, error);
    if (!rk)
        return -1;
    const rd_kafka_group_list *groups = nullptr;
    const rd_kafka_resp_err_t err =
        rd_kafka_list_groups(rk.get(), group.toUtf8().constData(), &groups, timeoutMs);
    int members = -1;
    if (err) {
        *error = KafkaConfig::errorText(err);
    } else {
        members = 0; // a group the brokers do not list has no members
        for (int i = 0; i < groups->group_cnt; ++i) {
            if (QString::fromUtf8(groups->groups[i].group) == group && !groups->groups[i].err)
                members = std::max(members, groups->groups[i].member_cnt);
        }
    }
    if (groups)
        rd_kafka_group_list_destroy(groups);
    return members;
}

OffsetResetOutcome run(PgSession &audit, const KafkaProperties &cluster, qint64 requestId, int timeoutMs)
{
    QElapsedTimer clock;
    clock.start();
    OffsetResetOutcome out;
    const auto fail = [&](const QString &error) {
        out.error = error;
        out.elapsedMs = clock.elapsed();
        return out;
    };
    AuditStore store(audit);
    QString error;
    const std::optional<RequestDetail> detail = store.requestDetail(requestId, &error);
    if (!detail)
        return fail(error.isEmpty() ? u"There is no request "_s + QString::number(requestId) : error);
    out.finalStatus = detail->request.status;
    if (detail->request.action != RemediationAction::ResetOffsets)
        return fail(u"Request "_s + QString::number(requestId) + u" is a "_s
                    + AuditText::actionName(detail->request.action) + u", not an offset reset"_s);
    QList<OffsetResetTarget> targets;
    for (const RequestItem &item : detail->items) {
        const std::optional<OffsetResetTarget> t = OffsetResetTarget::fromJson(item.offsetReset);
        if (!t)
            return fail(u"Item "_s + QString::number(item.itemNo) + u" of request "_s
                        + QString::number(requestId) + u" names no partition and target"_s);
        targets.append(*t);
        out.partitions.append({t->partition, -1, t->to, -1});
    }
    if (targets.isEmpty())
        return fail(u"Request "_s + QString::number(requestId) + u" moves no partition"_s);
    out.group = targets.first().group;
    out.topic = targets.first().topic;

    const RequestStatus status = detail->request.status;
    if (status == RequestStatus::Approved || status == RequestStatus::PartiallyFailed) {
        // The database decides: approvals, no rejection, not expired, an operator executing.
        if (!store.setStatus(requestId, RequestStatus::Executing, &error))
            return fail(error);
    } else if (status != RequestStatus::Executing) {
        return fail(u"Request "_s + QString::number(requestId) + u" is "_s + AuditText::statusName(status)
                    + u": nothing is executed"_s);
    }
    out.started = true;
    out.finalStatus = RequestStatus::Executing;
    const auto refuse = [&](const QString &why) {
        out.refused = true;
        out.refusal = why;
        if (store.appendEvent(u"offsets.reset_refused"_s, requestId,
                              {{u"group"_s, out.group},
                               {u"topic"_s, out.topic},
                               {u"reason"_s, why},
                               {u"moved"_s, 0}},
                              &error)
                == 0
            || !store.setStatus(requestId, RequestStatus::PartiallyFailed, &error))
            return fail(error);
        out.finalStatus = RequestStatus::PartiallyFailed;
        out.elapsedMs = clock.elapsed();
        return out;
    };

    // Real brokers say who is in the group; the mock cannot, and then the commit below is the check.
    QString describeError;
    const int members = activeMembers(cluster, out.group, std::min(timeoutMs, 5'000), &describeError);
    if (members > 0)
        return refuse(u"group "_s + out.group + u" has "_s + QString::number(members)
                      + u" active member(s): stop its consumers, then execute again"_s);

    // A run before this one journaled its intent (it was interrupted, or its commit refused): what it
    // committed is recognised, not committed again. A partition still needs its commit only where it still
    // is where the dry run or an earlier intent found it; anywhere else the group's consumers committed
    // since that run's commit, and committing the target again would make them process it all twice.
    // An intent its run followed with offsets.reset_refused committed nothing (the broker refused the
    // commit whole), so it is no earlier commit to recognise or to have moved on from. (A refusal with no
    // intent right before it came from DescribeGroups, before anything was journaled.)
    EventFilter earlier;
    earlier.requestId = requestId;
    earlier.actions = {u"offsets.reset_intent"_s, u"offsets.reset_refused"_s};
    const QList<AuditEvent> journal = store.listEvents(earlier, &error); // oldest first
    if (!error.isEmpty())
        return fail(error);
    QList<QJsonObject> intents; // of the runs that may have committed
    bool afterIntent = false;
    for (const AuditEvent &e : journal) {
        const bool intent = e.action == u"offsets.reset_intent"_s;
        if (intent)
            intents.append(e.details);
        else if (afterIntent)
            intents.removeLast();
        afterIntent = intent;
    }
    const bool resumed = !intents.isEmpty();
    QMultiHash<int, qint64> foundAt; // partition -> committed offsets the reset found before committing
    for (const OffsetResetTarget &t : std::as_const(targets))
        foundAt.insert(t.partition, t.from);
    for (const QJsonObject &intent : std::as_const(intents)) {
        for (const OffsetResetPartitionOutcome &p :
             partitionsFromJson(intent.value(u"partitions"_s).toArray()))
            foundAt.insert(p.partition, p.before);
    }

    std::unique_ptr<ClusterInspector> inspector = ClusterInspector::create(cluster, &error);
    if (!inspector || !readCommitted(*inspector, out.group, out.topic, out.partitions, false, timeoutMs, &error))
        return fail(error);
    QList<OffsetResetPartitionOutcome> toCommit;
    for (OffsetResetPartitionOutcome &p : out.partitions) {
        p.recognised = resumed && p.before == p.target;
        p.movedSince = resumed && !p.recognised && !foundAt.contains(p.partition, p.before);
        if (!p.recognised && !p.movedSince)
            toCommit.append(p);
    }
    if (!toCommit.isEmpty()) {
        if (store.appendEvent(u"offsets.reset_intent"_s, requestId,
                              {{u"group"_s, out.group},
                               {u"topic"_s, out.topic},
                               {u"describeGroups"_s,
                                members == 0 ? u"no active member"_s : u"not answered: "_s + describeError},
                               {u"resumed"_s, resumed},
                               {u"partitions"_s, partitionsJson(toCommit, false)}},
                              &error)
            == 0)
            return fail(error);

        PartitionOffsets offsets;
        for (const OffsetResetPartitionOutcome &p : std::as_const(toCommit))
            offsets.insert({out.topic, p.partition}, p.target);
        rd_kafka_resp_err_t err = RD_KAFKA_RESP_ERR_NO_ERROR;
        QString commitError;
        if (!OffsetCommitter::commit(cluster, out.group, offsets, &commitError, &err)) {
            if (groupInUse(err))
                return refuse(u"group "_s + out.group + u" has active members (the broker answered "_s
                              + KafkaConfig::errorText(err) + u"): stop its consumers, then execute again"_s);
            return fail(commitError + u" (the request stays executing: execute again)"_s);
        }
    }

    if (!readCommitted(*inspector, out.group, out.topic, out.partitions, true, timeoutMs, &error))
        return fail(error + u" (the request stays executing: execute again to commit and verify)"_s);
    out.verified = std::all_of(out.partitions.cbegin(), out.partitions.cend(),
                               [](const OffsetResetPartitionOutcome &p) { return p.verified(); });
    const QJsonObject done{{u"group"_s, out.group},
                           {u"topic"_s, out.topic},
                           {u"partitions"_s, partitionsJson(out.partitions, true)}};
    QJsonObject verified = done;
    verified.insert(u"verified"_s, out.verified);
    if (store.appendEvent(u"offsets.reset"_s, requestId, done, &error) == 0
        || store.appendEvent(u"offsets.verified"_s, requestId, verified, &error) == 0)
        return fail(error);
    const RequestStatus end = out.verified ? RequestStatus::Completed : RequestStatus::PartiallyFailed;
    if (!store.setStatus(requestId, end, &error))
        return fail(error);
    out.finalStatus = end;
    out.elapsedMs = clock.elapsed();
    return out;
}
} // namespace OffsetResetExecutor
