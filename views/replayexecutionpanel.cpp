#include "replayexecutionpanel.h"

#include "views/tablecolumns.h"
#include "views/viewstate.h"
#include "views/wrappinglabel.h"

#include "actionconfirmation.h"
#include "models/actionsummary.h"
#include "models/approvalqueuemodel.h"
#include "models/dlqbrowsermodel.h"
#include "remediationwidgets.h"

#include <QFileDialog>
#include <QFontDatabase>
#include <QFontMetrics>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace {
bool executable(RequestStatus status)
{
    return status == RequestStatus::Approved || status == RequestStatus::PartiallyFailed;
}

QString eta(qint64 ms)
{
    if (ms < 0)
        return ReplayExecutionPanel::tr("unknown");
    const qint64 s = (ms + 999) / 1000;
    return s >= 3600 ? QString::asprintf("%lld:%02lld:%02lld", s / 3600, (s / 60) % 60, s % 60)
                     : QString::asprintf("%lld:%02lld", s / 60, s % 60);
}
} // namespace

ReplayExecutionPanel::ReplayExecutionPanel(QWidget *parent)
    : QWidget(parent)
    , m_split(new QSplitter(Qt::Vertical, this))
    , m_table(new QTableWidget(this))
    , m_canary(new QSpinBox(this))
    , m_execute(new QPushButton(tr("&Execute"), this))
    , m_pause(new QPushButton(tr("Pau&se"), this))
    , m_resume(new QPushButton(tr("&Resume"), this))
    , m_cancel(new QPushButton(tr("Cancel ru&n"), this))
    , m_runbook(new QPushButton(tr("Run&book…"), this))
    , m_why(RemediationWidgets::messageLabel(this))
    , m_progress(new QProgressBar(this))
    , m_progressText(RemediationWidgets::messageLabel(this))
    , m_problems(new QPlainTextEdit(this))
    , m_result(RemediationWidgets::messageLabel(this))
    , m_verification(RemediationWidgets::messageLabel(this))
    , m_outcomes(new QPlainTextEdit(this))
{
    auto *title = new QLabel(tr("Execution"), this);
    QFont bold = title->font();
    bold.setBold(true);
    title->setFont(bold);
    auto *refresh = new QPushButton(tr("Refresh"), this);
    auto *top = new QHBoxLayout;
    top->addWidget(title, 1);
    top->addWidget(refresh);

    m_table->setColumnCount(8);
    m_table->setHorizontalHeaderLabels({tr("Id"), tr("Action"), tr("Status"), tr("Requested by"), tr("Items"),
                                        tr("Approvals"), tr("Created (UTC)"), tr("Reason")});
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    m_table->setObjectName(u"requestTable"_s);

    m_canary->setRange(0, 1'000'000);
    m_canary->setSpecialValueText(tr("no canary"));
    auto *run = new QHBoxLayout;
    run->addWidget(new QLabel(tr("Canary:"), this));
    run->addWidget(m_canary);
    run->addWidget(m_execute);
    run->addStretch(1);
    run->addWidget(m_runbook);
    auto *control = new QHBoxLayout;
    control->addWidget(m_pause);
    control->addWidget(m_resume);
    control->addWidget(m_cancel);
    control->addStretch(1);
    m_why->setEnabled(false); // reads as a hint

    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_problems->setReadOnly(true);
    m_problems->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_problems->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_problems->setPlaceholderText(tr("Items that are not delivered or skipped are listed here, with why."));
    m_outcomes->setReadOnly(true);
    m_outcomes->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_outcomes->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_outcomes->setPlaceholderText(tr(
        "After a replay, what its consumer did with each record: processed, no-op, failed, parked, back in "
        "the DLQ, or still pending."));
    // The two lists grow with the run's area; a few lines at least, so the request list keeps its share.
    const int fewLines = QFontMetrics(m_outcomes->font()).lineSpacing() * 4 + 12;
    m_problems->setMinimumHeight(fewLines);
    m_outcomes->setMinimumHeight(fewLines);
    // Their own height hints would claim most of the panel before the split's stretch is applied.
    m_problems->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Ignored);
    m_outcomes->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Ignored);

    // The request list above, the selected request's run below; the operator moves the split (kept with
    // ViewState), the list starting with two fifths of the height (showEvent).
    auto *listArea = new QWidget(m_split);
    auto *listLayout = new QVBoxLayout(listArea);
    listLayout->setContentsMargins(0, 0, 0, 0);
    listLayout->addWidget(m_table, 1);
    auto *runArea = new QWidget(m_split);
    auto *runLayout = new QVBoxLayout(runArea);
    runLayout->setContentsMargins(0, 0, 0, 0);
    // The request's reason is free text: the selected row is shown whole, at the head of its run's area
    // (under the list it would take the list's rows).
    runLayout->addWidget(TableColumns::apply(m_table)->detailPane());
    runLayout->addLayout(run);
    runLayout->addWidget(m_why);
    runLayout->addWidget(m_progress);
    runLayout->addWidget(m_progressText);
    runLayout->addLayout(control);
    // Problems of the run and the verification's items side by side: each gets the area's full height.
    auto *lists = new QGridLayout;
    lists->addWidget(new QLabel(tr("Problems:"), runArea), 0, 0);
    lists->addWidget(m_problems, 1, 0);
    auto *verificationHead = new QVBoxLayout;
    verificationHead->addWidget(new QLabel(tr("Verification:"), runArea));
    verificationHead->addWidget(m_verification);
    lists->addLayout(verificationHead, 0, 1);
    lists->addWidget(m_outcomes, 1, 1);
    lists->setColumnStretch(0, 2);
    lists->setColumnStretch(1, 3);
    lists->setRowStretch(1, 1);
    runLayout->addWidget(m_result);
    runLayout->addLayout(lists, 1);
    m_split->addWidget(listArea);
    m_split->addWidget(runArea);
    m_split->setChildrenCollapsible(false);
    m_split->setStretchFactor(0, 2);
    m_split->setStretchFactor(1, 3);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_split, 1);

    connect(refresh, &QPushButton::clicked, this, &ReplayExecutionPanel::refreshRequested);
    connect(m_execute, &QPushButton::clicked, this, &ReplayExecutionPanel::confirmExecution);
    connect(m_pause, &QPushButton::clicked, this, [this] {
        m_paused = true;
        m_progressText->setText(tr("Pausing after the record in flight…"));
        updateButtons();
        Q_EMIT pauseRequested();
    });
    connect(m_resume, &QPushButton::clicked, this, [this] {
        m_paused = false;
        updateButtons();
        Q_EMIT resumeRequested();
    });
    connect(m_cancel, &QPushButton::clicked, this, [this] {
        m_progressText->setText(tr("Cancelling…"));
        Q_EMIT cancelRequested();
    });
    connect(m_runbook, &QPushButton::clicked, this, [this] {
        const qint64 id = currentRequestId();
        if (id == 0)
            return;
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Export runbook"), u"request-%1-runbook.md"_s.arg(id), tr("Markdown (*.md)"));
        if (!path.isEmpty())
            exportRunbook(path);
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
        updateButtons();
        onSelected();
    });
    updateButtons();
}

