#include "audittrailview.h"
#include "wrappinglabel.h"
#include "elidedlabel.h"

#include "models/audittrailmodel.h"
#include "models/dlqbrowsermodel.h"
#include "views/viewstate.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateTimeEdit>
#include <QDir>
#include <QFileDialog>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPlainTextEdit>
#include <QProgressDialog>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace {
// The database's journal actions (004_journal_and_notify.sql) and Berth's own; any other can be typed.
const QStringList KnownActions = {
    u"request.created"_s,   u"request.status_changed"_s, u"request.items_added"_s, u"approval.approved"_s,
    u"approval.rejected"_s, u"intent.journaled"_s,       u"intent.updated"_s,      u"disposition.recorded"_s,
    u"chain.verified"_s,    u"trail.exported"_s};
} // namespace

AuditTrailView::AuditTrailView(AuditTrailModel *model, QWidget *parent)
    : QWidget(parent)
    , m_model(model)
    , m_actor(new QLineEdit(this))
    , m_action(new QComboBox(this))
    , m_useFrom(new QCheckBox(tr("From"), this))
    , m_from(new QDateTimeEdit(QDateTime::currentDateTime().addDays(-7), this))
    , m_useTo(new QCheckBox(tr("to"), this))
    , m_to(new QDateTimeEdit(QDateTime::currentDateTime(), this))
    , m_more(new QPushButton(tr("Load &more"), this))
    , m_verify(new QPushButton(tr("&Verify chain"), this))
    , m_status(new ElidedLabel(this))
    , m_verdict(new WrappingLabel(this))
    , m_split(new QSplitter(Qt::Horizontal, this))
    , m_table(new QTableView(m_split))
    , m_details(new QPlainTextEdit(m_split))
{
    m_actor->setPlaceholderText(tr("anyone"));
    m_actor->setClearButtonEnabled(true);
    m_action->setEditable(true);
    m_action->addItem(QString());
    m_action->addItems(KnownActions);
    m_action->lineEdit()->setPlaceholderText(tr("any action (several: comma-separated)"));
    m_action->setMinimumContentsLength(22);
    for (QDateTimeEdit *edit : {m_from, m_to}) {
        edit->setCalendarPopup(true);
        edit->setDisplayFormat(u"yyyy-MM-dd HH:mm:ss"_s);
        edit->setEnabled(false);
    }
    auto *apply = new QPushButton(tr("&Apply"), this);
    auto *exportButton = new QPushButton(tr("E&xport…"), this);
    exportButton->setToolTip(tr("Write every event the filter selects to CSV or JSON lines"));
    m_verify->setToolTip(
        tr("Recompute the hash chain of the whole audit log and report the first broken row"));

    // Two rows: who and what with the actions on the right, the time window below, so neither is
    // squeezed on a narrow window.
    m_actor->setMinimumWidth(m_actor->fontMetrics().horizontalAdvance(u"berth_approver"_s) + 24);
    auto *filters = new QHBoxLayout;
    filters->addWidget(new QLabel(tr("Person:"), this));
    filters->addWidget(m_actor);
    filters->addWidget(new QLabel(tr("Action:"), this));
    filters->addWidget(m_action, 1);
    filters->addWidget(apply);
    filters->addSpacing(24);
    filters->addWidget(m_more);
    filters->addWidget(exportButton);
    filters->addWidget(m_verify);
    auto *window = new QHBoxLayout;
    window->addWidget(m_useFrom);
    window->addWidget(m_from);
    window->addWidget(m_useTo);
    window->addWidget(m_to);
    window->addStretch(1);

    m_status->setTextFormat(Qt::PlainText);
    m_verdict->setTextFormat(Qt::PlainText);
    m_verdict->setWordWrap(true);
    m_verdict->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(m_model);
    proxy->setSortRole(AuditTrailModel::SortRole);
    m_table->setModel(proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(AuditTrailModel::Seq, Qt::DescendingOrder); // the latest on top
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    // Narrow numbers and names, so the details column is on screen next to the event pane.
    const QFontMetrics metrics(m_table->horizontalHeader()->font());
    const auto numberWidth = [&](int column) {
        return std::max(metrics.horizontalAdvance(m_model->headerData(column, Qt::Horizontal).toString()),
                        metrics.horizontalAdvance(u"000000"_s))
               + 24;
    };
    m_table->setColumnWidth(AuditTrailModel::Seq, numberWidth(AuditTrailModel::Seq));
    m_table->setColumnWidth(AuditTrailModel::Time, 180);
    m_table->setColumnWidth(AuditTrailModel::Actor, 110);
    m_table->setColumnWidth(AuditTrailModel::Action, 190);
    m_table->setColumnWidth(AuditTrailModel::Request, numberWidth(AuditTrailModel::Request));
    m_details->setReadOnly(true);
    m_details->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_split->setStretchFactor(0, 3);
    m_split->setStretchFactor(1, 1);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(filters);
    layout->addLayout(window);
    layout->addWidget(m_verdict);
    layout->addWidget(m_status);
    layout->addWidget(m_split, 1);

    connect(apply, &QPushButton::clicked, this, &AuditTrailView::requestRefresh);
    connect(m_actor, &QLineEdit::returnPressed, this, &AuditTrailView::requestRefresh);
    connect(m_action, &QComboBox::activated, this, &AuditTrailView::requestRefresh);
    connect(m_useFrom, &QCheckBox::toggled, m_from, &QWidget::setEnabled);
    connect(m_useTo, &QCheckBox::toggled, m_to, &QWidget::setEnabled);
    connect(m_more, &QPushButton::clicked, this, &AuditTrailView::loadMore);
    connect(m_verify, &QPushButton::clicked, this, [this] {
        if (m_verifying)
            Q_EMIT verifyCancelRequested();
        else
            startVerify();
    });
    connect(exportButton, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Export audit events"), u"berth-audit.csv"_s, tr("CSV (*.csv);;JSON lines (*.jsonl)"));
        if (!path.isEmpty())
            exportRows(path);
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &AuditTrailView::showCurrentEvent);
    // The order is the table's, as sorted now: the log is read oldest first, the view shows what its
    // header says.
    const auto showStatus = [this] {
        QString line = m_model->statusLine();
        const QHeaderView *header = m_table->horizontalHeader();
        if (m_model->rowCount() > 0 && header->sortIndicatorSection() == AuditTrailModel::Seq)
            line += u' ' + (header->sortIndicatorOrder() == Qt::DescendingOrder ? tr("Newest first.")
                                                                               : tr("Oldest first."));
        m_status->setText(line);
        m_more->setEnabled(m_model->hasMore());
    };
    connect(m_table->horizontalHeader(), &QHeaderView::sortIndicatorChanged, this, showStatus);
    connect(m_model, &QAbstractItemModel::modelReset, this, showStatus);
    connect(m_model, &QAbstractItemModel::rowsInserted, this, showStatus);
    // With nothing chosen yet, the event on top opens in the pane: its details are too long for a cell.
    const auto openTop = [this] {
        if (!m_table->currentIndex().isValid() && m_table->model()->rowCount() > 0)
            m_table->selectRow(0);
    };
    connect(m_model, &QAbstractItemModel::modelReset, this, openTop, Qt::QueuedConnection);
    connect(m_model, &QAbstractItemModel::rowsInserted, this, openTop, Qt::QueuedConnection);
    m_status->setText(m_model->statusLine());
    m_more->setEnabled(false);
    setVerdict(tr("The hash chain has not been verified in this session."), QString());
}

EventFilter AuditTrailView::currentFilter() const
{
    EventFilter filter;
    filter.actor = m_actor->text().trimmed();
    for (const QString &action : m_action->currentText().split(u',', Qt::SkipEmptyParts)) {
        if (!action.trimmed().isEmpty())
            filter.actions << action.trimmed();
    }
    if (m_useFrom->isChecked())
        filter.from = m_from->dateTime();
    if (m_useTo->isChecked())
        filter.to = m_to->dateTime();
    return filter;
}

void AuditTrailView::setFilter(const QString &actor, const QStringList &actions, const QDateTime &from,
                               const QDateTime &to)
{
    m_actor->setText(actor);
    m_action->setCurrentText(actions.join(u", "_s));
    m_useFrom->setChecked(from.isValid());
    if (from.isValid())
        m_from->setDateTime(from.toLocalTime());
    m_useTo->setChecked(to.isValid());
    if (to.isValid())
        m_to->setDateTime(to.toLocalTime());
}

void AuditTrailView::requestRefresh()
{
    m_status->setText(tr("Reading the audit log…"));
    Q_EMIT fetchRequested(currentFilter());
}

void AuditTrailView::loadMore()
{
    if (m_model->hasMore())
        Q_EMIT fetchRequested(m_model->continuation());
}

void AuditTrailView::requestTail()
{
    // With more rows still to load, the tail is not on screen yet: "Load more" reaches it.
    if (!m_model->hasMore() && m_model->error().isEmpty())
        Q_EMIT fetchRequested(m_model->continuation());
}

void AuditTrailView::startVerify()
{
    m_verifying = true;
    m_verify->setText(tr("Cancel &verify"));
    setVerdict(tr("Verifying the hash chain…"), QString());
    Q_EMIT verifyRequested();
}

void AuditTrailView::setVerifyProgress(qint64 checkedRows, qint64 highestSeq)
{
    setVerdict(tr("Verifying the hash chain… %1 of %2 row(s) checked")
                   .arg(QLocale().toString(checkedRows), QLocale().toString(highestSeq)),
               QString());
}

void AuditTrailView::showVerification(const ChainVerification &r)
{
    m_verifying = false;
    m_verify->setText(tr("&Verify chain"));
    if (!r.completed) {
        setVerdict(tr("Verification did not finish: %1").arg(r.error), u"#8a6d00"_s);
    } else if (r.ok) {
        setVerdict(tr("Chain OK: %1 row(s) verified, seq 1 to %2; last hash %3 (%4 ms).")
                       .arg(QLocale().toString(r.checkedRows))
                       .arg(r.lastSeq)
                       .arg(QString::fromLatin1(r.lastHash.toHex()))
                       .arg(r.elapsedMs),
                   u"#1b7f3b"_s);
    } else {
        setVerdict(tr("Chain BROKEN at seq %1: %2. The %3 row(s) before it verified.")
                       .arg(r.firstBrokenSeq)
                       .arg(r.problem)
                       .arg(QLocale().toString(r.checkedRows)),
                   u"#b00020"_s);
    }
    Q_EMIT statusMessage(m_verdict->text());
}

void AuditTrailView::exportRows(const QString &path)
{
    m_exportProgress = new QProgressDialog(
        tr("Exporting audit events to %1…").arg(QDir::toNativeSeparators(path)), tr("Cancel"), 0, 0, this);
    m_exportProgress->setAttribute(Qt::WA_DeleteOnClose);
    m_exportProgress->setWindowModality(Qt::WindowModal);
    m_exportProgress->setMinimumDuration(300); // a small export finishes before a dialog would flash up
    connect(m_exportProgress, &QProgressDialog::canceled, this, &AuditTrailView::exportCancelRequested);
    connect(m_exportProgress, &QObject::destroyed, this, [this] { m_exportProgress = nullptr; });
    Q_EMIT exportRequested(path, currentFilter());
}

void AuditTrailView::setExportProgress(qint64 rows)
{
    if (m_exportProgress)
        m_exportProgress->setLabelText(
            tr("Exporting audit events… %1 written").arg(QLocale().toString(rows)));
}

void AuditTrailView::showExportResult(const QString &path, qint64 rows, const QString &error)
{
    if (m_exportProgress) {
        // Closing a progress dialog emits canceled(): the export is over, there is nothing to cancel.
        disconnect(m_exportProgress, &QProgressDialog::canceled, this,
                   &AuditTrailView::exportCancelRequested);
        m_exportProgress->close();
    }
    const QString text =
        error.isEmpty()
            ? tr("Exported %n audit event(s) to %1", nullptr, int(rows)).arg(QDir::toNativeSeparators(path))
            : tr("Export to %1 failed: %2").arg(QDir::toNativeSeparators(path), error);
    m_status->setText(text);
    Q_EMIT statusMessage(text);
}

void AuditTrailView::showCurrentEvent()
{
    const QModelIndex current = m_table->currentIndex();
    const auto *proxy = static_cast<const QSortFilterProxyModel *>(m_table->model());
    const AuditEvent *e = current.isValid() ? m_model->eventAt(proxy->mapToSource(current).row()) : nullptr;
    if (!e) {
        m_details->clear();
        return;
    }
    QStringList lines = {
        tr("seq %1 at %2 by %3").arg(e->seq).arg(AuditTrailModel::timeText(e->at), e->actor),
        tr("action %1%2").arg(e->action, e->requestId ? tr(", request %1").arg(e->requestId) : QString()),
        tr("hash      %1").arg(QString::fromLatin1(e->hash.toHex())),
        tr("prev hash %1").arg(QString::fromLatin1(e->prevHash.toHex())), QString()};
    // The indented JSON's own line breaks stay line breaks (breaks inside its strings are escaped).
    lines << AuditTrailModel::detailsText(e->details, true).split(u'\n');
    // Details hold comments and reasons people typed: plain text, control characters made visible.
    QStringList visible;
    for (const QString &line : lines)
        visible << DlqBrowserModel::visibleText(line);
    m_details->setPlainText(visible.join(u'\n'));
}

void AuditTrailView::setVerdict(const QString &text, const QString &color)
{
    m_verdict->setText(DlqBrowserModel::visibleText(text));
    m_verdict->setStyleSheet(color.isEmpty() ? QString()
                                             : QString(u"font-weight: bold; color: "_s + color + u';'));
}

QByteArray AuditTrailView::saveState() const
{
    return ViewState::save(m_split, m_table->horizontalHeader());
}

void AuditTrailView::restoreState(const QByteArray &state)
{
    ViewState::restore(m_split, m_table->horizontalHeader(), state);
}
