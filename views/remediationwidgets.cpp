#include "remediationwidgets.h"
#include "wrappinglabel.h"

#include <QAbstractItemView>
#include <QAction>
#include <QBoxLayout>
#include <QLabel>
#include <QPushButton>

namespace RemediationWidgets {
QLabel *messageLabel(QWidget *parent)
{
    return new WrappingLabel(parent); // plain text, selectable, wraps inside long tokens
}

QAction *addRequestAction(QWidget *view, QAbstractItemView *table, QBoxLayout *buttons, const QString &text,
                          const QString &toolTip)
{
    auto *action = new QAction(text, view);
    action->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    // Only while the focus is in this view: the DLQ desk and the parked rows each have their own.
    action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    action->setToolTip(toolTip);
    view->addAction(action);
    table->addAction(action);
    table->setContextMenuPolicy(Qt::ActionsContextMenu);
    auto *button = new QPushButton(text, view);
    button->setToolTip(toolTip);
    QObject::connect(button, &QPushButton::clicked, action, &QAction::trigger);
    buttons->addWidget(button);
    return action;
}
} // namespace RemediationWidgets