void ReplayExecutionPanel::setListing(const QList<RemediationRequest> &requests,
                                      const AuditIdentity &identity)
{
    const qint64 selected = currentRequestId();
    m_requests = requests;
    m_identity = identity;
    const QSignalBlocker blocker(m_table);
    m_table->clearSelection(); // chosen again below by id, never left on a row another request now fills
    m_table->setRowCount(int(requests.size()));
    for (int row = 0; row < requests.size(); ++row) {
        const RemediationRequest &r = requests.at(row);
        const QStringList cells = {QString::number(r.id),
                                   ApprovalQueueModel::actionText(r.action),
                                   ApprovalQueueModel::statusText(r.status),
                                   DlqBrowserModel::visibleText(r.requestedBy),
                                   QLocale().toString(r.itemCount),
                                   tr("%1 of %2").arg(r.approvalCount).arg(r.requiredApprovals),
                                   r.createdAt.toUTC().toString(u"yyyy-MM-dd HH:mm:ss"_s),
                                   DlqBrowserModel::visibleText(r.reasonCode + u' ' + r.reason)};
        for (int c = 0; c < cells.size(); ++c)
            m_table->setItem(row, c, new QTableWidgetItem(cells.at(c)));
    }
    TableColumns::of(m_table)->fit();
    selectRequest(selected);
    updateButtons();
}

void ReplayExecutionPanel::setListingError(const QString &error)
{
    setResult(tr("Could not read the requests: %1").arg(error), true);
}

