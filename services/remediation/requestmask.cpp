#include "requestmask.h"

#include "services/payload/payloadmask.h"
#include "services/remediation/editedpayload.h"
#include "services/remediation/requestitemdigests.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace {
QJsonValue scrubbed(const QJsonValue &value, const QStringList &values)
{
    if (value.isString()) {
        QString text = value.toString();
        PayloadMask::scrub(text, values);
        return text;
    }
    if (value.isArray()) {
        QJsonArray array = value.toArray();
        for (qsizetype i = 0; i < array.size(); ++i)
            array.replace(i, scrubbed(array.at(i), values));
        return array;
    }
    if (value.isObject()) {
        QJsonObject object = value.toObject();
        for (auto it = object.begin(); it != object.end(); ++it)
            it.value() = scrubbed(it.value(), values);
        return object;
    }
    return value;
}

} // namespace

namespace RequestMask {
void apply(const KeyMask &mask, QList<RequestItem> &items, QStringList *verbatim)
{
    // Keys stored as digests alone (RequestItemDigests::seal) were masked when filed, whatever the policy
    // says now.
    for (RequestItem &item : items) {
        if (!item.keySha256.isEmpty() && !item.key)
            item.key = QByteArray(PayloadMask::kMasked);
        if (!item.idempotencyKeySha256.isEmpty() && item.idempotencyKey.isEmpty())
            item.idempotencyKey = QString::fromLatin1(PayloadMask::kMasked);
    }
    if (mask.isEmpty())
        return;
    QStringList values;
    for (RequestItem &item : items) {
        const QString idempotencyKey = item.idempotencyKey;
        if (item.isDlqRecord()) {
            const KeyMask::Keys keys = mask.shown(item.sourceTopic, {}, item.key, item.idempotencyKey);
            item.key = keys.key;
            item.idempotencyKey = keys.idempotencyKey;
            values += keys.verbatim;
            // An edit holds the original's masked values again (EditedPayload::prepare restores them): shown
            // as the approver's diff shows it, decoded without the schemas here, so a schema payload with
            // masked fields is hidden whole.
            MaskRule rule = mask.ruleFor(item.sourceTopic);
            if (item.editedPayload && !rule.fields.isEmpty()) {
                rule.topic = item.sourceTopic;
                item.editedPayload =
                    EditedPayload::shownForReview(*item.editedPayload, item.sourceTopic, {}, nullptr, {rule});
            }
        }
        if (!item.inboxRef.contains(u"messageId"_s))
            continue;
        QString messageId = item.inboxRef.value(u"messageId"_s).toString();
        if (item.isDlqRecord() && messageId == idempotencyKey && item.idempotencyKey != idempotencyKey)
            messageId = item.idempotencyKey; // the record's idempotency key, masked with it
        else
            messageId = RequestItemDigests::shownMessageId(mask, item.inboxRef, &values);
        item.inboxRef.insert(u"messageId"_s, messageId);
    }
    values.removeDuplicates();
    // What was masked in one item is taken out of every other's text too (a key repeated in another's).
    for (RequestItem &item : items) {
        if (values.isEmpty())
            break;
        if (item.key && !item.key->isEmpty() && *item.key != PayloadMask::kMasked) {
            QString key = QString::fromUtf8(*item.key);
            const QString before = key;
            PayloadMask::scrub(key, values);
            if (key != before)
                item.key = key.toUtf8();
        }
        PayloadMask::scrub(item.idempotencyKey, values);
        item.inboxRef = scrubbed(item.inboxRef, values).toObject();
    }
    if (verbatim)
        *verbatim += values;
}

QStringList apply(const KeyMask &mask, RequestDetail &detail)
{
    QStringList values;
    apply(mask, detail.items, &values);
    scrub(detail.request.dryRun, values);
    apply(mask, detail.request.dryRun);
    return values;
}

void apply(const KeyMask &mask, QJsonObject &dryRun)
{
    if (mask.isEmpty() || dryRun.isEmpty())
        return;
    // "topic/partition" of the items' DLQ records (DryRunResult::sourcePartitions).
    QStringList dlqTopics;
    for (const QJsonValue &v : dryRun.value(u"sourcePartitions"_s).toArray()) {
        const QString topic = v.toString().section(u'/', 0, -2);
        if (!topic.isEmpty() && !dlqTopics.contains(topic))
            dlqTopics.append(topic);
    }
    QStringList values;
    const QString masked = QString::fromLatin1(PayloadMask::kMasked);
    // "topic/partition/offset key=KEY (later at N)" (DryRunResult::orderingRiskSamples): topic is the
    // original.
    QJsonArray samples = dryRun.value(u"orderingRiskSamples"_s).toArray();
    for (qsizetype i = 0; i < samples.size(); ++i) {
        const QString sample = samples.at(i).toString();
        const qsizetype keyAt = sample.indexOf(u" key="_s);
        const qsizetype laterAt = sample.lastIndexOf(u" (later at "_s);
        if (keyAt < 0 || laterAt < keyAt)
            continue;
        const QString topic = sample.left(keyAt).section(u'/', 0, -3);
        const QString key = sample.mid(keyAt + 5, laterAt - keyAt - 5);
        bool keyMasked = mask.shown(topic, {}, key.toUtf8(), {}).keyMasked;
        for (const QString &dlq : std::as_const(dlqTopics))
            keyMasked = keyMasked || mask.shown(dlq, topic, key.toUtf8(), {}).keyMasked;
        if (!keyMasked || key == masked)
            continue;
        if (key.size() >= PayloadMask::kMinVerbatim)
            values.append(key);
        samples.replace(i, QString(sample.left(keyAt + 5) + masked + sample.mid(laterAt)));
    }
    if (!samples.isEmpty())
        dryRun.insert(u"orderingRiskSamples"_s, samples);
    QJsonArray shared = dryRun.value(u"sharedIdempotencyKeys"_s).toArray();
    for (qsizetype i = 0; i < shared.size(); ++i) {
        const QString key = shared.at(i).toString();
        bool keyMasked = false;
        for (const QString &dlq : std::as_const(dlqTopics))
            keyMasked = keyMasked || mask.shown(dlq, {}, std::nullopt, key).idempotencyKeyMasked;
        if (!keyMasked || key == masked)
            continue;
        if (key.size() >= PayloadMask::kMinVerbatim)
            values.append(key);
        shared.replace(i, masked);
    }
    if (!shared.isEmpty())
        dryRun.insert(u"sharedIdempotencyKeys"_s, shared);
    // A reclaim's rows (ReclaimPlan::toJson): their message ids are idempotency keys of the plan's topic.
    QJsonObject reclaim = dryRun.value(u"reclaim"_s).toObject();
    QJsonArray rows = reclaim.value(u"rows"_s).toArray();
    for (qsizetype i = 0; i < rows.size(); ++i) {
        QJsonObject row = rows.at(i).toObject();
        const QString id = row.value(u"messageId"_s).toString();
        const KeyMask::Keys keys = mask.shown(reclaim.value(u"topic"_s).toString(), {}, std::nullopt, id);
        if (!keys.idempotencyKeyMasked)
            continue;
        values += keys.verbatim;
        row.insert(u"messageId"_s, keys.idempotencyKey);
        rows.replace(i, row);
    }
    if (!rows.isEmpty()) {
        reclaim.insert(u"rows"_s, rows);
        dryRun.insert(u"reclaim"_s, reclaim);
    }
    scrub(dryRun, values);
}

void apply(const KeyMask &mask, AuditEvent &event)
{
    if (mask.isEmpty() || event.action != u"request.items_added"_s)
        return;
    QJsonArray listed = event.details.value(u"items"_s).toArray();
    QList<RequestItem> items;
    for (const QJsonValue &v : std::as_const(listed)) {
        const QJsonObject o = v.toObject();
        RequestItem item;
        item.sourceTopic = o.value(u"topic"_s).toString();
        if (o.value(u"key"_s).isString())
            item.key = QByteArray::fromHex(o.value(u"key"_s).toString().toLatin1());
        item.idempotencyKey = o.value(u"idempotency_key"_s).toString();
        item.keySha256 = QByteArray::fromHex(o.value(u"key_sha256"_s).toString().toLatin1());
        item.idempotencyKeySha256 =
            QByteArray::fromHex(o.value(u"idempotency_key_sha256"_s).toString().toLatin1());
        item.inboxRef = o.value(u"inbox_ref"_s).toObject();
        items.append(item);
    }
    apply(mask, items);
    for (qsizetype i = 0; i < listed.size(); ++i) {
        QJsonObject o = listed.at(i).toObject();
        const RequestItem &item = items.at(i);
        if (o.value(u"key"_s).isString()) {
            const QByteArray before = QByteArray::fromHex(o.value(u"key"_s).toString().toLatin1());
            if (item.key != before)
                o.insert(u"key"_s, QString::fromUtf8(*item.key)); // masked: no longer hex
        } else if (!item.keySha256.isEmpty()) {
            o.insert(u"key"_s, QString::fromLatin1(PayloadMask::kMasked)); // filed as its digest
        }
        if (o.contains(u"idempotency_key"_s))
            o.insert(u"idempotency_key"_s, item.idempotencyKey);
        if (o.contains(u"inbox_ref"_s))
            o.insert(u"inbox_ref"_s, item.inboxRef);
        listed.replace(i, o);
    }
    event.details.insert(u"items"_s, listed);
}

void scrub(QJsonObject &dryRun, const QStringList &values)
{
    if (!values.isEmpty())
        dryRun = scrubbed(dryRun, values).toObject();
}
} // namespace RequestMask
