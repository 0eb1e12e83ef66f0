#include "replayrequestdialog.h"

#include "models/dlqbrowsermodel.h"
#include "services/remediation/requestitemdigests.h"
#include "remediationwidgets.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateTimeEdit>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace {
// The selection's topics and its partitions ("0, 2"), in order.
QString partitionsOf(const QList<DlqSelection> &records, QStringList *topics)
{
    QList<int> partitions;
    for (const DlqSelection &s : records) {
        if (!topics->contains(s.topic))
            *topics << s.topic;
        if (!partitions.contains(s.partition))
            partitions << s.partition;
    }
    std::sort(partitions.begin(), partitions.end());
    QStringList parts;
    for (int p : std::as_const(partitions))
        parts << QString::number(p);
    return parts.join(u", "_s);
}

// "orders-dlt: 3 record(s) on partition(s) 0, 2", so the operator sees what they picked.
QString describeRecords(const QList<DlqSelection> &records)
{
    QStringList topics;
    const QString parts = partitionsOf(records, &topics);
    if (records.size() == 1)
        return ReplayRequestDialog::tr("One dead letter: %1 [%2] @ %3")
            .arg(records.first().topic)
            .arg(records.first().partition)
            .arg(records.first().offset);
    return ReplayRequestDialog::tr("%n dead letter(s) from %1, partition(s) %2", nullptr, int(records.size()))
        .arg(topics.join(u", "_s), parts);
}

// Topic names, keys and reasons come from messages and people: each line is shown with its control
// characters made visible, and the lines stay lines.
QString visibleLines(const QString &text)
{
    QStringList lines = text.split(u'\n');
    for (QString &line : lines)
        line = DlqBrowserModel::visibleText(line);
    return lines.join(u'\n').trimmed();
}

// Where a JSON parse error is, as an editor shows it: 1-based line and column.
QString parseErrorText(const QByteArray &text, const QJsonParseError &error)
{
    const QByteArray before = text.left(error.offset);
    const int line = int(before.count('\n')) + 1;
    const int column = int(error.offset - (before.lastIndexOf('\n') + 1)) + 1;
    return ReplayRequestDialog::tr("Not valid JSON — line %1, column %2: %3")
        .arg(line)
        .arg(column)
        .arg(error.errorString());
}
} // namespace

ReplayRequestDialog::ReplayRequestDialog(const RemediationSetup &setup, QWidget *parent)
    : QDialog(parent)
    , m_setup(setup)
    , m_submission(new RequestSubmission(this))
{
    connect(m_submission, &RequestSubmission::statusChanged, this, &ReplayRequestDialog::setStatus);
    connect(m_submission, &RequestSubmission::refused, this, &ReplayRequestDialog::updateButtons);
    connect(m_submission, &RequestSubmission::refused, this, &ReplayRequestDialog::submitFailed);
    connect(m_submission, &RequestSubmission::submitted, this, &ReplayRequestDialog::updateButtons);
    connect(m_submission, &RequestSubmission::submitted, this, &ReplayRequestDialog::submitted);
}

ReplayRequestDialog::ReplayRequestDialog(const RemediationSetup &setup, const QList<DlqSelection> &records,
                                         QWidget *parent)
    : ReplayRequestDialog(setup, parent)
{
    m_records = records;
    build(describeRecords(records));
}

ReplayRequestDialog::ReplayRequestDialog(const RemediationSetup &setup, const QList<DlqSelection> &records,
                                         const QString &consumer, QWidget *parent)
    : ReplayRequestDialog(setup, parent)
{
    m_records = records;
    m_consumer = consumer;
    QStringList topics;
    const QString parts = partitionsOf(records, &topics);
    build(tr("%n record(s) of %1 for consumer %2, partition(s) %3: replayed into their own topic", nullptr,
             int(records.size()))
              .arg(DlqBrowserModel::visibleText(topics.join(u", "_s)), DlqBrowserModel::visibleText(consumer),
                   parts));
    // Not dead letters: no header names an original topic, so the records' own topic is the destination.
    m_toChosen->setChecked(true);
    if (!topics.isEmpty())
        m_destination->setCurrentText(topics.first());
    onActionChanged();
}

