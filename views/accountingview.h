#pragma once

#include "services/accounting/accountingtypes.h"
#include "services/monitor/ordertail.h"
#include "services/remediation/remediationtypes.h"

#include <QWidget>

class AccountingModel;
class DlqInspectorView;
class DlqScanner;
class QComboBox;
class QCustomPlot;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QScrollArea;
class QTableView;
class QTabWidget;
class QTableWidget;

// The accounting desk (ARCHITECTURE.md, Data flows: Delivery accounting): which consumer, topic and
// window; progress and cancel while it runs; then the count per class (choosing classes filters the
// records below), a chart of each class per minute over the window, order findings and the delivery
// semantics verdict, the records themselves (virtualized), export, and a replay request for the
// unaccounted or dead-lettered records selected. The record chosen is shown whole beside the table by
// the DLQ inspector (headers, key, payload through the payload codec, masked as the policy says), and a
// dead-lettered record's dead letter in a second one; each inspector reads through its own scanner (a
// newer fetch on one scanner supersedes the last). Keys and values are shown as plain text.
class AccountingView final : public QWidget {
    Q_OBJECT
public:
    // Without scanners the inspectors only say where the record is.
    explicit AccountingView(AccountingModel *model, DlqScanner *records = nullptr,
                            DlqScanner *deadLetters = nullptr, QWidget *parent = nullptr);

    // The cluster the records are fetched from.
    void setCluster(const KafkaProperties &cluster) { m_cluster = cluster; }

    void setGroups(const QStringList &groups);
    void setProgress(const AccountingProgress &progress);
    void setResult(const AccountingResultPtr &result);
    // What the accounting says of the consumer's delivery semantics, in words; contradictions in red.
    void setSemantics(const QString &verdict, const QStringList &contradictions);
    void showExported(const QString &path, qint64 records, const QString &error);
    // The live order tail's counts per topic and example keys (beside the chart).
    void setOrderTail(const OrderTailStats &stats);

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
    QLabel *semanticsLabel() const { return m_semantics; }
    QScrollArea *sidePane() const { return m_side; } // the counts, the summary and the semantics verdict
    DlqInspectorView *recordInspector() const { return m_recordInspector; }
    DlqInspectorView *deadLetterInspector() const { return m_deadLetterInspector; }
    QTabWidget *inspectorTabs() const { return m_inspectors; }
    QTableWidget *orderTailTable() const { return m_tail; }

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
    void inspect(const QModelIndex &current);
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
    QScrollArea *m_side = nullptr;
    QCustomPlot *m_chart;
    QTableView *m_table;
    QPushButton *m_exportCsv;
    QPushButton *m_exportJson;
    QPushButton *m_replay;
    QTabWidget *m_charts;
    QTableWidget *m_tail;
    QLabel *m_tailState;
    QTabWidget *m_inspectors;
    DlqInspectorView *m_recordInspector;
    DlqInspectorView *m_deadLetterInspector;
    KafkaProperties m_cluster;
};
