#include "offsetcommitter.h"

#include "clusterinspector.h"

using namespace Qt::StringLiterals;

namespace OffsetCommitter {
bool commit(const KafkaProperties &cluster, const QString &group, const PartitionOffsets &offsets, QString *error,
            rd_kafka_resp_err_t *code)
{
    KafkaProperties props = cluster;
    props.append({u"group.id"_s, group});
    props.append({u"enable.auto.commit"_s, u"false"_s});
    KafkaHandle rk = KafkaConfig::createClient(RD_KAFKA_CONSUMER, props, error);
    if (!rk)
        return false;
    auto *list = rd_kafka_topic_partition_list_new(int(offsets.size()));
    for (auto it = offsets.cbegin(); it != offsets.cend(); ++it)
        rd_kafka_topic_partition_list_add(list, it.key().topic.toUtf8().constData(), it.key().partition)->offset = it.value();
    rd_kafka_resp_err_t err = rd_kafka_commit(rk.get(), list, 0);
    for (int i = 0; err == RD_KAFKA_RESP_ERR_NO_ERROR && i < list->cnt; ++i)
        err = list->elems[i].err;
    rd_kafka_topic_partition_list_destroy(list);
    if (code)
        *code = err;
    if (err && error)
        *error = u"Commit for "_s + group + u" failed: " + KafkaConfig::errorText(err);
    rd_kafka_consumer_close(rk.get());
    return err == RD_KAFKA_RESP_ERR_NO_ERROR;
}
}