ReplayRequestDialog::ReplayRequestDialog(const RemediationSetup &setup, const QList<QJsonObject> &inboxRows,
                                         QWidget *parent)
    : ReplayRequestDialog(setup, parent)
{
    m_inboxRows = inboxRows;
    const QString mapping =
        inboxRows.isEmpty() ? QString() : inboxRows.first().value(u"mapping"_s).toString();
    build(inboxRows.size() == 1
              ? tr("One parked inbox row: %1 in %2")
                    .arg(DlqBrowserModel::visibleText(
                             RequestItemDigests::shownMessageId(setup.keyMask, inboxRows.first(), nullptr)),
                         mapping)
              : tr("%n parked inbox row(s) in %1", nullptr, int(inboxRows.size())).arg(mapping));
}

ReplayRequestDialog::~ReplayRequestDialog() = default;

void ReplayRequestDialog::build(const QString &selectionText)
{
    setWindowTitle(tr("Request replay / skip"));
    auto *selection = RemediationWidgets::messageLabel(this);
    selection->setText(selectionText);

    m_action = new QComboBox(this);
    if (isDlq()) {
        m_action->addItem(tr("Replay"), int(RemediationAction::Replay));
        if (m_records.size() == 1)
            m_action->addItem(tr("Edit and replay"), int(RemediationAction::EditReplay));
        m_action->addItem(tr("Skip with audit"), int(RemediationAction::Skip));
    } else {
        m_action->addItem(tr("Skip with audit"), int(RemediationAction::Skip));
        m_action->addItem(tr("Delete parked row"), int(RemediationAction::Delete));
    }

    m_toOriginal = new QRadioButton(tr("&Original topic (from the dead-letter headers)"), this);
    m_toChosen = new QRadioButton(tr("&This topic:"), this);
    m_toOriginal->setChecked(true);
    m_destination = new QComboBox(this);
    m_destination->setEditable(true);
    m_destination->setInsertPolicy(QComboBox::NoInsert);
    m_destination->setEnabled(false);
    m_destination->setMinimumContentsLength(24);
    auto *destination = new QVBoxLayout;
    destination->addWidget(m_toOriginal);
    auto *chosen = new QHBoxLayout;
    chosen->addWidget(m_toChosen);
    chosen->addWidget(m_destination, 1);
    destination->addLayout(chosen);

    m_rate = new QDoubleSpinBox(this);
    m_rate->setRange(0, 1'000'000);
    m_rate->setDecimals(0);
    m_rate->setSingleStep(100);
    m_rate->setSuffix(tr(" msgs/s"));
    m_rate->setSpecialValueText(tr("unlimited"));

    // Codes are stored as they are (stable words for reports); the label says what each means.
    m_reasonCode = new QComboBox(this);
    m_reasonCode->addItem(tr("poison-fixed — the consumer now handles these messages"), u"poison-fixed"_s);
    m_reasonCode->addItem(tr("downstream-recovered — a dependency was down and is back"),
                          u"downstream-recovered"_s);
    m_reasonCode->addItem(tr("data-corrected — the payload was wrong and is corrected"), u"data-corrected"_s);
    m_reasonCode->addItem(tr("duplicate — already handled another way"), u"duplicate"_s);
    m_reasonCode->addItem(tr("obsolete — no longer needed"), u"obsolete"_s);
    m_reasonCode->addItem(tr("other — see the reason"), u"other"_s);
    connect(m_reasonCode, &QComboBox::activated, this, [this] { m_reasonChosen = true; });
    m_reason = new QLineEdit(this);
    m_reason->setPlaceholderText(tr("Why, in words: the approver and the audit trail read this"));
    m_reason->setMaxLength(2000);
    m_ticket = new QLineEdit(this);
    m_ticket->setPlaceholderText(tr("e.g. OPS-1234"));
    m_ticket->setMaxLength(200);
    m_expires = new QDateTimeEdit(QDateTime::currentDateTime().addDays(1), this);
    m_expires->setCalendarPopup(true);
    m_expires->setMinimumDateTime(QDateTime::currentDateTime());
    m_expires->setDisplayFormat(u"yyyy-MM-dd HH:mm"_s);

    m_release =
        new QCheckBox(tr("Re&lease parked or failed inbox rows first (the mapping's releaseTo)"), this);
    m_release->setToolTip(tr("Release and replay: a consumer skips a message whose inbox row is parked, so "
                             "the replay would be a no-op. Each such row is released right before its record "
                             "is produced, within this approved request; a row that changes meanwhile is "
                             "refused."));

    m_payloadLabel = new QLabel(tr("Edited &payload (JSON):"), this);
    m_payload = new QPlainTextEdit(this);
    m_payload->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_payload->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_payload->setMinimumHeight(120);
    m_payloadLabel->setBuddy(m_payload);
    m_payloadError = RemediationWidgets::messageLabel(this);
    m_payloadError->setStyleSheet(u"color: #b00020;"_s);
    m_schemaVersion = new QComboBox(this);
    m_schemaVersion->setToolTip(
        tr("The schema the edit is encoded with: the record's own, or a newer version of "
           "its subject from the Schema Registry (its id goes into the record). The dry "
           "run checks that the edit fits it."));
    m_schemaVersionLabel = new QLabel(tr("Encode &with:"), this);
    m_schemaVersionLabel->setBuddy(m_schemaVersion);
    auto *schemaRow = new QHBoxLayout;
    schemaRow->addWidget(m_schemaVersionLabel);
    schemaRow->addWidget(m_schemaVersion, 1);
    m_schemaVersionLabel->setVisible(false);
    m_schemaVersion->setVisible(false);

    auto *form = new QFormLayout;
    form->addRow(tr("Selection:"), selection);
    form->addRow(tr("&Action:"), m_action);
    form->addRow(tr("Destination:"), destination);
    form->addRow(tr("&Rate limit:"), m_rate);
    form->addRow(tr("Inbox:"), m_release);
    form->addRow(tr("Reaso&n code:"), m_reasonCode);
    form->addRow(tr("R&eason:"), m_reason);
    form->addRow(tr("T&icket:"), m_ticket);
    form->addRow(tr("E&xpires:"), m_expires);

    m_dryRun = new QPushButton(tr("&Dry run"), this);
    m_dryRun->setToolTip(tr("Pin the items and show what the request would do, before anything is filed"));
    m_cancel = new QPushButton(tr("Cance&l dry run"), this);
    m_progress = new QProgressBar(this);
    m_progress->setTextVisible(true);
    auto *dryRunRow = new QHBoxLayout;
    dryRunRow->addWidget(m_dryRun);
    dryRunRow->addWidget(m_progress, 1);
    dryRunRow->addWidget(m_cancel);
    m_dryRunText = new QPlainTextEdit(this);
    m_dryRunText->setReadOnly(true);
    m_dryRunText->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_dryRunText->setMinimumHeight(110);
    m_dryRunText->setPlaceholderText(
        tr("Run the dry run to see the blast radius, the expected no-op rate, the "
           "ordering risk and the policy verdict."));
    m_status = RemediationWidgets::messageLabel(this);

    m_submit = new QPushButton(tr("&Submit for approval"), this);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->addButton(m_submit, QDialogButtonBox::ActionRole);
    m_submit->setAutoDefault(false);
    m_dryRun->setAutoDefault(false);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_payloadLabel);
    layout->addWidget(m_payload, 2);
    layout->addLayout(schemaRow);
    layout->addWidget(m_payloadError);
    layout->addLayout(dryRunRow);
    layout->addWidget(m_dryRunText, 1);
    layout->addWidget(m_status);
    layout->addWidget(buttons);
    resize(720, 640);

    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_submit, &QPushButton::clicked, this, &ReplayRequestDialog::submit);
    connect(m_dryRun, &QPushButton::clicked, this, &ReplayRequestDialog::startDryRun);
    connect(m_cancel, &QPushButton::clicked, this, &ReplayRequestDialog::cancelDryRun);
    connect(m_action, &QComboBox::currentIndexChanged, this, &ReplayRequestDialog::onActionChanged);
    connect(m_toChosen, &QRadioButton::toggled, m_destination, &QWidget::setEnabled);
    connect(m_toChosen, &QRadioButton::toggled, this, &ReplayRequestDialog::onDraftChanged);
    connect(m_release, &QCheckBox::toggled, this, &ReplayRequestDialog::onDraftChanged);
    connect(m_schemaVersion, &QComboBox::currentIndexChanged, this, &ReplayRequestDialog::onDraftChanged);
    connect(m_destination, &QComboBox::currentTextChanged, this, [this] {
        if (m_toChosen->isChecked())
            onDraftChanged();
    });
    connect(m_payload, &QPlainTextEdit::textChanged, this, [this] {
        validatePayload();
        onDraftChanged();
    });
    connect(m_reason, &QLineEdit::textChanged, this, &ReplayRequestDialog::updateButtons);
    onActionChanged();
}

