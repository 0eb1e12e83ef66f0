#include "remediationtasks.h"

#include "services/support/profilesecrets.h"

#include "services/audit/auditmigrator.h"
#include "services/audit/auditstore.h"
#include "services/dlq/dlqheadercodec.h"
#include "services/dlq/dlqrecordfetcher.h"
#include "services/inbox/pgsession.h"
#include "services/payload/payloaddecoder.h"
#include "services/payload/payloadmask.h"
#include "services/payload/schemacatalog.h"
#include "services/policy/policyloader.h"
#include "services/remediation/replayrunbook.h"
#include "services/support/jobtracker.h"

#include <QFile>
#include <QJsonDocument>
#include <QSaveFile>

using namespace Qt::StringLiterals;

namespace {
// An audit session brought up to date first, as every desk's first connection does.
bool openAudit(PgSession &session, const QString &conninfo, QString *error)
{
    if (!session.connect(conninfo, error))
        return false;
    const AuditMigrationOutcome migrated = AuditMigrator::migrate(session);
    if (!migrated.ok)
        *error = migrated.error;
    return migrated.ok;
}

// What every dry run of the desk starts from: the setup's cluster, mappings, schemas and policy, and the inbox
// database when it answers.
RequestBuilderContext builderContext(const RemediationSetup &setup, const JobControl &control, PgSession &inbox)
{
    RequestBuilderContext context;
    context.cluster = setup.cluster;
    context.inboxMappings = setup.inboxMappings;
    context.schemas = setup.schemas;
    context.cancelled = [control] { return control.isCancelled(); };
    context.progress = [control](qint64 done, qint64 total) { control.reportProgress(done, total); };
    if (!setup.policyPath.isEmpty()) {
        // A policy with errors still says what it says; the verdict uses the parts that parsed.
        context.policy = loadPolicyFile(setup.policyPath).policy;
    }
    QString ignored;
    // Without the inbox the dry run still runs; it reports the prediction as unknown, with why.
    if (!setup.inboxConninfo.isEmpty() && inbox.connect(setup.inboxConninfo, &ignored))
        context.inboxDb = &inbox;
    return context;
}
// A planner's input (OffsetResetInput, ReclaimInput) reads the cluster, the policy and the inbox as the
// request built from its plan does.
template <typename PlannerInput>
void takeContext(PlannerInput &input, const RequestBuilderContext &context)
{
    input.cluster = context.cluster;
    input.policy = context.policy;
    input.inboxMappings = context.inboxMappings;
    input.cancelled = context.cancelled;
}
} // namespace

