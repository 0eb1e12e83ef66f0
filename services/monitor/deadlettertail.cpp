#include "deadlettertail.h"

#include "services/dlq/dlqheadercodec.h"
#include "services/kafka/kafkarecord.h"
#include "services/kafka/tailassignment.h"

#include <QDateTime>
#include <QElapsedTimer>

#include <atomic>
#include <thread>

using namespace Qt::StringLiterals;

class DeadLetterTail::Worker final {
public:
    Worker(DeadLetterTail *owner, Settings settings)
        : m_owner(owner)
        , m_settings(std::move(settings))
    {
        m_thread = std::thread([this] { run(); });
    }
    ~Worker()
    {
        m_stop = true;
        m_thread.join();
    }

private:
    void run()
    {
        QString error;
        const KafkaProperties props = KafkaConfig::readerProperties(
            m_settings.cluster, {.clientId = u"berth-dlq-tail"_s, .groupId = u"berth-dlq-tail"_s});
        KafkaHandle rk = KafkaConfig::createClient(RD_KAFKA_CONSUMER, props, &error);
        if (!rk) {
            Q_EMIT m_owner->failed(error);
            return;
        }
        assignTopicsAtEnd(rk.get(), m_settings.topics, m_stop, &error);
        if (!error.isEmpty())
            Q_EMIT m_owner->failed(error);
        DeadLetterArrivals batch;
        QElapsedTimer sincePublish, budgetClock;
        sincePublish.start();
        budgetClock.start();
        int thisSecond = 0;
        while (!m_stop) {
            if (rd_kafka_message_t *m = rd_kafka_consumer_poll(rk.get(), 100)) {
                if (budgetClock.elapsed() >= 1000) {
                    budgetClock.restart();
                    thisSecond = 0;
                }
                if (!m->err && ++thisSecond <= m_settings.maxRecordsPerSecond) {
                    const KafkaRecord record = KafkaRecord::fromMessage(m);
                    const DlqMetadata meta = decodeDlqHeaders(record.headers);
                    DeadLetterArrival a;
                    a.topic = record.topic;
                    a.timeMs = record.timestampMs > 0 ? record.timestampMs : QDateTime::currentMSecsSinceEpoch();
                    a.attempts = meta.attempts;
                    a.exceptionClass = meta.exceptionClass;
                    a.causeClass = meta.causeClass;
                    a.consumer = meta.consumerGroup;
                    batch.append(a);
                }
                rd_kafka_message_destroy(m);
            }
            if (sincePublish.elapsed() >= 1000) {
                sincePublish.restart();
                if (!batch.isEmpty()) {
                    Q_EMIT m_owner->arrived(batch);
                    batch.clear();
                }
            }
        }
        rd_kafka_assign(rk.get(), nullptr);
    }

    DeadLetterTail *m_owner;
    Settings m_settings;
    std::atomic_bool m_stop = false;
    std::thread m_thread;
};

DeadLetterTail::DeadLetterTail(QObject *parent)
    : QObject(parent)
{
    qRegisterMetaType<DeadLetterArrivals>();
}

DeadLetterTail::~DeadLetterTail()
{
    stop();
}

void DeadLetterTail::start(const Settings &settings)
{
    stop();
    if (!settings.topics.isEmpty())
        m_worker = new Worker(this, settings);
}

void DeadLetterTail::stop()
{
    delete m_worker; // joins the thread
    m_worker = nullptr;
}
