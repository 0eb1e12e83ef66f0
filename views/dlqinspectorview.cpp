#include "dlqinspectorview.h"

#include "views/tablecolumns.h"

#include "services/dlq/dlqheadercodec.h"
#include "services/dlq/dlqrecordformat.h"
#include "services/dlq/dlqscanner.h"
#include "services/remediation/remediationtypes.h"

#include <QClipboard>
#include <QDateTime>
#include <QFile>
#include <QFileDialog>
#include <QFontDatabase>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QJsonDocument>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSaveFile>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace {
QPlainTextEdit *textPane(QWidget *parent, bool monospace)
{
    auto *edit = new QPlainTextEdit(parent);
    edit->setReadOnly(true);
    edit->setLineWrapMode(QPlainTextEdit::NoWrap);
    edit->setUndoRedoEnabled(false);
    if (monospace)
        edit->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    return edit;
}

QString timeText(qint64 ms)
{
    if (ms < 0)
        return {};
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODateWithMs) + u" ("_s
           + QString::number(ms) + u')';
}

// A command line wrapped in the Summary breaks between arguments, never inside a flag or before its value
// (the Copy button copies the command itself).
QString keepFlagsWhole(QString command)
{
    // A word joiner after the dash (a line may break after a hyphen) and a no-break space before the value.
    static const QRegularExpression flagAndValue(u"(?<=^|[ \u00a0])-(\\w) "_s);
    return command.replace(flagAndValue, u"-\u2060\\1\u00a0"_s);
}

void line(QString &out, const QString &label, const QString &value)
{
    if (!value.isEmpty())
        out += label + u": "_s + value + u'\n';
}

QString hexOf(QByteArrayView bytes, qsizetype max)
{
    const QByteArray hex = bytes.first(qMin(bytes.size(), max)).toByteArray().toHex(' ');
    return QString::fromLatin1(hex) + (bytes.size() > max ? u" …"_s : QString());
}
} // namespace

DlqInspectorView::DlqInspectorView(DlqScanner *scanner, QWidget *parent)
    : QWidget(parent)
    , m_scanner(scanner)
    , m_title(new QLabel(this))
    , m_state(new QLabel(this))
    , m_tabs(new QTabWidget(this))
    , m_summary(textPane(this, false))
    , m_headers(new QTableWidget(0, 3, this))
    , m_key(textPane(this, true))
    , m_payload(textPane(this, true))
    , m_payloadNote(new QLabel(this))
    , m_hex(textPane(this, true))
    , m_stack(textPane(this, true))
    , m_more(new QPushButton(tr("Show more"), this))
    , m_copyKcat(new QPushButton(tr("Copy as kcat command"), this))
    , m_export(new QPushButton(tr("Export as JSON…"), this))
    , m_reveal(new QPushButton(tr("Reveal masked values…"), this))
{
    for (QLabel *label : {m_title, m_state, m_payloadNote}) {
        label->setTextFormat(Qt::PlainText);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    }
    m_title->setWordWrap(true);
    m_state->setWordWrap(true);
    m_payloadNote->setWordWrap(true);
    m_headers->setHorizontalHeaderLabels({tr("Name"), tr("Value"), tr("Raw (hex)")});
    m_headers->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_headers->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_headers->verticalHeader()->hide();
    TableColumns::apply(m_headers);
    m_headers->setWordWrap(false);

    auto *payloadPage = new QWidget(this);
    auto *payloadLayout = new QVBoxLayout(payloadPage);
    payloadLayout->setContentsMargins(0, 0, 0, 0);
    payloadLayout->addWidget(m_payloadNote);
    payloadLayout->addWidget(m_payload, 1);
    // Key-value lines, some long (a reason, the kcat command): read whole, wrapped at the pane's width.
    m_summary->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_tabs->addTab(m_summary, tr("Summary"));
    m_tabs->addTab(m_headers, tr("Headers"));
    m_tabs->addTab(m_key, tr("Key"));
    m_tabs->addTab(payloadPage, tr("Payload"));
    m_tabs->addTab(m_hex, tr("Hex"));
    m_tabs->addTab(m_stack, tr("Stack trace"));

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_more);
    buttons->addWidget(m_reveal);
    buttons->addStretch(1);
    buttons->addWidget(m_copyKcat);
    buttons->addWidget(m_export);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_title);
    layout->addWidget(m_state);
    layout->addWidget(m_tabs, 1);
    layout->addLayout(buttons);

    connect(m_more, &QPushButton::clicked, this, &DlqInspectorView::showMore);
    connect(m_copyKcat, &QPushButton::clicked, this, [this] {
        QGuiApplication::clipboard()->setText(kcatCommand());
        setBusy(tr("Copied to the clipboard: %1").arg(kcatCommand()));
    });
    connect(m_export, &QPushButton::clicked, this, &DlqInspectorView::exportInteractively);
    connect(m_reveal, &QPushButton::clicked, this, [this] {
        bool ok = false;
        const QString reason = QInputDialog::getText(
            this, tr("Reveal masked values"),
            tr("Why do you need to see %1? The audit log records who revealed which fields of this record, "
               "and the reason.")
                .arg(maskedFields().join(u", "_s)),
            QLineEdit::Normal, QString(), &ok);
        if (ok && !reason.trimmed().isEmpty())
            Q_EMIT revealRequested(m_topic, m_partition, m_offset, maskedFields(), reason.trimmed());
    });
    if (m_scanner)
        connect(m_scanner, &DlqScanner::recordFetched, this, &DlqInspectorView::onFetched);
    clear();
}