void ReplayRequestDialog::setTopics(const QStringList &topics)
{
    const QString current = m_destination->currentText();
    const QSignalBlocker blocker(m_destination);
    m_destination->clear();
    m_destination->addItems(topics);
    m_destination->setCurrentText(current);
}

bool ReplayRequestDialog::setAction(RemediationAction action)
{
    const int index = m_action->findData(int(action));
    if (index < 0)
        return false;
    m_action->setCurrentIndex(index);
    return true;
}

RemediationAction ReplayRequestDialog::action() const
{
    return RemediationAction(m_action->currentData().toInt());
}

void ReplayRequestDialog::onActionChanged()
{
    const RemediationAction a = action();
    // Propose a reason that fits the action until the operator picks one: a skip or delete is not a fix.
    if (!m_reasonChosen && m_reasonCode) {
        const bool replaying = a == RemediationAction::Replay || a == RemediationAction::EditReplay;
        const QSignalBlocker blocker(m_reasonCode);
        m_reasonCode->setCurrentIndex(m_reasonCode->findData(replaying ? u"poison-fixed"_s : u"obsolete"_s));
    }
    const bool replays = a == RemediationAction::Replay || a == RemediationAction::EditReplay;
    const bool edits = a == RemediationAction::EditReplay;
    for (QWidget *w : {static_cast<QWidget *>(m_toOriginal), static_cast<QWidget *>(m_toChosen),
                       static_cast<QWidget *>(m_rate), static_cast<QWidget *>(m_release)})
        w->setEnabled(replays);
    m_toOriginal->setEnabled(replays && m_consumer.isEmpty()); // a topic's own records name no original
    m_destination->setEnabled(replays && m_toChosen->isChecked());
    m_payloadLabel->setVisible(edits);
    m_payload->setVisible(edits);
    m_payloadError->setVisible(edits);
    m_schemaVersionLabel->setVisible(edits && m_schemaVersion->count() > 0);
    m_schemaVersion->setVisible(edits && m_schemaVersion->count() > 0);
    if (edits && !m_payloadRead)
        readOriginalPayload();
    validatePayload();
    onDraftChanged();
}

