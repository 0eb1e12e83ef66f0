#pragma once

#include "models/remediationtasks.h"
#include "services/support/jobtracker.h"

#include <QObject>

// The submit step both request dialogs share (ReplayRequestDialog, PlannedRequestDialog): files a built
// request as the audit connection's role on a JobTracker job and says how it went in words for the dialog's
// status line: the database's refusal word for word (it is the authority on what may be filed), or the
// request filed with the approvals it needs. Once filed, nothing more is submitted from the same dialog.
class RequestSubmission final : public QObject {
    Q_OBJECT
public:
    explicit RequestSubmission(QObject *parent);

    void start(const QString &auditConninfo, const BuiltRequest &built);
    bool isSubmitting() const { return m_submitting; }
    qint64 submittedId() const { return m_submittedId; }
    // Why nothing may be submitted now (filed already, or a submit running); empty when something may.
    QString blockingReason() const;

Q_SIGNALS:
    // Each change of what the dialog's status line should say; problem: say it as an error.
    void statusChanged(const QString &text, bool problem);
    void submitted(qint64 requestId);
    void refused(const QString &error);

private:
    bool m_submitting = false;
    qint64 m_submittedId = 0;
    JobTracker m_jobs{this};
};
