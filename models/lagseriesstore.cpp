#include "lagseriesstore.h"

#include <QDateTime>

#include <cmath>

LagSeriesStore::LagSeriesStore(QObject *parent)
    : QObject(parent)
{
}

void LagSeriesStore::setRetention(qint64 groupSeconds, qint64 partitionSeconds)
{
    m_groupRetentionS = groupSeconds;
    m_partitionRetentionS = partitionSeconds;
}

void LagSeriesStore::push(Series &s, double t, double v, double oldest)
{
    if (!s.keys.isEmpty() && t <= s.keys.constLast())
        return; // keys stay sorted: QCustomPlot is told so and skips its own sort
    s.keys.append(t);
    s.values.append(v);
    qsizetype drop = 0;
    while (drop < s.keys.size() && s.keys[drop] < oldest)
        ++drop;
    // Trim in chunks: removing from the front of a vector on every sample would copy it every time.
    if (drop > 64 || (drop > 0 && drop * 8 > s.keys.size())) {
        s.keys.remove(0, drop);
        s.values.remove(0, drop);
    }
}

void LagSeriesStore::setRateTopics(const QStringList &topics)
{
    m_rateTopics = topics;
}

void LagSeriesStore::pushCoarse(Series &s, double t, double v, double oldest)
{
    const double bucket = std::floor(t / 60.0) * 60.0;
    if (!s.keys.isEmpty() && s.keys.constLast() == bucket) {
        if (qIsNaN(s.values.last()) || v > s.values.last())
            s.values.last() = v;
        return;
    }
    push(s, bucket, v, oldest);
}

void LagSeriesStore::append(const LagSnapshot &snapshot)
{
    if (!snapshot.reachable)
        return;
    const double t = double(snapshot.takenAt.toMSecsSinceEpoch()) / 1000.0;
    const double groupOldest = t - double(m_groupRetentionS);
    const double partitionOldest = t - double(m_partitionRetentionS);
    for (const GroupLag &g : snapshot.groupRows) {
        Pair &p = m_groups[g.group];
        push(p.lag, t, double(g.lag), groupOldest);
        const double timeLag = g.maxTimeLagMs < 0 ? qQNaN() : double(g.maxTimeLagMs) / 1000.0;
        push(p.timeLag, t, timeLag, groupOldest);
        pushCoarse(p.lagCoarse, t, double(g.lag), groupOldest);
        pushCoarse(p.timeLagCoarse, t, timeLag, groupOldest);
    }
    for (const PartitionLag &r : snapshot.rows) {
        Pair &p = m_partitions[r.group][r.topic + u'[' + QString::number(r.partition) + u']'];
        push(p.lag, t, double(r.lag), partitionOldest);
        push(p.timeLag, t, r.timeLagMs < 0 ? qQNaN() : double(r.timeLagMs) / 1000.0, partitionOldest);
    }
    for (const QString &topic : std::as_const(m_rateTopics))
        push(m_sides[size_t(Side::DlqArrivals)][topic], t, snapshot.topicRatePerMinute.value(topic, 0.0), groupOldest);
    Q_EMIT appended();
}

QStringList LagSeriesStore::groups() const
{
    return m_groups.keys();
}

void LagSeriesStore::appendSide(Side side, const QString &name, const QDateTime &at, double value)
{
    const double t = double(at.toMSecsSinceEpoch()) / 1000.0;
    push(m_sides[size_t(side)][name], t, value, t - double(m_groupRetentionS));
    Q_EMIT appended();
}

LagSeriesStore::Series LagSeriesStore::groupSeries(const QString &group, Metric metric, bool coarse) const
{
    const Pair p = m_groups.value(group);
    if (coarse)
        return metric == Metric::LagMessages ? p.lagCoarse : p.timeLagCoarse;
    return metric == Metric::LagMessages ? p.lag : p.timeLag;
}

QMap<QString, LagSeriesStore::Series> LagSeriesStore::partitionSeries(const QString &group, Metric metric) const
{
    QMap<QString, Series> out;
    const auto partitions = m_partitions.value(group);
    for (auto it = partitions.cbegin(); it != partitions.cend(); ++it)
        out.insert(it.key(), metric == Metric::LagMessages ? it->lag : it->timeLag);
    return out;
}

QMap<QString, LagSeriesStore::Series> LagSeriesStore::sideSeries(Side side) const
{
    return m_sides[size_t(side)];
}
