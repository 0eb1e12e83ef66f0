#include "dlqentryfields.h"

using namespace Qt::StringLiterals;

QString DlqEntryText::key(const DlqIndexEntry &e, const StringPool &pool)
{
    if (e.has(DlqIndexEntry::NullKey))
        return {};
    const QByteArrayView stored = pool.bytes(e.keyId);
    const bool cut = e.keySize > quint32(stored.size());
    if (e.has(DlqIndexEntry::BinaryKey)) {
        const QByteArray hex = QByteArray::fromRawData(stored.data(), stored.size()).toHex();
        return u"0x"_s + QString::fromLatin1(hex) + (cut ? u"…"_s : QString());
    }
    return QString::fromUtf8(stored) + (cut ? u"…"_s : QString());
}

DlqEntryFields DlqEntryFields::from(const DlqIndexEntry &e, const StringPool &pool)
{
    DlqEntryFields f;
    f.partition = e.partition;
    f.offset = e.offset;
    f.timestampMs = e.timestampMs;
    f.originalTopic = DlqEntryText::originalTopic(e, pool);
    f.originalPartition = e.originalPartition;
    f.originalOffset = e.originalOffset;
    f.consumer = DlqEntryText::consumer(e, pool);
    f.exceptionClass = DlqEntryText::exceptionClass(e, pool);
    f.causeClass = DlqEntryText::causeClass(e, pool);
    f.reason = DlqEntryText::reason(e, pool);
    f.key = DlqEntryText::key(e, pool);
    f.idempotencyKey = DlqEntryText::idempotencyKey(e, pool);
    f.dialect = e.dialectValue();
    f.attempts = e.attemptCount();
    f.attemptsCapped = f.attempts >= int(DlqIndexEntry::MaxAttempts);
    f.keySize = e.keySize;
    f.valueSize = e.valueSize;
    f.keyIsNull = e.has(DlqIndexEntry::NullKey);
    f.valueIsNull = e.has(DlqIndexEntry::NullValue);
    f.binaryKey = e.has(DlqIndexEntry::BinaryKey);
    f.valueNotUtf8 = e.has(DlqIndexEntry::InvalidUtf8);
    f.hugeValue = e.has(DlqIndexEntry::Huge);
    f.hasStackTrace = e.has(DlqIndexEntry::HasStackTrace);
    f.keyFailure = e.has(DlqIndexEntry::KeyFailure);
    f.hasDecodeNotes = e.has(DlqIndexEntry::HasNotes);
    return f;
}