void DlqInspectorView::clear(const QString &why)
{
    m_requestId = 0;
    m_cluster.clear();
    m_context.clear();
    m_loaded = false;
    m_record = {};
    m_decoded = {};
    m_mask = {};
    m_revealed = false;
    m_metadata = {};
    m_partition = -1;
    m_offset = -1;
    m_title->setText(why.isEmpty() ? tr("Select a dead letter to inspect it.") : why);
    m_state->clear();
    m_state->hide();
    for (QPlainTextEdit *edit : {m_summary, m_key, m_payload, m_hex, m_stack})
        edit->clear();
    m_headers->setRowCount(0);
    m_payloadNote->clear();
    m_more->setEnabled(false);
    m_copyKcat->setEnabled(false);
    m_export->setEnabled(false);
    m_reveal->setEnabled(false);
    m_reveal->setVisible(false);
}

void DlqInspectorView::setBusy(const QString &message)
{
    m_state->setText(message);
    m_state->setVisible(!message.isEmpty());
}

void DlqInspectorView::showEntry(const DlqEntryFields &e, const QString &topic, const QString &bootstrap)
{
    clear();
    m_topic = topic;
    m_bootstrap = bootstrap;
    m_partition = e.partition;
    m_offset = e.offset;
    m_title->setText(tr("%1 [%2] @ %3").arg(topic).arg(e.partition).arg(e.offset));
    m_copyKcat->setEnabled(true);
    // What the index knows, until the record itself arrives.
    QString s;
    line(s, tr("Time"), timeText(e.timestampMs));
    line(s, tr("Dialect"), dialectName(e.dialect));
    line(s, tr("Original topic"), e.originalTopic);
    line(s, tr("Original partition"),
         e.originalPartition >= 0 ? QString::number(e.originalPartition) : QString());
    line(s, tr("Original offset"), e.originalOffset >= 0 ? QString::number(e.originalOffset) : QString());
    line(s, tr("Consumer"), e.consumer);
    line(s, tr("Exception"), e.exceptionClass);
    line(s, tr("Cause"), e.causeClass);
    line(s, tr("Reason"), e.reason);
    line(s, tr("Attempts"), e.attempts >= 0 ? QString::number(e.attempts) : QString());
    line(s, tr("Idempotency key"), e.idempotencyKey);
    m_summary->setPlainText(DlqRecordFormat::visibleText(s.toUtf8()));
    if (m_scanner) {
        setBusy(tr("Fetching the record…"));
        m_requestId = fetch(false);
    }
}

void DlqInspectorView::showRecordAt(const KafkaProperties &cluster, const QString &topic, int partition,
                                    qint64 offset, const QList<std::pair<QString, QString>> &context)
{
    clear();
    m_cluster = cluster;
    m_topic = topic;
    m_bootstrap = KafkaConfig::bootstrapOf(cluster);
    m_partition = partition;
    m_offset = offset;
    for (const auto &[label, value] : context)
        line(m_context, label, value);
    m_title->setText(tr("%1 [%2] @ %3").arg(topic).arg(partition).arg(offset));
    m_copyKcat->setEnabled(true);
    m_summary->setPlainText(DlqRecordFormat::visibleText(m_context.toUtf8()));
    if (m_scanner) {
        setBusy(tr("Fetching the record…"));
        m_requestId = fetch(false);
    }
}

quint64 DlqInspectorView::fetch(bool reveal)
{
    return m_cluster.isEmpty() ? m_scanner->fetchRecord(m_partition, m_offset, reveal)
                               : m_scanner->fetchRecord(m_cluster, m_topic, m_partition, m_offset, reveal);
}

