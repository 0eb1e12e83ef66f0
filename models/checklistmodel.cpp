#include "checklistmodel.h"

#include <QBrush>
#include <QColor>

ChecklistModel::ChecklistModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void ChecklistModel::setChecklists(const QList<ConsumerChecklist> &checklists)
{
    QList<QPair<int, int>> rows;
    for (int c = 0; c < checklists.size(); ++c) {
        for (int i = 0; i < checklists[c].items.size(); ++i)
            rows.append({c, i});
    }
    bool sameShape = rows == m_rows && checklists.size() == m_checklists.size();
    for (int c = 0; sameShape && c < checklists.size(); ++c)
        sameShape = checklists[c].consumer == m_checklists[c].consumer;
    if (sameShape) {
        m_checklists = checklists;
        if (!m_rows.isEmpty())
            Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
        return;
    }
    beginResetModel();
    m_checklists = checklists;
    m_rows = rows;
    endResetModel();
}

QString ChecklistModel::summary() const
{
    if (m_checklists.isEmpty())
        return tr("No delivery policy is loaded: the checklist needs one (profile setting or --policy).");
    int missing = 0, contradicted = 0, caution = 0;
    for (const ConsumerChecklist &c : m_checklists) {
        missing += c.count(ChecklistItem::Verdict::Missing);
        contradicted += c.count(ChecklistItem::Verdict::Contradicted);
        caution += c.count(ChecklistItem::Verdict::Caution);
    }
    return tr("%n consumer(s): %1 answer(s) missing, %2 contradicted by live evidence, %3 to watch.", nullptr,
              int(m_checklists.size()))
        .arg(missing)
        .arg(contradicted)
        .arg(caution);
}

int ChecklistModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int ChecklistModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ChecklistModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const auto [c, i] = m_rows.at(index.row());
    const ConsumerChecklist &checklist = m_checklists.at(c);
    const ChecklistItem &item = checklist.items.at(i);
    switch (role) {
    case Qt::DisplayRole:
    case Qt::ToolTipRole: {
        QString text;
        switch (Column(index.column())) {
        case Consumer:
            text = checklist.consumer;
            break;
        case Question:
            text = item.question;
            break;
        case Policy:
            text = item.answer.isEmpty() && role == Qt::DisplayRole ? tr("— not stated —") : item.answer;
            break;
        case Evidence:
            text = item.evidence;
            break;
        case Verdict:
            text = verdictName(item.verdict);
            break;
        case ColumnCount:
            break;
        }
        if (role == Qt::ToolTipRole)
            return text.isEmpty() ? QVariant() : QVariant(Qt::convertFromPlainText(text, Qt::WhiteSpaceNormal));
        return text;
    }
    case Qt::ForegroundRole:
        if (index.column() == Verdict || (index.column() == Policy && item.verdict == ChecklistItem::Verdict::Missing)) {
            switch (item.verdict) {
            case ChecklistItem::Verdict::Answered:
                return QBrush(QColor(0x1e, 0x7b, 0x34));
            case ChecklistItem::Verdict::Missing:
                return QBrush(QColor(0x8a, 0x5a, 0x00));
            case ChecklistItem::Verdict::Contradicted:
                return QBrush(QColor(0xb0, 0x30, 0x20));
            case ChecklistItem::Verdict::Caution:
                return QBrush(QColor(0x6a, 0x4c, 0x93));
            }
        }
        return {};
    case VerdictRole:
        return int(item.verdict);
    default:
        return {};
    }
}

QVariant ChecklistModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (Column(section)) {
    case Consumer:
        return tr("Consumer");
    case Question:
        return tr("Question");
    case Policy:
        return tr("Policy says");
    case Evidence:
        return tr("Berth sees");
    case Verdict:
        return tr("Verdict");
    case ColumnCount:
        break;
    }
    return {};
}
