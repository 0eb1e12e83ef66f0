#include "lagview.h"

#include "models/lagtablemodel.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

LagView::LagView(QAbstractItemModel *model, QWidget *parent)
    : QWidget(parent)
    , m_filter(new QLineEdit(this))
    , m_summary(new QLabel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_table(new QTableView(this))
{
    m_filter->setPlaceholderText(tr("Filter by group or topic (Ctrl+F)"));
    m_filter->setClearButtonEnabled(true);
    m_summary->setTextFormat(Qt::PlainText);
    m_proxy->setSourceModel(model);
    m_proxy->setSortRole(LagTableModel::SortRole);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_proxy->setFilterKeyColumn(-1);
    m_proxy->setDynamicSortFilter(true);
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);

    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(LagTableModel::Lag, Qt::DescendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setAlternatingRowColors(true);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 8);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->setColumnWidth(LagTableModel::Group, 180);
    m_table->setColumnWidth(LagTableModel::Topic, 150);

    auto *top = new QHBoxLayout;
    top->addWidget(m_filter, 1);
    top->addWidget(m_summary);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_table, 1);
}

void LagView::setSummary(const QString &text)
{
    m_summary->setText(text);
}

void LagView::focusFilter()
{
    m_filter->setFocus();
    m_filter->selectAll();
}

QByteArray LagView::saveHeaderState() const
{
    return m_table->horizontalHeader()->saveState();
}

void LagView::restoreHeaderState(const QByteArray &state)
{
    if (!state.isEmpty())
        m_table->horizontalHeader()->restoreState(state);
}
