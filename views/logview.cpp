#include "logview.h"

#include "views/tablecolumns.h"

#include "models/logmodel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QScrollBar>
#include <QTableView>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

LogView::LogView(LogModel *model, QWidget *parent)
    : QWidget(parent)
    , m_model(model)
    , m_table(new QTableView(this))
{
    auto *level = new QComboBox(this);
    for (QtMsgType type : {QtDebugMsg, QtInfoMsg, QtWarningMsg, QtCriticalMsg})
        level->addItem(LogModel::levelName(type), int(type));
    level->setCurrentIndex(1);
    auto *area = new QLineEdit(this);
    area->setPlaceholderText(tr("Area (berth.kafka, berth.inbox…)"));
    area->setClearButtonEnabled(true);
    auto *top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Level at least:"), this));
    top->addWidget(level);
    top->addWidget(area, 1);

    m_table->setModel(m_model);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 4);
    m_table->setWordWrap(false);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    TableColumns::apply(m_table);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(m_table, 1);

    connect(level, &QComboBox::currentIndexChanged, this,
            [this, level] { m_model->setMinimumType(QtMsgType(level->currentData().toInt())); });
    connect(area, &QLineEdit::textChanged, m_model, &LogModel::setCategoryFilter);
    // Follow the newest line unless the operator scrolled up to read.
    connect(m_model, &QAbstractItemModel::rowsInserted, this, [this] {
        QScrollBar *bar = m_table->verticalScrollBar();
        if (bar->value() >= bar->maximum() - 2)
            QMetaObject::invokeMethod(m_table, &QTableView::scrollToBottom, Qt::QueuedConnection);
    });
}
