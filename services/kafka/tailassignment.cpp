#include "tailassignment.h"

#include "services/kafka/kafkaconfig.h"

using namespace Qt::StringLiterals;

QStringList assignTopicsAtEnd(rd_kafka_t *rk, const QStringList &topics, QString *error)
{
    QStringList assigned;
    auto *assignment = rd_kafka_topic_partition_list_new(16);
    for (const QString &topic : topics) {
        const QByteArray name = topic.toUtf8();
        rd_kafka_topic_t *rkt = rd_kafka_topic_new(rk, name.constData(), nullptr);
        const rd_kafka_metadata_t *md = nullptr;
        if (rd_kafka_metadata(rk, 0, rkt, &md, 5000) == RD_KAFKA_RESP_ERR_NO_ERROR && md->topic_cnt == 1) {
            for (int p = 0; p < md->topics[0].partition_cnt; ++p)
                rd_kafka_topic_partition_list_add(assignment, name.constData(), md->topics[0].partitions[p].id)
                    ->offset = RD_KAFKA_OFFSET_END;
            assigned << topic;
        } else if (error) {
            *error = u"Cannot read the partitions of "_s + topic;
        }
        if (md)
            rd_kafka_metadata_destroy(md);
        rd_kafka_topic_destroy(rkt);
    }
    if (const rd_kafka_resp_err_t err = rd_kafka_offsets_for_times(rk, assignment, 5000); err && error)
        *error = u"Cannot read end offsets: "_s + KafkaConfig::errorText(err);
    rd_kafka_assign(rk, assignment);
    rd_kafka_topic_partition_list_destroy(assignment);
    return assigned;
}
