#pragma once

#include "services/audit/audittypes.h"
#include "services/payload/keymask.h"

#include <QJsonObject>
#include <QList>
#include <QStringList>

// What of a stored request may be shown (ARCHITECTURE.md, Masking: requests): its items' record keys,
// idempotency keys and inbox message ids masked by the policy's rules (KeyMask), their edited payloads'
// masked fields (as display JSON, or "(masked)" whole when no schema is at hand), and the values masked
// taken out of the dry run's words (the dry run masks its samples when it is made; this also covers
// requests filed before). Applied where a request is read to be shown: the approval queue's detail
// (ApprovalQueueModel::shown), the runbook (ReplayRunbook::markdown), `berth replay status`. The stored
// request keeps the real keys: the executor and the verifier read those.
namespace RequestMask {
// Masks the items in place; verbatim receives the values masked (never to be shown).
void apply(const KeyMask &mask, QList<RequestItem> &items, QStringList *verbatim = nullptr);
// The items, and the dry run scrubbed of what was masked in them. Returns the values masked, for text
// built elsewhere from the same request (never to be shown).
QStringList apply(const KeyMask &mask, RequestDetail &detail);
// An audit event as it may be shown or exported: the items a request.items_added event lists (the
// database journals each item's key, as hex, and idempotency key) masked like the request's items; the
// event's hash stays the stored row's (the chain is verified from the database, never from a display).
void apply(const KeyMask &mask, AuditEvent &event);
// A stored dry run as it may be shown, without its request's items at hand (the queue's list, a request
// whose items are not read): each ordering-risk sample's key masked by the rules of its topic and of the
// request's DLQ topics (its source partitions), each shared idempotency key when any of those DLQ topics'
// rules masks idempotency keys (the stored dry run does not say whose key it is), a reclaim's rows' message
// ids by the rules of its topic, and
// what was masked taken out of the rest of its texts.
void apply(const KeyMask &mask, QJsonObject &dryRun);
// Replaces every occurrence of the values in the dry run's texts.
void scrub(QJsonObject &dryRun, const QStringList &values);
} // namespace RequestMask
