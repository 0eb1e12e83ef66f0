#include "alertview.h"

#include "views/tablecolumns.h"

#include "models/alertmodel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QTreeWidget>
#include <QVBoxLayout>

AlertView::AlertView(QAbstractItemModel *model, QWidget *parent)
    : QWidget(parent)
    , m_table(new QTableView(this))
    , m_acknowledge(new QPushButton(tr("&Acknowledge"), this))
    , m_evidence(new QPushButton(tr("Show &evidence"), this))
    , m_duration(new QComboBox(this))
    , m_reason(new QLineEdit(this))
    , m_snooze(new QPushButton(tr("&Snooze"), this))
    , m_thresholds(new QTreeWidget(this))
{
    m_table->setModel(model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->verticalHeader()->hide();
    m_table->setWordWrap(false);
    TableColumns::apply(m_table)->setMaxChars(AlertModel::Message, 80);
    m_acknowledge->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_K));
    m_acknowledge->setToolTip(tr("Acknowledge the selected alerts (Ctrl+K)"));
    m_evidence->setToolTip(tr("Open the view that shows the selected alert's evidence"));
    for (const int minutes : {15, 60, 240, 1440})
        m_duration->addItem(minutes < 60 ? tr("%n minute(s)", nullptr, minutes) : tr("%n hour(s)", nullptr, minutes / 60),
                            minutes);
    m_duration->setCurrentIndex(1);
    m_reason->setPlaceholderText(tr("Why (required), e.g. replay INC-42 in progress"));
    m_reason->setClearButtonEnabled(true);
    m_snooze->setToolTip(tr("Silence the selected alerts' notifications, and any new alert of the same rule and "
                            "subject, for the chosen time; the reason is kept with the alert"));

    auto *hint = new QLabel(tr("Alerts fire when a condition holds for its rule's sustained time and clear only "
                               "after it has been back to normal for a while."),
                            this);
    hint->setWordWrap(true);
    auto *top = new QHBoxLayout;
    top->addWidget(hint, 1);
    top->addWidget(m_evidence);
    top->addWidget(m_acknowledge);
    auto *snoozeRow = new QHBoxLayout;
    snoozeRow->addWidget(new QLabel(tr("Snooze for"), this));
    snoozeRow->addWidget(m_duration);
    snoozeRow->addWidget(m_reason, 1);
    snoozeRow->addWidget(m_snooze);

    m_thresholds->setColumnCount(4);
    m_thresholds->setHeaderLabels({tr("Rule"), tr("Subject"), tr("Threshold"), tr("From")});
    m_thresholds->setRootIsDecorated(false);
    m_thresholds->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_thresholds->header()->setStretchLastSection(false);
    m_thresholds->header()->setSectionResizeMode(2, QHeaderView::Stretch);
    auto *thresholdsBox = new QWidget(this);
    auto *thresholdsLayout = new QVBoxLayout(thresholdsBox);
    thresholdsLayout->setContentsMargins(0, 0, 0, 0);
    thresholdsLayout->addWidget(new QLabel(tr("Thresholds (from the delivery policy where it states them):"), thresholdsBox));
    thresholdsLayout->addWidget(m_thresholds);

    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_table);
    split->addWidget(thresholdsBox);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addLayout(snoozeRow);
    layout->addWidget(split, 1);

    connect(m_acknowledge, &QPushButton::clicked, this, [this] {
        for (const quint64 id : selectedIds(false))
            Q_EMIT acknowledgeRequested(id);
    });
    connect(m_snooze, &QPushButton::clicked, this, [this] {
        const QString reason = m_reason->text().trimmed();
        for (const quint64 id : selectedIds(true))
            Q_EMIT snoozeRequested(id, m_duration->currentData().toInt(), reason);
        m_reason->clear();
    });
    auto showEvidence = [this] {
        const QModelIndex current = m_table->selectionModel()->currentIndex();
        if (!current.isValid())
            return;
        const QString view = current.data(AlertModel::ViewRole).toString();
        if (!view.isEmpty())
            Q_EMIT evidenceRequested(view, current.data(AlertModel::SubjectRole).toString());
    };
    connect(m_evidence, &QPushButton::clicked, this, showEvidence);
    connect(m_table, &QTableView::doubleClicked, this, showEvidence);
    connect(m_reason, &QLineEdit::textChanged, this, &AlertView::updateButtons);
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, &AlertView::updateButtons);
    connect(model, &QAbstractItemModel::modelReset, this, &AlertView::updateButtons);
    updateButtons();
}

QList<quint64> AlertView::selectedIds(bool activeOnly) const
{
    QList<quint64> ids;
    for (const QModelIndex &row : m_table->selectionModel()->selectedRows()) {
        if (!activeOnly || row.data(AlertModel::ActiveRole).toBool())
            ids << row.data(AlertModel::AlertIdRole).toULongLong();
    }
    return ids;
}

void AlertView::updateButtons()
{
    const bool selected = m_table->selectionModel()->hasSelection();
    m_acknowledge->setEnabled(selected);
    m_evidence->setEnabled(selected);
    // A snooze nobody can explain later is how pages get lost: no reason, no snooze.
    m_snooze->setEnabled(!selectedIds(true).isEmpty() && !m_reason->text().trimmed().isEmpty());
}

void AlertView::setThresholds(const QList<AlertThreshold> &thresholds)
{
    m_thresholds->clear();
    for (const AlertThreshold &t : thresholds)
        new QTreeWidgetItem(m_thresholds, {t.rule, t.subject, t.text, t.source});
}
