#include "grouplagmodel.h"

#include "displayformat.h"

#include <QBrush>

#include <limits>

GroupLagModel::GroupLagModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void GroupLagModel::setSnapshot(const LagSnapshot &snapshot)
{
    const bool sameGroups = snapshot.groupRows.size() == m_rows.size()
                         && std::equal(m_rows.cbegin(), m_rows.cend(), snapshot.groupRows.cbegin(),
                                       [](const GroupLag &a, const GroupLag &b) { return a.group == b.group; });
    if (sameGroups) {
        m_rows = snapshot.groupRows;
        if (!m_rows.isEmpty())
            Q_EMIT dataChanged(index(0, Status), index(rowCount() - 1, ColumnCount - 1));
        return;
    }
    beginResetModel();
    m_rows = snapshot.groupRows;
    endResetModel();
}

QString GroupLagModel::groupAt(int row) const
{
    return row >= 0 && row < m_rows.size() ? m_rows.at(row).group : QString();
}

int GroupLagModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int GroupLagModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant GroupLagModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const GroupLag &g = m_rows.at(index.row());
    switch (role) {
    case SortRole:
        switch (index.column()) {
        case Group: return g.group;
        case Status: return int(g.status);
        case Lag: return g.lag;
        case MaxTimeLag: return g.maxTimeLagMs;
        case LagSlo: return g.lagSloMs;
        case TimeToClear: return g.timeToClearS < 0 ? std::numeric_limits<qint64>::max() : g.timeToClearS;
        case Topics: return g.topics.join(u", ");
        case Partitions: return g.partitions;
        }
        return {};
    case Qt::DisplayRole:
        switch (index.column()) {
        case Group: return g.group;
        case Status: return lagStatusName(g.status);
        case Lag: return DisplayFormat::count(g.lag);
        case MaxTimeLag: return DisplayFormat::duration(g.maxTimeLagMs);
        case LagSlo:
            if (g.lagSloMs < 0)
                return tr("none");
            // Seed 002's S = 60 s where the policy states none, said as the default.
            return g.lagSloStated ? DisplayFormat::duration(g.lagSloMs)
                                  : tr("%1 (default)").arg(DisplayFormat::duration(g.lagSloMs));
        case TimeToClear:
            return DisplayFormat::timeToClear(g.clearing, g.timeToClearS);
        case Topics: return g.topics.join(u", ");
        case Partitions: return g.partitions;
        }
        return {};
    case Qt::ForegroundRole:
        if (index.column() == Status)
            return QBrush(DisplayFormat::statusColor(g.status));
        return {};
    case Qt::ToolTipRole:
        if (index.column() == LagSlo)
            return g.lagSloStated ? tr("OK while the time lag is within the policy's lagSlo.maxLagSeconds.")
                                  : tr("The policy states no lagSlo.maxLagSeconds for this group: the default "
                                       "applies.");
        return index.column() == Status || index.column() == Group ? g.statusReason : QVariant();
    case Qt::TextAlignmentRole:
        if (index.column() == Lag || index.column() == MaxTimeLag || index.column() == LagSlo
            || index.column() == TimeToClear || index.column() == Partitions)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    }
    return {};
}

QVariant GroupLagModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Group: return tr("Group");
    case Status: return tr("Status");
    case Lag: return tr("Lag (msgs)");
    case MaxTimeLag: return tr("Max time lag");
    case LagSlo: return tr("Lag SLO");
    case TimeToClear: return tr("Time to clear");
    case Topics: return tr("Topics");
    case Partitions: return tr("Partitions");
    }
    return {};
}
