#include "clusterinspector.h"

#include <QSet>

#include <algorithm>
#include <memory>

using namespace Qt::StringLiterals;

namespace {
struct QueueDeleter {
    void operator()(rd_kafka_queue_t *q) const { rd_kafka_queue_destroy(q); }
};
struct OptionsDeleter {
    void operator()(rd_kafka_AdminOptions_t *o) const { rd_kafka_AdminOptions_destroy(o); }
};
struct EventDeleter {
    void operator()(rd_kafka_event_t *e) const { rd_kafka_event_destroy(e); }
};
using Queue = std::unique_ptr<rd_kafka_queue_t, QueueDeleter>;
using Options = std::unique_ptr<rd_kafka_AdminOptions_t, OptionsDeleter>;
using Event = std::unique_ptr<rd_kafka_event_t, EventDeleter>;

bool meansUnsupported(rd_kafka_resp_err_t err)
{
    return err == RD_KAFKA_RESP_ERR__UNSUPPORTED_FEATURE || err == RD_KAFKA_RESP_ERR_UNSUPPORTED_VERSION
        || err == RD_KAFKA_RESP_ERR_INVALID_REQUEST;
}

Options adminOptions(rd_kafka_t *rk, rd_kafka_admin_op_t op, int timeoutMs)
{
    Options options(rd_kafka_AdminOptions_new(rk, op));
    char errstr[256];
    rd_kafka_AdminOptions_set_request_timeout(options.get(), timeoutMs, errstr, sizeof errstr);
    return options;
}

PartitionOffsets offsetsOf(const rd_kafka_topic_partition_list_t *list, QString *firstError)
{
    PartitionOffsets out;
    for (int i = 0; i < list->cnt; ++i) {
        const auto &p = list->elems[i];
        if (p.err) {
            if (firstError && firstError->isEmpty())
                *firstError = QString::fromUtf8(p.topic) + u'[' + QString::number(p.partition) + u"]: "
                            + QString::fromUtf8(rd_kafka_err2str(p.err));
            continue;
        }
        if (p.offset >= 0)
            out.insert({QString::fromUtf8(p.topic), int(p.partition)}, p.offset);
    }
    return out;
}
}

rd_kafka_topic_partition_list_t *toPartitionList(const QList<TopicPartition> &partitions, qint64 offset)
{
    auto *list = rd_kafka_topic_partition_list_new(int(partitions.size()));
    for (const auto &tp : partitions)
        rd_kafka_topic_partition_list_add(list, tp.topic.toUtf8().constData(), tp.partition)->offset = offset;
    return list;
}

std::unique_ptr<ClusterInspector> ClusterInspector::create(const KafkaProperties &properties, QString *error)
{
    // A consumer-type handle without a group: it can list offsets and run admin requests, and never joins.
    KafkaHandle rk = KafkaConfig::createClient(RD_KAFKA_CONSUMER, properties, error);
    if (!rk)
        return {};
    std::unique_ptr<ClusterInspector> inspector(new ClusterInspector);
    inspector->m_rk = std::move(rk);
    inspector->m_bootstrap = KafkaConfig::bootstrapOf(properties);
    inspector->m_properties = properties;
    return inspector;
}

ClusterInspector::~ClusterInspector() = default;

KafkaResult<ClusterSnapshot> ClusterInspector::metadata(int timeoutMs) const
{
    KafkaResult<ClusterSnapshot> result;
    const rd_kafka_metadata_t *md = nullptr;
    const rd_kafka_resp_err_t err = rd_kafka_metadata(m_rk.get(), 1, nullptr, &md, timeoutMs);
    if (err) {
        result.error = u"Cannot read metadata from " + m_bootstrap + u": " + KafkaConfig::errorText(err);
        // librdkafka's log says why ("Failed to resolve ..."), where the error code says only "transport".
        if (const QString cause = KafkaConfig::lastLoggedError(m_rk.get()); !cause.isEmpty())
            result.error += u" (" + cause + u')';
        return result;
    }
    ClusterSnapshot &snap = result.value;
    snap.bootstrap = m_bootstrap;
    snap.takenAt = QDateTime::currentDateTimeUtc();
    snap.controllerId = md->orig_broker_id;
    for (int i = 0; i < md->broker_cnt; ++i)
        snap.brokers.append({md->brokers[i].id, QString::fromUtf8(md->brokers[i].host), md->brokers[i].port});
    for (int i = 0; i < md->topic_cnt; ++i) {
        const auto &t = md->topics[i];
        TopicInfo topic;
        topic.name = QString::fromUtf8(t.topic);
        if (topic.name.startsWith(u"__"))
            continue;
        if (t.err)
            topic.error = KafkaConfig::errorText(t.err);
        topic.leaders.resize(t.partition_cnt, -1);
        for (int p = 0; p < t.partition_cnt; ++p) {
            if (t.partitions[p].id >= 0 && t.partitions[p].id < t.partition_cnt)
                topic.leaders[t.partitions[p].id] = t.partitions[p].leader;
        }
        snap.topics.append(topic);
    }
    rd_kafka_metadata_destroy(md);
    std::sort(snap.brokers.begin(), snap.brokers.end(), [](auto &a, auto &b) { return a.id < b.id; });
    std::sort(snap.topics.begin(), snap.topics.end(), [](auto &a, auto &b) { return a.name < b.name; });
    return result;
}

