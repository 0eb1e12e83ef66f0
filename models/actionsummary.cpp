#include "actionsummary.h"

#include "models/approvalqueuemodel.h"
#include "models/dlqbrowsermodel.h"
#include "services/remediation/dryrun.h"
#include "services/remediation/offsetresetplanner.h"


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
    if (r.action == RemediationAction::ResetOffsets) {
        // Names the group, the partitions and the records they mean (ARCHITECTURE.md, Views).
        const OffsetResetPlan plan = OffsetResetPlan::fromJson(dry.offsetReset);
        QStringList partitions;
        for (const OffsetResetPartition &p : plan.partitions) {
            if (p.moves())
                partitions << tr("%1: %2 → %3")
                                  .arg(p.partition)
                                  .arg(p.current < 0 ? tr("none") : QString::number(p.current))
                                  .arg(p.target);
        }
        s.destination = tr("Moves the committed offsets of group %1 on %2 (partition %3)")
                            .arg(DlqBrowserModel::visibleText(plan.group), DlqBrowserModel::visibleText(plan.topic),
                                 partitions.join(QStringLiteral(", ")));
        s.count = r.itemCount > 0 ? r.itemCount : dry.count;
        s.notes << tr("%n record(s) will be processed again", nullptr, int(plan.reprocessed()))
                << tr("%n record(s) will be skipped (never processed by the group)", nullptr, int(plan.skipped()))
                << tr("Refused, nothing moved, while the group has an active member: stop its consumers first.");
        return s;
    }
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
    if (produces && dry.release && dry.releases > 0) {
        // Release and replay writes to the consumer's inbox too: the confirmation says so before it runs.
        const QString consumer = DlqBrowserModel::visibleText(
            !dry.targetConsumer.isEmpty() ? dry.targetConsumer
                                          : dry.consumersAffected.join(QStringLiteral(", ")));
        s.notes
            << (dry.reclaim.isEmpty()
                    ? tr("Releases %n parked or failed inbox row(s) of %1 (to the mapping's releaseTo) right "
                         "before their records are produced.",
                         nullptr, dry.releases)
                    : tr("Releases %n stuck in-progress inbox row(s) of %1 for retry right before their "
                         "records are produced, each only while it is still idle.",
                         nullptr, dry.releases))
                   .arg(consumer);
    }
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
