#pragma once

#include <QString>

class QAbstractItemView;
class QAction;
class QBoxLayout;
class QLabel;
class QWidget;

// Small pieces the remediation views share.
namespace RemediationWidgets {
// A label for messages that may quote people or payloads: plain text, wrapped, selectable for tickets.
QLabel *messageLabel(QWidget *parent);
// The "request a remediation for the selected rows" entry of a table view: one action, reachable by Ctrl+R
// within `view`, from the table's context menu, and from a button appended to `buttons`. The caller
// connects QAction::triggered.
QAction *addRequestAction(QWidget *view, QAbstractItemView *table, QBoxLayout *buttons, const QString &text,
                          const QString &toolTip);
} // namespace RemediationWidgets
