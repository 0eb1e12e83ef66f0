#include "dlqbrowserview.h"

#include "views/tablecolumns.h"

#include "cachedtextdelegate.h"
#include "dlqinspectorview.h"
#include "flatscrollbars.h"
#include "models/dlqbrowsermodel.h"
#include "models/failuregroupmodel.h"
#include "remediationwidgets.h"
#include "services/dlq/dlqscanner.h"
#include "services/payload/fieldfilter.h"

#include <QAction>
#include <QComboBox>
#include <QDataStream>
#include <QDateTimeEdit>
#include <QDir>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPointer>
#include <QProgressBar>
#include <QProgressDialog>
#include <QPushButton>
#include <QRegularExpressionValidator>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace {
QString duration(qint64 ms)
{
    const qint64 s = (ms + 999) / 1000;
    return s >= 3600 ? QString::asprintf("%lld:%02lld:%02lld", s / 3600, (s / 60) % 60, s % 60)
                     : QString::asprintf("%lld:%02lld", s / 60, s % 60);
}

QLabel *plainLabel(QWidget *parent)
{
    auto *label = new QLabel(parent);
    label->setTextFormat(Qt::PlainText);
    return label;
}
} // namespace

void DlqBrowserView::setUpEntryTable(QTableView *table, DlqBrowserModel *model)
{
    table->setModel(model);
    table->setItemDelegate(new CachedTextDelegate(table)); // repaints per scan batch stay cheap
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    table->setAlternatingRowColors(true);
    table->setWordWrap(false);
    // A million rows: fixed row heights, so the view never measures rows.
    table->verticalHeader()->hide();
    table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 6);
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    table->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    table->setSortingEnabled(true); // the model sorts, as a background job
    TableColumns::apply(table);     // the inspector beside it is the row's detail pane
    FlatScrollBars::apply(table); // it repaints with every batch of a scan
}

