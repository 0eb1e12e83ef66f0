#include "lagtablemodel.h"

#include "displayformat.h"

#include <QBrush>
#include <QColor>
#include <QLocale>

#include <limits>

LagTableModel::LagTableModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

bool LagTableModel::sameKeys(const QList<PartitionLag> &a, const QList<PartitionLag> &b)
{
    if (a.size() != b.size())
        return false;
    for (qsizetype i = 0; i < a.size(); ++i) {
        if (a[i].partition != b[i].partition || a[i].topic != b[i].topic || a[i].group != b[i].group)
            return false;
    }
    return true;
}

void LagTableModel::setSnapshot(const LagSnapshot &snapshot)
{
    // The same partitions as before (the usual case on a fixed clock): one dataChanged over the numbers,
    // so selection and scroll position survive. Otherwise the set changed: reset.
    if (sameKeys(m_snapshot.rows, snapshot.rows)) {
        m_snapshot = snapshot;
        if (!m_snapshot.rows.isEmpty())
            Q_EMIT dataChanged(index(0, Status), index(rowCount() - 1, ColumnCount - 1));
        return;
    }
    beginResetModel();
    m_snapshot = snapshot;
    endResetModel();
}

int LagTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_snapshot.rows.size());
}

int LagTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant LagTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const PartitionLag &row = m_snapshot.rows.at(index.row());
    if (role == SortRole) {
        switch (index.column()) {
        case Group: return row.group;
        case Topic: return row.topic;
        case Partition: return row.partition;
        case Committed: return row.committed;
        case End: return row.end;
        case Lag: return row.lag;
        case Status: return int(row.status);
        case TimeLag: return row.timeLagMs;
        case Measured: return int(row.timeLagMethod);
        case TimeToClear: return row.timeToClearS < 0 ? std::numeric_limits<qint64>::max() : row.timeToClearS;
        }
        return {};
    }
    if (role == Qt::DisplayRole) {
        const QLocale locale;
        switch (index.column()) {
        case Group: return row.group;
        case Topic: return row.topic;
        case Partition: return row.partition;
        case Committed: return row.committed < 0 ? tr("none") : locale.toString(row.committed);
        case End: return row.end < 0 ? tr("unknown") : locale.toString(row.end);
        case Lag: return row.flags & PartitionLag::EndUnknown ? tr("unknown") : locale.toString(row.lag);
        case Status: return lagStatusName(row.status);
        case TimeLag: return DisplayFormat::duration(row.timeLagMs);
        case Measured:
            // timeLagMethodName() is the machine-readable word (JSON); this is the shown one.
            switch (row.timeLagMethod) {
            case PartitionLag::TimeLagMethod::CaughtUp:
                return tr("caught-up");
            case PartitionLag::TimeLagMethod::Interpolated:
                return tr("interpolated");
            case PartitionLag::TimeLagMethod::Peeked:
                return tr("peeked");
            case PartitionLag::TimeLagMethod::BehindMarkers:
                return tr("caught-up (markers)");
            case PartitionLag::TimeLagMethod::Unknown:
                break;
            }
            return tr("unknown");
        case TimeToClear:
            return DisplayFormat::timeToClear(row.clearing, row.timeToClearS);
        }
        return {};
    }
    if (role == Qt::ForegroundRole && index.column() == Status)
        return QBrush(DisplayFormat::statusColor(row.status));
    if (role == Qt::ToolTipRole && index.column() == Status)
        return row.statusReason;
    if (role == Qt::ToolTipRole && (index.column() == TimeLag || index.column() == Measured)) {
        switch (row.timeLagMethod) {
        case PartitionLag::TimeLagMethod::CaughtUp: return tr("Committed offset equals the end offset: zero, exactly.");
        case PartitionLag::TimeLagMethod::Interpolated:
            return tr("When the next record to read was appended, interpolated over this partition's own end-offset history.");
        case PartitionLag::TimeLagMethod::Peeked: return tr("The timestamp of the record at the committed offset, read directly.");
        case PartitionLag::TimeLagMethod::BehindMarkers:
            return tr("Caught up: only transaction markers follow the last record; the offsets they take are never handed to a consumer.");
        case PartitionLag::TimeLagMethod::Unknown: return tr("Not measurable in this sample (no history yet, or the record could not be read).");
        }
    }
    if (role == Qt::TextAlignmentRole && index.column() >= Partition && index.column() != Status && index.column() != Measured)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && index.column() == Lag) {
        if (row.flags & PartitionLag::NoCommit)
            return tr("The group has not committed on this partition: lag is counted from the log start (%1).")
                .arg(row.start);
        if (row.flags & PartitionLag::CommittedAhead)
            return tr("Committed offset %1 is past the end offset %2 (topic recreated or truncated?): shown as 0.")
                .arg(row.committed)
                .arg(row.end);
        if (row.flags & PartitionLag::EndUnknown)
            return tr("The end offset could not be read in this sample.");
        return tr("%1 messages between committed offset and end offset").arg(row.lag);
    }
    if (role == Qt::ForegroundRole && index.column() == Committed && row.committed < 0)
        return QBrush(QColor(0x88, 0x88, 0x88));
    return {};
}

QVariant LagTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Group: return tr("Group");
    case Topic: return tr("Topic");
    case Partition: return tr("Partition");
    case Committed: return tr("Committed");
    case End: return tr("End offset");
    case Lag: return tr("Lag (msgs)");
    case Status: return tr("Status");
    case TimeLag: return tr("Time lag");
    case Measured: return tr("Measured by");
    case TimeToClear: return tr("Time to clear");
    }
    return {};
}
