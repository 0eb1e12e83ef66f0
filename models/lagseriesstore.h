#pragma once

#include "services/monitor/lagsnapshot.h"

#include <QHash>
#include <QObject>
#include <QVector>

#include <array>

class QDateTime;

// Time series for the charts, kept from the samples as they arrive: per group, per group partition, and the
// side figures (DLQ arrivals, duplicates, inbox failures). Bounded by age, so a console left open for days
// stays small.
class LagSeriesStore final : public QObject {
    Q_OBJECT
public:
    enum class Metric { LagMessages, TimeLagSeconds };
    // The lower chart's families. Each holds named series (a topic, a consumer).
    enum class Side { DlqArrivals, Duplicates, InboxFailures };
    static constexpr int SideCount = 3;
    struct Series {
        QVector<double> keys;   // seconds since the epoch, ascending
        QVector<double> values;
    };
    explicit LagSeriesStore(QObject *parent = nullptr);

    void setRetention(qint64 groupSeconds, qint64 partitionSeconds);
    void setRateTopics(const QStringList &topics); // which topics' arrival rates are kept (the DLQs)
    void append(const LagSnapshot &snapshot);
    // One point of a side series measured elsewhere (duplicate tail, inbox board); emits appended().
    void appendSide(Side side, const QString &name, const QDateTime &at, double value);

    QStringList groups() const;
    // coarse: one point per minute holding that minute's maximum (peaks survive), for long ranges.
    Series groupSeries(const QString &group, Metric metric, bool coarse = false) const;
    QMap<QString, Series> partitionSeries(const QString &group, Metric metric) const; // key: "topic[p]"
    QMap<QString, Series> sideSeries(Side side) const;

Q_SIGNALS:
    void appended();

private:
    struct Pair {
        Series lag;
        Series timeLag;
        Series lagCoarse;
        Series timeLagCoarse;
    };
    static void push(Series &s, double t, double v, double oldest);
    static void pushCoarse(Series &s, double t, double v, double oldest);
    QMap<QString, Pair> m_groups;
    QHash<QString, QMap<QString, Pair>> m_partitions;
    std::array<QMap<QString, Series>, SideCount> m_sides;
    QStringList m_rateTopics;
    qint64 m_groupRetentionS = 24 * 3600;
    qint64 m_partitionRetentionS = 2 * 3600;
};