void ReplayExecutionPanel::selectRequest(qint64 requestId)
{
    for (int row = 0; row < m_requests.size(); ++row) {
        if (m_requests.at(row).id == requestId) {
            m_table->setCurrentCell(row, 0);
            break;
        }
    }
    updateButtons();
}

const RemediationRequest *ReplayExecutionPanel::current() const
{
    // A selected row, not the focus frame a table draws on its current cell without selecting it.
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    const int row = rows.isEmpty() ? -1 : rows.first().row();
    return row >= 0 && row < m_requests.size() ? &m_requests.at(row) : nullptr;
}

qint64 ReplayExecutionPanel::currentRequestId() const
{
    const RemediationRequest *r = current();
    return r ? r->id : 0;
}

void ReplayExecutionPanel::updateButtons()
{
    const RemediationRequest *r = current();
    QString why;
    if (m_runningId != 0)
        why = tr("Request %1 is running.").arg(m_runningId);
    else if (!r)
        why = tr("Select an approved request to execute it.");
    else if (!m_identity.isOperator)
        why = tr("Only members of berth_operator execute requests.");
    else if (!executable(r->status))
        why = tr("Request %1 is %2: only approved or partially failed requests execute.")
                  .arg(r->id)
                  .arg(ApprovalQueueModel::statusText(r->status));
    m_execute->setEnabled(why.isEmpty());
    m_execute->setToolTip(why);
    m_why->setText(why);
    // An offset reset produces nothing: there is no canary to send.
    const bool reset = r && r->action == RemediationAction::ResetOffsets;
    m_canary->setEnabled(m_runningId == 0 && !reset);
    m_canary->setToolTip(
        reset ? tr("An offset reset produces nothing: no canary")
              : tr("Send this many first, watch the DLQ for them, and pause if they fail again"));
    m_pause->setEnabled(m_runningId != 0 && !m_paused);
    m_resume->setEnabled(m_runningId != 0 && m_paused);
    m_cancel->setEnabled(m_runningId != 0);
    m_runbook->setEnabled(r != nullptr);
}

void ReplayExecutionPanel::confirmExecution()
{
    const RemediationRequest *r = current();
    if (!r || m_runningId != 0)
        return;
    const qint64 id = r->id;
    ActionConfirmation::ask(this, ActionSummary::forRequest(*r), [this, id] {
        if (currentRequestId() == id) // the selection moved while the question was open: ask again
            execute();
    });
}

void ReplayExecutionPanel::execute()
{
    const qint64 id = currentRequestId();
    if (id == 0 || m_runningId != 0)
        return;
    m_runningId = id;
    m_shownRunId = id;
    m_paused = false;
    m_problems->clear();
    m_outcomes->clear();
    m_verification->clear();
    m_verification->setStyleSheet(QString());
    m_shownVerificationId = id;
    m_liveVerificationId = id;
    m_progress->setRange(0, 0);
    m_progressText->setText(tr("Starting request %1…").arg(id));
    setResult(QString(), false);
    updateButtons();
    Q_EMIT executeRequested(id, m_canary->value());
}

void ReplayExecutionPanel::exportRunbook(const QString &path)
{
    const qint64 id = currentRequestId();
    if (id == 0)
        return;
    setResult(tr("Writing the runbook of request %1…").arg(id), false);
    Q_EMIT runbookRequested(id, path);
}

void ReplayExecutionPanel::setProgress(const ReplayProgress &p)
{
    if (p.requestId != m_runningId)
        return;
    if (p.phase == ReplayPhase::Paused)
        m_paused = true;
    m_progress->setRange(0, std::max(p.total, 1));
    m_progress->setValue(p.done);
    const QLocale locale;
    m_progressText->setText(
        tr("%1: %2 of %3 done — %4 delivered (%5 reconciled), %6 failed, %7 skipped — %8 msgs/s, ETA %9")
            .arg(replayPhaseName(p.phase), locale.toString(p.done), locale.toString(p.total),
                 locale.toString(p.delivered), locale.toString(p.reconciled), locale.toString(p.failed),
                 locale.toString(p.skipped), locale.toString(p.ratePerSecond, 'f', 0), eta(p.etaMs))
        + (p.canaryTripped ? tr(" — the canary came back to the DLQ: paused") : QString()));
    updateButtons();
}

