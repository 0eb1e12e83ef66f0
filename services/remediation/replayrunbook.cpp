#include "replayrunbook.h"

#include "services/remediation/dryrun.h"
#include "services/remediation/offsetresetplanner.h"
#include "services/remediation/reclaimplanner.h"
#include "services/remediation/requestmask.h"

#include <QLocale>

using namespace Qt::StringLiterals;

namespace {
// A value inside a markdown code span: backticks cannot close it early, line breaks cannot start markup.
QString code(const QString &value)
{
    QString v = value;
    v.replace(u'\n', u' ').replace(u'\r', u' ');
    const QString fence = v.contains(u'`') ? u"`` "_s : u"`"_s;
    const QString close = v.contains(u'`') ? u" ``"_s : u"`"_s;
    return fence + v + close;
}

// A shell word: single-quoted, so a conninfo with spaces or a topic with $ stays one literal argument.
QString shellWord(const QString &value)
{
    QString v = value;
    v.replace(u'\'', u"'\\''"_s);
    return u'\'' + v + u'\'';
}

QString percent(double rate)
{
    return QString::number(rate * 100.0, 'f', 1) + u'%';
}
} // namespace

namespace ReplayRunbook {
QString markdown(const RequestDetail &stored, const RunbookContext &context)
{
    RequestDetail detail = stored;
    RequestMask::apply(context.mask, detail);
    const RemediationRequest &r = detail.request;
    const DryRunResult dry = DryRunResult::fromJson(r.dryRun);
    const QString id = QString::number(r.id);
    const QString db = shellWord(context.auditDb.isEmpty() ? u"<audit conninfo>"_s : context.auditDb);
    const QString bootstrap =
        shellWord(context.bootstrap.isEmpty() ? u"<bootstrap servers>"_s : context.bootstrap);
    const QString berth = context.berthCommand;

    QString md;
    md += u"# Runbook: remediation request "_s + id + u"\n\n"_s;
    md += u"| | |\n|---|---|\n"_s;
    md += u"| Action | "_s + code(AuditText::actionName(r.action)) + u" |\n"_s;
    md += u"| Status | "_s + code(AuditText::statusName(r.status)) + u" |\n"_s;
    md += u"| Requested by | "_s + code(r.requestedBy) + u" at "_s + r.createdAt.toUTC().toString(Qt::ISODate)
          + u" |\n"_s;
    md += u"| Expires | "_s + r.expiresAt.toUTC().toString(Qt::ISODate) + u" |\n"_s;
    md += u"| Reason | "_s + code(r.reasonCode) + u" "_s + code(r.reason) + u" |\n"_s;
    md += u"| Ticket | "_s + code(r.ticket) + u" |\n"_s;
    md += u"| Destination | "_s
          + (r.destinationTopic.isEmpty() ? u"each item's original topic"_s : code(r.destinationTopic))
          + u" |\n"_s;
    md += u"| Rate limit | "_s
          + (r.rateLimit > 0 ? QString(QString::number(r.rateLimit) + u" msgs/s"_s) : u"unlimited"_s)
          + u" |\n"_s;
    md += u"| Policy verdict | "_s + code(r.policyVerdict) + u", "_s + QString::number(r.requiredApprovals)
          + u" approval(s) needed |\n\n"_s;

    if (!dry.offsetReset.isEmpty()) {
        const OffsetResetPlan plan = OffsetResetPlan::fromJson(dry.offsetReset);
        md += u"## Offset reset\n\n"_s;
        md += u"Filed with "_s + code(plan.command(berth)) + u"\n\n"_s;
        md += u"| Partition | Committed | Target | Processed again | Skipped |\n|---|---|---|---|---|\n"_s;
        for (const OffsetResetPartition &p : plan.partitions)
            md += u"| "_s + QString::number(p.partition) + u" | "_s
                  + (p.current < 0 ? u"none"_s : QString::number(p.current)) + u" | "_s
                  + QString::number(p.target) + u" | "_s + QString::number(p.reprocessed()) + u" | "_s
                  + QString::number(p.skipped()) + u" |\n"_s;
        if (plan.reprocessed() > 0)
            md += plan.inboxChecked
                      ? QString(u"\n- Expected no-op rate of the records processed again: "_s
                                + percent(plan.predictedNoOpRate()) + u" (inbox "_s + code(plan.mapping) + u")\n"_s)
                      : QString(u"\n- Expected no-op rate: unknown ("_s + code(plan.inboxError) + u")\n"_s);
        for (const QString &note : plan.orderingNotes)
            md += u"- Ordering: "_s + code(note) + u"\n"_s;
        md += u"- Stop the group's consumers before executing: the execution is refused, nothing moved, "
              u"while the group has an active member\n\n"_s;
    }

    md += u"## Blast radius\n\n"_s;
    md += u"- Items: "_s + QString::number(r.itemCount > 0 ? r.itemCount : dry.count) + u"\n"_s;
    const auto codes = [](const QStringList &values, const QString &none) {
        QStringList out;
        for (const QString &v : values)
            out << code(v);
        return out.isEmpty() ? none : out.join(u", "_s);
    };
    md += u"- Destination topics: "_s + codes(dry.destinationTopics, u"none"_s) + u"\n"_s;
    md += u"- Source partitions: "_s + codes(dry.sourcePartitions, u"none"_s) + u"\n"_s;
    md += u"- Distinct keys: "_s + QString::number(dry.distinctKeys) + u"\n"_s;
    md += u"- Consumers affected: "_s + codes(dry.consumersAffected, u"none known"_s) + u"\n"_s;
    if (dry.mergedCopies > 0)
        md += u"- Copies merged (same original record and payload SHA-256, filed once): "_s
              + QString::number(dry.mergedCopies) + u" — "_s + codes(dry.mergedCopySamples, u"-"_s) + u"\n"_s;
    if (dry.sharedIdempotencyItems > 0)
        md += u"- Shared idempotency keys (different records, all sent): "_s
              + QString::number(dry.sharedIdempotencyItems) + u" item(s) — "_s
              + codes(dry.sharedIdempotencyKeys, u"-"_s) + u"\n"_s;
    if (dry.inboxChecked)
        md += u"- Expected no-op rate: "_s + percent(dry.predictedNoOpRate) + u" ("_s
              + QString::number(dry.predictedNoOps) + u" of "_s + QString::number(dry.count)
              + u" already COMPLETED in a consumer's inbox)\n"_s;
    else
        md += u"- Expected no-op rate: unknown ("_s + code(dry.inboxError) + u")\n"_s;
    if (dry.orderingChecked)
        md += u"- Ordering risk: "_s + QString::number(dry.orderingRiskItems)
              + u" item(s) have a later record with the same key; "_s
              + QString::number(dry.orderingUnknownItems) + u" not checkable\n"_s;
    else
        md += u"- Ordering risk: not checked ("_s + code(dry.orderingError) + u")\n"_s;
    for (const QString &reason : dry.policyReasons)
        md += u"- Policy: "_s + code(reason) + u"\n"_s;
    if (!dry.reclaim.isEmpty()) {
        const ReclaimPlan plan = ReclaimPlan::fromJson(dry.reclaim);
        md += u"- Reclaim of stuck rows: "_s + QString::number(plan.found()) + u" of "_s
              + QString::number(plan.rows.size()) + u" row(s) of "_s + code(plan.consumer)
              + u" in progress for over "_s + QString::number(plan.olderThanMs / 1000) + u" s, released ("_s
              + code(plan.releaseTo) + u") right before their records are replayed; "_s
              + QString::number(plan.committedPast())
              + u" record(s) behind the group's committed offset (not seen again otherwise). Filed with "_s
              + code(berth + u" replay request --reclaim --consumer "_s + shellWord(plan.consumer)
                     + u" --topic "_s + shellWord(plan.topic) + u" --older-than "_s
                     + QString::number(plan.olderThanMs / 1000) + u"s"_s)
              + u"\n"_s;
    }

    md += u"\n## Approvals\n\n"_s;
    if (detail.approvals.isEmpty())
        md += u"None yet.\n"_s;
    for (const Approval &a : detail.approvals)
        md += u"- "_s + code(a.approver) + (a.approved ? u" approved"_s : u" rejected"_s) + u" at "_s
              + a.at.toUTC().toString(Qt::ISODate)
              + (a.comment.isEmpty() ? QString() : QString(u": "_s + code(a.comment))) + u"\n"_s;

    md += u"\n## Commands\n\n"_s;
    md += u"Each person runs the commands logged in as themselves: the database records who did what, and "
          u"refuses "
          u"an approval by the requester.\n\n```sh\n"_s;
    md += u"# 1. An approver other than "_s + r.requestedBy + u" reviews and decides\n"_s;
    md += berth + u" replay status --db "_s + db + u" --request "_s + id + u"\n"_s;
    md += berth + u" replay approve --db "_s + db + u" --request "_s + id + u" --comment '...'\n"_s;
    md += u"# 2. An operator executes (safe to re-run: it resumes and reconciles, never duplicates)\n"_s;
    md += berth + u" replay execute --bootstrap "_s + bootstrap + u" --db "_s + db + u" --request "_s + id
          + u"\n"_s;
    md += u"# 3. Check the outcome, what the consumer did, and the audit chain\n"_s;
    md += berth + u" replay status --db "_s + db + u" --request "_s + id + u" --json\n"_s;
    md += u"# 4. After execution: follow each record to what its consumer did (an offset reset: the committed "
          u"offsets read back)\n"_s;
    md += berth + u" replay verify --bootstrap "_s + bootstrap + u" --db "_s + db + u" --request "_s + id
          + u" --policy '<delivery policy>'\n"_s;
    md += berth + u" audit verify --db "_s + db + u"\n```\n"_s;
    md += u"\nExit codes of `execute`: 0 completed, 3 refused (not approved, rejected, expired), 4 partially "
          u"failed (re-run to retry the failed items), 5 interrupted (re-run to resume). Exit codes of `verify`: 0 "
          u"verified, 1 verified with failures, 3 unverified (run it again later), 2 on error.\n"_s;
    return md;
}
} // namespace ReplayRunbook
