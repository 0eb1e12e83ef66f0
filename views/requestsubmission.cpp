#include "requestsubmission.h"

RequestSubmission::RequestSubmission(QObject *parent)
    : QObject(parent)
{
}

QString RequestSubmission::blockingReason() const
{
    if (m_submittedId != 0)
        return tr("Request %1 is filed.").arg(m_submittedId);
    if (m_submitting)
        return tr("Submitting…");
    return {};
}

void RequestSubmission::start(const QString &auditConninfo, const BuiltRequest &built)
{
    if (!blockingReason().isEmpty())
        return;
    m_submitting = true;
    Q_EMIT statusChanged(tr("Submitting the request…"), false);
    m_jobs.start(
        [auditConninfo, built](const JobControl &) { return RemediationTasks::submit(auditConninfo, built); },
        [this, approvals = built.request.requiredApprovals](const RemediationTasks::Submitted &result) {
            m_submitting = false;
            if (result.requestId == 0) {
                Q_EMIT statusChanged(tr("The database refused the request: %1").arg(result.error), true);
                Q_EMIT refused(result.error);
                return;
            }
            m_submittedId = result.requestId;
            Q_EMIT statusChanged(
                tr("Request %1 filed: pending, %n approval(s) needed. Another person approves "
                   "it in the Approvals tab.",
                   nullptr, approvals)
                    .arg(result.requestId),
                false);
            Q_EMIT submitted(result.requestId);
        });
}
