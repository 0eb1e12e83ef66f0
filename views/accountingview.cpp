#include "views/accountingview.h"

#include "views/dlqinspectorview.h"
#include "views/tablecolumns.h"
#include "views/timeaxisticker.h"

#include "models/accountingmodel.h"
#include "views/qcustomplotinclude.h"

#include <QComboBox>
#include <QDateTime>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QShortcut>
#include <QSplitter>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace {
QColor classColor(AccountClass c)
{
    switch (c) {
    case AccountClass::Processed:
        return QColor(0x4c, 0xa0, 0x5a);
    case AccountClass::Duplicate:
        return QColor(0x9c, 0xc7, 0x8f);
    case AccountClass::InFlight:
        return QColor(0x4a, 0x84, 0xc4);
    case AccountClass::DeadLettered:
        return QColor(0xe0, 0x8a, 0x2c);
    case AccountClass::Parked:
        return QColor(0xa0, 0x6c, 0xc0);
    case AccountClass::Skipped:
        return QColor(0x8c, 0x8c, 0x8c);
    case AccountClass::NotConsumed:
        return QColor(0xc8, 0xc8, 0xc8);
    case AccountClass::Aborted:
        return QColor(0x60, 0x60, 0x60);
    case AccountClass::Unaccounted:
        return QColor(0xc0, 0x20, 0x20);
    }
    return Qt::black;
}
} // namespace

