#pragma once

#include "services/kafka/kafkatypes.h"

#include <QHash>

#include <deque>

// What the sampler remembers between samples, on its own thread: each partition's end offset over time
// (for time-lag interpolation) and each group partition's committed offsets (for status rules).
class LagHistory final {
public:
    struct Point {
        qint64 timeMs;
        qint64 offset;
    };
    struct Progress {
        qint64 timeMs;
        qint64 committed; // -1: none
        qint64 lag;
    };
    explicit LagHistory(int capacity = 720) // an hour at the default 5 s clock
        : m_capacity(capacity)
    {
    }

    void recordEnd(const TopicPartition &tp, qint64 timeMs, qint64 end);
    void recordProgress(const QString &group, const TopicPartition &tp, const Progress &progress);

    // When did the end offset pass `offset`? Interpolated between the two samples around it; -1 when the
    // offset is older than the remembered history (or the history is too short to say).
    qint64 timeOfOffset(const TopicPartition &tp, qint64 offset) const;
    const std::deque<Point> &ends(const TopicPartition &tp) const;
    const std::deque<Progress> &progress(const QString &group, const TopicPartition &tp) const;
    // Forget partitions not seen in the latest sample (topics deleted, groups gone).
    void retainOnly(const QSet<TopicPartition> &partitions, const QSet<QPair<QString, TopicPartition>> &groupPartitions);

private:
    template<typename T>
    static void push(std::deque<T> &ring, const T &p, int capacity)
    {
        ring.push_back(p);
        while (int(ring.size()) > capacity)
            ring.pop_front();
    }
    int m_capacity;
    QHash<TopicPartition, std::deque<Point>> m_ends;
    QHash<QPair<QString, TopicPartition>, std::deque<Progress>> m_progress;
};
