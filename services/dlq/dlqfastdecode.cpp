#include "dlqfastdecode.h"

#include "dlqdialects.h"
#include "dlqheadernumbers.h"
#include "utf8check.h"

#include <array>
#include <limits>

namespace {
using namespace DlqDialects;
using namespace DlqHeaderNumbers;

// What the fast path does with a header: keep it in DlqFastFields, check it only, or decline the record.
enum class Use : quint8 {
    Topic,
    Partition,
    Offset,
    Consumer,
    Exception,
    Cause,
    Reason,
    Attempts,
    IdempotencyKey,
    CheckText,   // a text field the index does not keep: checked only (a note would mean HasNotes)
    CheckNumber, // a number the index does not keep: checked only
    CheckTime,   // a failure time the index does not keep: checked only
    Stack,       // stack traces: never decoded by the scan (see DlqEntryBuilder)
    Ignored,     // recognised for detection only (retry_topic-backoff-timestamp)
    KeyFailure,  // kafka_dlt-key-exception-*: always declined (decodeDlqHeaders adds a note)
};

// Derived from the shared table, so the two paths cannot disagree on what a header is.
constexpr Use useOf(const HeaderSpec &s)
{
    if (s.keyFailure)
        return Use::KeyFailure;
    switch (s.field) {
    case Field::OriginalTopic:
        return Use::Topic;
    case Field::OriginalPartition:
        return Use::Partition;
    case Field::OriginalOffset:
        return Use::Offset;
    case Field::ConsumerGroup:
    case Field::ConnectorName: // DlqEntryBuilder's consumer, as decodeSlow takes it
        return Use::Consumer;
    case Field::ExceptionClass:
        return Use::Exception;
    case Field::CauseClass:
        return Use::Cause;
    case Field::Reason:
        return Use::Reason;
    case Field::Attempts:
        return Use::Attempts;
    case Field::IdempotencyKey:
        return Use::IdempotencyKey;
    case Field::StackTrace:
        return Use::Stack;
    case Field::None:
        return Use::Ignored;
    default:
        return s.codec == Codec::Text      ? Use::CheckText
               : s.codec == Codec::DecTime ? Use::CheckTime
                                           : Use::CheckNumber;
    }
}

constexpr auto kUseOf = [] {
    std::array<Use, kSpecCount> use{};
    for (int i = 0; i < kSpecCount; ++i) {
        use[i] = useOf(kSpecs[i]);
        const bool keptText = use[i] == Use::Topic || use[i] == Use::Consumer || use[i] == Use::Exception
                              || use[i] == Use::Cause || use[i] == Use::Reason
                              || use[i] == Use::IdempotencyKey;
        if (keptText && kSpecs[i].codec != Codec::Text)
            throw "a text field the index keeps must be written as text";
    }
    return use;
}();
static_assert(kSpecCount < 64, "seen-masks are 64 bits");

bool isText(QByteArrayView v)
{
    // A leading BOM is dropped by decodeDlqHeaders' decoder: leave such values to it.
    return Utf8Check::isValid(v) && !Utf8Check::startsWithBom(v);
}

// Keeps a text value that the codec decodes without a note.
bool keepText(QByteArrayView v, QByteArrayView &to)
{
    to = v;
    return isText(v);
}

// The number the codec reads without a note, or false.
bool number(const HeaderSpec &s, QByteArrayView v, qint64 &out)
{
    const bool is32 = isIntField(s.field);
    if (v.isEmpty())
        return false;
    const Decimal d = parseDecimal(v, out);
    if (s.codec == Codec::DecInt || s.codec == Codec::DecTime)
        return d == Decimal::Yes && (!is32 || out == qint32(out)); // epoch millis for DecTime
    if (d != Decimal::No)
        return false; // decimal text where binary is expected: the codec notes it
    const qsizetype width = is32 ? 4 : 8;
    if (s.codec == Codec::BigInt ? v.size() > width : v.size() != width)
        return false;
    out = readBigEndian(v);
    return true;
}
} // namespace

bool decodeDlqHeadersFast(const DlqHeaderView *headers, qsizetype count, DlqFastFields &out)
{
    if (count > std::numeric_limits<qint16>::max())
        return false;
    quint64 seen = 0;
    std::array<int, kFamilyCount> present{};
    int retryTopic = 0;
    std::array<qint16, kSpecCount> at;
    for (qsizetype i = 0; i < count; ++i) {
        const int s =
            headers[i].spec == DlqHeaderView::NotLookedUp ? specIndex(headers[i].name) : headers[i].spec;
        if (s < 0)
            continue;
        if (seen & (quint64(1) << s))
            return false; // repeated: the codec notes which occurrence it used
        seen |= quint64(1) << s;
        at[s] = qint16(i);
        if (kUseOf[s] == Use::KeyFailure)
            return false;
        ++present[int(kSpecs[s].family)];
        retryTopic += kSpecs[s].retryTopic;
    }
    // One family: retry_topic-* beside kafka_dlt-* belongs to the DLT record.
    const bool dlt = present[int(Family::SpringDlt)] > 0;
    Family family = kCommon;
    for (int f = 1; f < kFamilyCount; ++f) {
        const int n = present[f] - ((dlt && Family(f) == Family::SpringRetry) ? retryTopic : 0);
        if (n <= 0)
            continue;
        if (family != kCommon)
            return false; // two dialects: the codec notes the second
        family = Family(f);
    }
    out = DlqFastFields{};
    out.dialect = family;
    for (quint64 left = seen; left; left &= left - 1) { // the specs seen, in the table's order
        const int s = qCountTrailingZeroBits(left);
        const HeaderSpec &spec = kSpecs[s];
        const Use use = kUseOf[s];
        const DlqHeaderView &h = headers[at[s]];
        if (use == Use::Ignored)
            continue;
        if (h.isNull)
            return false;
        if (use == Use::Stack)
            continue;
        const QByteArrayView v = h.value;
        qint64 n = 0;
        bool ok = true;
        switch (use) {
        case Use::Topic:
            ok = keepText(v, out.originalTopic);
            break;
        case Use::Consumer:
            ok = keepText(v, out.consumer);
            break;
        case Use::Exception:
            ok = keepText(v, out.exceptionClass);
            break;
        case Use::Cause:
            ok = keepText(v, out.causeClass);
            break;
        case Use::Reason:
            ok = keepText(v, out.reason);
            break;
        case Use::IdempotencyKey:
            ok = keepText(v, out.idempotencyKey);
            break;
        case Use::CheckText:
            ok = isText(v);
            break;
        case Use::Partition:
            ok = number(spec, v, n);
            out.originalPartition = int(n);
            break;
        case Use::Attempts:
            ok = number(spec, v, n);
            out.attempts = int(n);
            break;
        case Use::Offset:
            ok = number(spec, v, n);
            out.originalOffset = n;
            break;
        case Use::CheckNumber:
            ok = number(spec, v, n);
            break;
        case Use::CheckTime:
            // Other ISO-8601 forms go through QDateTime in the codec.
            ok = parseCanonicalIso(v, n) || number(spec, v, n);
            break;
        default:
            break;
        }
        if (!ok)
            return false;
    }
    // Spring DLT records carry the DLT timestamp and the retry topic's; the codec decodes the latter
    // only when the former is absent, so it is checked above regardless: harmless when it is valid.
    return true;
}
