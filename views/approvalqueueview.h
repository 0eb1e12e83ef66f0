#pragma once

#include "services/audit/audittypes.h"

#include <QHash>
#include <QWidget>

class ApprovalQueueModel;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSplitter;
class QTabWidget;
class QTableView;
class QTableWidget;
class QTimer;
struct AuditDecisionOutcome;

// The approval queue: pending requests (live), the selected one's summary, dry run, items and, for an
// edit, the diff of original against edited payload; approve or reject with a comment. The buttons follow
// the model's answer (your own request: disabled), but a decision still goes to the database, whose
// refusal is shown word for word. Everything people or messages wrote is shown as plain text.
class ApprovalQueueView final : public QWidget {
    Q_OBJECT
public:
    explicit ApprovalQueueView(ApprovalQueueModel *model, QWidget *parent = nullptr);

    void setConnectionState(const QString &text, bool connected);
    void setDetail(const RequestDetail &detail);
    void setDetailError(qint64 requestId, const QString &error);
    void showDecisionOutcome(const AuditDecisionOutcome &outcome);
    // The record an edited item came from, for the diff (error: why it could not be read). payload: as shown
    // (display JSON of a schema payload, masked); valueSha256: of its bytes, for the pin check (empty: of
    // payload); editedShown: the edits of its items as shown (item number → display JSON), else their bytes.
    void setOriginalPayload(const QString &topic, int partition, qint64 offset, const QByteArray &payload,
                            const QString &error, const QByteArray &valueSha256 = {},
                            const QHash<int, QByteArray> &editedShown = {});

    void selectRequest(qint64 requestId);
    qint64 currentRequestId() const; // 0: none
    void selectItem(int row);
    // What Approve and Reject do. Not gated here on purpose: the database is the authority.
    void submitDecision(bool approve);

    QByteArray saveState() const;
    void restoreState(const QByteArray &state);

    // For tests and screenshots.
    QTableView *table() const { return m_table; }
    QPushButton *approveButton() const { return m_approve; }
    QPushButton *rejectButton() const { return m_reject; }
    QLineEdit *commentEdit() const { return m_comment; }
    QLabel *resultLabel() const { return m_result; }
    QLabel *whyLabel() const { return m_why; }
    QPlainTextEdit *summaryText() const { return m_summary; }
    QPlainTextEdit *diffText() const { return m_diff; }
    QTableWidget *itemsTable() const { return m_items; }

Q_SIGNALS:
    void refreshRequested();
    void detailWanted(qint64 requestId);
    void decisionRequested(qint64 requestId, bool approve, const QString &comment);
    void originalPayloadWanted(const QString &topic, int partition, qint64 offset);

private:
    void onCurrentChanged();
    void updateButtons();
    void showItem(int row);
    void showDiff(const RequestItem &item);
    void setResult(const QString &text, bool problem);

    ApprovalQueueModel *m_model;
    QLabel *m_connection;
    bool m_connected = true; // the audit database answers: an empty queue means none waiting
    QSplitter *m_split;
    QTableView *m_table;
    QTabWidget *m_tabs;
    QPlainTextEdit *m_summary;
    QTableWidget *m_items;
    QPlainTextEdit *m_diff;
    QLineEdit *m_comment;
    QPushButton *m_approve;
    QPushButton *m_reject;
    QLabel *m_why; // why the buttons are disabled
    QLabel *m_result;
    QTimer *m_tick;
    qint64 m_shownId = 0;   // the request whose detail is on screen
    qint64 m_decidedId = 0; // the request this desk decided last
    RequestDetail m_detail;
    struct Original {
        QByteArray payload;
        QString error;
        QByteArray valueSha256;
        QHash<int, QByteArray> editedShown;
    };
    QHash<QString, Original> m_originals; // by topic/partition/offset, for this request only
};
