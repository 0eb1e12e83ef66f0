#pragma once

#include "services/inbox/inboxmapping.h"

#include <QJsonObject>
#include <QWidget>

class InboxRowsModel;
class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QTableView;
class QTimer;
class RefreshClock;

// Parked and failed inbox rows, browsed like the DLQ: choose the inbox and the states, filter by text,
// sort by any column. The view asks; the owner fetches and hands the page to the model.
class InboxRowsView final : public QWidget {
    Q_OBJECT
public:
    explicit InboxRowsView(InboxRowsModel *model, QWidget *parent = nullptr);

    void setMappings(const QList<InboxMapping> &mappings);
    void requestRefresh();
    QList<InboxState> chosenStates() const;
    QString currentMapping() const; // the selector's mapping name; empty: none
    QTableView *table() const { return m_table; }
    QComboBox *mappingSelector() const { return m_selector; }
    QLabel *statusLabel() const { return m_status; }
    // Follows the table on a clock (ARCHITECTURE.md, Views: live views); tests shorten it.
    RefreshClock *refreshClock() const { return m_clock; }
    // The selected rows as inbox references (inboxRefFor), in table order.
    QList<QJsonObject> selectedRows() const;
    // What "Skip / delete…" (button, context menu, Ctrl+R) does: asks for a request dialog.
    void requestRemediation();

Q_SIGNALS:
    void refreshRequested(const InboxMapping &mapping, const QList<InboxState> &states, const QString &text);
    void remediationRequested(const QList<QJsonObject> &rows);
    // The inbox the table lists now (the selector's mapping; empty: none).
    void mappingChosen(const QString &mapping);

private:
    void restoreSelection();

    InboxRowsModel *m_model;
    QList<InboxMapping> m_mappings;
    QComboBox *m_selector;
    QList<QPair<QCheckBox *, InboxState>> m_states;
    QLineEdit *m_filter;
    QLabel *m_status;
    QTableView *m_table;
    QTimer *m_debounce;
    RefreshClock *m_clock;
    QList<QJsonObject> m_keptSelection; // the rows selected before a refresh, chosen again after it
};