KafkaResult<PartitionOffsets> ClusterInspector::listOffsets(const QList<TopicPartition> &partitions,
                                                            qint64 sentinel, int timeoutMs) const
{
    KafkaResult<PartitionOffsets> result;
    if (partitions.isEmpty())
        return result;
    // offsets_for_times with the logical sentinels (-1 end, -2 start) groups the partitions per leader and
    // sends one ListOffsets request to each; query_watermark_offsets would block once per partition.
    PartitionList list(toPartitionList(partitions, sentinel));
    const rd_kafka_resp_err_t err = rd_kafka_offsets_for_times(m_rk.get(), list.get(), timeoutMs);
    if (err) {
        result.error = u"Cannot list offsets: " + KafkaConfig::errorText(err);
        return result;
    }
    QString partitionError;
    result.value = offsetsOf(list.get(), &partitionError);
    if (result.value.isEmpty() && !partitionError.isEmpty())
        result.error = u"Cannot list offsets: " + partitionError;
    return result;
}

KafkaResult<PartitionOffsets> ClusterInspector::endOffsets(const QList<TopicPartition> &partitions,
                                                           int timeoutMs) const
{
    return listOffsets(partitions, RD_KAFKA_OFFSET_END, timeoutMs);
}

KafkaResult<PartitionOffsets> ClusterInspector::startOffsets(const QList<TopicPartition> &partitions,
                                                             int timeoutMs) const
{
    return listOffsets(partitions, RD_KAFKA_OFFSET_BEGINNING, timeoutMs);
}

KafkaResult<QStringList> ClusterInspector::listGroups(int timeoutMs) const
{
    KafkaResult<QStringList> result;
    Queue queue(rd_kafka_queue_new(m_rk.get()));
    Options options = adminOptions(m_rk.get(), RD_KAFKA_ADMIN_OP_LISTCONSUMERGROUPS, timeoutMs);
    rd_kafka_ListConsumerGroups(m_rk.get(), options.get(), queue.get());
    Event event(rd_kafka_queue_poll(queue.get(), timeoutMs + 1000));
    if (!event) {
        result.error = u"Listing consumer groups timed out"_s;
        return result;
    }
    if (const rd_kafka_resp_err_t err = rd_kafka_event_error(event.get())) {
        result.unsupported = meansUnsupported(err);
        result.error = u"Listing consumer groups failed: " + QString::fromUtf8(rd_kafka_event_error_string(event.get()));
        return result;
    }
    const auto *res = rd_kafka_event_ListConsumerGroups_result(event.get());
    size_t validCount = 0;
    const auto **valid = rd_kafka_ListConsumerGroups_result_valid(res, &validCount);
    for (size_t i = 0; i < validCount; ++i)
        result.value.append(QString::fromUtf8(rd_kafka_ConsumerGroupListing_group_id(valid[i])));
    size_t errorCount = 0;
    const auto **errors = rd_kafka_ListConsumerGroups_result_errors(res, &errorCount);
    if (validCount == 0 && errorCount > 0) {
        // Every broker refused: usually an older broker or the mock cluster, which lacks ListGroups.
        result.unsupported = std::all_of(errors, errors + errorCount,
                                         [](const rd_kafka_error_t *e) { return meansUnsupported(rd_kafka_error_code(e)); });
        result.error = u"Listing consumer groups failed: " + QString::fromUtf8(rd_kafka_error_string(errors[0]));
    }
    result.value.sort();
    return result;
}

