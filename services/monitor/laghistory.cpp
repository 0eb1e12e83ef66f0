#include "laghistory.h"

#include <QSet>

void LagHistory::recordEnd(const TopicPartition &tp, qint64 timeMs, qint64 end)
{
    auto &ring = m_ends[tp];
    // A partition whose end went back was recreated or truncated: older points describe another log.
    if (!ring.empty() && end < ring.back().offset)
        ring.clear();
    push(ring, Point{timeMs, end}, m_capacity);
}

void LagHistory::recordProgress(const QString &group, const TopicPartition &tp, const Progress &progress)
{
    push(m_progress[{group, tp}], progress, m_capacity);
}

qint64 LagHistory::timeOfOffset(const TopicPartition &tp, qint64 offset) const
{
    const auto it = m_ends.constFind(tp);
    if (it == m_ends.cend() || it->empty())
        return -1;
    const std::deque<Point> &ring = *it;
    // The record at `offset` was appended when the end offset moved from <= offset to > offset.
    if (ring.front().offset > offset)
        return -1; // older than what we remember: the caller peeks at the record instead
    for (size_t i = 1; i < ring.size(); ++i) {
        const Point &a = ring[i - 1];
        const Point &b = ring[i];
        if (b.offset > offset) {
            const double fraction = double(offset - a.offset + 1) / double(b.offset - a.offset);
            return a.timeMs + qint64(fraction * double(b.timeMs - a.timeMs));
        }
    }
    return -1; // not produced yet as far as the history knows
}

const std::deque<LagHistory::Point> &LagHistory::ends(const TopicPartition &tp) const
{
    static const std::deque<Point> empty;
    const auto it = m_ends.constFind(tp);
    return it == m_ends.cend() ? empty : *it;
}

const std::deque<LagHistory::Progress> &LagHistory::progress(const QString &group, const TopicPartition &tp) const
{
    static const std::deque<Progress> empty;
    const auto it = m_progress.constFind({group, tp});
    return it == m_progress.cend() ? empty : *it;
}

void LagHistory::retainOnly(const QSet<TopicPartition> &partitions,
                            const QSet<QPair<QString, TopicPartition>> &groupPartitions)
{
    m_ends.removeIf([&](const auto &it) { return !partitions.contains(it.key()); });
    m_progress.removeIf([&](const auto &it) { return !groupPartitions.contains(it.key()); });
}
