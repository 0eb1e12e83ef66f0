#include "keymask.h"

#include "services/dlq/dlqrecord.h"
#include "services/kafka/kafkarecord.h"
#include "services/payload/decodedpayload.h"
#include "services/payload/payloadmask.h"

using namespace Qt::StringLiterals;

namespace {
// The canonical header a dead letter's idempotency key is read from (ARCHITECTURE.md, Contracts: DLQ
// header dialects), the one a request item's idempotency key comes from.
constexpr char kIdempotencyHeader[] = "idempotency-key";
} // namespace

KeyMask::KeyMask(const DeliveryPolicy &policy)
    : m_policy(policy)
{
}

QList<const ConsumerPolicy *> KeyMask::consumersOf(const QString &topic, const QString &originalTopic) const
{
    QList<const ConsumerPolicy *> out;
    for (const ConsumerPolicy &c : m_policy.consumers) {
        if ((!c.dlqTopic.isEmpty() && c.dlqTopic == topic) || c.topics.contains(topic)
            || (!originalTopic.isEmpty() && c.topics.contains(originalTopic)))
            out.append(&c);
    }
    return out;
}

MaskRule KeyMask::ruleFor(const QString &topic, const QString &originalTopic) const
{
    if (!originalTopic.isEmpty())
        return m_policy.maskFor(topic, originalTopic);
    QStringList originals;
    for (const ConsumerPolicy &c : m_policy.consumers) {
        if (!c.dlqTopic.isEmpty() && c.dlqTopic == topic)
            originals += c.topics;
    }
    return m_policy.maskForAny(topic, originals);
}

KeyMask::Keys KeyMask::shown(const QString &topic, const QString &originalTopic,
                             const std::optional<QByteArray> &key, const QString &idempotencyKey) const
{
    Keys out{key, idempotencyKey, false, false, {}};
    if (isEmpty())
        return out;
    const MaskRule rule = ruleFor(topic, originalTopic);
    if (rule.fields.isEmpty() && rule.headers.isEmpty() && !rule.key)
        return out;
    // The keys as the inspector masks them in the whole record: the payload is not at hand, so its fields
    // count only through what the consumers read their idempotency key from (below).
    KafkaRecord record;
    record.keyIsNull = !key.has_value();
    if (key)
        record.key = *key;
    if (!idempotencyKey.isEmpty())
        record.headers.append({kIdempotencyHeader, idempotencyKey.toUtf8(), false});
    DlqMetadata metadata;
    metadata.idempotencyKey = idempotencyKey;
    DecodedPayload payload;
    MaskRule keysOnly = rule;
    keysOnly.fields.clear();
    PayloadMask::apply(keysOnly, record, metadata, payload, &out.verbatim);
    if (key)
        out.key = record.key;
    if (!idempotencyKey.isEmpty())
        out.idempotencyKey = QString::fromUtf8(record.headers.constFirst().value);

    bool bySource = false;
    for (const ConsumerPolicy *c : consumersOf(topic, originalTopic))
        bySource = bySource || PayloadMask::hides(rule, c->idempotencyKey);
    if (bySource && !idempotencyKey.isEmpty()) {
        out.idempotencyKey = QString::fromLatin1(PayloadMask::kMasked);
        if (idempotencyKey.size() >= PayloadMask::kMinVerbatim) {
            out.verbatim.append(idempotencyKey);
            if (out.key)
                out.key->replace(idempotencyKey.toUtf8(), PayloadMask::kMasked);
        }
    }
    out.keyMasked = key && out.key != key;
    out.idempotencyKeyMasked = out.idempotencyKey != idempotencyKey;
    return out;
}

bool KeyMask::masksIdempotencyKeysOf(const QString &consumer) const
{
    const ConsumerPolicy *c = isEmpty() ? nullptr : m_policy.consumer(consumer);
    if (!c)
        return false;
    // Whether shown() masks a key does not depend on its value, only on there being one.
    for (const QString &topic : c->topics) {
        if (shown(topic, {}, std::nullopt, u"-"_s).idempotencyKeyMasked)
            return true;
    }
    return false;
}

QStringList KeyMask::idMaskedConsumersOf(const InboxMapping &mapping) const
{
    QStringList out;
    if (mapping.readsOneConsumer()) {
        if (masksIdempotencyKeysOf(mapping.consumerLabel()))
            out << mapping.consumerLabel();
        return out;
    }
    for (const ConsumerPolicy &c : m_policy.consumers) {
        if (masksIdempotencyKeysOf(c.name))
            out << c.name;
    }
    return out;
}
