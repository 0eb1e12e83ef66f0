#include "actionconfirmation.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

ActionConfirmation::ActionConfirmation(QWidget *parent, const ActionSummary &summary)
    : QDialog(parent)
{
    setWindowTitle(summary.verb);
    QStringList lines;
    lines << summary.request;
    lines << tr("%1: %n item(s).", nullptr, summary.count).arg(summary.destination);
    if (!summary.repeatingKeys.isEmpty())
        lines << tr("Keys that repeat: %1").arg(summary.repeatingKeys.join(u", "_s));
    lines += summary.notes;
    lines << tr("This cannot be undone. Continue?");
    m_text = lines.join(u'\n');

    auto *label = new QLabel(m_text, this);
    label->setTextFormat(Qt::PlainText);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setMinimumWidth(420);
    auto *buttons = new QDialogButtonBox(this);
    m_confirm = buttons->addButton(summary.verb, QDialogButtonBox::AcceptRole);
    m_cancel = buttons->addButton(QDialogButtonBox::Cancel);
    m_confirm->setAutoDefault(false);
    m_cancel->setDefault(true);
    m_cancel->setFocus();
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(label);
    layout->addWidget(buttons);
}

ActionConfirmation *ActionConfirmation::ask(QWidget *parent, const ActionSummary &summary,
                                            std::function<void()> confirmed)
{
    auto *dialog = new ActionConfirmation(parent, summary);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, parent, [confirmed = std::move(confirmed)] { confirmed(); });
    dialog->open();
    return dialog;
}

QString ActionConfirmation::text() const
{
    return m_text;
}