QList<GroupOffsets> ClusterInspector::committedOffsets(const QStringList &groups,
                                                       const QList<TopicPartition> &partitions, int concurrency,
                                                       int timeoutMs,
                                                       const QHash<QString, QList<TopicPartition>> *perGroup) const
{
    QList<GroupOffsets> out;
    out.reserve(groups.size());
    QHash<QString, qsizetype> slot;
    for (const auto &g : groups) {
        slot.insert(g, out.size());
        out.append({g, {}, u"no answer"_s});
    }
    Queue queue(rd_kafka_queue_new(m_rk.get()));
    qsizetype next = 0;
    int inFlight = 0;
    auto issue = [&] {
        // The opaque carries the request's slot, so an error without a group name still lands right.
        Options options = adminOptions(m_rk.get(), RD_KAFKA_ADMIN_OP_LISTCONSUMERGROUPOFFSETS, timeoutMs);
        rd_kafka_AdminOptions_set_opaque(options.get(), reinterpret_cast<void *>(quintptr(next)));
        const QString name = groups.at(next++);
        const QByteArray group = name.toUtf8();
        const auto own = perGroup ? perGroup->constFind(name) : QHash<QString, QList<TopicPartition>>::const_iterator();
        const QList<TopicPartition> &asked = perGroup && own != perGroup->cend() ? *own : partitions;
        PartitionList list(asked.isEmpty() ? nullptr : toPartitionList(asked, RD_KAFKA_OFFSET_INVALID));
        rd_kafka_ListConsumerGroupOffsets_t *request = rd_kafka_ListConsumerGroupOffsets_new(group.constData(), list.get());
        rd_kafka_ListConsumerGroupOffsets(m_rk.get(), &request, 1, options.get(), queue.get());
        rd_kafka_ListConsumerGroupOffsets_destroy(request);
        ++inFlight;
    };
    while (next < groups.size() && inFlight < std::max(1, concurrency))
        issue();
    while (inFlight > 0) {
        Event event(rd_kafka_queue_poll(queue.get(), timeoutMs + 1000));
        if (!event)
            break; // the rest stay "no answer"
        --inFlight;
        const auto *res = rd_kafka_event_ListConsumerGroupOffsets_result(event.get());
        size_t count = 0;
        const rd_kafka_group_result_t **results = res ? rd_kafka_ListConsumerGroupOffsets_result_groups(res, &count) : nullptr;
        if (rd_kafka_event_error(event.get()) && count == 0) {
            const auto index = qsizetype(reinterpret_cast<quintptr>(rd_kafka_event_opaque(event.get())));
            if (index >= 0 && index < out.size())
                out[index].error = QString::fromUtf8(rd_kafka_event_error_string(event.get()));
        }
        for (size_t i = 0; i < count; ++i) {
            const QString group = QString::fromUtf8(rd_kafka_group_result_name(results[i]));
            auto &entry = out[slot.value(group)];
            if (const rd_kafka_error_t *error = rd_kafka_group_result_error(results[i])) {
                entry.error = QString::fromUtf8(rd_kafka_error_string(error));
                continue;
            }
            QString partitionError;
            entry.committed = offsetsOf(rd_kafka_group_result_partitions(results[i]), &partitionError);
            entry.error.clear();
        }
        if (next < groups.size())
            issue();
    }
    return out;
}

QList<GroupOffsets> ClusterInspector::committedOffsetsViaGroupHandles(const QStringList &groups,
                                                                      const QList<TopicPartition> &partitions,
                                                                      int timeoutMs) const
{
    QList<GroupOffsets> out;
    QMutexLocker lock(&m_groupHandlesLock);
    for (const QString &group : groups) {
        GroupOffsets entry{group, {}, {}};
        auto it = m_groupHandles.find(group);
        if (it == m_groupHandles.end()) {
            if (int(m_groupHandles.size()) >= groupHandleLimit)
                m_groupHandles.erase(m_groupHandles.begin()); // bounded: threads per handle are not free
            KafkaProperties props = m_properties;
            props.append({u"group.id"_s, group});
            props.append({u"enable.auto.commit"_s, u"false"_s}); // never subscribes, never commits
            KafkaHandle rk = KafkaConfig::createClient(RD_KAFKA_CONSUMER, props, &entry.error);
            if (!rk) {
                out.append(entry);
                continue;
            }
            it = m_groupHandles.emplace(group, std::move(rk)).first;
        }
        PartitionList list(toPartitionList(partitions, RD_KAFKA_OFFSET_INVALID));
        if (const rd_kafka_resp_err_t err = rd_kafka_committed(it->second.get(), list.get(), timeoutMs)) {
            entry.error = u"Cannot read committed offsets: "_s + KafkaConfig::errorText(err);
        } else {
            QString partitionError;
            entry.committed = offsetsOf(list.get(), &partitionError);
        }
        out.append(entry);
    }
    return out;
}