DlqBrowserView::DlqBrowserView(DlqScanner *scanner, QWidget *parent)
    : QWidget(parent)
    , m_scanner(scanner)
    , m_model(new DlqBrowserModel(this))
    , m_groups(new FailureGroupModel(this))
    , m_groupProxy(new QSortFilterProxyModel(this))
    , m_topic(new QComboBox(this))
    , m_partitions(new QLineEdit(this))
    , m_start(new QComboBox(this))
    , m_startValue(new QLineEdit(this))
    , m_startTime(new QDateTimeEdit(this))
    , m_scan(new QPushButton(tr("Scan"), this))
    , m_tail(new QPushButton(tr("Live tail"), this))
    , m_cancel(new QPushButton(tr("Cancel"), this))
    , m_progress(new QProgressBar(this))
    , m_progressText(plainLabel(this))
    , m_notes(plainLabel(this))
    , m_filter(new QLineEdit(this))
    , m_filterState(plainLabel(this))
    , m_fieldFilter(new QLineEdit(this))
    , m_fieldCancel(new QPushButton(tr("Stop"), this))
    , m_fieldState(plainLabel(this))
    , m_allGroups(new QPushButton(tr("All groups"), this))
    , m_poison(plainLabel(this))
    , m_groupTable(new QTableView(this))
    , m_table(new QTableView(this))
    , m_inspector(new DlqInspectorView(scanner, this))
    , m_outer(new QSplitter(Qt::Horizontal, this))
    , m_inner(new QSplitter(Qt::Vertical, this))
    , m_filterDebounce(new QTimer(this))
{
    m_topic->setEditable(true);
    m_topic->setInsertPolicy(QComboBox::NoInsert);
    m_topic->setMinimumContentsLength(24);
    m_topic->setToolTip(tr("Dead-letter topic to scan"));
    m_partitions->setPlaceholderText(tr("all partitions"));
    m_partitions->setToolTip(tr("Partitions to read: empty for all, or e.g. 0,2,5-7"));
    m_partitions->setValidator(
        new QRegularExpressionValidator(QRegularExpression(u"^[0-9,\\- ]*$"_s), m_partitions));
    m_partitions->setMaximumWidth(120);
    m_start->addItem(tr("From the beginning"), int(DlqScanRequest::Start::Beginning));
    m_start->addItem(tr("Last N per partition"), int(DlqScanRequest::Start::LastN));
    m_start->addItem(tr("From offset"), int(DlqScanRequest::Start::Offset));
    m_start->addItem(tr("From time"), int(DlqScanRequest::Start::Timestamp));
    m_start->addItem(tr("From the end (new records only)"), int(DlqScanRequest::Start::End));
    m_startValue->setValidator(
        new QRegularExpressionValidator(QRegularExpression(u"^[0-9]{1,18}$"_s), m_startValue));
    m_startValue->setText(u"1000"_s);
    m_startValue->setMaximumWidth(120);
    m_startTime->setDisplayFormat(u"yyyy-MM-dd HH:mm:ss"_s);
    m_startTime->setTimeSpec(Qt::UTC);
    m_startTime->setDateTime(QDateTime::currentDateTimeUtc().addSecs(-3600));
    m_startTime->setToolTip(tr("UTC"));
    m_scan->setToolTip(tr("Read up to the end offsets as they are now"));
    m_tail->setToolTip(tr("Read and keep reading new dead letters as they arrive"));
    m_progress->setRange(0, 1000);
    m_progress->setTextVisible(false);
    m_progress->setMaximumHeight(m_progress->fontMetrics().height());
    m_notes->setWordWrap(true);
    m_notes->hide();
    // Short enough to show whole beside the buttons at the groups panel's default width.
    m_filter->setPlaceholderText(tr("Filter: key, reason, exception, idempotency key"));
    m_filter->setToolTip(tr("Filter by key, reason, exception or idempotency key (Ctrl+F)"));
    m_filter->setClearButtonEnabled(true);
    m_filterDebounce->setSingleShot(true);
    m_filterDebounce->setInterval(250);

    m_groupProxy->setSourceModel(m_groups);
    m_groupProxy->setSortRole(FailureGroupModel::SortRole);
    m_groupProxy->setDynamicSortFilter(true);
    m_groupTable->setModel(m_groupProxy);
    m_groupTable->setSortingEnabled(true);
    m_groupTable->sortByColumn(FailureGroupModel::Count, Qt::DescendingOrder);
    m_groupTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    FlatScrollBars::apply(m_groupTable); // updates with every batch too, and looks as the entry table does
    m_groupTable->setSelectionMode(QAbstractItemView::SingleSelection);
    m_groupTable->verticalHeader()->hide();
    // Elided in the middle, so patterns that share a long beginning read apart; whole in the tooltip.
    TableColumns::apply(m_groupTable)->setMaxChars(FailureGroupModel::Pattern, 60);
    // The pattern tells groups apart at a glance (they often share one wrapper exception): show it first.
    m_groupTable->horizontalHeader()->moveSection(FailureGroupModel::Pattern, FailureGroupModel::Exception);
    m_groupTable->horizontalHeader()->moveSection(FailureGroupModel::Cause, FailureGroupModel::Exception + 1);

    setUpEntryTable(m_table, m_model);

    auto *controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Topic"), this));
    controls->addWidget(m_topic, 2);
    controls->addWidget(m_partitions);
    controls->addWidget(m_start);
    controls->addWidget(m_startValue);
    controls->addWidget(m_startTime);
    controls->addWidget(m_scan);
    controls->addWidget(m_tail);
    controls->addWidget(m_cancel);
    auto *progress = new QHBoxLayout;
    progress->addWidget(m_progress, 1);
    progress->addWidget(m_progressText, 2);

    auto *groupsPanel = new QWidget(this);
    auto *groupsLayout = new QVBoxLayout(groupsPanel);
    groupsLayout->setContentsMargins(0, 0, 0, 0);
    auto *groupsTop = new QHBoxLayout;
    groupsTop->addWidget(new QLabel(tr("Failure groups"), groupsPanel), 1);
    groupsTop->addWidget(m_allGroups);
    groupsLayout->addLayout(groupsTop);
    groupsLayout->addWidget(m_poison);
    groupsLayout->addWidget(m_groupTable, 1);

    auto *tablePanel = new QWidget(this);
    auto *tableLayout = new QVBoxLayout(tablePanel);
    tableLayout->setContentsMargins(0, 0, 0, 0);
    auto *filterRow = new QHBoxLayout;
    filterRow->addWidget(m_filter, 1);
    filterRow->addWidget(m_filterState);
    m_fieldFilter->setPlaceholderText(tr("Field filter: $.customer.id == \"c-42\" and $.amount > 100 (Enter)"));
    m_fieldFilter->setToolTip(
        tr("Filter by decoded payload fields (Ctrl+Shift+F, Enter to run): paths $.a.b[0].c; == != < <= > >= "
           "contains exists; and, or, parentheses. Payloads are read back from the brokers; masked fields "
           "cannot be searched by value."));
    m_fieldFilter->setClearButtonEnabled(true);
    m_fieldCancel->setToolTip(tr("Stop the field filter"));
    m_fieldCancel->hide();
    filterRow->addWidget(m_fieldFilter, 1);
    filterRow->addWidget(m_fieldCancel);
    filterRow->addWidget(m_fieldState);
    connect(m_fieldFilter, &QLineEdit::returnPressed, this, &DlqBrowserView::runFieldFilter);
    connect(m_fieldFilter, &QLineEdit::textChanged, this, [this](const QString &text) {
        if (text.trimmed().isEmpty() && (m_fieldMatches || (m_scanner && m_scanner->isFilteringFields())))
            clearFieldFilter();
    });
    connect(m_fieldCancel, &QPushButton::clicked, this, &DlqBrowserView::clearFieldFilter);
    auto *fieldShortcut = new QAction(tr("Filter by payload field"), this);
    fieldShortcut->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F));
    fieldShortcut->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(fieldShortcut, &QAction::triggered, this, [this] {
        m_fieldFilter->setFocus();
        m_fieldFilter->selectAll();
    });
    addAction(fieldShortcut);
    auto *exportButton = new QPushButton(tr("E&xport…"), tablePanel);
    exportButton->setToolTip(tr("Write the rows as shown (filtered and sorted) to CSV or JSON lines"));
    connect(exportButton, &QPushButton::clicked, this, [this] {
        QString filter;
        const QString path =
            QFileDialog::getSaveFileName(this, tr("Export dead letters"), m_model->topic() + u".csv"_s,
                                         tr("CSV (*.csv);;JSON lines (*.jsonl)"), &filter);
        if (!path.isEmpty())
            exportRows(path);
    });
    filterRow->addWidget(exportButton);
    // Remediation starts from the rows the operator picked: one or many, by button, menu or Ctrl+R.
    QAction *remediate = RemediationWidgets::addRequestAction(
        this, m_table, filterRow, tr("&Request replay / skip…"),
        tr("File a replay, edit, or skip request for the selected dead letters (Ctrl+R)"));
    connect(remediate, &QAction::triggered, this, &DlqBrowserView::requestRemediation);
    tableLayout->addLayout(filterRow);
    tableLayout->addWidget(m_table, 1);
    m_inner->addWidget(tablePanel);
    m_inner->addWidget(m_inspector);
    m_inner->setStretchFactor(0, 3);
    m_inner->setStretchFactor(1, 2);
    m_outer->addWidget(groupsPanel);
    m_outer->addWidget(m_inner);
    m_outer->setStretchFactor(0, 2);
    m_outer->setStretchFactor(1, 5);
    // The groups need room for a count and a pattern: at the demo's window size about 390 pixels.
    m_outer->setSizes({540, 860});

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addLayout(progress);
    layout->addWidget(m_notes);
    layout->addWidget(m_outer, 1);

    connect(m_start, &QComboBox::currentIndexChanged, this, &DlqBrowserView::updateStartEditors);
    connect(m_scan, &QPushButton::clicked, this, [this] { startScan(false); });
    connect(m_tail, &QPushButton::clicked, this, [this] { startScan(true); });
    connect(m_cancel, &QPushButton::clicked, this, &DlqBrowserView::cancelScan);
    connect(m_filter, &QLineEdit::textChanged, m_filterDebounce, qOverload<>(&QTimer::start));
    connect(m_filterDebounce, &QTimer::timeout, this, &DlqBrowserView::applyFilter);
    connect(m_allGroups, &QPushButton::clicked, m_groupTable, &QAbstractItemView::clearSelection);
    connect(m_groupTable->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &DlqBrowserView::onGroupSelected);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &DlqBrowserView::onCurrentRowChanged);
    connect(m_model, &DlqBrowserModel::filteringChanged, this, [this](bool running) {
        if (running)
            m_filterState->setText(tr("Filtering…"));
    });
    connect(m_model, &DlqBrowserModel::filterApplied, this, [this](int rows, qint64) {
        const QLocale locale;
        m_filterState->setText(
            m_model->filter().filters()
                ? tr("%1 of %2").arg(locale.toString(rows), locale.toString(m_model->entryCount()))
                : QString());
    });
    // Filtering and sorting swap the row order in: keep the record being inspected selected.
    connect(m_model, &QAbstractItemModel::modelAboutToBeReset, this, [this] {
        const QModelIndex current = m_table->currentIndex();
        m_hadCurrent = current.isValid();
        if (m_hadCurrent)
            m_currentEntry = m_model->entryIndex(current.row());
    });
    connect(m_model, &QAbstractItemModel::modelReset, this, [this] {
        if (!m_hadCurrent)
            return;
        const int row = m_model->rowOfEntry(m_currentEntry);
        if (row >= 0) {
            const QSignalBlocker blocker(m_table->selectionModel());
            m_table->setCurrentIndex(m_model->index(row, 0));
            m_table->scrollTo(m_model->index(row, 0));
        }
    });
    if (m_scanner) {
        connect(m_scanner, &DlqScanner::fieldFilterProgress, this, [this](qint64 done, qint64 total) {
            m_fieldState->setText(tr("Reading payloads: %1 of %2").arg(QLocale().toString(done), QLocale().toString(total)));
        });
        connect(m_scanner, &DlqScanner::fieldFilterFinished, this, [this](const DlqFieldFilterResult &r) {
            m_fieldCancel->hide();
            if (r.cancelled)
                return;
            if (!r.error.isEmpty()) {
                m_fieldState->setText(tr("Field filter not applied: %1").arg(r.error));
                return;
            }
            m_fieldMatches = r.matched;
            m_fieldState->setText(r.undecoded > 0 ? tr("%1 of %2 payloads pass (%3 not decoded)")
                                                        .arg(QLocale().toString(qint64(r.matched->size())),
                                                             QLocale().toString(r.read), QLocale().toString(r.undecoded))
                                                  : tr("%1 of %2 payloads pass")
                                                        .arg(QLocale().toString(qint64(r.matched->size())),
                                                             QLocale().toString(r.read)));
            applyFilter();
        });
        connect(m_scanner, &DlqScanner::scanStarted, this, &DlqBrowserView::onStarted);
        connect(m_scanner, &DlqScanner::batchReady, this, &DlqBrowserView::onBatch);
        connect(m_scanner, &DlqScanner::scanFinished, this, &DlqBrowserView::onFinished);
    }
    updateStartEditors();
    setRunning(false);
}

