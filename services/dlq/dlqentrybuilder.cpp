#include "dlqentrybuilder.h"

#include "dlqdialects.h"
#include "dlqheadercodec.h"
#include "services/dlq/dlqlookupkeys.h"
#include "services/payload/payloaddecoder.h"
#include "services/payload/payloadmask.h"
#include "utf8check.h"

using namespace Qt::StringLiterals;

namespace {
// Only the start of a value is checked for UTF-8: a binary payload shows itself early, and a 16 MB
// record should not cost the scan 16 MB of validation.
constexpr qsizetype kUtf8CheckBytes = 64 * 1024;

// A stack trace header of some dialect: the index only notes that there is one.
bool isStackTrace(int spec)
{
    return spec >= 0 && DlqDialects::kSpecs[spec].field == DlqDialects::Field::StackTrace;
}

// Where a cut may end: never inside a UTF-8 sequence.
qsizetype utf8Boundary(QByteArrayView bytes, qsizetype at)
{
    if (at >= bytes.size())
        return bytes.size();
    while (at > 0 && (quint8(bytes[at]) & 0xc0) == 0x80)
        --at;
    return at;
}

bool startIsUtf8(QByteArrayView bytes)
{
    return Utf8Check::isValid(bytes.first(utf8Boundary(bytes, kUtf8CheckBytes)));
}

bool startIsPrintableUtf8(QByteArrayView bytes)
{
    const QByteArrayView start = bytes.first(utf8Boundary(bytes, kUtf8CheckBytes));
    for (const char c : start) {
        const quint8 u = quint8(c);
        if (u < 0x20 || u == 0x7f)
            return false;
    }
    return Utf8Check::isValid(start);
}
} // namespace

DlqRecordDecoder::DlqRecordDecoder()
{
    m_headers.reserve(32);
    m_views.reserve(64);
}

quint8 DlqRecordDecoder::addHeader(QByteArrayView name, const void *value, size_t size)
{
    const int spec = DlqDialects::specIndex(name);
    quint8 flags = 0;
    if (isStackTrace(spec) && value && size > 0)
        flags |= DlqIndexEntry::HasStackTrace;
    if (spec >= 0 && DlqDialects::kSpecs[spec].keyFailure)
        flags |= DlqIndexEntry::KeyFailure;
    m_views.push_back(
        {name, QByteArrayView(static_cast<const char *>(value), qsizetype(size)), value == nullptr, spec});
    return flags;
}

void DlqRecordDecoder::decode(const rd_kafka_message_t *message, DlqDecodedBatch &out)
{
    m_views.clear();
    quint8 flags = 0;
    forEachHeader(message, [&](QByteArrayView name, const void *value, size_t size) {
        flags |= addHeader(name, value, size);
    });
    Raw raw;
    raw.partition = message->partition;
    raw.offset = message->offset;
    raw.timestampMs = rd_kafka_message_timestamp(message, nullptr);
    raw.keyIsNull = message->key == nullptr;
    raw.key = QByteArrayView(static_cast<const char *>(message->key), qsizetype(message->key_len));
    raw.valueIsNull = message->payload == nullptr;
    raw.value = QByteArrayView(static_cast<const char *>(message->payload), qsizetype(message->len));
    finish(raw, flags, out);
}

void DlqRecordDecoder::decode(const KafkaRecord &record, DlqDecodedBatch &out)
{
    m_views.clear();
    quint8 flags = 0;
    for (const RecordHeader &h : record.headers)
        flags |= addHeader(h.name, h.isNull ? nullptr : h.value.constData(), size_t(h.value.size()));
    Raw raw;
    raw.partition = record.partition;
    raw.offset = record.offset;
    raw.timestampMs = record.timestampMs;
    raw.keyIsNull = record.keyIsNull;
    raw.key = record.key;
    raw.valueIsNull = record.value.isNull();
    raw.value = record.value;
    finish(raw, flags, out);
}