AccountingView::AccountingView(AccountingModel *model, DlqScanner *records, DlqScanner *deadLetters,
                               QWidget *parent)
    : QWidget(parent)
    , m_model(model)
    , m_group(new QComboBox(this))
    , m_topic(new QLineEdit(this))
    , m_from(new QLineEdit(u"beginning"_s, this))
    , m_to(new QLineEdit(this))
    , m_run(new QPushButton(tr("&Account"), this))
    , m_cancel(new QPushButton(tr("Cancel"), this))
    , m_progress(new QProgressBar(this))
    , m_status(new QLabel(this))
    , m_counts(new QTableWidget(AccountClassCount, 2, this))
    , m_summary(new QLabel(this))
    , m_semantics(new QLabel(this))
    , m_chart(new QCustomPlot(this))
    , m_table(new QTableView(this))
    , m_exportCsv(new QPushButton(tr("Export CSV\u2026"), this))
    , m_exportJson(new QPushButton(tr("Export JSON lines\u2026"), this))
    , m_replay(new QPushButton(tr("Request &replay\u2026"), this))
    , m_charts(new QTabWidget(this))
    , m_tail(new QTableWidget(0, 7, this))
    , m_tailState(new QLabel(this))
    , m_inspectors(new QTabWidget(this))
    , m_recordInspector(new DlqInspectorView(records, this))
    , m_deadLetterInspector(new DlqInspectorView(deadLetters, this))
{
    m_group->setEditable(true);
    m_group->setMinimumContentsLength(18);
    m_topic->setPlaceholderText(tr("topic"));
    m_from->setToolTip(tr("beginning, end, end-N, offset:N or time:<ISO-8601 or epoch ms>"));
    m_to->setPlaceholderText(tr("end (when the run starts)"));
    m_to->setMinimumWidth(fontMetrics().horizontalAdvance(m_to->placeholderText()) + 24);
    m_to->setToolTip(m_from->toolTip());
    m_run->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return));
    m_run->setToolTip(tr("Account for every record of the window (Ctrl+Return)"));
    m_cancel->setEnabled(false);
    auto *escape = new QShortcut(QKeySequence(Qt::Key_Escape), this);
    escape->setContext(Qt::WidgetWithChildrenShortcut);
    connect(escape, &QShortcut::activated, m_cancel, &QPushButton::click);
    m_progress->setVisible(false);
    m_status->setTextFormat(Qt::PlainText);
    m_status->setWordWrap(true);
    m_summary->setTextFormat(Qt::PlainText);
    m_summary->setWordWrap(true);
    m_semantics->setTextFormat(Qt::PlainText);
    m_semantics->setWordWrap(true);

    auto *form = new QHBoxLayout;
    form->addWidget(new QLabel(tr("Consumer group:"), this));
    form->addWidget(m_group, 2);
    form->addWidget(new QLabel(tr("Topic:"), this));
    form->addWidget(m_topic, 2);
    form->addWidget(new QLabel(tr("From:"), this));
    form->addWidget(m_from, 1);
    form->addWidget(new QLabel(tr("To:"), this));
    form->addWidget(m_to, 1);
    form->addWidget(m_run);
    form->addWidget(m_cancel);

    m_counts->setHorizontalHeaderLabels({tr("Class"), tr("Records")});
    TableColumns::apply(m_counts);
    m_counts->verticalHeader()->setVisible(false);
    m_counts->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_counts->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_counts->setSelectionMode(QAbstractItemView::ExtendedSelection);
    for (int c = 0; c < AccountClassCount; ++c) {
        auto *name = new QTableWidgetItem(AccountingModel::className(AccountClass(c)));
        name->setData(Qt::DecorationRole, classColor(AccountClass(c)));
        m_counts->setItem(c, 0, name);
        auto *count = new QTableWidgetItem(u"\u2014"_s);
        count->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        m_counts->setItem(c, 1, count);
    }
    m_counts->setMinimumWidth(fontMetrics().horizontalAdvance(u"Dead-lettered 0000000000"_s) + 60);
    m_counts->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 8);
    m_counts->setMinimumHeight((fontMetrics().height() + 8) * AccountClassCount
                               + m_counts->horizontalHeader()->sizeHint().height() + 4);
    m_counts->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_counts->setToolTip(tr("Choose classes to list their records below"));
    connect(m_counts, &QTableWidget::itemSelectionChanged, this, &AccountingView::classesChosen);

    // The counts, the summary and the semantics verdict wrap to the side's width and may need more height
    // than the splitter gives the top: they scroll together there rather than paint over each other.
    auto *side = new QWidget;
    auto *sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(0, 0, 0, 0);
    sideLayout->addWidget(m_counts, 1);
    sideLayout->addWidget(m_summary);
    sideLayout->addWidget(m_semantics);
    m_side = new QScrollArea(this);
    m_side->setWidget(side);
    m_side->setWidgetResizable(true);
    m_side->setFrameShape(QFrame::NoFrame);
    m_side->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_side->setMinimumWidth(m_counts->minimumWidth() + style()->pixelMetric(QStyle::PM_ScrollBarExtent));

    m_chart->setMinimumHeight(180);
    m_chart->xAxis->setTicker(QSharedPointer<TimeAxisTicker>::create());
    m_chart->xAxis->setLabel(tr("Record time, local (%1)").arg(u"HH:mm"_s));
    m_chart->yAxis->setLabel(tr("Records per minute"));
    m_chart->legend->setVisible(true);
    m_chart->legend->setFont(font());
    m_chart->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);

    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->verticalHeader()->setVisible(false);
    m_table->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    TableColumns::apply(m_table);
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &AccountingView::updateButtons);
    connect(m_model, &QAbstractItemModel::modelReset, this, &AccountingView::updateButtons);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) { inspect(current); });
    connect(m_model, &QAbstractItemModel::modelReset, this, [this] { inspect({}); });
    m_inspectors->addTab(m_recordInspector, tr("Record"));
    m_inspectors->addTab(m_deadLetterInspector, tr("Dead letter"));
    inspect({});

    m_tail->setHorizontalHeaderLabels(
        {tr("Topic"), tr("Records"), tr("Gaps"), tr("Out of order"), tr("Repeated"), tr("DLQ and continue"),
         tr("Example keys")});
    m_tail->verticalHeader()->setVisible(false);
    m_tail->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_tail->setSelectionBehavior(QAbstractItemView::SelectRows);
    TableColumns::apply(m_tail);
    m_tailState->setTextFormat(Qt::PlainText);
    m_tailState->setWordWrap(true);
    m_tailState->setText(tr("No topic of the delivery policy names a sequence field: nothing to follow."));
    auto *tailPage = new QWidget(this);
    auto *tailLayout = new QVBoxLayout(tailPage);
    tailLayout->setContentsMargins(0, 0, 0, 0);
    tailLayout->addWidget(m_tailState);
    tailLayout->addWidget(m_tail, 1);
    m_charts->addTab(m_chart, tr("Per minute"));
    m_charts->addTab(tailPage, tr("Live order tail"));

    auto *top = new QSplitter(Qt::Horizontal, this);
    top->addWidget(m_side);
    top->addWidget(m_charts);
    // The side holds the counts, summary and verdict, which wrap: wide enough that they rarely scroll.
    top->setStretchFactor(0, 1);
    top->setStretchFactor(1, 2);
    auto *split = new QSplitter(Qt::Vertical, this);
    auto *bottom = new QSplitter(Qt::Horizontal, this);
    bottom->addWidget(m_table);
    bottom->addWidget(m_inspectors);
    bottom->setStretchFactor(0, 3);
    bottom->setStretchFactor(1, 2);
    split->addWidget(top);
    split->addWidget(bottom);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_status, 1);
    buttons->addWidget(m_exportCsv);
    buttons->addWidget(m_exportJson);
    buttons->addWidget(m_replay);
    m_replay->setToolTip(
        tr("Request a replay of the selected unaccounted or dead-lettered records (four-eyes)"));

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_progress);
    layout->addWidget(split, 1);
    layout->addLayout(buttons);

    connect(m_run, &QPushButton::clicked, this, &AccountingView::requestRun);
    connect(m_cancel, &QPushButton::clicked, this, [this] { Q_EMIT cancelRequested(); });
    connect(m_exportCsv, &QPushButton::clicked, this, [this] { exportTo(true); });
    connect(m_exportJson, &QPushButton::clicked, this, [this] { exportTo(false); });
    connect(m_replay, &QPushButton::clicked, this, [this] {
        QList<DlqSelection> records;
        const AccountingResultPtr result = m_model->result();
        for (const QModelIndex &index : m_table->selectionModel()->selectedRows()) {
            const AccountedRecord *r = m_model->recordAt(index.row());
            if (r && (r->cls == AccountClass::Unaccounted || r->cls == AccountClass::DeadLettered))
                records.append({result->topic, r->partition, r->offset});
        }
        if (!records.isEmpty())
            Q_EMIT replayRequested(records);
    });
    updateButtons();
}

