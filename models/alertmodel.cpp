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
    const bool snoozed = a.isActive() && a.isSnoozed(QDateTime::currentMSecsSinceEpoch());
    switch (role) {
    case AlertIdRole: return a.id;
    case ViewRole: return a.view;
    case SubjectRole: return a.subject;
    case ActiveRole: return a.isActive();
    case Qt::DisplayRole:
        switch (index.column()) {
        case Fired: return locale.toString(a.firedAt.toLocalTime(), QLocale::ShortFormat);
        case State:
            if (!a.isActive())
                return tr("cleared");
            if (snoozed)
                return tr("snoozed until %1").arg(locale.toString(a.snoozedUntil.toLocalTime().time(), QLocale::ShortFormat));
            return a.acknowledged ? tr("active, acknowledged") : tr("ACTIVE");
        case Rule: return a.rule;
        case Subject: return a.subject;
        case Owner: return a.owner.isEmpty() ? tr("no owner stated") : a.owner;
        case Message: return a.note.isEmpty() ? a.message : tr("%1 — %2").arg(a.note.toUpper(), a.message);
        case Cleared: return a.clearedAt.isValid() ? locale.toString(a.clearedAt.toLocalTime(), QLocale::ShortFormat) : QString();
        }
        return {};
    case Qt::ForegroundRole:
        if (!a.isActive() || a.acknowledged || snoozed)
            return QBrush(QColor(0x80, 0x80, 0x80));
        if (index.column() == Owner && a.owner.isEmpty())
            return QBrush(QColor(0xc6, 0x28, 0x28)); // seed 000 §17: a DLQ with no owner is the problem
        return index.column() == State ? QBrush(QColor(0xc6, 0x28, 0x28)) : QVariant();
    case Qt::FontRole:
        if (a.isActive() && !a.acknowledged && !snoozed) {
            QFont bold;
            bold.setBold(true);
            return bold;
        }
        return {};
    case Qt::ToolTipRole: {
        QString tip = a.message;
        if (!a.note.isEmpty())
            tip += u'\n' + tr("Note: %1").arg(a.note);
        if (a.snoozedUntil.isValid())
            tip += u'\n' + tr("Snoozed until %1: %2")
                               .arg(locale.toString(a.snoozedUntil.toLocalTime(), QLocale::ShortFormat), a.snoozeReason);
        if (!a.view.isEmpty())
            tip += u'\n' + tr("Double-click to open the evidence.");
        return tip;
    }
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
    case Owner: return tr("Owner");
    case Message: return tr("Evidence");
    case Cleared: return tr("Cleared");
    }
    return {};
}