DlqDecodedBatch::Text DlqRecordDecoder::putText(const QString &text, qsizetype max, DlqDecodedBatch &out)
{
    if (text.size() <= max)
        return out.put(StringPool::significant(StringPool::toUtf8(text, m_utf8)));
    qsizetype cut = max - 1;
    if (text.at(cut - 1).isHighSurrogate())
        --cut; // keep surrogate pairs whole
    const QString shortened = QStringView(text).first(cut) + u"…"_s;
    return out.put(StringPool::toUtf8(shortened, m_utf8));
}

bool DlqRecordDecoder::decodeFast(DlqDecodedBatch::Record &r, DlqDecodedBatch &out)
{
    DlqFastFields f;
    if (!m_fastPath || !decodeDlqHeadersFast(m_views.data(), qsizetype(m_views.size()), f))
        return false;
    // Byte lengths bound the UTF-16 lengths the slow path cuts at: longer ones take the slow path.
    if (f.reason.size() > MaxReason || f.exceptionClass.size() > MaxName || f.causeClass.size() > MaxName
        || f.originalTopic.size() > MaxName || f.consumer.size() > MaxName)
        return false;
    DlqIndexEntry &e = r.entry;
    e.dialect = quint8(f.dialect);
    e.originalPartition = f.originalPartition;
    e.originalOffset = f.originalOffset;
    e.attempts = f.attempts < 0 ? DlqIndexEntry::UnknownAttempts
                                : quint32(qMin<qint64>(f.attempts, DlqIndexEntry::MaxAttempts));
    r.text[DlqDecodedBatch::Reason] = out.put(f.reason);
    r.text[DlqDecodedBatch::Exception] = out.put(f.exceptionClass);
    r.text[DlqDecodedBatch::Cause] = out.put(f.causeClass);
    r.text[DlqDecodedBatch::Topic] = out.put(f.originalTopic);
    r.text[DlqDecodedBatch::Consumer] = out.put(f.consumer);
    r.text[DlqDecodedBatch::IdempotencyKey] = out.put(StringPool::significant(f.idempotencyKey));
    ++m_fastDecoded;
    return true;
}

void DlqRecordDecoder::decodeSlow(DlqDecodedBatch::Record &r, DlqDecodedBatch &out)
{
    // Stack traces are kilobytes of text the index does not keep: decoded as empty (the header is still
    // there, so the dialect is detected the same way).
    m_headers.clear();
    for (const DlqHeaderView &v : m_views) {
        RecordHeader h;
        h.name = QByteArray::fromRawData(v.name.data(), v.name.size());
        h.isNull = v.isNull;
        if (!v.isNull && !isStackTrace(v.spec))
            h.value = QByteArray::fromRawData(v.value.data(), v.value.size());
        m_headers.append(std::move(h));
    }
    const DlqMetadata m = decodeDlqHeaders(m_headers);
    m_headers.clear(); // drop the views before the record's buffers go
    DlqIndexEntry &e = r.entry;
    if (!m.notes.isEmpty())
        e.flags |= DlqIndexEntry::HasNotes;
    e.dialect = quint8(m.dialect);
    e.originalPartition = m.originalPartition;
    e.originalOffset = m.originalOffset;
    e.attempts = m.attempts < 0 ? DlqIndexEntry::UnknownAttempts
                                : quint32(qMin<qint64>(m.attempts, DlqIndexEntry::MaxAttempts));
    putTexts(m, r, out);
    ++m_slowDecoded;
}

void DlqRecordDecoder::putTexts(const DlqMetadata &m, DlqDecodedBatch::Record &r, DlqDecodedBatch &out)
{
    r.reasonInterned = true;
    r.text[DlqDecodedBatch::Reason] = putText(m.reason, MaxReason, out);
    r.text[DlqDecodedBatch::Exception] = putText(m.exceptionClass, MaxName, out);
    r.text[DlqDecodedBatch::Cause] = putText(m.causeClass, MaxName, out);
    r.text[DlqDecodedBatch::Topic] = putText(m.originalTopic, MaxName, out);
    r.text[DlqDecodedBatch::Consumer] =
        putText(m.consumerGroup.isEmpty() ? m.connectorName : m.consumerGroup, MaxName, out);
    r.text[DlqDecodedBatch::IdempotencyKey] =
        out.put(StringPool::significant(StringPool::toUtf8(m.idempotencyKey, m_utf8)));
}

