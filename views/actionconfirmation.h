#pragma once

#include "models/actionsummary.h"

#include <QDialog>

#include <functional>

class QPushButton;

// The one confirmation of an action that produces to Kafka, changes inbox rows or moves offsets
// (ARCHITECTURE.md, Views: confirming an action). It names the request, the destination, the count and
// the keys that repeat; Cancel is the default button, so Enter or a space on a focused button never runs
// it by accident. Window-modal and asynchronous: `confirmed` runs only when the operator confirms.
class ActionConfirmation final : public QDialog {
    Q_OBJECT
public:
    ActionConfirmation(QWidget *parent, const ActionSummary &summary);

    // Opens a confirmation over `parent` and calls `confirmed` once it is accepted; it deletes itself.
    static ActionConfirmation *ask(QWidget *parent, const ActionSummary &summary, std::function<void()> confirmed);

    QString text() const; // what it says, for tests
    QPushButton *confirmButton() const { return m_confirm; }
    QPushButton *cancelButton() const { return m_cancel; }

private:
    QString m_text;
    QPushButton *m_confirm;
    QPushButton *m_cancel;
};
