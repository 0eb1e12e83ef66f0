#include "plannedrequestdialog.h"

#include "models/dlqbrowsermodel.h"
#include "remediationwidgets.h"

#include <QComboBox>
#include <QDateTimeEdit>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QShortcut>
#include <QSpinBox>
#include <QStackedWidget>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

PlannedRequestDialog::PlannedRequestDialog(const RemediationSetup &setup, QWidget *parent)
    : QDialog(parent)
    , m_setup(setup)
    , m_submission(new RequestSubmission(this))
{
    setAttribute(Qt::WA_DeleteOnClose);
}

PlannedRequestDialog::~PlannedRequestDialog() = default;

PlannedRequestDialog *PlannedRequestDialog::offsetReset(const RemediationSetup &setup, const QString &group,
                                                        const QStringList &topics, QWidget *parent)
{
    auto *d = new PlannedRequestDialog(setup, parent);
    d->m_group = group;
    auto *inputs = new QWidget(d);
    auto *form = new QFormLayout(inputs);
    form->setContentsMargins(0, 0, 0, 0);
    auto *groupLabel = new QLabel(group, inputs);
    groupLabel->setTextFormat(Qt::PlainText);
    form->addRow(tr("Group:"), groupLabel);
    d->m_topic = new QComboBox(inputs);
    d->m_topic->setEditable(true);
    d->m_topic->addItems(topics);
    form->addRow(tr("&Topic:"), d->m_topic);
    d->m_target = new QComboBox(inputs);
    d->m_target->addItem(tr("The earliest offset"), Earliest);
    d->m_target->addItem(tr("The latest offset (skip everything not yet processed)"), Latest);
    d->m_target->addItem(tr("A time (the first record at or after it)"), Time);
    d->m_target->addItem(tr("By N records from the committed offset"), Shift);
    d->m_target->addItem(tr("Explicit offsets per partition"), Explicit);
    d->m_target->setCurrentIndex(Time);
    form->addRow(tr("&Move to:"), d->m_target);
    d->m_targetValue = new QStackedWidget(inputs);
    d->m_targetValue->addWidget(new QWidget(inputs));
    d->m_targetValue->addWidget(new QWidget(inputs));
    d->m_time = new QDateTimeEdit(QDateTime::currentDateTimeUtc().addSecs(-3600), inputs);
    d->m_time->setTimeSpec(Qt::UTC);
    d->m_time->setDisplayFormat(u"yyyy-MM-dd HH:mm:ss 'UTC'"_s);
    d->m_time->setCalendarPopup(true);
    d->m_targetValue->addWidget(d->m_time);
    d->m_shift = new QSpinBox(inputs);
    d->m_shift->setRange(-1'000'000'000, 1'000'000'000);
    d->m_shift->setValue(-100);
    d->m_shift->setToolTip(tr("Negative: back (records processed again); positive: forward (records skipped)"));
    d->m_targetValue->addWidget(d->m_shift);
    d->m_offsets = new QLineEdit(inputs);
    d->m_offsets->setPlaceholderText(tr("PARTITION=OFFSET, e.g. 0=1200,2=880 (others stay where they are)"));
    d->m_targetValue->addWidget(d->m_offsets);
    d->m_targetValue->setCurrentIndex(Time);
    form->addRow(tr("&Value:"), d->m_targetValue);
    d->build(inputs, tr("Reset offsets of %1").arg(DlqBrowserModel::visibleText(group)));
    connect(d->m_topic, &QComboBox::currentTextChanged, d, &PlannedRequestDialog::onInputsChanged);
    connect(d->m_target, &QComboBox::currentIndexChanged, d, [d](int index) {
        d->m_targetValue->setCurrentIndex(index);
        d->onInputsChanged();
    });
    connect(d->m_time, &QDateTimeEdit::dateTimeChanged, d, &PlannedRequestDialog::onInputsChanged);
    connect(d->m_shift, &QSpinBox::valueChanged, d, &PlannedRequestDialog::onInputsChanged);
    connect(d->m_offsets, &QLineEdit::textChanged, d, &PlannedRequestDialog::onInputsChanged);
    return d;
}