namespace {
// One line a partition of an offset reset, live or as its offsets.verified event keeps it: the move, the
// committed offset read back, and whether it is at its target.
QStringList resetPartitionLines(const QList<OffsetResetPartitionOutcome> &partitions)
{
    QStringList lines;
    for (const OffsetResetPartitionOutcome &p : partitions) {
        if (p.movedSince) {
            lines << ReplayExecutionPanel::tr(
                         "partition %1: moved since the reset, committed %2 (target %3): "
                         "left where it is, not reset again")
                         .arg(p.partition)
                         .arg(p.committed < 0 ? ReplayExecutionPanel::tr("unread")
                                              : QString::number(p.committed))
                         .arg(p.target);
            continue;
        }
        lines << ReplayExecutionPanel::tr("partition %1: %2 → %3, committed %4%5")
                     .arg(p.partition)
                     .arg(p.before < 0 ? ReplayExecutionPanel::tr("none") : QString::number(p.before))
                     .arg(p.target)
                     .arg(p.committed < 0 ? ReplayExecutionPanel::tr("unread") : QString::number(p.committed))
                     .arg(p.verified() ? ReplayExecutionPanel::tr(" — verified")
                                       : ReplayExecutionPanel::tr(" (differs)"));
    }
    return lines;
}
} // namespace

void ReplayExecutionPanel::setOutcome(const ReplayOutcome &o)
{
    const qint64 id = m_runningId;
    m_runningId = 0;
    m_paused = false;
    m_progress->setRange(0, std::max(o.total, 1));
    m_progress->setValue(o.delivered + o.skipped + o.failed);
    QStringList problems;
    for (const ReplayItemProblem &p : o.problems)
        problems
            << tr("item %1 (%2): %3").arg(p.itemNo).arg(p.replayId, DlqBrowserModel::visibleText(p.error));
    m_problems->setPlainText(problems.join(u'\n'));
    if (!o.started) {
        // The database's own words: it decides what may run.
        setResult(tr("Request %1 did not start: %2").arg(id).arg(o.error), true);
    } else if (o.offsetReset) {
        const OffsetResetOutcome &r = *o.offsetReset;
        // A reset is verified from the committed offsets read back: each partition's line is its verification;
        // the ones that differ are its problems.
        const QStringList lines = resetPartitionLines(r.partitions);
        QStringList differ;
        for (qsizetype i = 0; i < r.partitions.size(); ++i) {
            if (!r.refused && !r.partitions.at(i).verified())
                differ << lines.at(i);
        }
        m_problems->setPlainText(differ.join(u'\n'));
        m_verification->setText(r.refused ? QString()
                                          : r.verified ? tr("Committed offsets read back: verified")
                                                       : tr("Committed offsets read back: some differ"));
        m_outcomes->setPlainText(r.refused ? QString() : lines.join(u'\n'));
        m_progress->setValue(r.refused ? 0 : o.total);
        if (!o.error.isEmpty())
            setResult(tr("Request %1 stopped: %2").arg(id).arg(DlqBrowserModel::visibleText(o.error)), true);
        else if (r.refused)
            setResult(tr("Request %1 refused, nothing moved: %2").arg(id).arg(DlqBrowserModel::visibleText(r.refusal)),
                      true);
        else
            setResult(tr("Request %1 ended %2: group %3 on %4, %n partition(s) committed and read back%5", nullptr,
                         int(r.partitions.size()))
                          .arg(id)
                          .arg(ApprovalQueueModel::statusText(o.finalStatus), DlqBrowserModel::visibleText(r.group),
                               DlqBrowserModel::visibleText(r.topic),
                               r.verified ? tr(", verified") : tr(", some differ")),
                      !r.verified);
    } else {
        const QString counts = tr("%1 delivered (%2 found by reconciliation), %3 skipped, %4 failed (%5 "
                                  "refused), %6 produced in this run")
                                   .arg(o.delivered)
                                   .arg(o.reconciled)
                                   .arg(o.skipped)
                                   .arg(o.failed)
                                   .arg(o.refused)
                                   .arg(o.producedThisRun);
        if (!o.error.isEmpty())
            setResult(tr("Request %1 stopped: %2 — it stays executing; execute it again to resume. %3")
                          .arg(id)
                          .arg(o.error, counts),
                      true);
        else
            setResult(tr("Request %1 ended %2: %3")
                          .arg(id)
                          .arg(o.cancelled && o.finalStatus == RequestStatus::Executing
                                   ? tr("cancelled")
                                   : ApprovalQueueModel::statusText(o.finalStatus),
                               counts),
                      o.finalStatus != RequestStatus::Completed);
    }
    m_progressText->setText(
        tr("Finished in %1 s.").arg(QLocale().toString(double(o.elapsedMs) / 1000.0, 'f', 1)));
    updateButtons();
    Q_EMIT refreshRequested();
}

