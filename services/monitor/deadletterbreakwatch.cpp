#include "services/monitor/deadletterbreakwatch.h"

#include <QSet>

DeadLetterBreakWatch::DeadLetterBreakWatch(int maxKeys)
    : m_maxKeys(std::max(1, maxKeys))
{
}

QByteArray DeadLetterBreakWatch::scoped(const QString &topic, const QByteArray &key)
{
    return topic.toUtf8() + '\0' + key;
}

bool DeadLetterBreakWatch::isLater(const Record &dead, const Record &other)
{
    if (other.partition == dead.partition)
        return other.offset > dead.offset;
    // On another partition (the key moved) only the numbers tell which came later.
    return dead.sequence != NoSequence && other.sequence != NoSequence && other.sequence > dead.sequence;
}

void DeadLetterBreakWatch::arrived(const QString &topic, const QByteArray &key, int partition, qint64 offset,
                                   qint64 sequence)
{
    const Record record{partition, offset, sequence};
    QByteArray id = scoped(topic, key);
    if (m_unmatched.contains(id)) { // dead letters are few: a walk over them only for a key that has one
        for (Letter &letter : m_letters) {
            if (letter.later.partition < 0 && letter.topic == topic && letter.key == key
                && isLater(letter.dead, record)) {
                letter.later = record;
                unmatch(id);
            }
        }
    }
    auto it = m_latest.find(id);
    if (it != m_latest.end()) {
        *it = record;
        return;
    }
    m_latest.insert(id, record);
    m_order.push_back(std::move(id));
    while (int(m_order.size()) > m_maxKeys) {
        m_latest.remove(m_order.front());
        m_order.pop_front();
    }
}

void DeadLetterBreakWatch::deadLettered(const QString &group, const QString &topic, const QByteArray &key,
                                        int partition, qint64 offset, qint64 sequence)
{
    if (group.isEmpty() || key.isEmpty() || partition < 0 || offset < 0)
        return;
    Letter letter{group, topic, key, {partition, offset, sequence}, {}};
    // The consumer may have gone on before its dead letter was written: a later record already seen.
    if (const auto latest = m_latest.constFind(scoped(topic, key));
        latest != m_latest.cend() && isLater(letter.dead, *latest))
        letter.later = *latest;
    else
        ++m_unmatched[scoped(topic, key)];
    m_letters.push_back(std::move(letter));
    while (int(m_letters.size()) > m_maxKeys) {
        if (m_letters.front().later.partition < 0)
            unmatch(scoped(m_letters.front().topic, m_letters.front().key));
        m_letters.pop_front();
        ++m_forgotten;
    }
}

void DeadLetterBreakWatch::unmatch(const QByteArray &id)
{
    const auto it = m_unmatched.find(id);
    if (it != m_unmatched.end() && --*it <= 0)
        m_unmatched.erase(it);
}

QHash<QString, QList<TopicPartition>> DeadLetterBreakWatch::awaiting() const
{
    QHash<QString, QSet<TopicPartition>> sets;
    for (const Letter &letter : m_letters) {
        if (letter.later.partition >= 0)
            sets[letter.group].insert({letter.topic, letter.later.partition});
    }
    QHash<QString, QList<TopicPartition>> out;
    for (auto it = sets.cbegin(); it != sets.cend(); ++it)
        out.insert(it.key(), it->values());
    return out;
}

QList<DeadLetterBreakWatch::Break> DeadLetterBreakWatch::settle(const QString &group,
                                                                const PartitionOffsets &committed)
{
    QList<Break> out;
    for (auto it = m_letters.begin(); it != m_letters.end();) {
        const qint64 past = it->group == group && it->later.partition >= 0
                                ? committed.value({it->topic, it->later.partition}, -1)
                                : -1;
        if (past > it->later.offset) {
            out.append({it->group, it->topic, it->key});
            it = m_letters.erase(it);
        } else {
            ++it;
        }
    }
    return out;
}
