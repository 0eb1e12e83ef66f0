#pragma once

#include "services/audit/audittypes.h"
#include "services/inbox/inboxmappingset.h"
#include "services/kafka/kafkaconfig.h"
#include "services/payload/keymask.h"
#include "services/payload/schemacatalog.h"
#include "services/policy/deliverypolicy.h"
#include "services/remediation/remediationtypes.h"
#include "services/remediation/replayverifier.h"
#include "services/remediation/requestbuilder.h"

#include <QList>
#include <QSet>
#include <QString>

#include <memory>

class JobControl;

// Where a desk's remediation work goes: the cluster, the audit database (as the desk's own role), the
// consumers' inbox database (for the no-op prediction and inbox rows) and the delivery policy file.
struct RemediationSetup {
    KafkaProperties cluster;
    QString auditConninfo;
    QString inboxConninfo; // empty: no no-op prediction, no inbox rows
    QString policyPath;    // empty: no policy (every request is "allowed")
    InboxMappingSet inboxMappings;
    // Schema payloads: the console's catalog (decode for the editor, re-encode the edit); null: JSON and text.
    std::shared_ptr<SchemaCatalog> schemas;
    // The policy's masking: what the editor shows of a record, and which keys and inbox ids are shown masked.
    KeyMask keyMask;
    QSet<QString> revealed;  // "topic/partition/offset" of records whose reveal the audit database recorded
};

// The remediation desk's background jobs, one blocking function each, for JobTracker's thread pool: each
// opens its own connections, so nothing is shared with the UI thread. No widgets here.
namespace RemediationTasks {
struct Submitted {
    qint64 requestId = 0; // 0: refused
    QString error;        // the database's words when it refused
};

struct PayloadRead {
    QByteArray payload;  // what the editor starts from: the display JSON (masked) or the text as it is
    bool masked = false; // masked fields show as "(masked)": they keep their values unless revealed
    bool schema = false; // a schema decoded it: the edit is encoded with that schema
    bool revealed = false; // shown unmasked: the record's reveal was recorded, its masked fields may be edited
    SchemaRef schemaRef;   // schema: what decoded it
    // schema from the registry: the newer versions of its subject the edit may be encoded with instead
    QList<SchemaCatalog::SubjectVersion> newerVersions;
    QString versionsError; // why the newer versions could not be listed (the edit keeps the record's own)
    QString error;
};

// The requests an execution desk cares about, and who is looking (the database decides, the desk explains).
struct ExecutionListing {
    QList<RemediationRequest> requests; // newest first
    AuditIdentity identity;
    QString error;
};

// The latest verification the audit chain holds for a request (its `replay.verified` event).
struct StoredVerification {
    qint64 requestId = 0;
    std::optional<ReplayVerification> verification; // nullopt: none recorded (or the error)
    QString error;
};

struct RunbookWritten {
    qint64 requestId = 0;
    QString path;
    QString error;
};

// RequestBuilder::build with the policy read from the file and the inbox looked up: pins every item and
// runs the dry run. Cancellation is checked between chunks of records.
BuiltRequest dryRun(const RequestDraft &draft, const RemediationSetup &setup, const JobControl &control);
// Requests whose items a planner finds (ARCHITECTURE.md, Data flows: Remediation): the plan first, then the
// request built from it as dryRun builds any other; the plan's own error (or "nothing to do") in error.
// draft carries what the operator says (reason, ticket, expiry); input's cluster, policy and mappings come
// from the setup.
BuiltRequest planOffsetReset(OffsetResetInput input, RequestDraft draft, const RemediationSetup &setup,
                             const JobControl &control);
BuiltRequest planReclaim(ReclaimInput input, RequestDraft draft, const RemediationSetup &setup,
                         const JobControl &control);
// Files the built request as the audit connection's role.
Submitted submit(const QString &auditConninfo, const BuiltRequest &built);
// The record's payload as it is now, to start an edit from: decoded (waiting a little for a schema
// being fetched; this runs on a job's thread) and masked by the setup's rules.
PayloadRead readPayload(const RemediationSetup &setup, const DlqSelection &record, const JobControl &control);
ExecutionListing listForExecution(const QString &auditConninfo, int limit = 100);
// One verification of an executed replay (ReplayVerifier), waiting at most timeoutMs for outcomes; the
// policy from the file, the inbox through the mappings. final: an unverified result is written too.
ReplayVerification verify(const RemediationSetup &setup, qint64 requestId, int timeoutMs, bool final,
                          const JobControl &control);
StoredVerification storedVerification(const QString &auditConninfo, qint64 requestId);
// The request as a markdown runbook (the same text as `berth replay runbook`), written to path, its items'
// keys masked by mask (the policy's).
RunbookWritten writeRunbook(const QString &auditConninfo, qint64 requestId, const QString &bootstrap,
                            const QString &path, const KeyMask &mask);
} // namespace RemediationTasks