void DlqInspectorView::onFetched(const DlqFetchedRecord &fetched)
{
    if (fetched.requestId != m_requestId)
        return;
    if (!fetched.ok()) {
        setBusy(tr("Cannot show the record: %1").arg(fetched.error));
        Q_EMIT recordFailed(fetched.error);
        return;
    }
    setBusy({});
    m_record = fetched.record;
    m_decoded = fetched.payload;
    m_mask = fetched.mask;
    m_revealed = fetched.revealed;
    m_reveal->setVisible(m_mask.any());
    m_reveal->setEnabled(m_mask.any());
    if (m_revealed)
        setBusy(tr("Revealed: the audit log records this."));
    m_metadata = decodeDlqHeaders(m_record.headers);
    m_loaded = true;
    m_limit = PayloadStep;
    showRecord();
    Q_EMIT recordLoaded();
}

void DlqInspectorView::showRecord()
{
    const KafkaRecord &r = m_record;
    const DlqMetadata &m = m_metadata;
    const QLocale locale;
    QString s = m_context;
    line(s, tr("Record"), tr("%1 [%2] @ %3").arg(r.topic).arg(r.partition).arg(r.offset));
    line(s, tr("Time"), timeText(r.timestampMs));
    line(s, tr("Size"),
         tr("key %1, value %2, %n header(s)", nullptr, int(r.headers.size()))
             .arg(r.keyIsNull ? tr("null") : locale.formattedDataSize(r.key.size()),
                  r.value.isNull() ? tr("null (tombstone)") : locale.formattedDataSize(r.value.size())));
    if (m.dialect != DlqDialect::Unknown || !m.originalTopic.isEmpty())
        line(s, tr("Dialect"), dialectName(m.dialect));
    QString original = m.originalTopic;
    if (m.originalPartition >= 0)
        original += u" ["_s + QString::number(m.originalPartition) + u']';
    if (m.originalOffset >= 0)
        original += u" @ "_s + QString::number(m.originalOffset);
    line(s, tr("Original record"), original);
    line(s, tr("Original time"),
         timeText(m.originalTimestampMs)
             + (m.originalTimestampType.isEmpty() ? QString() : u' ' + m.originalTimestampType));
    if (m.originalPartition >= 0 && m.originalOffset >= 0 && !m.originalTopic.isEmpty())
        line(s, tr("Original fetch"),
             keepFlagsWhole(DlqRecordFormat::kcatCommand(m_bootstrap, m.originalTopic, m.originalPartition,
                                                         m.originalOffset)));
    line(s, tr("Consumer group"), m.consumerGroup);
    line(s, tr("Exception"), m.exceptionClass);
    line(s, tr("Cause"), m.causeClass);
    line(s, tr("Reason"), m.reason);
    line(s, tr("Attempts"), m.attempts >= 0 ? QString::number(m.attempts) : QString());
    line(s, tr("First failure"), timeText(m.firstFailureMs));
    line(s, tr("Last failure"), timeText(m.lastFailureMs));
    line(s, tr("Schema version"), m.schemaVersion);
    line(s, tr("Correlation id"), m.correlationId);
    line(s, tr("Idempotency key"), m.idempotencyKey);
    line(s, tr("Connector"),
         m.connectorTask.isEmpty() ? m.connectorName
                                   : tr("%1 task %2").arg(m.connectorName, m.connectorTask));
    line(s, tr("Stage"),
         m.connectorStage + (m.connectorClass.isEmpty() ? QString() : u" ("_s + m.connectorClass + u')'));
    // A replayed record that failed again comes back with Berth's replay headers (ARCHITECTURE.md, Contracts:
    // Replay headers): which request and item sent it, from where, and how often it has been replayed.
    QByteArray replayId, replayedFrom, replayCount;
    for (const RecordHeader &h : r.headers) {
        if (h.name == RemediationHeaders::ReplayId)
            replayId = h.value;
        else if (h.name == RemediationHeaders::ReplayedFrom)
            replayedFrom = h.value;
        else if (h.name == RemediationHeaders::ReplayCount)
            replayCount = h.value;
    }
    qint64 requestId = 0;
    int itemNo = 0;
    if (parseReplayId(replayId, &requestId, &itemNo))
        line(s, tr("Replayed by Berth"),
             tr("request %1, item %2, from %3; replay number %4")
                 .arg(requestId)
                 .arg(itemNo)
                 .arg(DlqRecordFormat::visibleText(replayedFrom), DlqRecordFormat::visibleText(replayCount)));
    for (const QString &note : m.notes)
        line(s, tr("Note"), note);
    m_summary->setPlainText(DlqRecordFormat::visibleText(s.toUtf8()));

    m_headers->setRowCount(int(r.headers.size()));
    for (int i = 0; i < r.headers.size(); ++i) {
        const RecordHeader &h = r.headers[i];
        const bool text = h.value.isValidUtf8();
        // A dialect's numbers read as the Summary reads them (Spring writes them as binary big-endian).
        const DlqHeaderNumber number = decodeDlqHeaderNumber(h);
        const QString value = h.isNull ? tr("(null)")
                              : number.ok
                                  ? (number.isTime ? timeText(number.value) : QString::number(number.value))
                              : text ? DlqRecordFormat::visibleText(h.value.left(4096))
                                     : tr("(binary, %n byte(s))", nullptr, int(h.value.size()));
        // QTableWidgetItem text is display text, never rendered as markup.
        m_headers->setItem(i, 0, new QTableWidgetItem(DlqRecordFormat::visibleText(h.name)));
        m_headers->setItem(i, 1, new QTableWidgetItem(value));
        m_headers->setItem(i, 2, new QTableWidgetItem(hexOf(h.value, 256)));
    }
    TableColumns::of(m_headers)->fit();

    m_key->setPlainText(r.keyIsNull ? tr("(null key)")
                                    : DlqRecordFormat::visibleText(r.key.left(PayloadStep)) + u"\n\n"_s
                                          + DlqRecordFormat::hexDump(r.key, PayloadStep).text);
    m_stack->setPlainText(m.stackTrace.isEmpty() ? tr("(no stack trace in the headers)")
                                                 : DlqRecordFormat::visibleText(m.stackTrace.toUtf8()));
    m_export->setEnabled(true);
    showPayload();
}

