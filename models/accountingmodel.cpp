#include "models/accountingmodel.h"

#include <QBrush>
#include <QColor>
#include <QDateTime>

using namespace Qt::StringLiterals;

AccountingModel::AccountingModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void AccountingModel::setResult(const AccountingResultPtr &result)
{
    beginResetModel();
    m_result = result;
    rebuild();
    endResetModel();
}

void AccountingModel::setClasses(const QSet<AccountClass> &classes)
{
    beginResetModel();
    m_classes = classes;
    rebuild();
    endResetModel();
}

void AccountingModel::rebuild()
{
    m_rows.clear();
    m_rows.shrink_to_fit();
    m_all = m_result && (m_classes.isEmpty() || m_classes.size() == AccountClassCount);
    if (!m_result || m_all)
        return; // every record, row for row: no index to build
    for (size_t i = 0; i < m_result->records.size(); ++i) {
        if (m_classes.contains(m_result->records[i].cls))
            m_rows.push_back(quint32(i));
    }
}

const AccountedRecord *AccountingModel::recordAt(int row) const
{
    if (row < 0 || !m_result)
        return nullptr;
    if (m_all)
        return size_t(row) < m_result->records.size() ? &m_result->records[size_t(row)] : nullptr;
    return size_t(row) < m_rows.size() ? &m_result->records[m_rows[size_t(row)]] : nullptr;
}

AccountedRecordFields AccountingModel::fields(int row) const
{
    const AccountedRecord *r = recordAt(row);
    return r ? AccountedRecordFields::from(*m_result, size_t(r - m_result->records.data())) : AccountedRecordFields{};
}

QMap<qint64, qint64> AccountingModel::perMinute(AccountClass c) const
{
    QMap<qint64, qint64> out;
    if (!m_result)
        return out;
    for (const auto &[minute, counts] : m_result->minutes) {
        if (counts[size_t(c)])
            out.insert(minute, counts[size_t(c)]);
    }
    return out;
}

QString AccountingModel::className(AccountClass c)
{
    switch (c) {
    case AccountClass::Processed:
        return tr("Processed");
    case AccountClass::Duplicate:
        return tr("Duplicate");
    case AccountClass::InFlight:
        return tr("In flight");
    case AccountClass::DeadLettered:
        return tr("Dead-lettered");
    case AccountClass::Parked:
        return tr("Parked");
    case AccountClass::Skipped:
        return tr("Skipped");
    case AccountClass::NotConsumed:
        return tr("Not consumed");
    case AccountClass::Aborted:
        return tr("Aborted");
    case AccountClass::Unaccounted:
        return tr("Unaccounted");
    }
    return {};
}

QString AccountingModel::noteText(quint16 notes)
{
    return AccountNote::names(notes).join(u", "_s);
}

int AccountingModel::rowCount(const QModelIndex &parent) const
{
    if (parent.isValid() || !m_result)
        return 0;
    return int(m_all ? m_result->records.size() : m_rows.size());
}

int AccountingModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant AccountingModel::data(const QModelIndex &index, int role) const
{
    const AccountedRecord *r = index.isValid() ? recordAt(index.row()) : nullptr;
    if (!r)
        return {};
    if (role == ClassRole)
        return int(r->cls);
    if (role == Qt::ForegroundRole && index.column() == ClassColumn && r->cls == AccountClass::Unaccounted)
        return QBrush(QColor(0xb0, 0x20, 0x20));
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (Column(index.column())) {
    case ClassColumn:
        return className(r->cls);
    case PartitionColumn:
        return r->partition;
    case OffsetColumn:
        return r->offset;
    case TimeColumn:
        return r->timestampMs >= 0 ? QDateTime::fromMSecsSinceEpoch(r->timestampMs, Qt::UTC)
                                         .toLocalTime()
                                         .toString(u"yyyy-MM-dd HH:mm:ss.zzz"_s)
                                   : QString();
    case KeyColumn:
        return m_result->recordKeyText(r->recordKey);
    case IdempotencyKeyColumn:
        return m_result->idempotencyKeyText(r->idempotencyKey);
    case SequenceColumn:
        return r->sequence != AccountedRecord::NoSequence ? QVariant(r->sequence) : QVariant();
    case NotesColumn:
        return noteText(r->notes);
    case ColumnCount:
        break;
    }
    return {};
}

QVariant AccountingModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (Column(section)) {
    case ClassColumn:
        return tr("Class");
    case PartitionColumn:
        return tr("Partition");
    case OffsetColumn:
        return tr("Offset");
    case TimeColumn:
        return tr("Time (local)");
    case KeyColumn:
        return tr("Key");
    case IdempotencyKeyColumn:
        return tr("Idempotency key");
    case SequenceColumn:
        return tr("Sequence");
    case NotesColumn:
        return tr("Notes");
    case ColumnCount:
        break;
    }
    return {};
}