namespace RemediationTasks {
BuiltRequest dryRun(const RequestDraft &draft, const RemediationSetup &setup, const JobControl &control)
{
    PgSession inbox;
    return RequestBuilder::build(draft, builderContext(setup, control, inbox));
}

BuiltRequest planOffsetReset(OffsetResetInput input, RequestDraft draft, const RemediationSetup &setup,
                             const JobControl &control)
{
    PgSession inbox;
    const RequestBuilderContext context = builderContext(setup, control, inbox);
    takeContext(input, context);
    draft.action = RemediationAction::ResetOffsets;
    draft.offsetReset = OffsetResetPlanner::plan(input, context.inboxDb);
    if (!draft.offsetReset.error.isEmpty()) {
        BuiltRequest out;
        out.error = draft.offsetReset.error;
        return out;
    }
    return RequestBuilder::build(draft, context);
}

BuiltRequest planReclaim(ReclaimInput input, RequestDraft draft, const RemediationSetup &setup,
                         const JobControl &control)
{
    PgSession inbox;
    const RequestBuilderContext context = builderContext(setup, control, inbox);
    takeContext(input, context);
    draft.action = RemediationAction::Replay;
    draft.reclaim = ReclaimPlanner::plan(input, context.inboxDb);
    BuiltRequest out;
    if (!draft.reclaim.error.isEmpty()) {
        out.error = draft.reclaim.error;
        return out;
    }
    draft.selection = draft.reclaim.selection();
    draft.destinationTopic = draft.reclaim.topic;
    if (draft.selection.isEmpty()) {
        out.dryRun.reclaim = draft.reclaim.masked(KeyMask(context.policy)).toJson();
        out.error = draft.reclaim.rows.isEmpty()
                        ? u"Nothing to reclaim: no row of "_s + input.consumer + u" is in progress for that long"_s
                        : u"Nothing to reclaim: no stuck row's record was found"_s;
        return out;
    }
    return RequestBuilder::build(draft, context);
}

Submitted submit(const QString &auditConninfo, const BuiltRequest &built)
{
    Submitted out;
    PgSession session;
    if (!openAudit(session, auditConninfo, &out.error))
        return out;
    AuditStore store(session);
    out.requestId = RequestBuilder::submit(store, built, &out.error);
    return out;
}

PayloadRead readPayload(const RemediationSetup &setup, const DlqSelection &record, const JobControl &control)
{
    PayloadRead out;
    const std::unique_ptr<DlqRecordFetcher> fetcher = DlqRecordFetcher::create(setup.cluster, &out.error);
    if (!fetcher)
        return out;
    KafkaRecord fetched = fetcher->fetch(
        record.topic, record.partition, record.offset, 15000, [control] { return control.isCancelled(); },
        &out.error);
    if (!out.error.isEmpty())
        return out;
    DlqMetadata metadata = decodeDlqHeaders(fetched.headers);
    SchemaCatalog *schemas = setup.schemas.get();
    DecodedPayload payload =
        PayloadDecoder::decode(fetched.value, fetched.value.isNull(), record.topic, schemas, metadata.originalTopic);
    if (payload.pending && schemas && schemas->waitForAnswer(payload.schema.id, 10000))
        payload = PayloadDecoder::decode(fetched.value, fetched.value.isNull(), record.topic, schemas,
                                         metadata.originalTopic);
    if (payload.hasSchema && payload.kind != DecodedPayload::Kind::Schema) {
        out.error = payload.error;
        return out;
    }
    const DeliveryPolicy &policy = setup.keyMask.policy();
    out.revealed = setup.revealed.contains(record.topic + u'/' + QString::number(record.partition) + u'/'
                                           + QString::number(record.offset));
    const PayloadMask::Outcome mask =
        out.revealed ? PayloadMask::Outcome{}
                     : PayloadMask::apply(policy.maskFor(record.topic, metadata.originalTopic), fetched, metadata, payload);
    if (mask.rawHidden && !payload.isJson()) {
        out.error = u"the payload is masked whole (no schema decoded it): reveal the record before editing it"_s;
        return out;
    }
    out.masked = mask.rawHidden;
    out.schema = payload.kind == DecodedPayload::Kind::Schema;
    if (out.schema) {
        out.schemaRef = payload.schema;
        // A registry schema may have newer versions of its subject to encode the edit with.
        if (schemas && !payload.schema.subject.isEmpty() && payload.schema.id >= 0
            && schemas->hasRegistry()) {
            for (const SchemaCatalog::SubjectVersion &v :
                 schemas->subjectVersions(payload.schema.subject, 10000, &out.versionsError)) {
                if (v.version > payload.schema.version)
                    out.newerVersions << v;
            }
        }
    }
    out.payload = payload.isJson() ? QJsonDocument::fromJson(payload.json).toJson(QJsonDocument::Indented)
                                   : fetched.value;
    if (payload.kind == DecodedPayload::Kind::Json && !out.masked)
        out.payload = fetched.value; // JSON as it was written
    return out;
}

ExecutionListing listForExecution(const QString &auditConninfo, int limit)
{
    ExecutionListing out;
    PgSession session;
    if (!openAudit(session, auditConninfo, &out.error))
        return out;
    AuditStore store(session);
    if (const std::optional<AuditIdentity> who = store.identity(&out.error))
        out.identity = *who;
    else
        return out;
    // Rejected and expired requests never run; they stay in the trail, not on the execution desk.
    RequestFilter filter;
    filter.statuses = {RequestStatus::Pending,   RequestStatus::Approved,        RequestStatus::Executing,
                       RequestStatus::Completed, RequestStatus::PartiallyFailed, RequestStatus::Cancelled};
    filter.limit = limit;
    out.requests = store.listRequests(filter, &out.error);
    return out;
}

StoredVerification storedVerification(const QString &auditConninfo, qint64 requestId)
{
    StoredVerification out;
    out.requestId = requestId;
    PgSession session;
    if (openAudit(session, auditConninfo, &out.error))
        out.verification = ReplayVerification::lastRecorded(session, requestId, &out.error);
    return out;
}

RunbookWritten writeRunbook(const QString &auditConninfo, qint64 requestId, const QString &bootstrap,
                            const QString &path, const KeyMask &mask)
{
    RunbookWritten out{requestId, path, {}};
    PgSession session;
    if (!openAudit(session, auditConninfo, &out.error))
        return out;
    AuditStore store(session);
    const std::optional<RequestDetail> detail = store.requestDetail(requestId, &out.error, 0);
    if (!detail) {
        if (out.error.isEmpty())
            out.error = u"there is no request "_s + QString::number(requestId);
        return out;
    }
    RunbookContext context;
    context.bootstrap = bootstrap;
    context.mask = mask;
    // As `berth replay runbook` does: a runbook is pasted into tickets, so never with a password.
    QString password;
    context.auditDb = ProfileSecrets::stripPassword(auditConninfo, &password);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(ReplayRunbook::markdown(*detail, context).toUtf8()) < 0
        || !file.commit())
        out.error = file.errorString();
    return out;
}
ReplayVerification verify(const RemediationSetup &setup, qint64 requestId, int timeoutMs, bool final,
                          const JobControl &control)
{
    PgSession audit;
    ReplayVerification out;
    out.requestId = requestId;
    if (!openAudit(audit, setup.auditConninfo, &out.error))
        return out;
    VerifyOptions options;
    options.timeoutMs = timeoutMs;
    options.inboxMappings = setup.inboxMappings;
    options.recordUnverified = final;
    options.cancelled = [control] { return control.isCancelled(); };
    if (!setup.policyPath.isEmpty())
        options.policy = loadPolicyFile(setup.policyPath).policy;
    PgSession inbox;
    QString ignored;
    PgSession *inboxDb =
        !setup.inboxConninfo.isEmpty() && inbox.connect(setup.inboxConninfo, &ignored) ? &inbox : &audit;
    return ReplayVerifier(audit, setup.cluster, inboxDb).verify(requestId, options);
}
} // namespace RemediationTasks
