#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <optional>

// Value snapshots of the audit database (schema `berth`, resources/sql/audit/). Plain data, safe to copy
// across threads. Who did something is always a database role name, as the database recorded it
// (session_user).

enum class RemediationAction { Replay, EditReplay, Skip, Delete, ResetOffsets };

// The database's spelling: pending, approved, rejected, expired, executing, completed, partially_failed,
// cancelled. rejected, expired, completed and cancelled are final.
enum class RequestStatus {
    Pending,
    Approved,
    Rejected,
    Expired,
    Executing,
    Completed,
    PartiallyFailed,
    Cancelled
};

namespace AuditText {
// The database's words ("edit_replay", "partially_failed"...), and back; nullopt for an unknown word.
QString actionName(RemediationAction action);
std::optional<RemediationAction> actionFromName(QStringView name);
QString statusName(RequestStatus status);
std::optional<RequestStatus> statusFromName(QStringView name);
} // namespace AuditText

// Who this session is, as the database sees it: the role (session_user) and its group memberships.
struct AuditIdentity {
    QString role;
    bool isOperator = false; // member of berth_operator: may request and execute
    bool isApprover = false; // member of berth_approver: may approve or reject others' requests
};

// One item of a request. A DLQ record is pinned by topic/partition/offset and its payload's SHA-256; an inbox
// row by inboxRef (the mapping's name and the row's key columns). The executor refuses anything else.
struct RequestItem {
    int itemNo = 0;      // 1-based; 0 when creating: numbered in list order
    QString sourceTopic; // empty: not a DLQ record (inbox row only)
    int sourcePartition = -1;
    qint64 sourceOffset = -1;
    QByteArray payloadSha256;                // 32 bytes
    std::optional<QByteArray> key;           // the record key; nullopt: no key (not the same as empty)
    QString idempotencyKey;                  // empty: none
    // Where the policy masks them, the keys are pinned by SHA-256 alone (key nullopt, idempotencyKey empty):
    // the audit database never holds a masked value (ARCHITECTURE.md, Masking: request items). Empty: none.
    QByteArray keySha256;
    QByteArray idempotencyKeySha256;
    std::optional<QByteArray> editedPayload; // edit_replay only
    // edit_replay of a record edited as revealed: its masked field paths (never values). The database files
    // such an item only with the requester's recorded reveal of the record (ARCHITECTURE.md, Masking).
    QStringList editedMasked;
    QJsonObject inboxRef; // empty: none; names its row by "messageId", or "messageIdSha256" where masked
    // reset_offsets only: {"group", "topic", "partition", "from", "to"} (OffsetResetTarget::toJson)
    QJsonObject offsetReset;

    bool isDlqRecord() const { return !sourceTopic.isEmpty(); }
};

struct RemediationRequest {
    qint64 id = 0;
    RemediationAction action = RemediationAction::Replay;
    QString requestedBy;
    QDateTime createdAt;
    QDateTime expiresAt;
    RequestStatus status = RequestStatus::Pending;
    QString reasonCode;
    QString reason;
    QString ticket;
    QString destinationTopic; // empty: each item's original topic
    double rateLimit = 0;     // messages per second; 0: unlimited
    QJsonObject dryRun;
    QString policyVerdict;
    int requiredApprovals = 1;
    QDateTime statusChangedAt;
    QString statusChangedBy;
    // Summaries filled by the listing queries.
    int itemCount = 0;
    int approvalCount = 0;

    // Still waiting (pending or approved) although its expiry passed: the database refuses to run it, and
    // berth.expire_overdue_requests() marks it expired.
    bool isOverdue(const QDateTime &now) const
    {
        return (status == RequestStatus::Pending || status == RequestStatus::Approved) && expiresAt <= now;
    }
};

// What createRequest needs; the database fills in who, when and the status.
struct NewRemediationRequest {
    RemediationAction action = RemediationAction::Replay;
    QDateTime expiresAt; // invalid: 24 hours from now (the database default)
    QString reasonCode;
    QString reason;
    QString ticket;
    QString destinationTopic;
    double rateLimit = 0;
    QJsonObject dryRun;
    QString policyVerdict;
    int requiredApprovals = 1;
    QList<RequestItem> items;
};

struct Approval {
    qint64 requestId = 0;
    QString approver;
    bool approved = false; // false: rejected
    QString comment;
    QDateTime at;
};

struct RequestDetail {
    RemediationRequest request;
    QList<RequestItem>
        items; // the first maxItems (AuditStore::requestDetail); page on with AuditStore::items
    bool itemsTruncated = false;
    QList<Approval> approvals;
};

struct RequestFilter {
    QList<RequestStatus> statuses; // empty: any
    QString requestedBy;           // empty: anyone
    qint64 beforeId = 0;           // paging (newest first): only ids below this; 0: from the newest
    int limit = 200;
};

struct AuditEvent {
    qint64 seq = 0;
    QDateTime at; // millisecond precision (the chain itself is verified from the exact stored value)
    QString actor;
    QString action;
    qint64 requestId = 0; // 0: none
    QJsonObject details;
    QByteArray prevHash;
    QByteArray hash;
};

struct EventFilter {
    QString actor;       // empty: anyone
    QStringList actions; // empty: any
    QDateTime from;      // invalid: open
    QDateTime to;        // invalid: open (exclusive)
    qint64 requestId = 0;
    qint64 afterSeq = 0; // paging (oldest first): only seq above this
    int limit = 500;
};

// The outcome of recomputing the hash chain.
struct ChainVerification {
    bool completed = false; // false: could not finish (error or cancelled); ok says nothing then
    bool ok = false;        // completed, and every row checked out
    qint64 checkedRows = 0;
    qint64 pages = 0;          // round trips that read rows: the verify streamed the log this many times
    qint64 firstBrokenSeq = 0; // 0: none
    QString problem;           // why firstBrokenSeq is broken
    qint64 lastSeq = 0;        // the last row checked (anchor it externally: a chain cannot show a cut tail)
    QByteArray lastHash;       // its hash (genesis: 32 zero bytes)
    QString error;             // why it could not finish
    qint64 elapsedMs = 0;
};

Q_DECLARE_METATYPE(RemediationRequest)
Q_DECLARE_METATYPE(RequestDetail)
Q_DECLARE_METATYPE(Approval)
Q_DECLARE_METATYPE(AuditEvent)
Q_DECLARE_METATYPE(ChainVerification)