void AccountingView::setGroups(const QStringList &groups)
{
    const QString current = m_group->currentText();
    m_group->clear();
    m_group->addItems(groups);
    m_group->setCurrentText(current.isEmpty() && !groups.isEmpty() ? groups.first() : current);
}

void AccountingView::requestRun()
{
    const QString group = m_group->currentText().trimmed();
    const QString topic = m_topic->text().trimmed();
    if (group.isEmpty() || topic.isEmpty()) {
        m_status->setText(tr("Name a consumer group and a topic."));
        return;
    }
    m_run->setEnabled(false);
    m_cancel->setEnabled(true);
    m_progress->setVisible(true);
    m_progress->setRange(0, 0);
    m_status->setText(tr("Accounting %1 on %2\u2026").arg(group, topic));
    Q_EMIT runRequested(group, topic, m_from->text().trimmed(), m_to->text().trimmed());
}

void AccountingView::setProgress(const AccountingProgress &progress)
{
    if (progress.total > 0) {
        m_progress->setRange(0, 1000);
        m_progress->setValue(int(std::min<qint64>(1000, progress.records * 1000 / progress.total)));
    }
    m_status->setText(
        tr("%1: %2 of %3 records").arg(progress.stage).arg(progress.records).arg(progress.total));
}

void AccountingView::setResult(const AccountingResultPtr &result)
{
    m_run->setEnabled(true);
    m_cancel->setEnabled(false);
    m_progress->setVisible(false);
    if (result->cancelled) {
        m_status->setText(tr("Cancelled; nothing was decided."));
        return;
    }
    if (!result->error.isEmpty()) {
        m_status->setText(tr("The accounting failed: %1").arg(result->error));
        return;
    }
    m_model->setResult(result);
    for (int c = 0; c < AccountClassCount; ++c)
        m_counts->item(c, 1)->setText(QLocale().toString(result->counts[size_t(c)]));
    QStringList lines;
    lines << tr("%1 records of %2 for %3; %4 with notes.")
                 .arg(QLocale().toString(qint64(result->records.size())), result->topic, result->group)
                 .arg(result->notes);
    lines << tr("Key: %1. Dead letters from: %2. Inbox: %3.")
                 .arg(result->keySource,
                      result->dlqTopics.isEmpty() ? tr("no DLQ topic") : result->dlqTopics.join(u", "_s),
                      result->inboxChecked ? tr("checked") : tr("none (processed records are unverified)"));
    lines << tr("Order: %1 gaps, %2 out of order, %3 repeated, %4 DLQ-and-continue breaks.")
                 .arg(result->sequenceCount(SequenceFinding::Kind::Gap))
                 .arg(result->sequenceCount(SequenceFinding::Kind::OutOfOrder))
                 .arg(result->sequenceCount(SequenceFinding::Kind::Repeat))
                 .arg(result->sequenceCount(SequenceFinding::Kind::DlqAndContinue));
    for (const AccountingPartition &p : result->partitions) {
        if (p.caughtUpBehindMarkers)
            lines << tr("Partition %1 is caught up: only transaction markers follow its last record.")
                         .arg(p.partition);
    }
    lines += result->messages;
    m_summary->setText(lines.join(u'\n'));
    const qint64 lost = result->count(AccountClass::Unaccounted);
    m_status->setText(lost ? tr("%1 unaccounted record(s): possible loss.").arg(lost)
                           : tr("Every record is accounted for."));
    redrawChart();
    // Show what needs attention first.
    if (lost)
        m_counts->selectRow(int(AccountClass::Unaccounted));
    updateButtons();
}

