#include "lagview.h"

#include "elidedlabel.h"
#include "views/tablecolumns.h"

#include "models/grouplagmodel.h"
#include "models/lagtablemodel.h"

#include <QAction>
#include <QDataStream>
#include <QHBoxLayout>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace {
void setUpTable(QTableView *table, QSortFilterProxyModel *proxy)
{
    table->setModel(proxy);
    table->setSortingEnabled(true);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setSelectionMode(QAbstractItemView::SingleSelection);
    table->setAlternatingRowColors(true);
    table->verticalHeader()->hide();
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 8);
    table->horizontalHeader()->setSectionsMovable(true);
    // Room for the sort indicator, so headers are never clipped.
    table->horizontalHeader()->setMinimumSectionSize(table->fontMetrics().horizontalAdvance(QStringLiteral("Lag (msgs)")) + 36);
}
}

LagView::LagView(QAbstractItemModel *groups, QAbstractItemModel *partitions, QWidget *parent)
    : QWidget(parent)
    , m_filter(new QLineEdit(this))
    , m_summary(new ElidedLabel(this))
    , m_duplicates(new QLabel(this))
    , m_allowedLag(new QSpinBox(this))
    , m_groupProxy(new QSortFilterProxyModel(this))
    , m_partitionProxy(new QSortFilterProxyModel(this))
    , m_groups(new QTableView(this))
    , m_partitions(new QTableView(this))
{
    m_filter->setPlaceholderText(tr("Filter groups (Ctrl+F)"));
    m_allowedLag->setRange(0, 1'000'000'000);
    m_allowedLag->setSuffix(tr(" messages"));
    m_allowedLag->setGroupSeparatorShown(true);
    m_allowedLag->setKeyboardTracking(false); // one change per edit, not one per digit typed
    m_allowedLag->setToolTip(tr("A partition lagging by at most this many messages is OK, whatever its "
                                "commits do. Applies from the next sample."));
    connect(m_allowedLag, &QSpinBox::valueChanged, this, [this](int value) { Q_EMIT allowedLagChanged(value); });
    m_filter->setClearButtonEnabled(true);
    m_summary->setTextFormat(Qt::PlainText);
    m_duplicates->setTextFormat(Qt::PlainText);
    m_duplicates->setWordWrap(true);

    m_groupProxy->setSourceModel(groups);
    m_groupProxy->setSortRole(GroupLagModel::SortRole);
    m_groupProxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_groupProxy->setFilterKeyColumn(GroupLagModel::Group);
    m_groupProxy->setDynamicSortFilter(true);
    connect(m_filter, &QLineEdit::textChanged, m_groupProxy, &QSortFilterProxyModel::setFilterFixedString);
    setUpTable(m_groups, m_groupProxy);
    m_groups->sortByColumn(GroupLagModel::Lag, Qt::DescendingOrder);
    TableColumns::apply(m_groups);

    // The partitions of the selected group only: the proxy filters on the group column.
    m_partitionProxy->setSourceModel(partitions);
    m_partitionProxy->setSortRole(LagTableModel::SortRole);
    m_partitionProxy->setFilterKeyColumn(LagTableModel::Group);
    m_partitionProxy->setFilterRole(LagTableModel::SortRole);
    m_partitionProxy->setDynamicSortFilter(true);
    setUpTable(m_partitions, m_partitionProxy);
    m_partitions->sortByColumn(LagTableModel::Lag, Qt::DescendingOrder);
    TableColumns::apply(m_partitions);

    connect(m_groups->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex &current) {
        const QString group = current.siblingAtColumn(GroupLagModel::Group).data(GroupLagModel::SortRole).toString();
        m_partitionProxy->setFilterRegularExpression(
            QRegularExpression(u'^' + QRegularExpression::escape(group) + u'$'));
    });
    connect(m_groups, &QTableView::doubleClicked, this, [this](const QModelIndex &index) {
        Q_EMIT groupActivated(index.siblingAtColumn(GroupLagModel::Group).data(GroupLagModel::SortRole).toString());
    });
    // Reset offsets… on the selected group (context menu, Ctrl+Shift+R): an offset reset request with preview.
    auto *reset = new QAction(tr("Reset offsets…"), m_groups);
    reset->setShortcut(QKeySequence(u"Ctrl+Shift+R"_s));
    reset->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    reset->setToolTip(tr("File a four-eyes request that moves the group's committed offsets, with a preview"));
    m_groups->addAction(reset);
    m_groups->setContextMenuPolicy(Qt::ActionsContextMenu);
    connect(reset, &QAction::triggered, this, [this] {
        const QModelIndex current = m_groups->currentIndex();
        if (!current.isValid())
            return;
        const QString group = current.siblingAtColumn(GroupLagModel::Group).data(GroupLagModel::SortRole).toString();
        const QString topics = current.siblingAtColumn(GroupLagModel::Topics).data(Qt::DisplayRole).toString();
        Q_EMIT resetOffsetsRequested(group, topics.isEmpty() ? QStringList() : topics.split(u", "_s));
    });

    auto *top = new QHBoxLayout;
    top->addWidget(m_filter, 1);
    top->addWidget(m_summary);
    auto *allowedLabel = new QLabel(tr("&Allowed lag:"), this);
    allowedLabel->setBuddy(m_allowedLag);
    top->addWidget(allowedLabel);
    top->addWidget(m_allowedLag);
    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_groups);
    split->addWidget(m_partitions);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_duplicates);
    layout->addWidget(split, 1);
}

void LagView::setSummary(const QString &text)
{
    m_summary->setText(text);
}

void LagView::setDuplicates(const QString &text)
{
    m_duplicates->setText(text);
    m_duplicates->setVisible(!text.isEmpty());
}

void LagView::setAllowedLag(qint64 messages)
{
    const QSignalBlocker blocker(m_allowedLag);
    m_allowedLag->setValue(int(std::clamp<qint64>(messages, 0, m_allowedLag->maximum())));
}

void LagView::focusFilter()
{
    m_filter->setFocus();
    m_filter->selectAll();
}

QByteArray LagView::saveHeaderState() const
{
    QByteArray state;
    QDataStream out(&state, QIODevice::WriteOnly);
    out << m_groups->horizontalHeader()->saveState() << m_partitions->horizontalHeader()->saveState();
    return state;
}

void LagView::restoreHeaderState(const QByteArray &state)
{
    QDataStream in(state);
    QByteArray groups, partitions;
    in >> groups >> partitions;
    if (in.status() == QDataStream::Ok) {
        m_groups->horizontalHeader()->restoreState(groups);
        m_partitions->horizontalHeader()->restoreState(partitions);
    }
}
