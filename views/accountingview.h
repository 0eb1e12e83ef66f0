#pragma once

#include "services/accounting/accountingtypes.h"
#include "services/remediation/remediationtypes.h"

#include <QWidget>

class AccountingModel;
class QComboBox;
class QCustomPlot;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QTableView;
class QTableWidget;

// The accounting desk (ARCHITECTURE.md, Data flows: Delivery accounting): which consumer, topic and
// window; progress and cancel while it runs; then the count per class (choosing classes filters the
// records below), a chart of each class per minute over the window, order findings and the delivery
// semantics verdict, the records themselves (virtualized), export, and a replay request for the
// unaccounted or dead-lettered records selected. Keys and values are shown as plain text.
class AccountingView final : public QWidget {
    Q_OBJECT
public:
    explicit AccountingView(AccountingModel *model, QWidget *parent = nullptr);

    void setGroups(const QStringList &groups);
    void setProgress(const AccountingProgress &progress);
    void setResult(const AccountingResultPtr &result);
    // What the accounting says of the consumer's delivery semantics, in words; contradictions in red.
    void setSemantics(const QString &verdict, const QStringList &contradictions);
    void showExported(const QString &path, qint64 records, const QString &error);

    // For tests and screenshots.
    QComboBox *groupBox() const { return m_group; }
    QLineEdit *topicEdit() const { return m_topic; }
    QLineEdit *fromEdit() const { return m_from; }
    QLineEdit *toEdit() const { return m_to; }
    QPushButton *runButton() const { return m_run; }
    QPushButton *cancelButton() const { return m_cancel; }
    QPushButton *replayButton() const { return m_replay; }
    QTableWidget *countTable() const { return m_counts; }
    QTableView *recordTable() const { return m_table; }
    QCustomPlot *chart() const { return m_chart; }
    QLabel *summaryLabel() const { return m_summary; }

Q_SIGNALS:
    void runRequested(const QString &group, const QString &topic, const QString &from, const QString &to);
    void cancelRequested();
    void exportRequested(const QList<AccountClass> &classes, bool csv, const QString &path);
    void replayRequested(const QList<DlqSelection> &records);

private:
    void requestRun();
    void classesChosen();
    void redrawChart();
    void updateButtons();
    void exportTo(bool csv);
    QList<AccountClass> chosenClasses() const;

    AccountingModel *m_model;
    QComboBox *m_group;
    QLineEdit *m_topic;
    QLineEdit *m_from;
    QLineEdit *m_to;
    QPushButton *m_run;
    QPushButton *m_cancel;
    QProgressBar *m_progress;
    QLabel *m_status;
    QTableWidget *m_counts;
    QLabel *m_summary;
    QLabel *m_semantics;
    QCustomPlot *m_chart;
    QTableView *m_table;
    QPushButton *m_exportCsv;
    QPushButton *m_exportJson;
    QPushButton *m_replay;
};