void ReplayRequestDialog::readOriginalPayload()
{
    m_payloadRead = true;
    m_payload->setPlaceholderText(tr("Reading the record from Kafka…"));
    const DlqSelection record = m_records.first();
    m_payloadReads.start(
        [setup = m_setup, record](const JobControl &control) {
            return RemediationTasks::readPayload(setup, record, control);
        },
        [this](const RemediationTasks::PayloadRead &read) {
            m_payload->setPlaceholderText(QString());
            if (!read.error.isEmpty()) {
                m_payloadError->setText(tr("Could not read the record to edit: %1").arg(read.error));
                return;
            }
            m_payloadRevealed = read.revealed;
            if (read.masked)
                m_payloadLabel->setText(tr("Edited &payload (JSON; fields shown as (masked) keep their values and "
                                           "cannot be edited unless the record is revealed):"));
            else if (read.schema)
                m_payloadLabel->setText(tr("Edited &payload (JSON, encoded with the record's schema):"));
            if (read.schema && !read.newerVersions.isEmpty()) {
                const QSignalBlocker blocker(m_schemaVersion);
                m_schemaVersion->clear();
                m_schemaVersion->addItem(tr("%1: the record's own").arg(read.schemaRef.describe()), -1);
                for (const SchemaCatalog::SubjectVersion &v : read.newerVersions)
                    m_schemaVersion->addItem(
                        tr("%1 v%2 (id %3): newer").arg(read.schemaRef.subject).arg(v.version).arg(v.id),
                        v.id);
                m_schemaVersionLabel->setVisible(true);
                m_schemaVersion->setVisible(true);
            }
            // Only when the operator has not started typing: their text is never overwritten.
            if (m_payload->toPlainText().isEmpty())
                m_payload->setPlainText(QString::fromUtf8(read.payload));
        });
}