PlannedRequestDialog *PlannedRequestDialog::reclaim(const RemediationSetup &setup, const QString &consumer,
                                                    QWidget *parent)
{
    auto *d = new PlannedRequestDialog(setup, parent);
    d->m_consumer = consumer;
    auto *inputs = new QWidget(d);
    auto *form = new QFormLayout(inputs);
    form->setContentsMargins(0, 0, 0, 0);
    auto *consumerLabel = new QLabel(consumer, inputs);
    consumerLabel->setTextFormat(Qt::PlainText);
    form->addRow(tr("Consumer:"), consumerLabel);
    d->m_olderThan = new QSpinBox(inputs);
    d->m_olderThan->setRange(0, 7 * 24 * 60);
    d->m_olderThan->setSuffix(tr(" min"));
    d->m_olderThan->setSpecialValueText(tr("the mapping's \"stuck after\""));
    form->addRow(tr("In progress for &over:"), d->m_olderThan);
    d->m_reclaimTopic = new QLineEdit(inputs);
    d->m_reclaimTopic->setPlaceholderText(tr("the consumer's one topic in the policy"));
    form->addRow(tr("&Topic:"), d->m_reclaimTopic);
    d->build(inputs, tr("Reclaim stuck rows of %1").arg(DlqBrowserModel::visibleText(consumer)));
    connect(d->m_olderThan, &QSpinBox::valueChanged, d, &PlannedRequestDialog::onInputsChanged);
    connect(d->m_reclaimTopic, &QLineEdit::textChanged, d, &PlannedRequestDialog::onInputsChanged);
    return d;
}

void PlannedRequestDialog::build(QWidget *inputs, const QString &title)
{
    setWindowTitle(title);
    auto *form = new QFormLayout;
    m_reason = new QLineEdit(this);
    m_reason->setPlaceholderText(tr("Why, in words: the approver and the audit need to know"));
    m_ticket = new QLineEdit(this);
    form->addRow(tr("R&eason:"), m_reason);
    form->addRow(tr("T&icket:"), m_ticket);

    m_previewButton = new QPushButton(tr("&Preview"), this);
    m_previewButton->setToolTip(tr("Show what the request would do, before anything is filed (Ctrl+Return)"));
    m_cancel = new QPushButton(tr("Cance&l preview"), this);
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 1);
    auto *previewRow = new QHBoxLayout;
    previewRow->addWidget(m_previewButton);
    previewRow->addWidget(m_progress, 1);
    previewRow->addWidget(m_cancel);
    m_preview = new QPlainTextEdit(this);
    m_preview->setReadOnly(true);
    m_preview->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_preview->setMinimumHeight(160);
    m_preview->setPlaceholderText(isOffsetReset()
                                      ? tr("Preview to see each partition's committed and target offsets, the "
                                           "records processed again or skipped, the expected no-op rate and "
                                           "the ordering notes.")
                                      : tr("Preview to see the stuck rows, the records they are replayed from "
                                           "and which ones the group has committed past."));
    m_status = RemediationWidgets::messageLabel(this);
    m_submit = new QPushButton(tr("&Submit for approval"), this);
    m_submit->setAutoDefault(false);
    m_previewButton->setAutoDefault(false);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->addButton(m_submit, QDialogButtonBox::ActionRole);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(inputs);
    layout->addLayout(form);
    layout->addLayout(previewRow);
    layout->addWidget(m_preview, 1);
    layout->addWidget(m_status);
    layout->addWidget(buttons);
    resize(760, 560);

    auto *shortcut = new QShortcut(QKeySequence(u"Ctrl+Return"_s), this);
    connect(shortcut, &QShortcut::activated, this, &PlannedRequestDialog::startPreview);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_previewButton, &QPushButton::clicked, this, &PlannedRequestDialog::startPreview);
    connect(m_cancel, &QPushButton::clicked, this, &PlannedRequestDialog::cancelPreview);
    connect(m_submit, &QPushButton::clicked, this, &PlannedRequestDialog::submit);
    connect(m_reason, &QLineEdit::textChanged, this, &PlannedRequestDialog::updateButtons);
    connect(m_submission, &RequestSubmission::statusChanged, this, &PlannedRequestDialog::setStatus);
    connect(m_submission, &RequestSubmission::refused, this, &PlannedRequestDialog::updateButtons);
    connect(m_submission, &RequestSubmission::submitted, this, &PlannedRequestDialog::updateButtons);
    connect(m_submission, &RequestSubmission::submitted, this, &PlannedRequestDialog::submitted);
    updateButtons();
}

QString PlannedRequestDialog::targetText() const
{
    if (!m_target)
        return {};
    switch (m_target->currentData().toInt()) {
    case Earliest:
        return u"earliest"_s;
    case Latest:
        return u"latest"_s;
    case Time:
        return u"time:"_s + QString::number(m_time->dateTime().toMSecsSinceEpoch());
    case Shift:
        return u"shift:"_s + QString::number(m_shift->value());
    default:
        return m_offsets->text().trimmed();
    }
}

