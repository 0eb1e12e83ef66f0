#pragma once

#include "services/monitor/lagsnapshot.h"

#include <QAbstractTableModel>

// The lag table: one row per group partition of the latest sample.
class LagTableModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Group, Topic, Partition, Status, Committed, End, Lag, TimeLag, Measured, TimeToClear, ColumnCount };
    // Raw numbers for sorting; DisplayRole is formatted.
    static constexpr int SortRole = Qt::UserRole + 1;

    explicit LagTableModel(QObject *parent = nullptr);

    void setSnapshot(const LagSnapshot &snapshot);
    const LagSnapshot &snapshot() const { return m_snapshot; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    static bool sameKeys(const QList<PartitionLag> &a, const QList<PartitionLag> &b);
    LagSnapshot m_snapshot;
};