bool ReplayRequestDialog::validatePayload()
{
    if (action() != RemediationAction::EditReplay) {
        m_payloadValid = true;
        return true;
    }
    const QByteArray text = m_payload->toPlainText().toUtf8();
    QJsonParseError error;
    QJsonDocument::fromJson(text, &error);
    m_payloadValid = error.error == QJsonParseError::NoError;
    if (text.trimmed().isEmpty()) {
        m_payloadValid = false;
        m_payloadError->setText(tr("The edited payload is empty."));
    } else {
        m_payloadError->setText(m_payloadValid ? QString() : parseErrorText(text, error));
    }
    return m_payloadValid;
}

RequestDraft ReplayRequestDialog::draft() const
{
    RequestDraft d;
    d.action = action();
    if (d.action == RemediationAction::Delete || !isDlq())
        d.inboxRows = m_inboxRows;
    else
        d.selection = m_records;
    if (d.action == RemediationAction::EditReplay) {
        d.editedPayloads.insert(0, m_payload->toPlainText().toUtf8());
        d.revealed = m_payloadRevealed;
        if (const int id = m_schemaVersion->currentData().toInt(); m_schemaVersion->count() > 0 && id >= 0)
            d.editSchemaIds.insert(0, id);
    }
    const bool replays = d.action == RemediationAction::Replay || d.action == RemediationAction::EditReplay;
    if (replays && m_toChosen->isChecked())
        d.destinationTopic = m_destination->currentText().trimmed();
    d.rateLimit = replays ? m_rate->value() : 0;
    d.release = replays && isDlq() && m_release->isChecked();
    d.consumer = m_consumer;
    d.reasonCode = m_reasonCode->currentData().toString();
    d.reason = m_reason->text().trimmed();
    d.ticket = m_ticket->text().trimmed();
    d.expiresAt = m_expires->dateTime().toUTC();
    return d;
}

void ReplayRequestDialog::onDraftChanged()
{
    if (m_submission->submittedId() != 0)
        return;
    m_dryRuns.cancel();
    if (m_haveDryRun)
        setStatus(tr("The request changed: run the dry run again before submitting."), false);
    m_haveDryRun = false;
    m_built = BuiltRequest();
    m_dryRunText->clear();
    m_progress->reset();
    updateButtons();
}

