#include "alertmodel.h"

#include <QBrush>
#include <QColor>
#include <QFont>
#include <QLocale>

AlertModel::AlertModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void AlertModel::setAlerts(const QList<Alert> &alerts)
{
    beginResetModel(); // a handful of rows; resetting is simpler than diffing and cheap
    m_alerts = alerts;
    endResetModel();
}

int AlertModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_alerts.size());
}

int AlertModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant AlertModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Alert &a = m_alerts.at(index.row());
    const QLocale locale;
    switch (role) {
    case AlertIdRole: return a.id;
    case Qt::DisplayRole:
        switch (index.column()) {
        case Fired: return locale.toString(a.firedAt.toLocalTime(), QLocale::ShortFormat);
        case State:
            return a.isActive() ? (a.acknowledged ? tr("active, acknowledged") : tr("ACTIVE")) : tr("cleared");
        case Rule: return a.rule;
        case Subject: return a.subject;
        case Message: return a.message;
        case Cleared: return a.clearedAt.isValid() ? locale.toString(a.clearedAt.toLocalTime(), QLocale::ShortFormat) : QString();
        }
        return {};
    case Qt::ForegroundRole:
        if (!a.isActive() || a.acknowledged)
            return QBrush(QColor(0x80, 0x80, 0x80));
        return index.column() == State ? QBrush(QColor(0xc6, 0x28, 0x28)) : QVariant();
    case Qt::FontRole:
        if (a.isActive() && !a.acknowledged) {
            QFont bold;
            bold.setBold(true);
            return bold;
        }
        return {};
    case Qt::ToolTipRole: return a.message;
    }
    return {};
}

QVariant AlertModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Fired: return tr("Fired");
    case State: return tr("State");
    case Rule: return tr("Rule");
    case Subject: return tr("Subject");
    case Message: return tr("What is wrong");
    case Cleared: return tr("Cleared");
    }
    return {};
}