namespace {
QString outcomeText(VerifyOutcome outcome)
{
    switch (outcome) {
    case VerifyOutcome::Pending:
        return ReplayExecutionPanel::tr("pending");
    case VerifyOutcome::NotDelivered:
        return ReplayExecutionPanel::tr("not delivered");
    case VerifyOutcome::Processed:
        return ReplayExecutionPanel::tr("processed");
    case VerifyOutcome::NoOp:
        return ReplayExecutionPanel::tr("no-op");
    case VerifyOutcome::Failed:
        return ReplayExecutionPanel::tr("failed");
    case VerifyOutcome::Parked:
        return ReplayExecutionPanel::tr("parked");
    case VerifyOutcome::ReturnedToDlq:
        return ReplayExecutionPanel::tr("back in the DLQ");
    case VerifyOutcome::Consumed:
        return ReplayExecutionPanel::tr("consumed");
    case VerifyOutcome::NoInboxRow:
        return ReplayExecutionPanel::tr("no inbox row");
    }
    return {};
}
} // namespace

void ReplayExecutionPanel::onSelected()
{
    // A different request selected: its stored verification replaces what the area showed, and the last
    // run's progress, problems and result, which were another request's, go (a running request's stay). A
    // refresh that selects the same request again, or a moment with nothing selected, leaves them.
    const qint64 id = currentRequestId();
    if (id == 0)
        return;
    if (m_runningId == 0 && m_shownRunId != 0 && id != m_shownRunId) {
        m_shownRunId = 0;
        m_progress->setRange(0, 1);
        m_progress->setValue(0);
        m_progressText->clear();
        m_problems->clear();
        setResult(QString(), false);
    }
    if (id == m_shownVerificationId)
        return;
    m_shownVerificationId = id;
    m_outcomes->clear();
    m_verification->setStyleSheet(QString());
    if (id == m_liveVerificationId)
        return;
    m_verification->setText(tr("Reading the verification recorded for request %1…").arg(id));
    Q_EMIT storedVerificationRequested(id);
}

void ReplayExecutionPanel::setStoredVerification(qint64 requestId,
                                                 const std::optional<ReplayVerification> &verification,
                                                 const QString &error)
{
    if (requestId != currentRequestId() || requestId == m_liveVerificationId)
        return;
    m_shownVerificationId = requestId;
    m_outcomes->clear();
    if (!error.isEmpty()) {
        m_verification->setText(DlqBrowserModel::visibleText(
            tr("Could not read the verification recorded for request %1: %2").arg(requestId).arg(error)));
        m_verification->setStyleSheet(u"color: #b00020;"_s);
    } else if (!verification) {
        m_verification->setText(tr("No verification recorded for request %1.").arg(requestId));
        m_verification->setStyleSheet(QString());
    } else {
        showVerification(*verification, true,
                         tr("Recorded %1 (audit event %2): ")
                             .arg(verification->recordedAt.toUTC().toString(u"yyyy-MM-dd HH:mm:ss 'UTC'"_s))
                             .arg(verification->eventSeq));
    }
}

void ReplayExecutionPanel::setVerification(const ReplayVerification &v, bool final)
{
    m_shownVerificationId = v.requestId;
    m_liveVerificationId = v.requestId;
    showVerification(v, final, QString());
}

