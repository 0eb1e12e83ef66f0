#pragma once

#include "services/dlq/failuregroups.h"

#include <QAbstractTableModel>

// The failure groups of the current scan, one row per group in the order they appeared (views sort by
// count through a proxy with SortRole). Updated from each scan batch's changed groups.
class FailureGroupModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Count, Exception, Cause, Pattern, FirstSeen, LastSeen, Trend, Poison, ColumnCount };
    static constexpr int GroupIdRole = Qt::UserRole + 1;
    static constexpr int SortRole = Qt::UserRole + 2;
    static constexpr int TrendMinutes = 30;

    explicit FailureGroupModel(QObject *parent = nullptr);

    void clear();
    void updateGroups(const QList<FailureGroup> &changed);
    void updatePoison(const QList<PoisonMessage> &changed);

    const FailureGroup *group(quint32 id) const;
    const QList<PoisonMessage> &poisonMessages() const { return m_poison; }
    qint64 totalRecords() const { return m_total; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // Per-minute counts of the last `minutes` minutes up to `lastMinute`, as block characters.
    static QString sparkline(const QMap<qint64, qint32> &perMinute, qint64 lastMinute, int minutes);

private:
    QList<FailureGroup> m_groups; // index = group id
    QList<PoisonMessage> m_poison;
    QHash<QString, qsizetype> m_poisonIndex;
    qint64 m_total = 0;
    qint64 m_lastMinute = 0; // newest minute seen in any group: trends share one time axis
};
