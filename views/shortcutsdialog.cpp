#include "shortcutsdialog.h"

#include <QAbstractButton>
#include <QAction>
#include <QDialogButtonBox>
#include <QHash>
#include <QHeaderView>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QSet>
#include <QShortcut>
#include <QTreeWidget>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace {
QString plain(QString text)
{
    text.remove(u'&');
    if (text.endsWith(u'…'))
        text.chop(1);
    return text.trimmed();
}

QString keysOf(const QList<QKeySequence> &sequences)
{
    QStringList keys;
    for (const QKeySequence &s : sequences) {
        if (!s.isEmpty())
            keys.append(s.toString(QKeySequence::NativeText));
    }
    return keys.join(u", "_s);
}

void addMenu(QMenu *menu, const QString &section, QList<ShortcutsDialog::Entry> &out, QSet<QAction *> &seen)
{
    for (QAction *action : menu->actions()) {
        if (action->menu()) {
            addMenu(action->menu(), section + u" › "_s + plain(action->text()), out, seen);
            continue;
        }
        seen.insert(action);
        const QString keys = keysOf(action->shortcuts());
        if (!keys.isEmpty() && !action->isSeparator())
            out.append({section, plain(action->text()), keys});
    }
}
} // namespace

QList<ShortcutsDialog::Entry> ShortcutsDialog::collect(QWidget *window)
{
    QList<Entry> out;
    QSet<QAction *> seen;
    if (auto *main = qobject_cast<QMainWindow *>(window)) {
        for (QAction *top : main->menuBar()->actions()) {
            if (top->menu())
                addMenu(top->menu(), plain(top->text()), out, seen);
        }
    }
    // Actions, buttons and shortcuts that views install on themselves (export, find, acknowledge...). Each
    // key is listed once: views that give the same key the same meaning in their own place (Ctrl+R: ask
    // for a remediation of the selected rows) share one line naming each.
    QHash<QString, qsizetype> byKeys;
    for (const Entry &e : std::as_const(out))
        byKeys.insert(e.keys, -1); // a menu's key: the menu's line stands
    const auto addViewEntry = [&](const QString &action, const QString &keys) {
        if (keys.isEmpty() || action.isEmpty())
            return;
        const auto it = byKeys.constFind(keys);
        if (it == byKeys.cend()) {
            byKeys.insert(keys, out.size());
            out.append({tr("Views"), action, keys});
        } else if (*it >= 0 && !out[*it].action.split(u" / "_s).contains(action)) {
            out[*it].action += u" / "_s + action;
        }
    };
    // Every action the window holds: its children, and those registered on any of its widgets (an action
    // may be owned elsewhere and still answer a key here). One without text is named by its tool tip, else
    // listed all the same, so no key goes unlisted.
    QList<QAction *> actions = window->findChildren<QAction *>();
    actions += window->actions();
    for (QWidget *widget : window->findChildren<QWidget *>())
        actions += widget->actions();
    for (QAction *action : std::as_const(actions)) {
        if (seen.contains(action) || action->isSeparator())
            continue;
        seen.insert(action);
        QString name = plain(action->text());
        if (name.isEmpty())
            name = plain(action->toolTip());
        if (name.isEmpty())
            name = tr("(unnamed action)");
        addViewEntry(name, keysOf(action->shortcuts()));
    }
    for (QAbstractButton *button : window->findChildren<QAbstractButton *>())
        addViewEntry(plain(button->text()), keysOf({button->shortcut()}));
    for (QShortcut *shortcut : window->findChildren<QShortcut *>())
        addViewEntry(shortcut->whatsThis(), keysOf(shortcut->keys()));
    return out;
}

ShortcutsDialog::ShortcutsDialog(QWidget *window, QWidget *parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Keyboard shortcuts"));
    auto *tree = new QTreeWidget(this);
    tree->setColumnCount(2);
    tree->setHeaderLabels({tr("Action"), tr("Keys")});
    tree->setRootIsDecorated(false);
    tree->setAlternatingRowColors(true);
    QTreeWidgetItem *section = nullptr;
    for (const Entry &e : collect(window)) {
        if (!section || section->text(0) != e.section) {
            section = new QTreeWidgetItem(tree, {e.section});
            QFont bold = section->font(0);
            bold.setBold(true);
            section->setFont(0, bold);
            section->setFirstColumnSpanned(true);
        }
        new QTreeWidgetItem(tree, {u"    "_s + e.action, e.keys});
    }
    tree->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    tree->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    tree->header()->setStretchLastSection(false);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(tree, 1);
    layout->addWidget(buttons);
    resize(520, 560);
}
