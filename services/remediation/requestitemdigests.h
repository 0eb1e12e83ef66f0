#pragma once

#include "services/audit/audittypes.h"
#include "services/kafka/kafkarecord.h"
#include "services/payload/keymask.h"
#include "services/policy/deliverypolicy.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

// Masked keys of a request item pinned by digest (ARCHITECTURE.md, Masking: request items). Where the policy
// masks an item's record key or idempotency key, the stored item holds their SHA-256 in their place, and an
// inbox row it names is named by its message id's SHA-256; whoever needs the value again takes it from the
// re-read source record and keeps it only when its digest matches.
namespace RequestItemDigests {
// Replaces the item's masked keys by their digests, as KeyMask decides for a record of the item's topic
// whose original topic is `originalTopic` (empty: unknown). An inbox_ref naming the row of a masked
// idempotency key names it by digest ("messageIdSha256") and says where the id is read from in the record
// ("messageIdFrom": the ref's consumer's idempotencyKey field in the policy). Unmasked keys stay as they
// are. An inbox row filed from the Inbox view (no DLQ record) is named by its message id's digest where
// shownMessageId masks it; the executor finds it by that digest among the rows open to remediation.
void seal(const KeyMask &mask, RequestItem &item, const QString &originalTopic);

// An inbox_ref's message id as it may be shown: the idempotency key of a record of a topic the ref's
// consumer consumes, masked as KeyMask::shown masks it there. *verbatim (may be null) gets the masked value
// for scrubbing text built from it elsewhere.
QString shownMessageId(const KeyMask &mask, const QJsonObject &ref, QStringList *verbatim);

// Whether the re-read record's key is the pinned one: the same bytes, or the same digest where masked. An
// item pinned before keys were pinned at execution (no key, no digest, the record keyed) counts as equal
// only when it has no digest either: then its key was not masked and not stored (a null key).
bool keyMatches(const RequestItem &item, const KafkaRecord &record);

// The item's idempotency key taken from its re-read source record: the dead letter's idempotency key, or
// what `consumerField` (the consumer's policy idempotencyKey, when stated) reads from the record; the one
// whose SHA-256 is the item's pinned digest. Without a digest, the stored key. Empty: none matches.
QString idempotencyKeyOf(const RequestItem &item, const KafkaRecord &record,
                         const RecordField &consumerField);

// Where a ref named by digest says its row's message id is read from: the consumer's idempotencyKey field
// as seal() found it in the policy ("messageIdFrom"; not stated: the dead letter's idempotency key only).
RecordField messageIdField(const QJsonObject &ref);

// The inbox_ref with the row named by its message id again, when the ref names it by digest and the id's
// SHA-256 is that digest; else the ref as it is (a row named by digest alone is then found by no one).
QJsonObject inboxRefWith(const QJsonObject &ref, const QString &messageId);
} // namespace RequestItemDigests