void AccountingView::setSemantics(const QString &verdict, const QStringList &contradictions)
{
    m_semantics->setText(contradictions.isEmpty() ? verdict : verdict + u"\n"_s + contradictions.join(u'\n'));
    m_semantics->setStyleSheet(contradictions.isEmpty() ? QString() : u"color: #b02020;"_s);
}

void AccountingView::showExported(const QString &path, qint64 records, const QString &error)
{
    m_status->setText(error.isEmpty() ? tr("Exported %1 records to %2.").arg(records).arg(path)
                                      : tr("The export to %1 failed: %2").arg(path, error));
}

QList<AccountClass> AccountingView::chosenClasses() const
{
    QList<AccountClass> classes;
    for (const QModelIndex &index : m_counts->selectionModel()->selectedRows())
        classes << AccountClass(index.row());
    return classes;
}

void AccountingView::classesChosen()
{
    const QList<AccountClass> chosen = chosenClasses();
    m_model->setClasses(QSet<AccountClass>(chosen.cbegin(), chosen.cend()));
}

void AccountingView::redrawChart()
{
    m_chart->clearPlottables();
    QCPBars *below = nullptr;
    double lo = 0, hi = 0, top = 0;
    QMap<qint64, double> stacked;
    for (int c = 0; c < AccountClassCount; ++c) {
        const QMap<qint64, qint64> minutes = m_model->perMinute(AccountClass(c));
        if (minutes.isEmpty())
            continue;
        auto *bars = new QCPBars(m_chart->xAxis, m_chart->yAxis);
        bars->setName(AccountingModel::className(AccountClass(c)));
        bars->setBrush(classColor(AccountClass(c)));
        bars->setPen(Qt::NoPen);
        bars->setWidth(55);
        QVector<double> keys, values;
        for (auto it = minutes.cbegin(); it != minutes.cend(); ++it) {
            const double x = double(it.key()) * 60.0 + 30.0;
            keys << x;
            values << double(it.value());
            stacked[it.key()] += double(it.value());
            lo = lo == 0 ? x : std::min(lo, x);
            hi = std::max(hi, x);
        }
        bars->setData(keys, values, true);
        if (below)
            bars->moveAbove(below);
        below = bars;
    }
    for (const double v : std::as_const(stacked))
        top = std::max(top, v);
    m_chart->xAxis->setRange(lo - 60, hi + 60);
    // The labels' format follows the window's span; the axis label names it.
    if (const auto ticker = qSharedPointerDynamicCast<TimeAxisTicker>(m_chart->xAxis->ticker()))
        m_chart->xAxis->setLabel(tr("Record time, local (%1)").arg(ticker->formatFor(m_chart->xAxis->range().size())));
    m_chart->yAxis->setRange(0, std::max(1.0, top * 1.15));
    m_chart->replot(QCustomPlot::rpQueuedReplot);
}

void AccountingView::updateButtons()
{
    const bool have = m_model->result() && !m_model->result()->records.empty();
    m_exportCsv->setEnabled(have);
    m_exportJson->setEnabled(have);
    bool replayable = false;
    if (have) {
        for (const QModelIndex &index : m_table->selectionModel()->selectedRows()) {
            const AccountedRecord *r = m_model->recordAt(index.row());
            if (r && (r->cls == AccountClass::Unaccounted || r->cls == AccountClass::DeadLettered)) {
                replayable = true;
                break;
            }
        }
    }
    m_replay->setEnabled(replayable);
}

