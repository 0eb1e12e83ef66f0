#include "duplicatetail.h"

#include "services/kafka/kafkarecord.h"
#include "services/kafka/tailassignment.h"
#include "services/support/logging.h"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>

#include <atomic>
#include <deque>
#include <thread>

using namespace Qt::StringLiterals;

class DuplicateTail::Worker final {
public:
    Worker(DuplicateTail *owner, Settings settings)
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
    struct Minute {
        qint64 examined = 0;
        qint64 duplicates = 0;
    };
    void publish(DuplicateStats &stats, QHash<QString, std::deque<std::pair<qint64, Minute>>> &recent,
                 qint64 now)
    {
        for (auto it = stats.topics.begin(); it != stats.topics.end(); ++it) {
            auto &window = recent[it.key()];
            while (!window.empty() && window.front().first < now - 60000)
                window.pop_front();
            Minute sum;
            for (const auto &[t, m] : window) {
                sum.examined += m.examined;
                sum.duplicates += m.duplicates;
            }
            it->duplicateRatePerMinute = double(sum.duplicates);
            it->duplicatePercent = sum.examined ? 100.0 * double(sum.duplicates) / double(sum.examined) : 0.0;
        }
        Q_EMIT m_owner->statsUpdated(stats);
    }

    void run()
    {
        DuplicateStats stats;
        const KafkaProperties props =
            KafkaConfig::readerProperties(m_settings.cluster, {.clientId = u"berth-duplicate-tail"_s,
                                                               .groupId = u"berth-duplicate-tail"_s});
        KafkaHandle rk = KafkaConfig::createClient(RD_KAFKA_CONSUMER, props, &stats.error);
        if (!rk) {
            Q_EMIT m_owner->statsUpdated(stats);
            return;
        }
        for (const QString &topic : assignTopicsAtEnd(rk.get(), m_settings.topics, m_stop, &stats.error))
            stats.topics.insert(topic, {});
        stats.ready = stats.error.isEmpty();
        Q_EMIT m_owner->statsUpdated(stats);

        QHash<QByteArray, qint64> lastSeen;              // key -> time seen
        std::deque<std::pair<qint64, QByteArray>> order; // for expiry, oldest first
        QHash<QString, std::deque<std::pair<qint64, Minute>>> recent;
        QElapsedTimer sincePublish, budgetClock;
        sincePublish.start();
        budgetClock.start();
        qint64 examinedThisSecond = 0;
        while (!m_stop) {
            rd_kafka_message_t *m = rd_kafka_consumer_poll(rk.get(), 100);
            const qint64 now = QDateTime::currentMSecsSinceEpoch();
            if (m) {
                if (!m->err) {
                    if (budgetClock.elapsed() >= 1000) {
                        budgetClock.restart();
                        examinedThisSecond = 0;
                    }
                    if (++examinedThisSecond > m_settings.maxRecordsPerSecond) {
                        ++stats.skippedOverBudget;
                    } else {
                        const KafkaRecord record = KafkaRecord::fromMessage(m);
                        DuplicateStats::Topic &topic = stats.topics[record.topic];
                        auto &window = recent[record.topic];
                        if (window.empty() || window.back().first < now - 1000)
                            window.push_back({now, {}});
                        ++topic.examined;
                        ++window.back().second.examined;
                        const QByteArray key = DuplicateTail::idempotencyKey(m_settings, record);
                        if (key.isEmpty()) {
                            ++topic.withoutKey;
                        } else {
                            const QByteArray scoped = record.topic.toUtf8() + '\0' + key;
                            if (lastSeen.contains(scoped)) {
                                ++topic.duplicates;
                                ++window.back().second.duplicates;
                            } else {
                                lastSeen.insert(scoped, now);
                                order.push_back({now, scoped});
                            }
                        }
                    }
                }
                rd_kafka_message_destroy(m);
            }
            // Forget keys older than the window, and the oldest ones beyond the memory bound.
            while (!order.empty()
                   && (order.front().first < now - qint64(m_settings.windowSeconds) * 1000
                       || int(order.size()) > m_settings.maxKeys)) {
                lastSeen.remove(order.front().second);
                order.pop_front();
            }
            if (sincePublish.elapsed() >= 1000) {
                sincePublish.restart();
                publish(stats, recent, now);
            }
        }
        rd_kafka_assign(rk.get(), nullptr);
    }

    DuplicateTail *m_owner;
    Settings m_settings;
    std::atomic_bool m_stop = false;
    std::thread m_thread;
};

DuplicateTail::DuplicateTail(QObject *parent)
    : QObject(parent)
{
    qRegisterMetaType<DuplicateStats>();
}

DuplicateTail::~DuplicateTail()
{
    stop();
}

void DuplicateTail::start(const Settings &settings)
{
    stop();
    m_worker = new Worker(this, settings);
}

void DuplicateTail::stop()
{
    delete m_worker; // joins the thread
    m_worker = nullptr;
}

QByteArray DuplicateTail::idempotencyKey(const Settings &settings, const KafkaRecord &record)
{
    if (!settings.keyHeader.isEmpty()) {
        const QByteArray fromHeader = record.header(settings.keyHeader);
        if (!fromHeader.isEmpty())
            return fromHeader;
    }
    if (!settings.jsonField.isEmpty()) {
        QJsonValue value = QJsonDocument::fromJson(record.value).object();
        for (const QString &part : settings.jsonField.split(u'.'))
            value = value.toObject().value(part);
        if (value.isString())
            return value.toString().toUtf8();
        if (value.isDouble())
            return QByteArray::number(value.toDouble(), 'g', 17);
    }
    return settings.fallBackToRecordKey && !record.keyIsNull ? record.key : QByteArray();
}
