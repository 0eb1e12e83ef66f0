#pragma once

#include "services/monitor/alertengine.h"

#include <QAbstractTableModel>

// The alert list: newest first, active ones highlighted, acknowledged and snoozed ones dimmed. Each row
// carries the view that shows its evidence (ViewRole) and the subject to show there (SubjectRole).
class AlertModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Fired, State, Rule, Subject, Owner, Message, Cleared, ColumnCount };
    static constexpr int AlertIdRole = Qt::UserRole + 1;
    static constexpr int ViewRole = Qt::UserRole + 2;
    static constexpr int SubjectRole = Qt::UserRole + 3;
    static constexpr int ActiveRole = Qt::UserRole + 4;

    explicit AlertModel(QObject *parent = nullptr);
    void setAlerts(const QList<Alert> &alerts);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<Alert> m_alerts;
};
