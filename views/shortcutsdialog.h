#pragma once

#include <QDialog>

// Every keyboard shortcut of a window, read from its menus and actions when opened, so the list cannot
// drift from what the keys really do.
class ShortcutsDialog final : public QDialog {
    Q_OBJECT
public:
    struct Entry {
        QString section; // the menu, or "Views" for actions that live in a view
        QString action;  // without "&" accelerators or a trailing ellipsis
        QString keys;    // native text, several separated by ", "
    };
    static QList<Entry> collect(QWidget *window);

    ShortcutsDialog(QWidget *window, QWidget *parent = nullptr);
};
