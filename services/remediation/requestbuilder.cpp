#include "requestbuilder.h"

#include "services/audit/auditstore.h"
#include "services/dlq/dlqheadercodec.h"
#include "services/payload/confluentwireformat.h"
#include "services/payload/payloadschema.h"
#include "services/payload/schemacatalog.h"
#include "services/remediation/editedpayload.h"
#include "services/remediation/requestitemdigests.h"
#include "services/remediation/sourcecursor.h"
#include "services/support/digest.h"

#include <QJsonDocument>
#include <QJsonParseError>
#include <QSet>

using namespace Qt::StringLiterals;

namespace {
// What the dry run sees of an item; the caller adds what the record's headers said.
PinnedItem pinnedFrom(const RequestItem &item)
{
    PinnedItem pinned;
    pinned.sourceTopic = item.sourceTopic;
    pinned.sourcePartition = item.sourcePartition;
    pinned.sourceOffset = item.sourceOffset;
    pinned.payloadSha256 = item.payloadSha256;
    pinned.key = item.key;
    pinned.idempotencyKey = item.idempotencyKey;
    pinned.inboxRef = item.inboxRef;
    return pinned;
}

// The schema of a framed original, fetched before its edit is encoded like it. The builder runs off the
// interface thread (a job, or the command line), so it may wait for the registry, within the fetch timeout.
void awaitSchema(SchemaCatalog &schemas, const QByteArray &value, int timeoutMs)
{
    const ConfluentWireFormat::Header header = ConfluentWireFormat::readHeader(value);
    if (!header.ok || !schemas.hasRegistry())
        return;
    if (schemas.byId(int(header.schemaId)).state == SchemaCatalog::Lookup::State::Pending)
        schemas.waitForAnswer(int(header.schemaId), timeoutMs);
}

// The schema of a chosen newer version, by its id, waited for like the original's.
std::shared_ptr<const PayloadSchema> schemaById(SchemaCatalog *schemas, int id, int timeoutMs, QString *error)
{
    if (!schemas || !schemas->hasRegistry()) {
        *error = u"schema id %1 was chosen, but no Schema Registry is configured"_s.arg(id);
        return nullptr;
    }
    SchemaCatalog::Lookup found = schemas->byId(id);
    if (found.state == SchemaCatalog::Lookup::State::Pending && schemas->waitForAnswer(id, timeoutMs))
        found = schemas->byId(id);
    if (found.state != SchemaCatalog::Lookup::State::Ready) {
        *error = u"schema id %1: %2"_s.arg(id).arg(
            found.reason.isEmpty() ? u"the registry did not answer in time"_s : found.reason);
        return nullptr;
    }
    return found.schema;
}

// The plan is the dry run: what the approver sees, and the items the executor commits.
BuiltRequest buildOffsetReset(const RequestDraft &draft, const RequestBuilderContext &context,
                              BuiltRequest out)
{
    const OffsetResetPlan &plan = draft.offsetReset;
    NewRemediationRequest &req = out.request;
    req.action = RemediationAction::ResetOffsets;
    req.destinationTopic.clear();
    req.rateLimit = 0;
    if (!plan.error.isEmpty()) {
        out.error = plan.error;
        return out;
    }
    req.items = plan.items();
    DryRunResult &dry = out.dryRun;
    dry.count = int(req.items.size());
    dry.destinationTopics = {plan.topic};
    for (const OffsetResetPartition &p : plan.partitions) {
        if (p.moves())
            dry.sourcePartitions << plan.topic + u'/' + QString::number(p.partition);
    }
    dry.consumersAffected = {plan.group};
    dry.targetConsumer = plan.group;
    dry.inboxChecked = plan.inboxChecked;
    dry.keysLookedUp = int(plan.keysLookedUp);
    dry.predictedNoOps = int(plan.predictedNoOps);
    dry.notPredicted = int(plan.notPredicted);
    dry.predictedNoOpRate = plan.predictedNoOpRate();
    dry.inboxError = plan.reprocessed() == 0 ? u"no record is processed again"_s : plan.inboxError;
    dry.orderingChecked = true;
    dry.orderingMethod = u"offset reset: the ordering notes of the plan"_s;
    dry.offsetReset = plan.toJson();
    // Processing records again is a replay by the policy's words; skipping them is not.
    DryRunInput input;
    input.action = plan.reprocessed() > 0 ? RemediationAction::Replay : RemediationAction::Skip;
    input.policy = context.policy;
    DryRun::applyPolicy(input, dry);
    req.dryRun = dry.toJson();
    req.policyVerdict = policyVerdictName(dry.verdict);
    req.requiredApprovals = dry.requiredApprovals;
    if (req.items.isEmpty())
        out.error = u"Nothing to reset: every partition of "_s + plan.topic + u" is already at its target"_s;
    else if (dry.verdict == PolicyVerdict::Blocked)
        out.error = u"The delivery policy blocks this request: "_s + dry.policyReasons.join(u"; "_s);
    return out;
}
} // namespace