void DlqRecordDecoder::finish(const Raw &raw, quint8 headerFlags, DlqDecodedBatch &out)
{
    DlqDecodedBatch::Record &r = out.append();
    DlqIndexEntry &e = r.entry;
    e.partition = quint16(raw.partition);
    e.offset = raw.offset;
    e.timestampMs = raw.timestampMs;
    e.valueSize = quint32(raw.value.size());
    e.keySize = quint32(qMin<qsizetype>(raw.key.size(), DlqIndexEntry::MaxKeySize));
    e.flags = headerFlags;
    if (raw.keyIsNull)
        e.flags |= DlqIndexEntry::NullKey;
    else
        putKey(raw.key, r, out);
    if (raw.valueIsNull)
        e.flags |= DlqIndexEntry::NullValue;
    else if (!startIsUtf8(raw.value))
        e.flags |= DlqIndexEntry::InvalidUtf8;
    if (e.valueSize > DlqIndexEntry::HugeValue)
        e.flags |= DlqIndexEntry::Huge;
    if (!decodeFast(r, out))
        decodeSlow(r, out);
    if (!m_masking.masking.isEmpty())
        mask(raw, r, out);
    m_views.clear();
}

void DlqRecordDecoder::putKey(QByteArrayView key, DlqDecodedBatch::Record &r, DlqDecodedBatch &out)
{
    const bool text = startIsPrintableUtf8(key);
    r.entry.flags &= ~quint8(DlqIndexEntry::BinaryKey);
    if (!text)
        r.entry.flags |= DlqIndexEntry::BinaryKey;
    const qsizetype kept = text ? utf8Boundary(key, DlqIndexEntry::KeyPrefix) : qMin(key.size(), DlqIndexEntry::KeyPrefix);
    r.text[DlqDecodedBatch::Key] = out.put(key.first(kept));
}

void DlqRecordDecoder::setMasking(const QString &topic, const QList<MaskRule> &rules,
                                  std::shared_ptr<SchemaCatalog> schemas,
                                  std::shared_ptr<DlqLookupKeys> lookupKeys)
{
    m_topic = topic;
    m_masking.masking = rules;
    m_schemas = std::move(schemas);
    m_lookupKeys = std::move(lookupKeys);
    m_ruleKnown = false;
}

