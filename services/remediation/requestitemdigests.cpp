#include "requestitemdigests.h"

#include "services/accounting/recordfieldvalue.h"
#include "services/dlq/dlqheadercodec.h"
#include "services/support/digest.h"

#include <QJsonObject>

using namespace Qt::StringLiterals;

namespace {
const QString MessageId = u"messageId"_s;
const QString MessageIdSha256 = u"messageIdSha256"_s;
const QString MessageIdFrom = u"messageIdFrom"_s;
} // namespace

namespace RequestItemDigests {
QString shownMessageId(const KeyMask &mask, const QJsonObject &ref, QStringList *verbatim)
{
    const QString id = ref.value(MessageId).toString();
    const QString name = ref.value(u"consumer"_s).toString().isEmpty() ? ref.value(u"mapping"_s).toString()
                                                                       : ref.value(u"consumer"_s).toString();
    const ConsumerPolicy *consumer = mask.policy().consumer(name);
    if (!consumer || id.isEmpty())
        return id;
    for (const QString &topic : consumer->topics) {
        const KeyMask::Keys keys = mask.shown(topic, {}, std::nullopt, id);
        if (keys.idempotencyKeyMasked) {
            if (verbatim)
                *verbatim += keys.verbatim;
            return keys.idempotencyKey;
        }
    }
    return id;
}

void seal(const KeyMask &mask, RequestItem &item, const QString &originalTopic)
{
    if (mask.isEmpty())
        return;
    if (!item.isDlqRecord()) {
        // An inbox row the Inbox view filed (skip, delete): its message id is the idempotency key of a
        // record its consumer consumes, named by digest where that key is masked.
        const QString id = item.inboxRef.value(MessageId).toString();
        if (id.isEmpty() || shownMessageId(mask, item.inboxRef, nullptr) == id)
            return;
        const QByteArray digest = Digest::sha256(id.toUtf8());
        item.inboxRef.remove(MessageId);
        item.inboxRef.insert(MessageIdSha256, QString::fromLatin1(digest.toHex()));
        item.idempotencyKeySha256 = digest;
        item.idempotencyKey.clear();
        return;
    }
    const KeyMask::Keys shown = mask.shown(item.sourceTopic, originalTopic, item.key, item.idempotencyKey);
    if (shown.keyMasked && item.key) {
        item.keySha256 = Digest::sha256(*item.key);
        item.key.reset();
    }
    if (shown.idempotencyKeyMasked && !item.idempotencyKey.isEmpty()) {
        const QByteArray digest = Digest::sha256(item.idempotencyKey.toUtf8());
        if (item.inboxRef.value(MessageId).toString() == item.idempotencyKey) {
            item.inboxRef.remove(MessageId);
            item.inboxRef.insert(MessageIdSha256, QString::fromLatin1(digest.toHex()));
            const QString consumer = item.inboxRef.value(u"consumer"_s).toString();
            const ConsumerPolicy *policy = mask.policy().consumer(
                consumer.isEmpty() ? item.inboxRef.value(u"mapping"_s).toString() : consumer);
            if (policy && policy->idempotencyKey.isStated()) {
                const RecordField &f = policy->idempotencyKey;
                const QString kind = f.kind == RecordField::Kind::Header     ? u"header"_s
                                     : f.kind == RecordField::Kind::JsonPath ? u"path"_s
                                                                             : u"key"_s;
                item.inboxRef.insert(MessageIdFrom, QJsonObject{{u"kind"_s, kind}, {u"name"_s, f.name}});
            }
        }
        item.idempotencyKeySha256 = digest;
        item.idempotencyKey.clear();
    }
}

bool keyMatches(const RequestItem &item, const KafkaRecord &record)
{
    if (!item.keySha256.isEmpty())
        return !record.keyIsNull && Digest::sha256(record.key) == item.keySha256;
    if (item.key)
        return !record.keyIsNull && record.key == *item.key;
    return true; // stored without a key (a null key, or filed before keys were compared): nothing pinned
}

QString idempotencyKeyOf(const RequestItem &item, const KafkaRecord &record, const RecordField &consumerField)
{
    if (item.idempotencyKeySha256.isEmpty())
        return item.idempotencyKey;
    const QString fromHeaders = decodeDlqHeaders(record.headers).idempotencyKey;
    if (!fromHeaders.isEmpty() && Digest::sha256(fromHeaders.toUtf8()) == item.idempotencyKeySha256)
        return fromHeaders;
    QByteArray fromField;
    if (RecordFieldValue(record).bytes(consumerField, &fromField) == RecordFieldValue::Outcome::Found
        && !fromField.isEmpty() && Digest::sha256(fromField) == item.idempotencyKeySha256)
        return QString::fromUtf8(fromField);
    return {};
}

RecordField messageIdField(const QJsonObject &ref)
{
    const QJsonObject from = ref.value(MessageIdFrom).toObject();
    const QString kind = from.value(u"kind"_s).toString();
    RecordField f;
    f.name = from.value(u"name"_s).toString();
    f.kind = kind == u"header"_s ? RecordField::Kind::Header
             : kind == u"path"_s ? RecordField::Kind::JsonPath
             : kind == u"key"_s  ? RecordField::Kind::RecordKey
                                 : RecordField::Kind::NotStated;
    return f;
}

QJsonObject inboxRefWith(const QJsonObject &ref, const QString &messageId)
{
    if (!ref.contains(MessageIdSha256) || messageId.isEmpty()
        || QString::fromLatin1(Digest::sha256(messageId.toUtf8()).toHex())
               != ref.value(MessageIdSha256).toString())
        return ref;
    QJsonObject out = ref;
    out.remove(MessageIdSha256);
    out.remove(MessageIdFrom);
    out.insert(MessageId, messageId);
    return out;
}
} // namespace RequestItemDigests
