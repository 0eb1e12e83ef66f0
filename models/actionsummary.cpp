#include "actionsummary.h"

#include "models/approvalqueuemodel.h"
#include "models/dlqbrowsermodel.h"
#include "services/remediation/dryrun.h"


ActionSummary ActionSummary::forRequest(const RemediationRequest &r)
{
    const DryRunResult dry = DryRunResult::fromJson(r.dryRun);
    ActionSummary s;
    s.verb = tr("Execute request %1").arg(r.id);
    s.request = tr("%1 request %2 by %3: %4")
                    .arg(ApprovalQueueModel::actionText(r.action))
                    .arg(r.id)
                    .arg(DlqBrowserModel::visibleText(r.requestedBy),
                         DlqBrowserModel::visibleText(QString(r.reasonCode + u' ' + r.reason).trimmed()));
    const bool produces = r.action == RemediationAction::Replay || r.action == RemediationAction::EditReplay;
    if (produces) {
        s.destination = !r.destinationTopic.isEmpty()   ? r.destinationTopic
                        : !dry.destinationTopics.isEmpty() ? dry.destinationTopics.join(QStringLiteral(", "))
                                                           : tr("each record's original topic");
        s.destination = tr("Produces to %1").arg(DlqBrowserModel::visibleText(s.destination));
    } else {
        s.destination = dry.consumersAffected.isEmpty()
                            ? tr("Changes inbox rows")
                            : tr("Changes inbox rows of %1")
                                  .arg(DlqBrowserModel::visibleText(dry.consumersAffected.join(QStringLiteral(", "))));
    }
    s.count = r.itemCount > 0 ? r.itemCount : dry.count;
    for (const QString &key : dry.sharedIdempotencyKeys)
        s.repeatingKeys << DlqBrowserModel::visibleText(key);
    if (dry.mergedCopies > 0)
        s.notes << tr("%n selected copy(ies) of records already in the request were filed once.", nullptr, dry.mergedCopies);
    if (dry.sharedIdempotencyItems > 0)
        s.notes << tr("%n item(s) are different records sharing an idempotency key: all are sent, the "
                      "consumer's inbox decides which take effect.",
                      nullptr, dry.sharedIdempotencyItems);
    return s;
}
