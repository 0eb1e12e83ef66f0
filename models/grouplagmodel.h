#pragma once

#include "services/monitor/lagsnapshot.h"

#include <QAbstractTableModel>

// One row per consumer group: the worst partition's status, total lag, worst time lag.
class GroupLagModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Group, Status, Lag, MaxTimeLag, LagSlo, TimeToClear, Topics, Partitions, ColumnCount };
    static constexpr int SortRole = Qt::UserRole + 1;

    explicit GroupLagModel(QObject *parent = nullptr);
    void setSnapshot(const LagSnapshot &snapshot);
    QString groupAt(int row) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<GroupLag> m_rows;
};