void DlqRecordDecoder::mask(const Raw &raw, DlqDecodedBatch::Record &r, DlqDecodedBatch &out)
{
    const QByteArrayView original = out.view(r.text[DlqDecodedBatch::Topic]);
    if (!m_ruleKnown || original != m_ruleTopic) {
        m_ruleTopic = original.toByteArray();
        m_rule = m_masking.maskFor(m_topic, QString::fromUtf8(original));
        m_ruleKnown = true;
    }
    if (m_rule.fields.isEmpty() && m_rule.headers.isEmpty() && !m_rule.key)
        return;
    // The whole record, as the inspector's fetch masks it: PayloadMask::apply is the one place that decides.
    KafkaRecord record;
    record.partition = raw.partition;
    record.offset = raw.offset;
    record.keyIsNull = raw.keyIsNull;
    record.key = raw.key.toByteArray();
    if (!raw.valueIsNull)
        record.value = raw.value.isEmpty() ? QByteArray("") : raw.value.toByteArray();
    for (const DlqHeaderView &v : m_views)
        record.headers.append({v.name.toByteArray(), v.isNull ? QByteArray() : v.value.toByteArray(), v.isNull});
    DlqMetadata metadata = decodeDlqHeaders(record.headers);
    DecodedPayload payload;
    const bool fields = !m_rule.fields.isEmpty() && !raw.valueIsNull;
    if (fields)
        payload = PayloadDecoder::decode(record.value, false, m_topic, m_schemas.get(), metadata.originalTopic);
    const bool fieldsUnseen = fields && !payload.isJson();
    const QString idempotencyKey = metadata.idempotencyKey;
    QStringList verbatim;
    PayloadMask::apply(m_rule, record, metadata, payload, &verbatim);
    // What the masked headers say now, with every masked value taken out of the rest.
    DlqMetadata shown = decodeDlqHeaders(record.headers);
    for (QString *text : {&shown.reason, &shown.consumerGroup, &shown.connectorName, &shown.exceptionClass,
                          &shown.causeClass, &shown.idempotencyKey, &shown.originalTopic})
        PayloadMask::scrub(*text, verbatim);
    if (fieldsUnseen && !shown.reason.isEmpty())
        shown.reason = QString::fromLatin1(PayloadMask::kMaskedReason);
    putTexts(shown, r, out);
    const bool keyMasked = !raw.keyIsNull && record.key != raw.key;
    if (keyMasked) {
        r.entry.keySize = quint32(qMin<qsizetype>(record.key.size(), DlqIndexEntry::MaxKeySize));
        putKey(record.key, r, out);
    }
    // The inbox look-ups still ask for the real keys (ARCHITECTURE.md, Masking: look-up keys).
    if (m_lookupKeys && (keyMasked || shown.idempotencyKey != idempotencyKey))
        m_lookupKeys->add(raw.partition, raw.offset,
                          shown.idempotencyKey != idempotencyKey ? std::optional<QString>(idempotencyKey)
                                                                 : std::nullopt,
                          keyMasked ? std::optional<QByteArray>(raw.key.toByteArray()) : std::nullopt);
}

// A DLQ's records nearly all name the same original topic and consumer: compared with the last record's
// bytes, they skip two look-ups in the pool and the pair's.
quint32 DlqEntryInterner::route(QByteArrayView topic, QByteArrayView consumer)
{
    if (!m_routeKnown || topic != m_routeTopic || consumer != m_routeConsumer) {
        // Into the buffers' own storage: a DLQ that several consumers share changes route often.
        m_routeTopic.truncate(0);
        m_routeTopic.append(topic);
        m_routeConsumer.truncate(0);
        m_routeConsumer.append(consumer);
        m_route = m_pool.internPair(m_pool.intern(topic), m_pool.intern(consumer));
        m_routeKnown = true;
    }
    return m_route;
}

DlqIndexEntry DlqEntryInterner::intern(const DlqDecodedBatch &batch, const DlqDecodedBatch::Record &record)
{
    return internWith(batch, record, StringPool::hashBytes(keyOf(batch, record)));
}

DlqIndexEntry DlqEntryInterner::internWith(const DlqDecodedBatch &batch,
                                           const DlqDecodedBatch::Record &record, quint32 keyHash)
{
    using B = DlqDecodedBatch;
    const auto text = [&](B::Field f) { return batch.view(record.text[f]); };
    DlqIndexEntry e = record.entry;
    // Keys are nearly all distinct: stored, not looked up (DlqIndexEntry).
    e.keyId = m_pool.add(text(B::Key));
    // Reasons mostly carry ids and are then all distinct: only runs of equal ones share their bytes. The
    // names repeat, in any order: the pool's cache of recent hits finds them without a look-up.
    e.reasonId =
        record.reasonInterned ? m_pool.intern(text(B::Reason)) : m_pool.addUnlessRecent(text(B::Reason));
    e.exceptionId = m_pool.intern(text(B::Exception));
    e.causeId = m_pool.intern(text(B::Cause));
    e.routeId = route(text(B::Topic), text(B::Consumer));
    e.idempotencyKeyId = m_pool.intern(keyOf(batch, record), keyHash);
    return e;
}
