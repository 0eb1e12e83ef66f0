#pragma once

#include "services/accounting/accountingtypes.h"
#include "services/kafka/kafkaconfig.h"
#include "services/policy/deliverypolicy.h"

#include <QHash>
#include <QMetaType>
#include <QObject>
#include <QSet>
#include <QStringList>

#include <array>
#include <atomic>
#include <deque>
#include <thread>

// Order breaks as they arrive (seed 004; ARCHITECTURE.md, Data flows: Alerts): a non-committing tail of
// the topics whose policy names a sequence field, from their end and without a group. Each record's
// number is judged per record key by SequenceTracker, the definition a delivery accounting applies:
// gaps (counted when they open), out-of-order arrivals, repeated numbers. DLQ-and-continue breaks
// (seed 000 §16) come from the consumers' DLQ topics, tailed as well: a key dead-lettered while a later
// record of it was committed past by the group (DeadLetterBreakWatch; the group's committed offsets read
// about once a second while a dead letter waits).
struct OrderTailStats {
    static constexpr int ExampleKeys = 3;
    struct Topic {
        qint64 examined = 0;
        qint64 withoutSequence = 0;             // no record key, or no number where the policy says
        std::array<qint64, 4> breaks{};         // by SequenceFinding::Kind
        std::array<QStringList, 4> examples;    // the latest keys of each kind, newest last
        qint64 recentBreaks = 0;                // within the settings' window: what the alert reads
        qint64 count(SequenceFinding::Kind kind) const { return breaks[size_t(kind)]; }
    };
    QHash<QString, Topic> topics;
    qint64 keysTracked = 0;
    qint64 keysForgotten = 0; // the oldest keys dropped at the bound (their next number starts afresh)
    qint64 deadLettersWaiting = 0; // dead letters whose later record is not yet seen or committed past
    int windowSeconds = 900;
    bool ready = false; // assigned and reading
    QString error;
};
Q_DECLARE_METATYPE(OrderTailStats)

class OrderTail final : public QObject {
    Q_OBJECT
public:
    struct Settings {
        KafkaProperties cluster;
        QHash<QString, RecordField> sequences; // topic -> its sequence field
        // DLQ topic -> the consumer group whose dead letters it holds, when a dead letter's headers do
        // not say (empty: only the headers tell). Dead letters of the topics in `sequences` count.
        QHash<QString, QString> deadLetterGroups;
        // Topics whose record keys the policy masks (ARCHITECTURE.md, Contracts: masking): their example
        // keys are shown as "(masked)".
        QSet<QString> maskedKeyTopics;
        // Keys followed at once. About 300 bytes each (the key, its tracker, the hash slot): 100,000 keys
        // are about 30 MB; beyond it the keys first seen longest ago are forgotten.
        int maxKeys = 100'000;
        int windowSeconds = 900; // recentBreaks counts this far back
    };
    // The topics a policy names a sequence field for.
    static QHash<QString, RecordField> sequencesOf(const DeliveryPolicy &policy);
    // The consumers' DLQ topics and whose dead letters each holds (DeliveryPolicy::consumerOfDeadLetter).
    static QHash<QString, QString> deadLetterGroupsOf(const DeliveryPolicy &policy);
    // The followed topics whose record keys the policy masks.
    static QSet<QString> maskedKeyTopicsOf(const DeliveryPolicy &policy);

    explicit OrderTail(QObject *parent = nullptr);
    ~OrderTail() override;

    void start(const Settings &settings); // restarts from the end when already running
    void stop();                          // joins the tail's thread
    bool isRunning() const { return m_thread.joinable(); }

Q_SIGNALS:
    void statsUpdated(const OrderTailStats &stats); // about once a second, and on every new break

private:
    using Recent = QHash<QString, std::deque<std::pair<qint64, qint64>>>; // topic -> (second, breaks)
    static QString shownKey(const Settings &settings, const QString &topic, QByteArrayView key);
    static void countBreak(OrderTailStats::Topic &topic, Recent::mapped_type &window, size_t kind,
                           const QString &key, qint64 now);
    // The tail's thread (an owned thread: ARCHITECTURE.md, Threads): polls until m_stop.
    void run(const Settings &settings);
    void publish(OrderTailStats &stats, const Settings &settings, Recent &recent, qint64 now);
    std::atomic_bool m_stop = false;
    std::thread m_thread;
};
