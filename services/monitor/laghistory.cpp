#include "laghistory.h"

#include <QSet>

void LagHistory::recordEnd(const TopicPartition &tp, qint64 timeMs, qint64 end)
{
    auto it = m_ends.find(tp);
    if (it == m_ends.end())
        it = m_ends.insert(tp, EndRings{SampleRing<Point>(m_fineSamples), SampleRing<Point>(m_coarseMinutes)});
    EndRings &rings = *it;
    // A partition whose end went back was recreated or truncated: older points describe another log.
    if (!rings.fine.empty() && end < rings.fine.back().offset) {
        rings.fine.clear();
        rings.coarse.clear();
    }
    rings.fine.push(Point{timeMs, end});
    if (rings.coarse.empty() || timeMs - rings.coarse.back().timeMs >= 60000)
        rings.coarse.push(Point{timeMs, end});
}

void LagHistory::setProgressCapacity(int samples)
{
    if (samples == m_progressCapacity)
        return;
    m_progressCapacity = samples;
    for (GroupProgress &p : m_progress)
        p.samples.setCapacity(samples);
}

void LagHistory::recordProgress(const QString &group, const TopicPartition &tp, const Progress &progress)
{
    auto it = m_progress.find({group, tp});
    if (it == m_progress.end()) {
        it = m_progress.insert({group, tp}, GroupProgress{SampleRing<Progress>(m_progressCapacity), -1});
        QStringList &topics = m_groupTopics[group];
        if (!topics.contains(tp.topic))
            topics.append(tp.topic);
    }
    GroupProgress &p = *it;
    if (p.samples.empty() || p.samples.back().committed != progress.committed)
        p.committedSinceMs = progress.timeMs;
    p.samples.push(progress);
}

LagHistory::Ends LagHistory::ends(const TopicPartition &tp) const
{
    Ends view;
    const auto it = m_ends.constFind(tp);
    if (it == m_ends.cend() || it->fine.empty())
        return view;
    view.m_fine = &it->fine;
    view.m_coarse = &it->coarse;
    const qint64 fineStart = it->fine.front().timeMs;
    while (view.m_olderCoarse < it->coarse.size() && it->coarse[view.m_olderCoarse].timeMs < fineStart)
        ++view.m_olderCoarse;
    return view;
}

qint64 LagHistory::timeOfOffset(const TopicPartition &tp, qint64 offset) const
{
    const Ends points = ends(tp);
    if (points.empty())
        return -1;
    // The record at `offset` was appended when the end offset moved from <= offset to > offset.
    if (points.front().offset > offset)
        return -1; // older than what we remember: the caller peeks at the record instead
    // The first point past `offset`, found by bisection: the offsets never go back within the history.
    int lo = 1, hi = points.size();
    while (lo < hi) {
        const int mid = (lo + hi) / 2;
        if (points[mid].offset > offset)
            hi = mid;
        else
            lo = mid + 1;
    }
    if (lo >= points.size())
        return -1; // not produced yet as far as the history knows
    const Point &a = points[lo - 1];
    const Point &b = points[lo];
    const double fraction = double(offset - a.offset + 1) / double(b.offset - a.offset);
    return a.timeMs + qint64(fraction * double(b.timeMs - a.timeMs));
}

const LagHistory::GroupProgress &LagHistory::progress(const QString &group, const TopicPartition &tp) const
{
    static const GroupProgress empty;
    const auto it = m_progress.constFind({group, tp});
    return it == m_progress.cend() ? empty : *it;
}

void LagHistory::retainOnly(const QSet<TopicPartition> &partitions,
                            const QSet<QPair<QString, TopicPartition>> &groupPartitions)
{
    m_ends.removeIf([&](const auto &it) { return !partitions.contains(it.key()); });
    if (m_progress.removeIf([&](const auto &it) { return !groupPartitions.contains(it.key()); }) > 0) {
        QHash<QString, QStringList> topics;
        for (auto it = m_progress.cbegin(); it != m_progress.cend(); ++it) {
            QStringList &list = topics[it.key().first];
            if (!list.contains(it.key().second.topic))
                list.append(it.key().second.topic);
        }
        m_groupTopics.swap(topics);
    }
}