DlqBrowserView::~DlqBrowserView() = default;

QList<DlqSelection> DlqBrowserView::selectedRecords() const
{
    QList<int> rows;
    for (const QModelIndex &index : m_table->selectionModel()->selectedRows())
        rows << index.row();
    std::sort(rows.begin(), rows.end());
    QList<DlqSelection> records;
    records.reserve(rows.size());
    const QString topic = m_model->topic();
    for (int row : std::as_const(rows)) {
        const DlqIndexEntry &entry = m_model->entry(row);
        records.append({topic, int(entry.partition), entry.offset});
    }
    return records;
}

void DlqBrowserView::requestRemediation()
{
    const QList<DlqSelection> records = selectedRecords();
    if (records.isEmpty()) {
        Q_EMIT statusMessage(tr("Select one or more dead letters to request a replay or skip."));
        return;
    }
    Q_EMIT remediationRequested(records);
}

QStringList DlqBrowserView::knownTopics() const
{
    QStringList topics;
    for (int i = 0; i < m_topic->count(); ++i)
        topics << m_topic->itemText(i);
    return topics;
}

bool DlqBrowserView::looksLikeDlq(const QString &topic)
{
    const QString t = topic.toLower();
    return t.endsWith(u"-dlt"_s) || t.endsWith(u".dlt"_s) || t.endsWith(u"-dlq"_s) || t.endsWith(u".dlq"_s)
           || t.endsWith(u"_dlq"_s) || t.startsWith(u"dlq"_s) || t.startsWith(u"error."_s)
           || t.contains(u"dead-letter"_s) || t.contains(u"deadletter"_s) || t.contains(u"parking"_s);
}

