#pragma once

#include "services/kafka/kafkatypes.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QString>

#include <deque>
#include <limits>

// DLQ-and-continue breaks as they happen (seed 000 §16; ARCHITECTURE.md, Data flows: Alerts), for the live
// order tail, without an inbox: a key dead-lettered at original offset o while a later record of the same
// key on the same topic (offset > o on the partition, or a higher sequence number on another one) was
// consumed past by the group's committed offset. The tail feeds it the source records it reads and the
// dead letters of the consumers' DLQ topics; it asks for the committed offsets of the groups `awaiting`
// names and hands them to `settle`, which confirms the breaks. Each dead letter is one break at most.
// Memory is bounded: at most maxKeys keys' latest records and maxKeys dead letters waiting, the oldest
// forgotten first.
class DeadLetterBreakWatch final {
public:
    static constexpr qint64 NoSequence = std::numeric_limits<qint64>::min();

    explicit DeadLetterBreakWatch(int maxKeys = 100'000);

    // A record of a tailed topic, as it arrives.
    void arrived(const QString &topic, const QByteArray &key, int partition, qint64 offset, qint64 sequence);
    // A dead letter of `group` naming the record at (topic, partition, offset) with this key and number.
    void deadLettered(const QString &group, const QString &topic, const QByteArray &key, int partition,
                      qint64 offset, qint64 sequence);

    // Per group, the partitions whose committed offsets decide a waiting break.
    QHash<QString, QList<TopicPartition>> awaiting() const;
    struct Break {
        QString group;
        QString topic;
        QByteArray key;
    };
    // The group's committed offsets: the breaks they confirm (taken out of the waiting ones).
    QList<Break> settle(const QString &group, const PartitionOffsets &committed);

    qint64 waiting() const { return qint64(m_letters.size()); }
    qint64 forgotten() const { return m_forgotten; }

private:
    struct Record {
        int partition = -1;
        qint64 offset = -1;
        qint64 sequence = NoSequence;
    };
    struct Letter {
        QString group;
        QString topic;
        QByteArray key;
        Record dead;
        Record later; // partition -1: no later record of the key seen yet
    };
    static QByteArray scoped(const QString &topic, const QByteArray &key);
    static bool isLater(const Record &dead, const Record &other);
    void unmatch(const QByteArray &id);

    int m_maxKeys;
    QHash<QByteArray, Record> m_latest; // topic + '\0' + key -> its latest record seen
    std::deque<QByteArray> m_order;     // m_latest's keys, first seen first
    std::deque<Letter> m_letters;       // oldest first
    QHash<QByteArray, int> m_unmatched; // topic + '\0' + key -> its letters without a later record yet
    qint64 m_forgotten = 0;
};
