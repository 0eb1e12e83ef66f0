#include "shortcutsdialog.h"

#include <QAction>
#include <QDialogButtonBox>
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
    // Actions and shortcuts that views install on themselves (export, find, inspect...).
    for (QAction *action : window->findChildren<QAction *>()) {
        const QString keys = keysOf(action->shortcuts());
        if (seen.contains(action) || keys.isEmpty() || action->text().isEmpty())
            continue;
        seen.insert(action);
        out.append({tr("Views"), plain(action->text()), keys});
    }
    for (QShortcut *shortcut : window->findChildren<QShortcut *>()) {
        const QString what = shortcut->whatsThis();
        if (!what.isEmpty())
            out.append({tr("Views"), what, keysOf(shortcut->keys())});
    }
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
