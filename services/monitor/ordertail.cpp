#include "services/monitor/ordertail.h"

#include "services/accounting/recordfieldvalue.h"
#include "services/accounting/sequencetracker.h"
#include "services/dlq/dlqheadercodec.h"
#include "services/kafka/clusterinspector.h"
#include "services/monitor/deadletterbreakwatch.h"
#include "services/payload/payloadmask.h"
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
    QStringList tailed = settings.sequences.keys();
    for (auto it = settings.deadLetterGroups.cbegin(); it != settings.deadLetterGroups.cend(); ++it) {
        if (!tailed.contains(it.key()))
            tailed << it.key();
    }
    for (const QString &topic : assignTopicsAtEnd(rk.get(), tailed, m_stop, &stats.error)) {
        if (settings.sequences.contains(topic))
            stats.topics.insert(topic, {});
    }
    stats.ready = stats.error.isEmpty();
    // The groups' committed offsets, read only while a dead letter waits for them.
    QString inspectorError;
    const auto inspector = settings.deadLetterGroups.isEmpty()
                               ? nullptr
                               : ClusterInspector::create(settings.cluster, &inspectorError);
    DeadLetterBreakWatch deadLetters(settings.maxKeys);
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
        const QString topicName = m && !m->err ? QString::fromUtf8(rd_kafka_topic_name(m->rkt)) : QString();
        if (m && !m->err && !settings.sequences.contains(topicName)) {
            // A dead letter: the record it names, by the dialect headers, and the key it carries.
            const KafkaRecord letter = KafkaRecord::fromMessage(m);
            const DlqMetadata meta = decodeDlqHeaders(letter.headers);
            const auto field = settings.sequences.constFind(meta.originalTopic);
            if (field != settings.sequences.cend() && !letter.key.isEmpty()) {
                qint64 sequence = DeadLetterBreakWatch::NoSequence;
                RecordFieldValue fields(m); // a dead letter keeps the original value and headers
                if (fields.integer(*field, &sequence) != RecordFieldValue::Outcome::Found)
                    sequence = DeadLetterBreakWatch::NoSequence;
                deadLetters.deadLettered(
                    meta.consumerGroup.isEmpty() ? settings.deadLetterGroups.value(topicName) : meta.consumerGroup,
                    meta.originalTopic, letter.key, meta.originalPartition, meta.originalOffset, sequence);
            }
        } else if (m && !m->err) {
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
                deadLetters.arrived(topicName, key.toByteArray(), int(m->partition), m->offset, sequence);
                QByteArray scoped = topicName.toUtf8() + '\0' + key.toByteArray();
                auto tracker = trackers.find(scoped);
                if (tracker == trackers.end()) {
                    tracker = trackers.insert(scoped, {});
                    firstSeen.push_back(std::move(scoped));
                }
                // Marks pack the record's coordinates; the tail reports counts and keys, not records.
                const SequenceTracker::Mark mark = (quint64(m->partition) << 48) | quint64(m->offset);
                if (const auto b = tracker->observe(sequence, mark)) {
                    countBreak(topic, recent[topicName], size_t(b->kind), shownKey(settings, topicName, key), now);
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
        if (sincePublish.elapsed() >= 1000 && inspector && deadLetters.waiting() > 0) {
            const QHash<QString, QList<TopicPartition>> awaiting = deadLetters.awaiting();
            for (auto it = awaiting.cbegin(); it != awaiting.cend() && !m_stop; ++it) {
                const QList<GroupOffsets> got = inspector->committedOffsetsViaGroupHandles({it.key()}, *it, 2000);
                if (got.isEmpty() || !got.front().error.isEmpty())
                    continue; // asked again on the next round
                for (const DeadLetterBreakWatch::Break &b : deadLetters.settle(it.key(), got.front().committed)) {
                    countBreak(stats.topics[b.topic], recent[b.topic],
                               size_t(SequenceFinding::Kind::DlqAndContinue), shownKey(settings, b.topic, b.key),
                               now);
                    broke = true;
                }
            }
        }
        stats.deadLettersWaiting = deadLetters.waiting();
        if (broke || sincePublish.elapsed() >= 1000) {
            sincePublish.restart();
            publish(stats, settings, recent, now);
        }
    }
    rd_kafka_assign(rk.get(), nullptr);
}

QString OrderTail::shownKey(const Settings &settings, const QString &topic, QByteArrayView key)
{
    return settings.maskedKeyTopics.contains(topic) ? QString::fromLatin1(PayloadMask::kMasked)
                                                    : QString::fromUtf8(key);
}

QSet<QString> OrderTail::maskedKeyTopicsOf(const DeliveryPolicy &policy)
{
    QSet<QString> out;
    for (const TopicPolicy &t : policy.topics) {
        if (t.sequence.isStated() && policy.maskFor(t.name).key)
            out.insert(t.name);
    }
    return out;
}

void OrderTail::countBreak(OrderTailStats::Topic &topic, Recent::mapped_type &window, size_t kind,
                           const QString &key, qint64 now)
{
    ++topic.breaks[kind];
    QStringList &examples = topic.examples[kind];
    examples.removeAll(key);
    examples.append(key);
    if (examples.size() > OrderTailStats::ExampleKeys)
        examples.removeFirst();
    if (window.empty() || window.back().first < now - 1000)
        window.push_back({now, 0});
    ++window.back().second;
}

QHash<QString, QString> OrderTail::deadLetterGroupsOf(const DeliveryPolicy &policy)
{
    QHash<QString, QString> out;
    for (const QString &dlq : policy.dlqTopics())
        out.insert(dlq, policy.consumerOfDeadLetter(dlq, {}));
    return out;
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
