#pragma once

#include "services/audit/audittypes.h"

#include <QWidget>

class AuditTrailModel;
class QCheckBox;
class QComboBox;
class QDateTimeEdit;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressDialog;
class QPushButton;
class QSplitter;
class QTableView;

// The audit log: filter by person, action and time; load page after page; verify the hash chain with a
// clear verdict (the first broken row and why); export what the filter selects. The view asks; the owner
// fetches, verifies and exports off the UI thread and hands back results.
class AuditTrailView final : public QWidget {
    Q_OBJECT
public:
    explicit AuditTrailView(AuditTrailModel *model, QWidget *parent = nullptr);

    EventFilter currentFilter() const;
    void setFilter(const QString &actor, const QStringList &actions, const QDateTime &from,
                   const QDateTime &to);
    void requestRefresh();
    void loadMore();
    // The live tail: rows written since the last one shown, when the whole selection is on screen.
    void requestTail();
    void startVerify();
    void setVerifyProgress(qint64 checkedRows, qint64 highestSeq);
    void showVerification(const ChainVerification &result);
    void exportRows(const QString &path);
    void setExportProgress(qint64 rows);
    void showExportResult(const QString &path, qint64 rows, const QString &error);

    QByteArray saveState() const;
    void restoreState(const QByteArray &state);

    // For tests and screenshots.
    QTableView *table() const { return m_table; }
    QLabel *verifyLabel() const { return m_verdict; }
    QLabel *statusLabel() const { return m_status; }
    QPushButton *verifyButton() const { return m_verify; }
    QPlainTextEdit *detailsText() const { return m_details; }

Q_SIGNALS:
    void fetchRequested(const EventFilter &filter);
    void verifyRequested();
    void verifyCancelRequested();
    void exportRequested(const QString &path, const EventFilter &filter);
    void exportCancelRequested();
    void statusMessage(const QString &text);

private:
    void showCurrentEvent();
    void setVerdict(const QString &text, const QString &color);

    AuditTrailModel *m_model;
    QLineEdit *m_actor;
    QComboBox *m_action;
    QCheckBox *m_useFrom;
    QDateTimeEdit *m_from;
    QCheckBox *m_useTo;
    QDateTimeEdit *m_to;
    QPushButton *m_more;
    QPushButton *m_verify;
    QLabel *m_status;
    QLabel *m_verdict;
    QSplitter *m_split;
    QTableView *m_table;
    QPlainTextEdit *m_details;
    QProgressDialog *m_exportProgress = nullptr;
    bool m_verifying = false;
};
