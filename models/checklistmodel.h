#pragma once

#include "services/policy/consumerchecklist.h"

#include <QAbstractTableModel>

// The consumer checklist as one table: a row per (consumer, question), answers and evidence as plain text.
// Updates in place while the set of rows stays the same, so selection and scrolling survive new evidence.
class ChecklistModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Consumer, Question, Policy, Evidence, Verdict, ColumnCount };
    static constexpr int VerdictRole = Qt::UserRole + 1; // int(ChecklistItem::Verdict)

    explicit ChecklistModel(QObject *parent = nullptr);

    void setChecklists(const QList<ConsumerChecklist> &checklists);
    const QList<ConsumerChecklist> &checklists() const { return m_checklists; }
    QString summary() const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<ConsumerChecklist> m_checklists;
    QList<QPair<int, int>> m_rows; // (checklist, item)
};