void DlqInspectorView::showPayload()
{
    const QByteArray &value = m_record.value;
    const DlqRecordFormat::PayloadText laid = DlqRecordFormat::payloadText(m_decoded, value, m_limit);
    m_payload->setPlainText(laid.text);
    if (value.isNull())
        m_hex->clear();
    else
        m_hex->setPlainText(DlqRecordFormat::hexDump(value, m_limit).text);
    QString note = laid.note;
    if (laid.truncated)
        note += (note.isEmpty() ? QString() : u" "_s)
                + tr("Showing the first %1 of %2.")
                      .arg(QLocale().formattedDataSize(laid.shownBytes), QLocale().formattedDataSize(value.size()));
    m_payloadNote->setText(note);
    m_payloadNote->setVisible(!note.isEmpty());
    m_more->setEnabled(laid.truncated);
}

QStringList DlqInspectorView::maskedFields() const
{
    QStringList fields = m_mask.fieldPaths;
    for (const QString &h : m_mask.headers)
        fields.append(u"header:"_s + h);
    if (m_mask.key)
        fields.append(u"key"_s);
    return fields;
}

void DlqInspectorView::showRevealed()
{
    if (m_scanner && m_partition >= 0)
        m_requestId = fetch(true);
}

void DlqInspectorView::showRevealRefused(const QString &error)
{
    setBusy(tr("Not revealed: %1").arg(error));
}

void DlqInspectorView::refreshPendingPayload()
{
    if (m_loaded && m_decoded.pending && m_scanner && m_partition >= 0)
        m_requestId = fetch(m_revealed);
}

void DlqInspectorView::showMore()
{
    if (!m_loaded)
        return;
    m_limit += PayloadStep;
    showPayload();
}

QString DlqInspectorView::kcatCommand() const
{
    if (m_partition < 0)
        return {};
    return DlqRecordFormat::kcatCommand(m_bootstrap, m_topic, m_partition, m_offset);
}

bool DlqInspectorView::exportJson(const QString &path, QString *error) const
{
    if (!m_loaded) {
        *error = tr("The record has not been fetched.");
        return false;
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        *error = file.errorString();
        return false;
    }
    file.write(
        QJsonDocument(DlqRecordFormat::recordToJson(m_record, m_metadata, &m_decoded)).toJson(QJsonDocument::Indented));
    if (!file.commit()) {
        *error = file.errorString();
        return false;
    }
    return true;
}

void DlqInspectorView::exportInteractively()
{
    const QString suggested =
        m_topic + u'-' + QString::number(m_partition) + u'-' + QString::number(m_offset) + u".json"_s;
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Export record as JSON"), suggested, tr("JSON (*.json)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!exportJson(path, &error))
        QMessageBox::warning(this, tr("Export failed"), error);
}

QString DlqInspectorView::summaryText() const
{
    return m_summary->toPlainText();
}

QString DlqInspectorView::payloadText() const
{
    return m_payload->toPlainText();
}

QString DlqInspectorView::payloadNoteText() const
{
    return m_payloadNote->text();
}

QString DlqInspectorView::hexText() const
{
    return m_hex->toPlainText();
}

QString DlqInspectorView::stackTraceText() const
{
    return m_stack->toPlainText();
}
