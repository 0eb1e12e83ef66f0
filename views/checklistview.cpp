#include "checklistview.h"

#include "views/tablecolumns.h"
#include "wrappinglabel.h"

#include "models/checklistmodel.h"

#include <QCheckBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSaveFile>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace {
// Hides answered questions when asked to: the review looks at the gaps.
class ProblemsFilter final : public QSortFilterProxyModel {
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;
    void setOnlyProblems(bool on)
    {
        m_only = on;
        invalidateFilter();
    }

protected:
    bool filterAcceptsRow(int row, const QModelIndex &parent) const override
    {
        return !m_only
            || sourceModel()->index(row, 0, parent).data(ChecklistModel::VerdictRole).toInt()
                   != int(ChecklistItem::Verdict::Answered);
    }

private:
    bool m_only = false;
};
}

ChecklistView::ChecklistView(ChecklistModel *model, QWidget *parent)
    : QWidget(parent)
    , m_model(model)
    , m_table(new QTableView(this))
    , m_summary(new WrappingLabel(this))
{
    auto *filter = new ProblemsFilter(this);
    filter->setSourceModel(m_model);
    m_table->setModel(filter);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    // The verdict beside the question, and the live evidence given whatever width is left: it is the
    // longest text and the reason this view exists.
    m_table->horizontalHeader()->moveSection(ChecklistModel::Verdict, ChecklistModel::Policy);
    // The questions are what a reviewer reads first: room for the longest of them.
    TableColumns::apply(m_table)->setMaxChars(ChecklistModel::Question, 60);
    m_summary->setTextFormat(Qt::PlainText);
    m_summary->setWordWrap(true);

    auto *only = new QCheckBox(tr("Only &problems"), this);
    auto *exportButton = new QPushButton(tr("Export &markdown…"), this);
    auto *top = new QHBoxLayout;
    top->addWidget(m_summary, 1);
    top->addWidget(only);
    top->addWidget(exportButton);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_table, 1);

    connect(only, &QCheckBox::toggled, this, [filter](bool on) { filter->setOnlyProblems(on); });
    const auto updateSummary = [this] { m_summary->setText(m_model->summary()); };
    connect(m_model, &QAbstractItemModel::modelReset, this, updateSummary);
    connect(m_model, &QAbstractItemModel::dataChanged, this, updateSummary);
    updateSummary();
    connect(exportButton, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export checklist"), u"consumer-checklist.md"_s,
                                                          tr("Markdown (*.md)"));
        QString error;
        if (!path.isEmpty() && !exportMarkdown(path, &error))
            QMessageBox::warning(this, tr("Export checklist"), tr("Could not write %1: %2").arg(path, error));
    });
}

bool ChecklistView::exportMarkdown(const QString &path, QString *error) const
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        *error = file.errorString();
        return false;
    }
    file.write(checklistMarkdown(m_model->checklists(), m_policySource).toUtf8());
    if (!file.commit()) {
        *error = file.errorString();
        return false;
    }
    return true;
}