void ReplayExecutionPanel::showVerification(const ReplayVerification &v, bool final, const QString &recorded)
{
    if (!v.error.isEmpty()) {
        m_verification->setText(DlqBrowserModel::visibleText(
            tr("Request %1 cannot be verified: %2").arg(v.requestId).arg(v.error)));
        m_verification->setStyleSheet(u"color: #b00020;"_s);
        return;
    }
    if (v.isOffsetReset()) {
        m_verification->setText(DlqBrowserModel::visibleText(
            recorded
            + tr("Request %1, offset reset of group %2 on %3: %4 from the committed offsets read back")
                  .arg(v.requestId)
                  .arg(v.consumer, v.resetTopic,
                       v.result == VerificationResult::Verified
                           ? tr("verified")
                           : tr("verified with failures (some partitions are not at their targets)"))));
        m_verification->setStyleSheet(v.result == VerificationResult::Verified ? QString()
                                                                               : u"color: #b00020;"_s);
        m_outcomes->setPlainText(resetPartitionLines(v.resetPartitions).join(u'\n')); // numbers only
        return;
    }
    const QLocale locale;
    QStringList counts;
    for (int o = 0; o < VerifyOutcomeCount; ++o) {
        if (v.counts[size_t(o)] > 0)
            counts << tr("%1 %2").arg(locale.toString(v.counts[size_t(o)]), outcomeText(VerifyOutcome(o)));
    }
    QString result;
    switch (v.result) {
    case VerificationResult::Verified:
        result = tr("verified");
        break;
    case VerificationResult::VerifiedWithFailures:
        result = tr("verified with failures");
        break;
    case VerificationResult::Unverified:
        result = final ? tr("unverified: still pending when the wait ended (verify again later)")
                       : tr("following…");
        break;
    }
    const QString predicted =
        v.predicted ? locale.toString(v.predictedNoOpRate * 100.0, 'f', 1) + u'%' : tr("unknown");
    QString text = recorded
                   + tr("Request %1 at %2: %3 — %4 — no-op rate observed %5%, predicted %6")
                         .arg(v.requestId)
                         .arg(v.consumer, result, counts.join(u", "_s),
                              locale.toString(v.observedNoOpRate * 100.0, 'f', 1), predicted);
    if (!v.alsoReceives.isEmpty())
        text += tr(" (also receives: %1)").arg(v.alsoReceives.join(u", "_s));
    for (const QString &note : v.notes)
        text += u"\n"_s + note;
    m_verification->setText(DlqBrowserModel::visibleText(text));
    m_verification->setStyleSheet(v.result == VerificationResult::Verified || (!final && v.failures() == 0)
                                      ? QString()
                                      : u"color: #b00020;"_s);
    // Each item's outcome; the unresolved ones first.
    QStringList lines;
    constexpr int MaxLines = 500;
    for (int pass = 0; pass < 2; ++pass) {
        for (const VerifiedItem &item : v.items) {
            const bool open = item.outcome == VerifyOutcome::Pending || isVerifyFailure(item.outcome);
            if ((pass == 0) != open || lines.size() >= MaxLines)
                continue;
            const QString detail = DlqBrowserModel::visibleText(item.detail);
            lines << tr("item %1 (%2): %3%4")
                         .arg(item.itemNo)
                         .arg(item.replayId,
                              item.outcome == VerifyOutcome::ReturnedToDlq && !detail.isEmpty()
                                  ? tr("back in the DLQ at %1").arg(detail)
                                  : outcomeText(item.outcome),
                              item.outcome == VerifyOutcome::ReturnedToDlq || detail.isEmpty()
                                  ? QString()
                                  : u" — "_s + detail);
        }
    }
    m_outcomes->setPlainText(lines.join(u'\n'));
}

QByteArray ReplayExecutionPanel::saveState() const
{
    return ViewState::save(m_split, m_table->horizontalHeader());
}

void ReplayExecutionPanel::restoreState(const QByteArray &state)
{
    const QList<int> before = m_split->sizes();
    ViewState::restore(m_split, m_table->horizontalHeader(), state);
    m_splitPlaced = m_split->sizes() != before;
}

void ReplayExecutionPanel::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    // Laid out while hidden, the split follows the size hints, which leave the list a couple of rows once
    // the detail pane under it fills: the first time it is shown, the list gets two fifths of the height.
    if (!m_splitPlaced && m_split->height() > 0) {
        m_splitPlaced = true;
        const int total = m_split->height() - m_split->handleWidth();
        m_split->setSizes({total * 2 / 5, total - total * 2 / 5});
    }
}

void ReplayExecutionPanel::setStartRefused(const QString &why)
{
    m_runningId = 0;
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_progressText->clear();
    setResult(why, true);
    updateButtons();
}

void ReplayExecutionPanel::showRunbookResult(const QString &path, const QString &error)
{
    if (error.isEmpty())
        setResult(tr("Runbook written to %1").arg(path), false);
    else
        setResult(tr("Could not write the runbook to %1: %2").arg(path, error), true);
}

void ReplayExecutionPanel::setResult(const QString &text, bool problem)
{
    m_result->setText(DlqBrowserModel::visibleText(text));
    m_result->setStyleSheet(problem ? u"color: #b00020;"_s : QString());
}
