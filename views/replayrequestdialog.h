#pragma once

#include "models/remediationtasks.h"
#include "services/support/jobtracker.h"
#include "views/requestsubmission.h"

#include <QDialog>
#include <QJsonObject>

class QCheckBox;
class QComboBox;
class QDateTimeEdit;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QRadioButton;

// Files a remediation request for the selected dead letters or parked inbox rows: the operator chooses the
// action and says why; the dry run (pinning every item, blast radius, expected no-op rate, ordering risk,
// policy verdict) runs off the UI thread and must be seen before "Submit for approval" is offered. The
// database records who asked and refuses what it will not accept; its words are shown as they are.
class ReplayRequestDialog final : public QDialog {
    Q_OBJECT
public:
    // Dead letters: replay, edit and replay (one record), skip.
    ReplayRequestDialog(const RemediationSetup &setup, const QList<DlqSelection> &records,
                        QWidget *parent = nullptr);
    // Records of a topic that `consumer` committed past without a trace or dead-lettered (the accounting's
    // replay): they carry no dead-letter headers, so they go back into their own topic, as the consumer's.
    ReplayRequestDialog(const RemediationSetup &setup, const QList<DlqSelection> &records,
                        const QString &consumer, QWidget *parent = nullptr);
    // Inbox rows (inboxRefFor(...)): skip, delete.
    ReplayRequestDialog(const RemediationSetup &setup, const QList<QJsonObject> &inboxRows,
                        QWidget *parent = nullptr);
    ~ReplayRequestDialog() override;

    void setTopics(const QStringList &topics); // choices for "replay into this topic"
    bool setAction(RemediationAction action);  // false when not offered for this selection
    RemediationAction action() const;
    void startDryRun();
    void cancelDryRun();
    void submit();
    // Submit is offered, and if not, why.
    bool maySubmit(QString *why = nullptr) const;

    qint64 submittedId() const { return m_submission->submittedId(); }
    const BuiltRequest &built() const { return m_built; }

    // For tests and screenshots.
    QPlainTextEdit *payloadEdit() const { return m_payload; }
    QLabel *payloadError() const { return m_payloadError; }
    QPlainTextEdit *dryRunText() const { return m_dryRunText; }
    QPushButton *dryRunButton() const { return m_dryRun; }
    QPushButton *submitButton() const { return m_submit; }
    QLabel *statusLabel() const { return m_status; }
    QComboBox *reasonCodeBox() const { return m_reasonCode; }
    QLineEdit *reasonEdit() const { return m_reason; }
    QLineEdit *ticketEdit() const { return m_ticket; }
    QComboBox *destinationBox() const { return m_destination; }
    QRadioButton *chosenTopicButton() const { return m_toChosen; }
    QRadioButton *originalTopicButton() const { return m_toOriginal; }
    QDoubleSpinBox *rateBox() const { return m_rate; }
    QCheckBox *releaseBox() const { return m_release; }
    QComboBox *schemaVersionBox() const { return m_schemaVersion; }

Q_SIGNALS:
    void dryRunFinished(bool ok);
    void submitted(qint64 requestId);
    void submitFailed(const QString &error);

private:
    ReplayRequestDialog(const RemediationSetup &setup, QWidget *parent);
    void build(const QString &selectionText);
    RequestDraft draft() const;
    void onActionChanged();
    void onDraftChanged(); // something the dry run depends on changed: it must run again
    bool validatePayload();
    void readOriginalPayload();
    void setStatus(const QString &text, bool problem);
    void updateButtons();
    bool isDlq() const { return !m_records.isEmpty(); }

    RemediationSetup m_setup;
    QList<DlqSelection> m_records;
    QString m_consumer; // the records' consumer when they are a topic's own records, not dead letters
    QList<QJsonObject> m_inboxRows;

    QComboBox *m_action = nullptr;
    QRadioButton *m_toOriginal = nullptr;
    QRadioButton *m_toChosen = nullptr;
    QComboBox *m_destination = nullptr;
    QDoubleSpinBox *m_rate = nullptr;
    QCheckBox *m_release = nullptr;
    QComboBox *m_reasonCode = nullptr;
    bool m_reasonChosen = false; // the operator picked a reason code: proposals stop
    QLineEdit *m_reason = nullptr;
    QLineEdit *m_ticket = nullptr;
    QDateTimeEdit *m_expires = nullptr;
    QLabel *m_payloadLabel = nullptr;
    QPlainTextEdit *m_payload = nullptr;
    QLabel *m_payloadError = nullptr;
    QLabel *m_schemaVersionLabel = nullptr;
    QComboBox *m_schemaVersion = nullptr; // encode the edit with: the record's own schema, or a newer version
    QPushButton *m_dryRun = nullptr;
    QPushButton *m_cancel = nullptr;
    QProgressBar *m_progress = nullptr;
    QPlainTextEdit *m_dryRunText = nullptr;
    QLabel *m_status = nullptr;
    QPushButton *m_submit = nullptr;

    BuiltRequest m_built;
    bool m_haveDryRun = false; // m_built answers the inputs on screen
    bool m_payloadValid = true;
    bool m_payloadRead = false;
    bool m_payloadRevealed = false; // the editor shows the record unmasked: its reveal was recorded
    JobTracker m_dryRuns{this};
    RequestSubmission *m_submission;
    JobTracker m_payloadReads{this};
};