void DlqBrowserView::setCluster(const KafkaProperties &cluster)
{
    m_cluster = cluster;
}

void DlqBrowserView::setBootstrap(const QString &bootstrap)
{
    setCluster({{u"bootstrap.servers"_s, bootstrap}});
}

void DlqBrowserView::exportRows(const QString &path)
{
    auto *dialog = new QProgressDialog(tr("Exporting to %1…").arg(QDir::toNativeSeparators(path)),
                                       tr("Cancel"), 0, 1000, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowModality(Qt::WindowModal);
    dialog->setMinimumDuration(300); // a small export finishes before a dialog would flash up
    connect(dialog, &QProgressDialog::canceled, this, [this] { m_exportJobs.cancel(); });
    const DlqExport::Source source = m_model->exportSource();
    const DlqExport::Format format = DlqExport::formatForPath(path);
    QPointer<QProgressDialog> guard(dialog);
    m_exportJobs.start(
        [source, format, path](const JobControl &control) {
            return DlqExport::write(path, format, source, control);
        },
        [this, guard, path](const DlqExport::Outcome &outcome) {
            if (guard)
                guard->close();
            Q_EMIT statusMessage(
                outcome.error.isEmpty()
                    ? tr("Exported %n dead letter(s) to %1", nullptr, int(outcome.rows))
                          .arg(QDir::toNativeSeparators(path))
                    : tr("Export to %1 failed: %2").arg(QDir::toNativeSeparators(path), outcome.error));
            Q_EMIT exportFinished(outcome.error.isEmpty(), outcome.rows);
        },
        [guard](qint64 done, qint64 total) {
            if (guard && total > 0)
                guard->setValue(int(done * 1000 / total));
        });
}

void DlqBrowserView::setTopics(const QStringList &topics)
{
    QStringList dlqs, others;
    for (const QString &t : topics)
        (looksLikeDlq(t) ? dlqs : others).append(t);
    dlqs.sort();
    others.sort();
    const QString current = m_topic->currentText();
    const QSignalBlocker blocker(m_topic);
    m_topic->clear();
    m_topic->addItems(dlqs + others);
    m_topic->setCurrentText(current.isEmpty() && !dlqs.isEmpty() ? dlqs.first() : current);
}

void DlqBrowserView::setTopic(const QString &topic)
{
    m_topic->setCurrentText(topic);
}

void DlqBrowserView::updateStartEditors()
{
    const auto start = DlqScanRequest::Start(m_start->currentData().toInt());
    m_startValue->setVisible(start == DlqScanRequest::Start::LastN || start == DlqScanRequest::Start::Offset);
    m_startTime->setVisible(start == DlqScanRequest::Start::Timestamp);
}

bool DlqBrowserView::buildRequest(DlqScanRequest &request, bool liveTail, QString *error) const
{
    request.cluster = m_cluster;
    request.topic = m_topic->currentText().trimmed();
    request.liveTail = liveTail;
    request.start = DlqScanRequest::Start(m_start->currentData().toInt());
    request.startValue = request.start == DlqScanRequest::Start::Timestamp
                             ? m_startTime->dateTime().toMSecsSinceEpoch()
                             : m_startValue->text().toLongLong();
    if (KafkaConfig::bootstrapOf(request.cluster).isEmpty()) {
        *error = tr("No cluster to read from: connect first.");
        return false;
    }
    if (request.topic.isEmpty()) {
        *error = tr("Choose a topic to scan.");
        return false;
    }
    if (QString why; !request.parsePartitions(m_partitions->text(), &why)) {
        *error = tr("Cannot read the partitions: %1; use e.g. 0,2,5-7").arg(why);
        return false;
    }
    return true;
}

void DlqBrowserView::startScan(bool liveTail)
{
    DlqScanRequest request;
    QString error;
    if (!m_scanner || !buildRequest(request, liveTail, &error)) {
        m_notes->setText(error);
        m_notes->setVisible(!error.isEmpty());
        return;
    }
    m_bootstrapShown = KafkaConfig::bootstrapOf(request.cluster);
    m_notes->hide();
    m_inspector->clear();
    clearFieldFilter(); // it named entries of the last scan
    m_model->clear();
    m_groups->clear();
    m_groupTable->clearSelection();
    m_live = liveTail;
    m_scanner->start(request);
    setRunning(true);
    showProgress({}, true);
    Q_EMIT statusMessage(tr("Scanning %1…").arg(request.topic));
}

void DlqBrowserView::rescan()
{
    if (m_scanner && m_scanner->scanId() > 0)
        startScan(m_live);
    else
        m_inspector->clear();
}

void DlqBrowserView::cancelScan()
{
    if (m_scanner)
        m_scanner->cancel();
}

void DlqBrowserView::setRunning(bool running)
{
    m_running = running;
    m_scan->setEnabled(!running);
    m_tail->setEnabled(!running);
    m_cancel->setEnabled(running);
}

void DlqBrowserView::onStarted(const DlqScanPlan &plan)
{
    m_model->beginScan(plan);
    m_groups->clear();
    m_notes->setText(plan.notes.join(u'\n'));
    m_notes->setVisible(!plan.notes.isEmpty());
}

void DlqBrowserView::onBatch(const DlqScanBatch &batch)
{
    m_model->appendBatch(batch);
    m_groups->updateGroups(batch.changedGroups);
    if (!batch.changedPoison.isEmpty()) {
        m_groups->updatePoison(batch.changedPoison);
        m_poison->setText(tr("%n message(s) failed %1 times or more: poison", nullptr,
                             int(m_groups->poisonMessages().size()))
                              .arg(FailureGroups::PoisonThreshold));
    }
    m_poison->setVisible(!m_groups->poisonMessages().isEmpty());
    showProgress(batch.progress, true);
}

void DlqBrowserView::onFinished(const DlqScanResult &result)
{
    setRunning(false);
    showProgress(result.progress, false);
    const QLocale locale;
    QString message;
    if (!result.error.isEmpty())
        message = tr("The scan stopped: %1").arg(result.error);
    else if (result.cancelled)
        message = tr("Cancelled after %1 records.").arg(locale.toString(result.progress.records));
    else
        message = tr("Scanned %1 records in %2.")
                      .arg(locale.toString(result.progress.records), duration(result.progress.elapsedMs));
    QStringList notes = result.notes;
    if (!result.error.isEmpty())
        notes.prepend(message);
    m_notes->setText(notes.join(u'\n'));
    m_notes->setVisible(!notes.isEmpty());
    Q_EMIT statusMessage(message);
}

void DlqBrowserView::showProgress(const DlqScanProgress &p, bool running)
{
    const QLocale locale;
    QStringList parts;
    if (p.totalRecords > 0 && !(m_live && p.caughtUp))
        parts << tr("%1 of %2 records").arg(locale.toString(p.records), locale.toString(p.totalRecords));
    else
        parts << tr("%1 records").arg(locale.toString(p.records));
    if (p.elapsedMs > 0) {
        parts << tr("%1/s").arg(locale.toString(qRound64(p.recordsPerSecond)));
        parts << tr("%1/s").arg(locale.formattedDataSize(qint64(p.bytesPerSecond)));
    }
    if (running && m_live && p.caughtUp)
        parts << tr("live: waiting for new dead letters");
    else if (running && p.etaMs > 0)
        parts << tr("ETA %1").arg(duration(p.etaMs));
    if (!p.problem.isEmpty())
        parts << tr("problem: %1").arg(p.problem);
    m_progressText->setText(parts.join(u" · "_s));
    if (p.totalRecords > 0) {
        m_progress->setRange(0, 1000);
        m_progress->setValue(int(qMin<qint64>(1000, p.records * 1000 / p.totalRecords)));
    } else if (running && !p.caughtUp) {
        m_progress->setRange(0, 0); // busy
    } else {
        m_progress->setRange(0, 1000);
        m_progress->setValue(running ? 0 : 1000);
    }
}

void DlqBrowserView::applyFilter()
{
    DlqFilter filter;
    filter.text = m_filter->text().trimmed();
    filter.groupId = m_selectedGroup;
    filter.fieldMatches = m_fieldMatches;
    filter.fieldFilter = m_fieldText;
    m_model->setFilter(filter);
}

void DlqBrowserView::runFieldFilter()
{
    const QString text = m_fieldFilter->text().trimmed();
    if (text.isEmpty()) {
        clearFieldFilter();
        return;
    }
    QString error;
    const FieldFilter filter = FieldFilter::parse(text, &error);
    if (!filter.isValid()) {
        m_fieldState->setText(error);
        return;
    }
    if (!m_scanner || m_model->entryCount() == 0) {
        m_fieldState->setText(tr("Scan a dead-letter topic first: the field filter reads its entries' payloads"));
        return;
    }
    m_fieldText = text;
    m_fieldCancel->show();
    m_fieldState->setText(tr("Reading payloads…"));
    m_scanner->filterFields(filter, m_model->fieldFilterItems());
}

void DlqBrowserView::clearFieldFilter()
{
    if (m_scanner)
        m_scanner->cancelFieldFilter();
    m_fieldCancel->hide();
    m_fieldState->clear();
    const bool had = bool(m_fieldMatches);
    m_fieldMatches.reset();
    m_fieldText.clear();
    if (had)
        applyFilter();
}

QString DlqBrowserView::fieldFilterState() const
{
    return m_fieldState->text();
}

void DlqBrowserView::onGroupSelected()
{
    const QModelIndexList rows = m_groupTable->selectionModel()->selectedRows();
    m_selectedGroup = rows.isEmpty() ? -1 : rows.first().data(FailureGroupModel::GroupIdRole).toLongLong();
    applyFilter();
}

void DlqBrowserView::onCurrentRowChanged()
{
    const QModelIndex current = m_table->currentIndex();
    if (!current.isValid())
        return;
    m_inspector->showEntry(m_model->fields(current.row()), m_model->topic(), m_bootstrapShown);
}

void DlqBrowserView::focusFilter()
{
    m_filter->setFocus();
    m_filter->selectAll();
}

QByteArray DlqBrowserView::saveState() const
{
    QByteArray state;
    QDataStream out(&state, QIODevice::WriteOnly);
    out << quint32(1) << m_outer->saveState() << m_inner->saveState()
        << m_table->horizontalHeader()->saveState() << m_groupTable->horizontalHeader()->saveState();
    return state;
}

void DlqBrowserView::restoreState(const QByteArray &state)
{
    QDataStream in(state);
    quint32 version = 0;
    QByteArray outer, inner, table, groups;
    in >> version >> outer >> inner >> table >> groups;
    if (version != 1 || in.status() != QDataStream::Ok)
        return;
    m_outer->restoreState(outer);
    m_inner->restoreState(inner);
    m_table->horizontalHeader()->restoreState(table);
    m_groupTable->horizontalHeader()->restoreState(groups);
}
