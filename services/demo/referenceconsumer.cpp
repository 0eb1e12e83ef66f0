#include "referenceconsumer.h"

#include "demonap.h"
#include "services/dlq/dlqheadercodec.h"
#include "services/kafka/kafkaproducer.h"
#include "services/support/logging.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QHash>
#include <QJsonDocument>

#include <chrono>

using namespace Qt::StringLiterals;

namespace {
struct ConsumerDeleter {
    void operator()(rd_kafka_t *rk) const
    {
        rd_kafka_consumer_close(rk);
        rd_kafka_destroy(rk);
    }
};
using Consumer = std::unique_ptr<rd_kafka_t, ConsumerDeleter>;
}

ReferenceConsumer::ReferenceConsumer(Config config)
    : m_config(std::move(config))
{
}

ReferenceConsumer::~ReferenceConsumer()
{
    stop();
}

void ReferenceConsumer::start()
{
    m_stop = false;
    m_thread = std::thread([this] { run(); });
}

void ReferenceConsumer::requestStop()
{
    m_stop = true;
}

void ReferenceConsumer::stop()
{
    requestStop();
    if (m_thread.joinable())
        m_thread.join();
}

void ReferenceConsumer::backoff(int attempt)
{
    std::this_thread::sleep_for(std::chrono::milliseconds(20 << std::min(attempt, 6)));
}

QJsonObject ReferenceConsumer::parseObject(const QByteArray &payload, QString *error)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(payload, &parseError);
    if (parseError.error != QJsonParseError::NoError || !doc.isObject()) {
        *error = parseError.error != QJsonParseError::NoError
                   ? u"Unexpected content at offset "_s + QString::number(parseError.offset) + u": "
                         + parseError.errorString()
                   : u"Payload is not a JSON object"_s;
        return {};
    }
    return doc.object();
}

bool ReferenceConsumer::ensureDatabase()
{
    if (m_config.conninfo.isEmpty() || m_db.isOpen())
        return true;
    QString error;
    if (m_db.connect(m_config.conninfo, &error))
        return true;
    qCWarning(lcDemo) << m_config.group << "cannot reach its database:" << error;
    return false;
}

void ReferenceConsumer::deadLetter(const KafkaRecord &record, DlqDialect dialect, DlqMetadata metadata)
{
    if (!m_dlq) {
        QString error;
        m_dlq = KafkaProducer::create(m_config.cluster, &error);
        if (!m_dlq) {
            qCWarning(lcDemo) << "DLQ producer:" << error;
            return;
        }
    }
    metadata.dialect = dialect;
    metadata.originalTopic = record.topic;
    metadata.originalPartition = record.partition;
    metadata.originalOffset = record.offset;
    metadata.originalTimestampMs = record.timestampMs;
    metadata.consumerGroup = m_config.group;
    metadata.idempotencyKey = QString::fromUtf8(record.header("idempotency-key"));
    metadata.correlationId = QString::fromUtf8(record.header("correlation-id"));
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    if (metadata.firstFailureMs < 0)
        metadata.firstFailureMs = now;
    metadata.lastFailureMs = now;
    // Like Spring and Connect: the original headers travel along, the diagnostic ones are appended.
    RecordHeaders headers = record.headers;
    headers.append(encodeDlqHeaders(dialect, metadata));
    OutgoingRecord out{m_config.dlqTopic, -1, record.key, record.keyIsNull, record.value, headers, 0};
    // Spring's default DLT resolver keeps the original partition when the DLT has as many.
    if (dialect == DlqDialect::SpringDlt)
        out.partition = record.partition;
    QString error;
    if (!m_dlq->produce(out, &error))
        qCWarning(lcDemo) << error;
    m_dlq->flush(5000);
    ++m_deadLettered;
}

