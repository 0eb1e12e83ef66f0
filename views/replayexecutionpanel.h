#pragma once

#include "services/audit/audittypes.h"
#include "services/remediation/replayexecutor.h"
#include "services/remediation/replayverifier.h"

#include <QWidget>

#include <optional>

class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QSplitter;
class QTableWidget;

// Executing approved requests: the desk's recent requests, Execute with an optional canary, progress with
// rate and ETA, pause / resume / cancel, the items that did not make it, and how the run ended. The Execute
// button needs a selected request and asks before it runs (ActionConfirmation); it follows the request's status, but the database decides whether a run may start and its refusal
// is shown word for word. The panel only asks; the desk runs the job.
class ReplayExecutionPanel final : public QWidget {
    Q_OBJECT
public:
    explicit ReplayExecutionPanel(QWidget *parent = nullptr);

    void setListing(const QList<RemediationRequest> &requests, const AuditIdentity &identity);
    void setListingError(const QString &error);
    void selectRequest(qint64 requestId);
    qint64 currentRequestId() const; // 0: none

    // What the Execute button does: names the request, its destination, its count and its repeating keys
    // in an ActionConfirmation, and executes only once the operator confirms.
    void confirmExecution();
    // Runs the selected request. Not gated on its status here on purpose: the database is the authority.
    void execute();
    void exportRunbook(const QString &path);
    void setProgress(const ReplayProgress &progress);
    void setOutcome(const ReplayOutcome &outcome);
    void setStartRefused(const QString &why);
    // What the consumer did with each replayed record, pass by pass while it is followed; final: the last
    // word (an unverified result then says what is still pending).
    void setVerification(const ReplayVerification &verification, bool final);
    // The latest verification the audit chain holds for a request (an earlier run's), asked for with
    // storedVerificationRequested when the request is selected; shown only while it is still selected and
    // no live verification of it is. nullopt: none recorded (or *error).
    void setStoredVerification(qint64 requestId, const std::optional<ReplayVerification> &verification,
                               const QString &error);
    void showRunbookResult(const QString &path, const QString &error);
    // The split between the request list and the run's area, and the list's columns (ViewState).
    QByteArray saveState() const;
    void restoreState(const QByteArray &state);

    // For tests and screenshots.
    QTableWidget *table() const { return m_table; }
    QSplitter *splitter() const { return m_split; }
    QPushButton *executeButton() const { return m_execute; }
    QPushButton *pauseButton() const { return m_pause; }
    QPushButton *resumeButton() const { return m_resume; }
    QPushButton *cancelButton() const { return m_cancel; }
    QPushButton *runbookButton() const { return m_runbook; }
    QSpinBox *canaryBox() const { return m_canary; }
    QProgressBar *progressBar() const { return m_progress; }
    QLabel *progressLabel() const { return m_progressText; }
    QLabel *resultLabel() const { return m_result; }
    QPlainTextEdit *problemsText() const { return m_problems; }
    QLabel *verificationLabel() const { return m_verification; }
    QPlainTextEdit *outcomesText() const { return m_outcomes; }
    bool isRunning() const { return m_runningId != 0; }

Q_SIGNALS:
    void refreshRequested();
    void executeRequested(qint64 requestId, int canaryCount);
    void pauseRequested();
    void resumeRequested();
    void cancelRequested();
    void runbookRequested(qint64 requestId, const QString &path);
    void storedVerificationRequested(qint64 requestId);

protected:
    void showEvent(QShowEvent *event) override;

private:
    const RemediationRequest *current() const;
    void updateButtons();
    void setResult(const QString &text, bool problem);
    void onSelected();
    void showVerification(const ReplayVerification &v, bool final, const QString &recorded);

    QList<RemediationRequest> m_requests;
    AuditIdentity m_identity;
    qint64 m_runningId = 0;
    qint64 m_shownRunId = 0; // whose run the progress, problems and result show (0: none)
    bool m_paused = false;
    qint64 m_shownVerificationId = 0; // whose verification the Verification area shows (or is reading)
    qint64 m_liveVerificationId = 0;  // run or followed on this desk: stored answers do not replace it
    bool m_splitPlaced = false;       // the split was restored or placed when first shown

    QSplitter *m_split;
    QTableWidget *m_table;
    QSpinBox *m_canary;
    QPushButton *m_execute;
    QPushButton *m_pause;
    QPushButton *m_resume;
    QPushButton *m_cancel;
    QPushButton *m_runbook;
    QLabel *m_why;
    QProgressBar *m_progress;
    QLabel *m_progressText;
    QPlainTextEdit *m_problems;
    QLabel *m_result;
    QLabel *m_verification;
    QPlainTextEdit *m_outcomes;
};
