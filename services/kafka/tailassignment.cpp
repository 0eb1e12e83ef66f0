#include "tailassignment.h"

#include "services/kafka/kafkaconfig.h"

#include <QDeadlineTimer>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace {
constexpr int kBudgetMs = 5000; // for the whole assignment, not per topic
constexpr int kSliceMs = 250;

// Repeats `call(timeoutMs)` in slices while it times out, until the deadline passes or `stop` is set.
template<typename Call>
rd_kafka_resp_err_t inSlices(const QDeadlineTimer &deadline, const std::atomic_bool &stop, Call call)
{
    rd_kafka_resp_err_t err = RD_KAFKA_RESP_ERR__TIMED_OUT;
    while (err == RD_KAFKA_RESP_ERR__TIMED_OUT && !stop && !deadline.hasExpired())
        err = call(int(std::clamp<qint64>(deadline.remainingTime(), 1, kSliceMs)));
    return err;
}
} // namespace

QStringList assignTopicsAtEnd(rd_kafka_t *rk, const QStringList &topics, const std::atomic_bool &stop,
                              QString *error)
{
    const QDeadlineTimer deadline(kBudgetMs);
    QStringList assigned;
    auto *assignment = rd_kafka_topic_partition_list_new(16);
    for (const QString &topic : topics) {
        const QByteArray name = topic.toUtf8();
        rd_kafka_topic_t *rkt = rd_kafka_topic_new(rk, name.constData(), nullptr);
        const rd_kafka_metadata_t *md = nullptr;
        const rd_kafka_resp_err_t err = inSlices(deadline, stop, [&](int timeoutMs) {
            return rd_kafka_metadata(rk, 0, rkt, &md, timeoutMs);
        });
        if (err == RD_KAFKA_RESP_ERR_NO_ERROR && md->topic_cnt == 1) {
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
        if (err < 0 || stop) {
            // The cluster, not the topic, failed (a local error: timed out, unreachable), or the tail is
            // closing: the remaining topics would wait for the same silence.
            if (error && !stop)
                *error = u"The cluster did not answer (%1): the partitions of %2 could not be read"_s.arg(
                    KafkaConfig::errorText(err), topic);
            break;
        }
    }
    if (assignment->cnt > 0 && !stop) {
        // Ends resolved under their own budget: a slow metadata answer must not leave them unresolved.
        const QDeadlineTimer endsDeadline(kBudgetMs);
        const rd_kafka_resp_err_t err = inSlices(endsDeadline, stop, [&](int timeoutMs) {
            return rd_kafka_offsets_for_times(rk, assignment, timeoutMs);
        });
        if (err && error)
            *error = u"Cannot read end offsets: "_s + KafkaConfig::errorText(err);
    }
    rd_kafka_assign(rk, assignment);
    rd_kafka_topic_partition_list_destroy(assignment);
    return assigned;
}
