#include "alertview.h"

#include "models/alertmodel.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

AlertView::AlertView(QAbstractItemModel *model, QWidget *parent)
    : QWidget(parent)
    , m_table(new QTableView(this))
    , m_acknowledge(new QPushButton(tr("&Acknowledge"), this))
{
    m_table->setModel(model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(AlertModel::Message, QHeaderView::Stretch);
    m_table->horizontalHeader()->setSectionResizeMode(AlertModel::Fired, QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(AlertModel::State, QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(AlertModel::Rule, QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(AlertModel::Subject, QHeaderView::ResizeToContents);
    m_acknowledge->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_K));
    m_acknowledge->setToolTip(tr("Acknowledge the selected alerts (Ctrl+K)"));

    auto *hint = new QLabel(tr("Alerts fire when a condition holds for a sustained time and clear only after it has "
                               "been back to normal for a while."),
                            this);
    hint->setWordWrap(true);
    auto *top = new QHBoxLayout;
    top->addWidget(hint, 1);
    top->addWidget(m_acknowledge);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_table, 1);

    connect(m_acknowledge, &QPushButton::clicked, this, [this] {
        const auto rows = m_table->selectionModel()->selectedRows();
        for (const QModelIndex &row : rows)
            Q_EMIT acknowledgeRequested(row.data(AlertModel::AlertIdRole).toULongLong());
    });
}