namespace RequestBuilder {
BuiltRequest build(const RequestDraft &draft, const RequestBuilderContext &context)
{
    BuiltRequest out;
    NewRemediationRequest &req = out.request;
    req.action = draft.action;
    req.expiresAt = draft.expiresAt;
    req.reasonCode = draft.reasonCode;
    req.reason = draft.reason;
    req.ticket = draft.ticket;
    req.destinationTopic = draft.destinationTopic;
    req.rateLimit = draft.rateLimit;
    if (draft.isOffsetReset() || draft.action == RemediationAction::ResetOffsets) {
        if (!draft.isOffsetReset()) {
            out.error = u"An offset reset needs its plan (group, topic, targets)"_s;
            return out;
        }
        return buildOffsetReset(draft, context, std::move(out));
    }
    if (draft.selection.isEmpty() && draft.inboxRows.isEmpty()) {
        out.error = u"Nothing selected"_s;
        return out;
    }
    QStringList reclaimIds; // reclaim: the message id of each selected record
    if (draft.isReclaim()) {
        for (const ReclaimRow &row : draft.reclaim.rows) {
            if (row.record.partition >= 0)
                reclaimIds << row.messageId;
        }
        if (reclaimIds.size() != draft.selection.size() || draft.action != RemediationAction::Replay) {
            out.error = u"A reclaim replays exactly the records its plan found"_s;
            return out;
        }
    }
    int mergedCopies = 0;
    QStringList mergedSamples;
    if (!draft.selection.isEmpty()) {
        std::unique_ptr<SourceCursor> cursor = SourceCursor::create(context.cluster, &out.error);
        if (!cursor)
            return out;
        // Copies of one original record (dead-lettered twice, or selected twice) are one item.
        QSet<QByteArray> filed; // original coordinates + payload SHA-256 (+ the edit) of each item
        QList<SourceCursor::Position> positions;
        for (const DlqSelection &s : draft.selection)
            positions.append({s.topic, s.partition, s.offset});
        // In chunks so progress and cancellation stay responsive on large selections.
        constexpr int Chunk = 5000;
        for (qsizetype start = 0; start < positions.size(); start += Chunk) {
            if (context.cancelled && context.cancelled()) {
                out.error = u"Cancelled"_s;
                return out;
            }
            const QList<SourceCursor::Position> part = positions.mid(start, Chunk);
            QHash<int, QString> problems;
            const QHash<int, KafkaRecord> records = cursor->fetch(part, context.fetchTimeoutMs, &problems);
            for (int i = 0; i < part.size(); ++i) {
                const int index = int(start) + i;
                const DlqSelection &s = draft.selection.at(index);
                auto it = records.constFind(i);
                if (it == records.cend()) {
                    // Nothing half-pinned: one unreadable record fails the request.
                    out.error = s.topic + u'/' + QString::number(s.partition) + u'/'
                                + QString::number(s.offset) + u": "_s + problems.value(i);
                    return out;
                }
                const DlqMetadata meta = decodeDlqHeaders(it->headers);
                const QByteArray sha = Digest::sha256(it->value);
                const QString original =
                    meta.originalTopic.isEmpty() || meta.originalOffset < 0
                        ? s.topic + u'/' + QString::number(s.partition) + u'/' + QString::number(s.offset)
                        : meta.originalTopic + u'/' + QString::number(meta.originalPartition) + u'/'
                              + QString::number(meta.originalOffset);
                QByteArray identity = original.toUtf8() + '\0' + sha;
                if (draft.action == RemediationAction::EditReplay && draft.editedPayloads.contains(index))
                    identity += '\0' + Digest::sha256(draft.editedPayloads.value(index));
                if (filed.contains(identity)) {
                    ++mergedCopies;
                    if (mergedSamples.size() < 10)
                        mergedSamples << s.topic + u'/' + QString::number(s.partition) + u'/'
                                             + QString::number(s.offset) + u" = copy of "_s + original;
                    continue;
                }
                filed.insert(identity);
                RequestItem item;
                item.sourceTopic = s.topic;
                item.sourcePartition = s.partition;
                item.sourceOffset = s.offset;
                item.payloadSha256 = sha;
                if (!it->keyIsNull)
                    item.key = it->key;
                item.idempotencyKey = meta.idempotencyKey;
                if (draft.action == RemediationAction::EditReplay && draft.editedPayloads.contains(index)) {
                    if (context.schemas)
                        awaitSchema(*context.schemas, it->value, context.fetchTimeoutMs);
                    EditedPayload::TargetSchema target;
                    if (draft.editSchemaIds.contains(index)) {
                        target.id = draft.editSchemaIds.value(index);
                        target.schema =
                            schemaById(context.schemas.get(), target.id, context.fetchTimeoutMs, &out.error);
                        if (!target.schema) {
                            out.error = u"Item "_s + QString::number(index + 1) + u": "_s + out.error;
                            return out;
                        }
                    }
                    const EditedPayload::Result edited = EditedPayload::prepare(
                        *it, draft.editedPayloads.value(index), s.topic, meta.originalTopic,
                        context.schemas.get(), context.policy, draft.revealed, target);
                    if (!edited.ok()) {
                        out.error = u"Item "_s + QString::number(index + 1) + u": "_s + edited.error;
                        out.editInvalid = edited.editInvalid;
                        return out;
                    }
                    item.editedPayload = edited.bytes;
                    item.editedMasked = edited.maskedFields;
                }
                req.items.append(item);
                PinnedItem pinned = pinnedFrom(item);
                pinned.originalTopic = meta.originalTopic;
                pinned.originalPartition = meta.originalPartition;
                pinned.originalOffset = meta.originalOffset;
                pinned.consumerGroup = meta.consumerGroup;
                if (pinned.consumerGroup.isEmpty())
                    pinned.consumerGroup = draft.consumer;
                if (draft.isReclaim()) {
                    req.items.last().idempotencyKey = reclaimIds.at(index);
                    pinned.idempotencyKey = reclaimIds.at(index);
                    pinned.consumerGroup = draft.reclaim.consumer;
                }
                out.pinned.append(pinned);
            }
            if (context.progress)
                context.progress(std::min<qint64>(start + Chunk, positions.size()), positions.size());
        }
    }
    for (const QJsonObject &ref : draft.inboxRows) {
        RequestItem item;
        item.inboxRef = ref;
        item.idempotencyKey = ref.value(u"messageId"_s).toString();
        req.items.append(item);
        PinnedItem pinned = pinnedFrom(item);
        pinned.consumerGroup = ref.value(u"consumer"_s).toString();
        out.pinned.append(pinned);
    }
    DryRunInput input;
    input.action = draft.action;
    input.items = out.pinned;
    input.destinationTopic = draft.destinationTopic;
    input.policy = context.policy;
    input.inboxMappings = context.inboxMappings;
    input.cluster = context.cluster;
    input.release =
        (draft.release || draft.isReclaim())
        && (draft.action == RemediationAction::Replay || draft.action == RemediationAction::EditReplay);
    input.reclaim = draft.isReclaim();
    input.reclaimIdleMs = draft.reclaim.olderThanMs;
    out.dryRun = DryRun::evaluate(input, context.inboxDb);
    const KeyMask mask(context.policy);
    if (draft.isReclaim())
        out.dryRun.reclaim = draft.reclaim.masked(mask).toJson();
    out.dryRun.mergedCopies = mergedCopies;
    out.dryRun.mergedCopySamples = mergedSamples;
    // The rows to release, pinned with the status the dry run saw (a row that changed is refused later).
    for (auto it = out.dryRun.releaseRefs.cbegin(); it != out.dryRun.releaseRefs.cend(); ++it) {
        req.items[it.key()].inboxRef = it.value();
        out.pinned[it.key()].inboxRef = it.value();
    }
    // What the audit database keeps: masked keys by digest alone (ARCHITECTURE.md, Masking: request items).
    // The pins the dry run used keep the values, in memory only.
    for (qsizetype i = 0; i < req.items.size(); ++i)
        RequestItemDigests::seal(mask, req.items[i], out.pinned.at(i).originalTopic);
    req.dryRun = out.dryRun.toJson();
    req.policyVerdict = policyVerdictName(out.dryRun.verdict);
    req.requiredApprovals = out.dryRun.requiredApprovals;
    if (out.dryRun.verdict == PolicyVerdict::Blocked)
        out.error = u"The delivery policy blocks this request: "_s + out.dryRun.policyReasons.join(u"; "_s);
    return out;
}

qint64 submit(AuditStore &store, const BuiltRequest &built, QString *error)
{
    if (!built.ok()) {
        *error = built.error;
        return 0;
    }
    return store.createRequest(built.request, error);
}
} // namespace RequestBuilder
