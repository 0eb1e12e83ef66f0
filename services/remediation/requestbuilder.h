#pragma once

#include "services/audit/audittypes.h"
#include "services/inbox/inboxmappingset.h"
#include "services/kafka/kafkaconfig.h"
#include "services/policy/deliverypolicy.h"
#include "services/remediation/dryrun.h"
#include "services/remediation/offsetresetplanner.h"
#include "services/remediation/reclaimplanner.h"
#include "services/remediation/remediationtypes.h"

#include <QHash>
#include <QList>
#include <QString>

#include <functional>
#include <memory>

class AuditStore;
class PgSession;
class SchemaCatalog;

// What the requester asked for, before anything is fetched.
struct RequestDraft {
    RemediationAction action = RemediationAction::Replay;
    QList<DlqSelection> selection;         // DLQ records (replay, edit_replay, skip)
    QList<QJsonObject> inboxRows;          // inbox rows (skip, delete): inboxRefFor(...)
    QHash<int, QByteArray> editedPayloads; // edit_replay: index into selection -> the edited display JSON
    // edit_replay: index into selection -> the schema id of a newer version of the original's subject to
    // encode the edit with (absent: the original's own schema)
    QHash<int, int> editSchemaIds;
    // edit_replay: the operator edited the revealed payload, so masked fields may change; the items name them
    // (RequestItem::editedMasked) and the audit database refuses them without the requester's recorded
    // reveal.
    bool revealed = false;
    QString destinationTopic;              // empty: each item's original topic
    // The selection is records of a topic this consumer (its group) committed past without a trace, or
    // dead-lettered (the accounting's replay, ARCHITECTURE.md): each item without a dead-letter header
    // naming its consumer belongs to this one, for the dry run's no-op prediction and the verification.
    // They carry no original topic: the destination names their topic.
    QString consumer;
    double rateLimit = 0;                  // msgs/s, 0: unlimited
    QString reasonCode;
    QString reason;
    QString ticket;
    QDateTime expiresAt; // invalid: the database default (24 h)
    // Release and replay (replay, edit_replay): parked or failed-terminal inbox rows of the items' keys are
    // released (the mapping's releaseTo) right before each record is produced; pinned in inbox_ref.
    bool release = false;
    // Reclaim of stuck rows (ReclaimPlanner): the selection is the plan's records, in its order; each item
    // belongs to the plan's consumer, carries its row's message id, and its in-progress row is released.
    ReclaimPlan reclaim;
    bool isReclaim() const { return !reclaim.consumer.isEmpty(); }
    // Offset reset (OffsetResetPlanner, action reset_offsets): one item per partition the plan moves, the
    // plan stored as the dry run's offsetReset; no selection.
    OffsetResetPlan offsetReset;
    bool isOffsetReset() const { return !offsetReset.group.isEmpty(); }
};

struct BuiltRequest {
    NewRemediationRequest request; // items pinned; dryRun and policy verdict filled
    QList<PinnedItem> pinned;      // the same items with what their headers said
    DryRunResult dryRun;
    QString error; // empty when the request can be submitted
    bool editInvalid = false; // error: an edit was refused as written (EditedPayload::Result::editInvalid)
    bool ok() const { return error.isEmpty(); }
};

struct RequestBuilderContext {
    KafkaProperties cluster;
    PgSession *inboxDb = nullptr; // no-op prediction and inbox refs; may be null
    InboxMappingSet inboxMappings; // inboxDb serves the mappings on its default database
    DeliveryPolicy policy;
    std::shared_ptr<SchemaCatalog> schemas; // edit_replay of schema payloads; null: JSON and text only
    int fetchTimeoutMs = 15000;
    std::function<bool()> cancelled;
    std::function<void(qint64 done, qint64 total)> progress;
};

// Blocking. Fetches each selected record once (one forward read per partition, not one fetch per record),
// pins topic/partition/offset + payload SHA-256 + key + idempotency key, runs the dry run, and fills a
// NewRemediationRequest. Copies of one original record (the same original topic/partition/offset, from the
// dialect headers, else the DLQ's own, and the same payload SHA-256) are filed once and counted in the dry
// run (mergedCopies); items that only share an idempotency key are kept and flagged there. Any record that cannot be read fails the whole build (nothing half-pinned), and
// an edit that EditedPayload::prepare refuses (not JSON where the original was, not fitting the original's
// schema, a masked field edited without a reveal) fails it with the reason.
namespace RequestBuilder {
BuiltRequest build(const RequestDraft &draft, const RequestBuilderContext &context);
// AuditStore::createRequest; the new id, 0 on failure (*error: the database's words).
qint64 submit(AuditStore &store, const BuiltRequest &built, QString *error);
} // namespace RequestBuilder
