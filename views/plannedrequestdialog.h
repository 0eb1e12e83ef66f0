#pragma once

#include "models/remediationtasks.h"
#include "services/support/jobtracker.h"
#include "views/requestsubmission.h"

#include <QDialog>

class QComboBox;
class QDateTimeEdit;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QStackedWidget;

// Files a request whose items a planner finds (ARCHITECTURE.md, Data flows: Remediation): an offset reset
// of a consumer group (to a time, the earliest or latest offset, by N, or explicit offsets per partition;
// from the Lag view's group menu) or a reclaim of a consumer's stuck inbox rows (from the Inbox view). The
// preview is the same dry run as `berth replay request --reset-offsets` / `--reclaim`, run off the UI
// thread with progress and cancel, and must be seen before "Submit for approval" is offered; any change
// to the inputs asks for a new one. A second person approves it like every request.
class PlannedRequestDialog final : public QDialog {
    Q_OBJECT
public:
    // Offset reset of `group`; topics: the ones it consumes (the first chosen), editable.
    static PlannedRequestDialog *offsetReset(const RemediationSetup &setup, const QString &group,
                                             const QStringList &topics, QWidget *parent = nullptr);
    // Reclaim of `consumer`'s rows in progress for longer than a threshold (default: its mapping's).
    static PlannedRequestDialog *reclaim(const RemediationSetup &setup, const QString &consumer,
                                         QWidget *parent = nullptr);
    ~PlannedRequestDialog() override;

    bool isOffsetReset() const { return !m_group.isEmpty(); }
    void startPreview();
    void cancelPreview();
    void submit();
    bool maySubmit(QString *why = nullptr) const;
    qint64 submittedId() const { return m_submission->submittedId(); }
    const BuiltRequest &built() const { return m_built; }

    // For tests and screenshots.
    QComboBox *topicBox() const { return m_topic; }
    QComboBox *targetBox() const { return m_target; }
    QDateTimeEdit *timeEdit() const { return m_time; }
    QSpinBox *shiftBox() const { return m_shift; }
    QLineEdit *offsetsEdit() const { return m_offsets; }
    QSpinBox *olderThanBox() const { return m_olderThan; }
    QLineEdit *reasonEdit() const { return m_reason; }
    QPlainTextEdit *previewText() const { return m_preview; }
    QPushButton *previewButton() const { return m_previewButton; }
    QPushButton *submitButton() const { return m_submit; }
    QLabel *statusLabel() const { return m_status; }

    // What --to says for the inputs on screen (OffsetResetTo::parse reads it).
    QString targetText() const;

    enum Target { Earliest, Latest, Time, Shift, Explicit };

Q_SIGNALS:
    void previewFinished(bool ok);
    void submitted(qint64 requestId);

private:
    PlannedRequestDialog(const RemediationSetup &setup, QWidget *parent);
    void build(QWidget *inputs, const QString &title);
    void onInputsChanged();
    void setStatus(const QString &text, bool problem);
    void updateButtons();

    RemediationSetup m_setup;
    QString m_group;    // offset reset
    QString m_consumer; // reclaim
    QComboBox *m_topic = nullptr;
    QComboBox *m_target = nullptr;
    QStackedWidget *m_targetValue = nullptr;
    QDateTimeEdit *m_time = nullptr;
    QSpinBox *m_shift = nullptr;
    QLineEdit *m_offsets = nullptr;
    QLineEdit *m_reclaimTopic = nullptr;
    QSpinBox *m_olderThan = nullptr;
    QLineEdit *m_reason = nullptr;
    QLineEdit *m_ticket = nullptr;
    QPushButton *m_previewButton = nullptr;
    QPushButton *m_cancel = nullptr;
    QProgressBar *m_progress = nullptr;
    QPlainTextEdit *m_preview = nullptr;
    QLabel *m_status = nullptr;
    QPushButton *m_submit = nullptr;

    BuiltRequest m_built;
    bool m_havePreview = false; // m_built answers the inputs on screen
    JobTracker m_previews{this};
    RequestSubmission *m_submission;
};
