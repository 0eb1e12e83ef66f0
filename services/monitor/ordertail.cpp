#include "services/monitor/ordertail.h"

#include "services/accounting/recordfieldvalue.h"
#include "services/accounting/sequencetracker.h"
#include "services/kafka/tailassignment.h"

#include <QDateTime>
#include <QElapsedTimer>

#include <atomic>
#include <deque>
#include <thread>

using namespace Qt::StringLiterals;

void OrderTail::publish(OrderTailStats &stats, const Settings &settings, Recent &recent, qint64 now)
{
    const qint64 oldest = now - qint64(settings.windowSeconds) * 1000;
    for (auto it = stats.topics.begin(); it != stats.topics.end(); ++it) {
        auto &window = recent[it.key()];
        while (!window.empty() && window.front().first < oldest)
            window.pop_front();
        qint64 sum = 0;
        for (const auto &[at, breaks] : window)
            sum += breaks;
        it->recentBreaks = sum;
    }
    Q_EMIT statsUpdated(stats);
}

void OrderTail::run(const Settings &settings)
{
    OrderTailStats stats;
    stats.windowSeconds = settings.windowSeconds;
    const KafkaProperties props = KafkaConfig::readerProperties(
        settings.cluster, {.clientId = u"berth-order-tail"_s, .groupId = u"berth-order-tail"_s});
    KafkaHandle rk = KafkaConfig::createClient(RD_KAFKA_CONSUMER, props, &stats.error);
    if (!rk) {
        Q_EMIT statsUpdated(stats);
        return;
    }
    for (const QString &topic : assignTopicsAtEnd(rk.get(), settings.sequences.keys(), &stats.error))
        stats.topics.insert(topic, {});
    stats.ready = stats.error.isEmpty();
    Q_EMIT statsUpdated(stats);

    // Per topic and record key: its tracker. Forgotten oldest first beyond the bound.
    Recent recent;
    QHash<QByteArray, SequenceTracker> trackers;
    std::deque<QByteArray> firstSeen;
    QElapsedTimer sincePublish;
    sincePublish.start();
    while (!m_stop) {
        rd_kafka_message_t *m = rd_kafka_consumer_poll(rk.get(), 100);
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        bool broke = false;
        if (m && !m->err) {
            const QString topicName = QString::fromUtf8(rd_kafka_topic_name(m->rkt));
            OrderTailStats::Topic &topic = stats.topics[topicName];
            ++topic.examined;
            qint64 sequence = 0;
            RecordFieldValue fields(m);
            const auto field = settings.sequences.constFind(topicName);
            if (!m->key || m->key_len == 0 || field == settings.sequences.cend()
                || fields.integer(*field, &sequence) != RecordFieldValue::Outcome::Found) {
                ++topic.withoutSequence;
            } else {
                const QByteArrayView key(static_cast<const char *>(m->key), qsizetype(m->key_len));
                QByteArray scoped = topicName.toUtf8() + '\0' + key.toByteArray();
                auto tracker = trackers.find(scoped);
                if (tracker == trackers.end()) {
                    tracker = trackers.insert(scoped, {});
                    firstSeen.push_back(std::move(scoped));
                }
                // Marks pack the record's coordinates; the tail reports counts and keys, not records.
                const SequenceTracker::Mark mark = (quint64(m->partition) << 48) | quint64(m->offset);
                if (const auto b = tracker->observe(sequence, mark)) {
                    const size_t kind = size_t(b->kind);
                    ++topic.breaks[kind];
                    QStringList &examples = topic.examples[kind];
                    const QString text = QString::fromUtf8(key);
                    examples.removeAll(text);
                    examples.append(text);
                    if (examples.size() > OrderTailStats::ExampleKeys)
                        examples.removeFirst();
                    auto &window = recent[topicName];
                    if (window.empty() || window.back().first < now - 1000)
                        window.push_back({now, 0});
                    ++window.back().second;
                    broke = true;
                }
                while (int(firstSeen.size()) > settings.maxKeys) {
                    trackers.remove(firstSeen.front());
                    firstSeen.pop_front();
                    ++stats.keysForgotten;
                }
                stats.keysTracked = trackers.size();
            }
        }
        if (m)
            rd_kafka_message_destroy(m);
        if (broke || sincePublish.elapsed() >= 1000) {
            sincePublish.restart();
            publish(stats, settings, recent, now);
        }
    }
    rd_kafka_assign(rk.get(), nullptr);
}

QHash<QString, RecordField> OrderTail::sequencesOf(const DeliveryPolicy &policy)
{
    QHash<QString, RecordField> out;
    for (const TopicPolicy &t : policy.topics) {
        if (t.sequence.isStated())
            out.insert(t.name, t.sequence);
    }
    return out;
}

OrderTail::OrderTail(QObject *parent)
    : QObject(parent)
{
    qRegisterMetaType<OrderTailStats>();
}

OrderTail::~OrderTail()
{
    stop();
}

void OrderTail::start(const Settings &settings)
{
    stop();
    m_stop = false;
    m_thread = std::thread([this, settings] { run(settings); });
}

void OrderTail::stop()
{
    m_stop = true;
    if (m_thread.joinable())
        m_thread.join();
}