void ReplayRequestDialog::startDryRun()
{
    if (!validatePayload()) {
        setStatus(tr("Fix the edited payload first."), true);
        return;
    }
    const RequestDraft d = draft();
    if (m_toChosen->isChecked() && m_toChosen->isEnabled() && d.destinationTopic.isEmpty()) {
        setStatus(tr("Name the topic to replay into, or choose the original topic."), true);
        return;
    }
    m_haveDryRun = false;
    m_built = BuiltRequest();
    m_dryRunText->setPlainText(tr("Pinning %n item(s) and running the dry run…", nullptr,
                                  int(d.selection.size() + d.inboxRows.size())));
    m_progress->setRange(0, 0);
    setStatus(QString(), false);
    m_dryRuns.start(
        [d, setup = m_setup](const JobControl &control) {
            return RemediationTasks::dryRun(d, setup, control);
        },
        [this](BuiltRequest built) {
            m_progress->setRange(0, 1);
            m_progress->setValue(1);
            m_built = std::move(built);
            // A build that failed before the dry run (an unreadable record) has nothing to show but why.
            const bool ran = m_built.dryRun.count > 0;
            m_haveDryRun = ran;
            m_dryRunText->setPlainText(ran ? visibleLines(m_built.dryRun.summary()) : QString());
            if (!m_built.ok())
                setStatus(ran ? tr("This request cannot be submitted: %1").arg(m_built.error)
                              : tr("The dry run failed: %1").arg(m_built.error),
                          true);
            else
                setStatus(tr("Dry run done: review it, then submit for approval (%n approval(s) needed).",
                             nullptr, m_built.request.requiredApprovals),
                          false);
            updateButtons();
            Q_EMIT dryRunFinished(m_built.ok());
        },
        [this](qint64 done, qint64 total) {
            m_progress->setRange(0, int(std::min<qint64>(total, 1'000'000'000)));
            m_progress->setValue(int(done));
        });
    updateButtons();
}

void ReplayRequestDialog::cancelDryRun()
{
    if (!m_dryRuns.isRunning())
        return;
    m_dryRuns.cancel();
    m_progress->reset();
    m_dryRunText->clear();
    setStatus(tr("Dry run cancelled."), false);
    updateButtons();
}

bool ReplayRequestDialog::maySubmit(QString *why) const
{
    const QString filing = m_submission->blockingReason(); // filed, or being filed
    const QString reason = !filing.isEmpty()       ? filing
                           : !m_payloadValid       ? tr("The edited payload is not valid JSON.")
                           : m_dryRuns.isRunning() ? tr("The dry run is running.")
                           : !m_haveDryRun ? tr("Run the dry run first: the approver sees what you saw.")
                           : m_built.dryRun.verdict == PolicyVerdict::Blocked
                               ? tr("The delivery policy blocks this request.")
                           : !m_built.ok() ? m_built.error
                           : m_reason->text().trimmed().isEmpty()
                               ? tr("Give a reason: the approver and the audit trail need to know why.")
                               : QString();
    if (why)
        *why = reason;
    return reason.isEmpty();
}

void ReplayRequestDialog::updateButtons()
{
    const bool running = m_dryRuns.isRunning();
    m_dryRun->setEnabled(!running && m_submission->blockingReason().isEmpty());
    m_cancel->setEnabled(running);
    QString why;
    m_submit->setEnabled(maySubmit(&why));
    m_submit->setToolTip(why);
}

void ReplayRequestDialog::submit()
{
    QString why;
    if (!maySubmit(&why)) {
        setStatus(why, true);
        return;
    }
    // What the dry run does not depend on is taken as it is now.
    const RequestDraft d = draft();
    BuiltRequest built = m_built;
    built.request.reasonCode = d.reasonCode;
    built.request.reason = d.reason;
    built.request.ticket = d.ticket;
    built.request.expiresAt = d.expiresAt;
    built.request.rateLimit = d.rateLimit;
    m_submission->start(m_setup.auditConninfo, built);
    updateButtons();
}

void ReplayRequestDialog::setStatus(const QString &text, bool problem)
{
    m_status->setText(DlqBrowserModel::visibleText(text));
    m_status->setStyleSheet(problem ? u"color: #b00020;"_s : QString());
}
