#pragma once

#include "services/dlq/dlqscantypes.h"
#include "services/remediation/remediationtypes.h"
#include "services/support/jobtracker.h"

#include <QWidget>

class DlqBrowserModel;
class DlqInspectorView;
class DlqScanner;
class FailureGroupModel;
class QComboBox;
class QDateTimeEdit;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QSplitter;
class QTableView;
class QTimer;

// The DLQ triage desk: choose a topic and where to start, scan (or tail), watch the failure groups
// form, filter, and inspect one record. Talks to the scanner only through its API and signals.
class DlqBrowserView final : public QWidget {
    Q_OBJECT
public:
    explicit DlqBrowserView(DlqScanner *scanner, QWidget *parent = nullptr);
    ~DlqBrowserView() override;

    void setCluster(const KafkaProperties &cluster);
    void setBootstrap(const QString &bootstrap); // shorthand: bootstrap.servers only
    // Topics for the chooser; names that look like dead-letter topics come first.
    void setTopics(const QStringList &topics);
    void setTopic(const QString &topic);

    void startScan(bool liveTail = false); // with the chosen topic, partitions and start
    void cancelScan();
    // The masking rules changed: what is shown was masked under the old ones, so the last scan runs again
    // (and the inspector lets its record go).
    void rescan();
    void focusFilter();
    // Runs the field filter typed (Ctrl+Shift+F, Enter) over every entry's payload, off the UI thread.
    void runFieldFilter();
    QLineEdit *fieldFilterEdit() const { return m_fieldFilter; }
    QString fieldFilterState() const;
    // Streams the rows as shown to path (CSV, or JSON lines for .jsonl), on a worker thread with progress.
    void exportRows(const QString &path);

    QByteArray saveState() const;
    void restoreState(const QByteArray &state);

    DlqBrowserModel *model() const { return m_model; }
    FailureGroupModel *groupModel() const { return m_groups; }
    DlqInspectorView *inspector() const { return m_inspector; }
    QTableView *table() const { return m_table; }
    QTableView *groupTable() const { return m_groupTable; }

    static bool looksLikeDlq(const QString &topic);
    // The entry table as the desk shows it (fixed rows, widths, cached text painting); the benchmark uses it too.
    static void setUpEntryTable(QTableView *table, DlqBrowserModel *model);

    // The selected rows as records to remediate, in table order.
    QList<DlqSelection> selectedRecords() const;
    // What "Request replay / skip…" (button, context menu, Ctrl+R) does: asks for a request dialog.
    void requestRemediation();
    QStringList knownTopics() const; // the topic chooser's entries

Q_SIGNALS:
    void statusMessage(const QString &text);
    void exportFinished(bool ok, qint64 rows);
    void remediationRequested(const QList<DlqSelection> &records);

private:
    void onStarted(const DlqScanPlan &plan);
    void onBatch(const DlqScanBatch &batch);
    void onFinished(const DlqScanResult &result);
    void showProgress(const DlqScanProgress &progress, bool running);
    void applyFilter();
    void clearFieldFilter();
    void onGroupSelected();
    void onCurrentRowChanged();
    void updateStartEditors();
    bool buildRequest(DlqScanRequest &request, bool liveTail, QString *error) const;
    void setRunning(bool running);

    DlqScanner *m_scanner;
    DlqBrowserModel *m_model;
    FailureGroupModel *m_groups;
    QSortFilterProxyModel *m_groupProxy;
    KafkaProperties m_cluster;

    QComboBox *m_topic;
    QLineEdit *m_partitions;
    QComboBox *m_start;
    QLineEdit *m_startValue;
    QDateTimeEdit *m_startTime;
    QPushButton *m_scan;
    QPushButton *m_tail;
    QPushButton *m_cancel;
    QProgressBar *m_progress;
    QLabel *m_progressText;
    QLabel *m_notes;
    QLineEdit *m_filter;
    QLabel *m_filterState;
    QLineEdit *m_fieldFilter;
    QPushButton *m_fieldCancel;
    QLabel *m_fieldState;
    QPushButton *m_allGroups;
    QLabel *m_poison;
    QTableView *m_groupTable;
    QTableView *m_table;
    DlqInspectorView *m_inspector;
    QSplitter *m_outer;
    QSplitter *m_inner;
    QTimer *m_filterDebounce;

    // The last field filter's answer (ARCHITECTURE.md, Contracts: field filters); null: none.
    std::shared_ptr<const std::vector<quint32>> m_fieldMatches;
    QString m_fieldText;
    qint64 m_selectedGroup = -1;
    quint32 m_currentEntry = 0;
    bool m_hadCurrent = false;
    bool m_running = false;
    bool m_live = false;
    QString m_bootstrapShown;
    JobTracker m_exportJobs{this};
};
