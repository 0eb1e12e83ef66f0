#pragma once

#include "services/inbox/inboxboard.h"
#include "services/inbox/inboxmapping.h"

#include <QList>
#include <QWidget>

class InboxBoardModel;
class QCPBars;
class QComboBox;
class QCustomPlot;
class QLabel;
class QPushButton;
class QTableView;
class QTreeWidget;

// The inbox board: which mapping, the state counts per consumer, the oldest stuck row, the attempts
// histogram, the top errors, the outbox backlog, and a warning when the indexes the queries rely on are
// missing. It reads nothing itself: it asks (refreshRequested) and shows what it is given (setBoard).
// Everything from the database is shown as plain text.
class InboxBoardView final : public QWidget {
    Q_OBJECT
public:
    explicit InboxBoardView(InboxBoardModel *model, QWidget *parent = nullptr);

    // Replaces the selector's entries (none at first: the policy and the profile state them) and selects
    // the first one.
    void setMappings(const QList<InboxMapping> &mappings);
    QList<InboxMapping> mappings() const { return m_mappings; }
    InboxMapping currentMapping() const;

    // For tests and screenshots.
    QComboBox *mappingSelector() const { return m_selector; }
    QTableView *table() const { return m_table; }
    QCustomPlot *attemptsPlot() const { return m_plot; }
    QWidget *attemptsPane() const { return m_attemptsPane; }
    QTreeWidget *errorList() const { return m_errors; }
    QLabel *indexWarningLabel() const { return m_indexWarning; }
    QLabel *stuckLabel() const { return m_stuck; }
    QLabel *outboxLabel() const { return m_outbox; }
    QLabel *redeliveryLabel() const { return m_redelivery; }
    QLabel *statusLabel() const { return m_status; }

public Q_SLOTS:
    void setBoard(const InboxBoard &board);
    // Emits refreshRequested for the selected mapping (the Refresh button; a timer may call it too).
    void requestRefresh();

Q_SIGNALS:
    void refreshRequested(const InboxMapping &mapping);
    // The operator wants the mapping editor, on the mapping shown (empty: none yet).
    void editMappingsRequested(const QString &mappingName);
    // "Reclaim stuck rows…" for the consumer whose mapping is shown.
    void reclaimRequested(const QString &consumer);

private:
    void fitTableHeight();
    void showHistogram(const InboxBoard &board);
    void showErrors(const InboxBoard &board);

    InboxBoardModel *m_model;
    QList<InboxMapping> m_mappings;
    QComboBox *m_selector;
    QPushButton *m_refresh;
    QLabel *m_status;
    QLabel *m_indexWarning;
    QTableView *m_table;
    QLabel *m_stuck;
    QLabel *m_outbox;
    QLabel *m_redelivery;
    QCustomPlot *m_plot;
    QCPBars *m_bars;
    QLabel *m_noAttempts;
    QWidget *m_attemptsPane; // hidden when the mapping has no attempts column: the errors take the width
    QTreeWidget *m_errors;
};