void PlannedRequestDialog::onInputsChanged()
{
    m_previews.cancel();
    m_havePreview = false;
    m_built = BuiltRequest();
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    if (!m_preview->toPlainText().isEmpty())
        setStatus(tr("The inputs changed: preview again before submitting."), false);
    updateButtons();
}

void PlannedRequestDialog::startPreview()
{
    RequestDraft draft;
    draft.reason = m_reason->text().trimmed();
    draft.ticket = m_ticket->text().trimmed();
    m_havePreview = false;
    m_built = BuiltRequest();
    m_preview->clear();
    std::function<BuiltRequest(const JobControl &)> job;
    if (isOffsetReset()) {
        QString error;
        const std::optional<OffsetResetTo> to = OffsetResetTo::parse(targetText(), &error);
        if (m_topic->currentText().trimmed().isEmpty() || !to) {
            setStatus(m_topic->currentText().trimmed().isEmpty() ? tr("Name the topic whose offsets move.")
                                                                 : error,
                      true);
            return;
        }
        OffsetResetInput input;
        input.group = m_group;
        input.topic = m_topic->currentText().trimmed();
        input.to = *to;
        job = [input, draft, setup = m_setup](const JobControl &control) {
            return RemediationTasks::planOffsetReset(input, draft, setup, control);
        };
    } else {
        ReclaimInput input;
        input.consumer = m_consumer;
        input.topic = m_reclaimTopic->text().trimmed();
        input.olderThanMs = m_olderThan->value() > 0 ? qint64(m_olderThan->value()) * 60'000 : -1;
        job = [input, draft, setup = m_setup](const JobControl &control) {
            return RemediationTasks::planReclaim(input, draft, setup, control);
        };
    }
    m_preview->setPlainText(tr("Reading the group's offsets and the records, looking keys up in the inbox…"));
    m_progress->setRange(0, 0);
    setStatus(QString(), false);
    m_previews.start(std::move(job), [this](BuiltRequest built) {
        m_progress->setRange(0, 1);
        m_progress->setValue(1);
        m_built = std::move(built);
        QString text = m_built.dryRun.summary();
        if (!isOffsetReset() && m_built.dryRun.count == 0 && !m_built.dryRun.reclaim.isEmpty())
            text = ReclaimPlan::fromJson(m_built.dryRun.reclaim).summary();
        const bool ran = !m_built.dryRun.offsetReset.isEmpty() || !m_built.dryRun.reclaim.isEmpty();
        QStringList lines = text.split(u'\n');
        for (QString &line : lines)
            line = DlqBrowserModel::visibleText(line);
        m_preview->setPlainText(ran ? lines.join(u'\n').trimmed() : QString());
        m_havePreview = ran && m_built.ok();
        if (!m_built.ok())
            setStatus(ran ? tr("This request cannot be submitted: %1").arg(m_built.error)
                          : tr("The preview failed: %1").arg(m_built.error),
                      true);
        else
            setStatus(tr("Preview done: review it, then submit for approval (%n approval(s) needed).", nullptr,
                         m_built.request.requiredApprovals),
                      false);
        updateButtons();
        Q_EMIT previewFinished(m_built.ok());
    });
    updateButtons();
}

void PlannedRequestDialog::cancelPreview()
{
    m_previews.cancel();
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_preview->clear();
    setStatus(tr("Preview cancelled."), false);
    updateButtons();
}

bool PlannedRequestDialog::maySubmit(QString *why) const
{
    QString reason = m_submission->blockingReason(); // filed, or being filed
    if (reason.isEmpty() && !m_havePreview)
        reason = tr("Preview first: the approver sees what you saw.");
    else if (reason.isEmpty() && m_reason->text().trimmed().isEmpty())
        reason = tr("Say why: the approver and the audit need to know.");
    if (why)
        *why = reason;
    return reason.isEmpty();
}

void PlannedRequestDialog::submit()
{
    QString why;
    if (!maySubmit(&why)) {
        setStatus(why, true);
        return;
    }
    BuiltRequest built = m_built;
    built.request.reason = m_reason->text().trimmed();
    built.request.ticket = m_ticket->text().trimmed();
    m_submission->start(m_setup.auditConninfo, built);
    updateButtons();
}

void PlannedRequestDialog::setStatus(const QString &text, bool problem)
{
    m_status->setText(text);
    m_status->setStyleSheet(problem ? u"color: #b00020;"_s : QString());
}

void PlannedRequestDialog::updateButtons()
{
    const bool running = m_previews.isRunning();
    m_previewButton->setEnabled(!running && m_submission->blockingReason().isEmpty());
    m_cancel->setEnabled(running);
    QString why;
    m_submit->setEnabled(maySubmit(&why));
    m_submit->setToolTip(why);
}
