#include "inboxrowsview.h"

#include "elidedlabel.h"
#include "views/tablecolumns.h"

#include "models/inboxrowsmodel.h"
#include "refreshclock.h"
#include "remediationwidgets.h"
#include "services/remediation/remediationtypes.h"

#include <QAction>

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

InboxRowsView::InboxRowsView(InboxRowsModel *model, QWidget *parent)
    : QWidget(parent)
    , m_model(model)
    , m_selector(new QComboBox(this))
    , m_filter(new QLineEdit(this))
    , m_status(new ElidedLabel(this))
    , m_table(new QTableView(this))
    , m_debounce(new QTimer(this))
    , m_clock(new RefreshClock(this, [this] { requestRefresh(); }))
{
    // Mapping names can be long: the box shows a good part, the list the whole of each.
    m_selector->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_selector->setMinimumContentsLength(24);
    const QList<QPair<QString, InboxState>> states = {{tr("Parked"), InboxState::Parked},
                                                      {tr("Failed terminal"), InboxState::FailedTerminal},
                                                      {tr("Failed retryable"), InboxState::FailedRetryable},
                                                      {tr("In progress"), InboxState::InProgress}};
    auto *top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Inbox:"), this));
    top->addWidget(m_selector);
    for (const auto &[label, state] : states) {
        auto *box = new QCheckBox(label, this);
        box->setChecked(state == InboxState::Parked || state == InboxState::FailedTerminal);
        connect(box, &QCheckBox::toggled, this, &InboxRowsView::requestRefresh);
        top->addWidget(box);
        m_states.append({box, state});
    }
    top->addStretch(1);
    // The filter and the actions on a row of their own: in one row with the states, longer labels (German)
    // made the view, and so the window, wider than the screen.
    auto *actions = new QHBoxLayout;
    m_filter->setPlaceholderText(m_model->filterPlaceholder());
    m_filter->setClearButtonEnabled(true);
    actions->addWidget(m_filter, 1);
    auto *refresh = new QPushButton(tr("Refresh"), this);
    actions->addWidget(refresh);
    // Skip or delete the rows the operator picked: a request another person approves.
    QAction *remediate = RemediationWidgets::addRequestAction(
        this, m_table, actions, tr("&Skip / delete…"),
        tr("File a skip or delete request for the selected inbox rows (Ctrl+R)"));
    connect(remediate, &QAction::triggered, this, &InboxRowsView::requestRemediation);

    m_status->setTextFormat(Qt::PlainText);
    auto *proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(m_model);
    proxy->setSortRole(InboxRowsModel::SortRole);
    m_table->setModel(proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(InboxRowsModel::Updated, Qt::AscendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    TableColumns::apply(m_table)->setMaxChars(InboxRowsModel::Error, 60);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addLayout(actions);
    layout->addWidget(m_status);
    layout->addWidget(m_table, 1);

    m_debounce->setSingleShot(true);
    m_debounce->setInterval(300);
    connect(m_debounce, &QTimer::timeout, this, &InboxRowsView::requestRefresh);
    connect(m_filter, &QLineEdit::textChanged, m_debounce, qOverload<>(&QTimer::start));
    connect(m_selector, &QComboBox::currentIndexChanged, this, &InboxRowsView::requestRefresh);
    connect(m_selector, &QComboBox::currentIndexChanged, this, [this] { Q_EMIT mappingChosen(m_selector->currentText()); });
    connect(refresh, &QPushButton::clicked, this, &InboxRowsView::requestRefresh);
    // A refresh keeps what the operator selected: the same rows (by message id) are chosen again.
    connect(m_model, &QAbstractItemModel::modelAboutToBeReset, this, [this] { m_keptSelection = selectedRows(); });
    connect(m_model, &QAbstractItemModel::modelReset, this, [this] {
        m_clock->readFinished(m_model->page().readAt);
        m_status->setText(m_model->statusLine() + u" — "_s + m_clock->freshness());
        m_filter->setPlaceholderText(m_model->filterPlaceholder());
        restoreSelection();
    });
    m_status->setText(m_model->statusLine());
}

void InboxRowsView::restoreSelection()
{
    if (m_keptSelection.isEmpty())
        return;
    const auto *proxy = static_cast<const QSortFilterProxyModel *>(m_table->model());
    const InboxRowsPage &page = m_model->page();
    QItemSelection selection;
    for (int source = 0; source < page.rows.size(); ++source) {
        const InboxRow &r = page.rows.at(source);
        if (!m_keptSelection.contains(inboxRefFor(page.mappingName, r.messageId, r.consumer)))
            continue;
        const QModelIndex index = proxy->mapFromSource(m_model->index(source, 0));
        selection.select(index, index);
    }
    m_table->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_keptSelection.clear();
}

void InboxRowsView::setMappings(const QList<InboxMapping> &mappings)
{
    const QSignalBlocker blocker(m_selector);
    m_mappings = mappings;
    m_selector->clear();
    for (const InboxMapping &mapping : mappings)
        m_selector->addItem(mapping.name);
    m_selector->setCurrentIndex(mappings.isEmpty() ? -1 : 0);
    Q_EMIT mappingChosen(m_selector->currentText());
}

QString InboxRowsView::currentMapping() const
{
    return m_selector->currentText();
}

QList<InboxState> InboxRowsView::chosenStates() const
{
    QList<InboxState> states;
    for (const auto &[box, state] : m_states) {
        if (box->isChecked())
            states << state;
    }
    return states;
}

void InboxRowsView::requestRefresh()
{
    const int index = m_selector->currentIndex();
    if (index < 0 || index >= m_mappings.size())
        return;
    m_clock->readStarted();
    if (m_model->page().table.isEmpty())
        m_status->setText(tr("Reading %1…").arg(m_mappings.at(index).qualifiedTable()));
    Q_EMIT refreshRequested(m_mappings.at(index), chosenStates(), m_filter->text().trimmed());
}

QList<QJsonObject> InboxRowsView::selectedRows() const
{
    const auto *proxy = static_cast<const QSortFilterProxyModel *>(m_table->model());
    QList<int> rows;
    for (const QModelIndex &index : m_table->selectionModel()->selectedRows())
        rows << index.row();
    std::sort(rows.begin(), rows.end());
    const InboxRowsPage &page = m_model->page();
    QList<QJsonObject> refs;
    for (int row : std::as_const(rows)) {
        const int source = proxy->mapToSource(proxy->index(row, 0)).row();
        if (source < 0 || source >= page.rows.size())
            continue;
        const InboxRow &r = page.rows.at(source);
        refs.append(inboxRefFor(page.mappingName, r.messageId, r.consumer));
    }
    return refs;
}

void InboxRowsView::requestRemediation()
{
    if (m_model->page().isView) {
        // Berth never writes through a view (its rules decide what a write does): said here, before a
        // request is filed that execution would refuse.
        m_status->setText(tr("%1 is a view, not a table: skip and delete are refused. Map the table the view "
                             "reads from to act on its rows.").arg(m_model->page().table));
        return;
    }
    const QList<QJsonObject> rows = selectedRows();
    if (rows.isEmpty()) {
        m_status->setText(tr("Select one or more rows to request a skip or delete."));
        return;
    }
    Q_EMIT remediationRequested(rows);
}