void AccountingView::exportTo(bool csv)
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Export records"), QString(),
                                                      csv ? tr("CSV (*.csv)") : tr("JSON lines (*.jsonl)"));
    if (!path.isEmpty())
        Q_EMIT exportRequested(chosenClasses(), csv, path);
}

void AccountingView::inspect(const QModelIndex &current)
{
    const AccountedRecordFields f = m_model->fields(current.isValid() ? current.row() : -1);
    if (f.partition < 0) {
        m_recordInspector->clear(tr("Select a record to inspect it."));
        m_deadLetterInspector->clear(tr("Select a dead-lettered record to see its dead letter."));
        m_inspectors->setTabEnabled(1, false);
        return;
    }
    QList<std::pair<QString, QString>> context{{tr("Accounted as"), AccountingModel::className(f.cls)}};
    if (f.hasSequence())
        context.append({tr("Sequence"), QString::number(f.sequence)});
    context.append({tr("Notes"), f.notes.join(u", "_s)});
    if (f.hasDeadLetter())
        context.append({tr("Dead letter"),
                        tr("%1 [%2] @ %3").arg(f.deadLetterTopic).arg(f.deadLetterPartition).arg(f.deadLetterOffset)});
    m_recordInspector->showRecordAt(m_cluster, f.topic, f.partition, f.offset, context);
    m_inspectors->setTabEnabled(1, f.hasDeadLetter());
    if (f.hasDeadLetter()) {
        m_deadLetterInspector->showRecordAt(
            m_cluster, f.deadLetterTopic, f.deadLetterPartition, f.deadLetterOffset,
            {{tr("Dead letter of"), tr("%1 [%2] @ %3").arg(f.topic).arg(f.partition).arg(f.offset)},
             {tr("Accounted as"), AccountingModel::className(f.cls)}});
    } else {
        m_deadLetterInspector->clear(tr("No dead letter of this record was read from the DLQ topics."));
        if (m_inspectors->currentIndex() == 1)
            m_inspectors->setCurrentIndex(0);
    }
}

void AccountingView::setOrderTail(const OrderTailStats &stats)
{
    using Kind = SequenceFinding::Kind;
    QStringList topics = stats.topics.keys();
    topics.sort();
    m_tail->setRowCount(int(topics.size()));
    qint64 recent = 0;
    for (int row = 0; row < topics.size(); ++row) {
        const OrderTailStats::Topic &t = stats.topics.value(topics[row]);
        recent += t.recentBreaks;
        QStringList keys;
        for (const Kind kind : {Kind::Gap, Kind::OutOfOrder, Kind::Repeat, Kind::DlqAndContinue}) {
            for (const QString &key : t.examples[size_t(kind)])
                keys << key;
        }
        keys.removeDuplicates();
        const QStringList cells{topics[row], QLocale().toString(t.examined), QLocale().toString(t.count(Kind::Gap)),
                                QLocale().toString(t.count(Kind::OutOfOrder)), QLocale().toString(t.count(Kind::Repeat)),
                                QLocale().toString(t.count(Kind::DlqAndContinue)), keys.join(u", "_s)};
        for (int c = 0; c < cells.size(); ++c) {
            QTableWidgetItem *item = m_tail->item(row, c);
            if (!item) {
                item = new QTableWidgetItem;
                if (c > 0 && c < 6)
                    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
                m_tail->setItem(row, c, item);
            }
            item->setText(cells[c]);
        }
    }
    if (!stats.error.isEmpty())
        m_tailState->setText(tr("The live order tail cannot read: %1").arg(stats.error));
    else
        m_tailState->setText(
            tr("Following %n topic(s) from their end, per record key (%1 keys held; the oldest are forgotten "
               "beyond the bound). %2 order break(s) in the last %3 min.",
               nullptr, int(topics.size()))
                .arg(QLocale().toString(stats.keysTracked))
                .arg(recent)
                .arg(stats.windowSeconds / 60));
    m_charts->setTabText(1, recent ? tr("Live order tail (%1)").arg(recent) : tr("Live order tail"));
}