void ReferenceConsumer::run()
{
    const QByteArray topic = m_config.topic.toUtf8();
    KafkaProperties props = m_config.cluster;
    props.append({u"group.id"_s, m_config.group});
    props.append({u"enable.auto.commit"_s, u"false"_s});
    props.append({u"auto.offset.reset"_s, u"earliest"_s});
    props.append({u"session.timeout.ms"_s, u"6000"_s});
    props.append({u"client.id"_s, m_config.group});
    QString error;
    KafkaHandle plain = KafkaConfig::createClient(RD_KAFKA_CONSUMER, props, &error);
    if (!plain) {
        qCWarning(lcDemo) << m_config.group << error;
        return;
    }
    Consumer consumer(plain.release());
    rd_kafka_poll_set_consumer(consumer.get());
    if (m_config.assignPartitions) {
        // Every partition from the group's committed offset (auto.offset.reset where it has none). The
        // metadata of all topics: a request naming the topic would ask the brokers to create it.
        const rd_kafka_metadata_t *metadata = nullptr;
        int partitions = 0;
        while (!m_stop && rd_kafka_metadata(consumer.get(), 1, nullptr, &metadata, 5000) != RD_KAFKA_RESP_ERR_NO_ERROR)
            napUnlessStopped(m_stop, std::chrono::milliseconds(200));
        if (metadata) {
            for (int t = 0; t < metadata->topic_cnt; ++t) {
                if (topic == metadata->topics[t].topic)
                    partitions = metadata->topics[t].partition_cnt;
            }
            rd_kafka_metadata_destroy(metadata);
        }
        auto *assignment = rd_kafka_topic_partition_list_new(std::max(partitions, 1));
        for (int p = 0; p < partitions; ++p)
            rd_kafka_topic_partition_list_add(assignment, topic.constData(), p)->offset = RD_KAFKA_OFFSET_STORED;
        rd_kafka_assign(consumer.get(), assignment);
        rd_kafka_topic_partition_list_destroy(assignment);
    } else {
        auto *subscription = rd_kafka_topic_partition_list_new(1);
        rd_kafka_topic_partition_list_add(subscription, topic.constData(), RD_KAFKA_PARTITION_UA);
        rd_kafka_subscribe(consumer.get(), subscription);
        rd_kafka_topic_partition_list_destroy(subscription);
    }

    QHash<int, qint64> pending; // partition -> next offset to commit
    QElapsedTimer sinceCommit;
    sinceCommit.start();
    const auto commit = [&] {
        if (pending.isEmpty())
            return;
        auto *offsets = rd_kafka_topic_partition_list_new(int(pending.size()));
        for (auto it = pending.cbegin(); it != pending.cend(); ++it)
            rd_kafka_topic_partition_list_add(offsets, topic.constData(), it.key())->offset = it.value();
        rd_kafka_commit(consumer.get(), offsets, 0);
        rd_kafka_topic_partition_list_destroy(offsets);
        pending.clear();
        sinceCommit.restart();
    };
    // A simulated crash rewinds every assigned partition to its committed offset: exactly what a
    // restarted process would see, without waiting for the group to rebalance.
    const auto rewindToCommitted = [&] {
        pending.clear();
        rd_kafka_topic_partition_list_t *assigned = nullptr;
        if (rd_kafka_assignment(consumer.get(), &assigned) != RD_KAFKA_RESP_ERR_NO_ERROR || !assigned)
            return;
        if (rd_kafka_committed(consumer.get(), assigned, 5000) == RD_KAFKA_RESP_ERR_NO_ERROR) {
            for (int i = 0; i < assigned->cnt; ++i) {
                if (assigned->elems[i].offset < 0)
                    assigned->elems[i].offset = RD_KAFKA_OFFSET_BEGINNING;
            }
            if (rd_kafka_error_t *e = rd_kafka_seek_partitions(consumer.get(), assigned, 5000))
                rd_kafka_error_destroy(e);
        }
        rd_kafka_topic_partition_list_destroy(assigned);
    };
    while (!m_stop) {
        rd_kafka_message_t *message = rd_kafka_consumer_poll(consumer.get(), 100);
        if (message) {
            if (message->err == RD_KAFKA_RESP_ERR_NO_ERROR) {
                const KafkaRecord record = KafkaRecord::fromMessage(message);
                rd_kafka_message_destroy(message);
                if (const int delay = processingDelayMs())
                    napUnlessStopped(m_stop, std::chrono::milliseconds(delay));
                while (!m_stop && !ensureDatabase())
                    napUnlessStopped(m_stop, std::chrono::seconds(1));
                if (m_stop)
                    break;
                if (handle(record) == Outcome::Crash) {
                    ++m_restarts;
                    qCInfo(lcDemo) << m_config.group << "crashed on purpose before committing; redelivery follows";
                    rewindToCommitted();
                    continue;
                }
                ++m_handled;
                pending.insert(record.partition, record.offset + 1);
            } else {
                rd_kafka_message_destroy(message);
            }
        }
        if (sinceCommit.elapsed() > 500)
            commit();
    }
    commit();
}
