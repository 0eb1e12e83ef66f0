#include "dlqfastdecode.h"

#include "utf8check.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <string_view>

namespace {
using Family = DlqDialect;
constexpr Family kCommon = DlqDialect::Unknown;
constexpr int kFamilyCount = int(DlqDialect::BerthCanonical) + 1;

enum class Field : quint8 {
    Topic,
    Partition,
    Offset,
    Consumer,
    Exception,
    Cause,
    Reason,
    Attempts,
    IdempotencyKey,
    Text,       // a text field the index does not keep: checked only (a note would mean HasNotes)
    Long,       // an 8-byte number the index does not keep: checked only
    Time,       // a Berth failure time: checked only
    Stack,      // stack traces: never decoded by the scan (see DlqEntryBuilder)
    Ignored,    // recognised for detection only (retry_topic-backoff-timestamp)
    KeyFailure, // kafka_dlt-key-exception-*: always declined (decodeDlqHeaders adds a note)
};
enum class Codec : quint8 { Text, BinInt, BigInt, DecInt, DecTime };

struct Spec {
    std::string_view name;
    Family family;
    Field field;
    Codec codec;
    bool retryTopic = false;
};

// The dialect table of DESIGN.md, as dlqheadercodec.cpp has it.
constexpr std::array kSpecs = {
    Spec{"kafka_dlt-original-topic", Family::SpringDlt, Field::Topic, Codec::Text},
    Spec{"kafka_dlt-original-partition", Family::SpringDlt, Field::Partition, Codec::BinInt},
    Spec{"kafka_dlt-original-offset", Family::SpringDlt, Field::Offset, Codec::BinInt},
    Spec{"kafka_dlt-original-timestamp", Family::SpringDlt, Field::Long, Codec::BinInt},
    Spec{"kafka_dlt-original-timestamp-type", Family::SpringDlt, Field::Text, Codec::Text},
    Spec{"kafka_dlt-original-consumer-group", Family::SpringDlt, Field::Consumer, Codec::Text},
    Spec{"kafka_dlt-exception-fqcn", Family::SpringDlt, Field::Exception, Codec::Text},
    Spec{"kafka_dlt-exception-cause-fqcn", Family::SpringDlt, Field::Cause, Codec::Text},
    Spec{"kafka_dlt-exception-message", Family::SpringDlt, Field::Reason, Codec::Text},
    Spec{"kafka_dlt-exception-stacktrace", Family::SpringDlt, Field::Stack, Codec::Text},
    Spec{"kafka_dlt-key-exception-fqcn", Family::SpringDlt, Field::KeyFailure, Codec::Text},
    Spec{"kafka_dlt-key-exception-cause-fqcn", Family::SpringDlt, Field::KeyFailure, Codec::Text},
    Spec{"kafka_dlt-key-exception-message", Family::SpringDlt, Field::KeyFailure, Codec::Text},
    Spec{"kafka_dlt-key-exception-stacktrace", Family::SpringDlt, Field::KeyFailure, Codec::Text},
    Spec{"kafka_original-topic", Family::SpringRetry, Field::Topic, Codec::Text},
    Spec{"kafka_original-partition", Family::SpringRetry, Field::Partition, Codec::BinInt},
    Spec{"kafka_original-offset", Family::SpringRetry, Field::Offset, Codec::BinInt},
    Spec{"kafka_original-timestamp", Family::SpringRetry, Field::Long, Codec::BinInt},
    Spec{"kafka_original-timestamp-type", Family::SpringRetry, Field::Text, Codec::Text},
    Spec{"kafka_exception-fqcn", Family::SpringRetry, Field::Exception, Codec::Text},
    Spec{"kafka_exception-cause-fqcn", Family::SpringRetry, Field::Cause, Codec::Text},
    Spec{"kafka_exception-message", Family::SpringRetry, Field::Reason, Codec::Text},
    Spec{"kafka_exception-stacktrace", Family::SpringRetry, Field::Stack, Codec::Text},
    Spec{"retry_topic-attempts", Family::SpringRetry, Field::Attempts, Codec::BigInt, true},
    Spec{"retry_topic-original-timestamp", Family::SpringRetry, Field::Long, Codec::BigInt, true},
    Spec{"retry_topic-backoff-timestamp", Family::SpringRetry, Field::Ignored, Codec::BigInt, true},
    Spec{"x-original-topic", Family::SpringCloudStream, Field::Topic, Codec::Text},
    Spec{"x-original-partition", Family::SpringCloudStream, Field::Partition, Codec::BinInt},
    Spec{"x-original-offset", Family::SpringCloudStream, Field::Offset, Codec::BinInt},
    Spec{"x-original-timestamp", Family::SpringCloudStream, Field::Long, Codec::BinInt},
    Spec{"x-original-timestamp-type", Family::SpringCloudStream, Field::Text, Codec::Text},
    Spec{"x-exception-fqcn", Family::SpringCloudStream, Field::Exception, Codec::Text},
    Spec{"x-exception-message", Family::SpringCloudStream, Field::Reason, Codec::Text},
    Spec{"x-exception-stacktrace", Family::SpringCloudStream, Field::Stack, Codec::Text},
    Spec{"__connect.errors.topic", Family::KafkaConnect, Field::Topic, Codec::Text},
    Spec{"__connect.errors.partition", Family::KafkaConnect, Field::Partition, Codec::DecInt},
    Spec{"__connect.errors.offset", Family::KafkaConnect, Field::Offset, Codec::DecInt},
    Spec{"__connect.errors.connector.name", Family::KafkaConnect, Field::Consumer, Codec::Text},
    Spec{"__connect.errors.task.id", Family::KafkaConnect, Field::Text, Codec::Text},
    Spec{"__connect.errors.stage", Family::KafkaConnect, Field::Text, Codec::Text},
    Spec{"__connect.errors.class.name", Family::KafkaConnect, Field::Text, Codec::Text},
    Spec{"__connect.errors.exception.class.name", Family::KafkaConnect, Field::Exception, Codec::Text},
    Spec{"__connect.errors.exception.message", Family::KafkaConnect, Field::Reason, Codec::Text},
    Spec{"__connect.errors.exception.stacktrace", Family::KafkaConnect, Field::Stack, Codec::Text},
    Spec{"__streams.errors.topic", Family::KafkaStreams, Field::Topic, Codec::Text},
    Spec{"__streams.errors.partition", Family::KafkaStreams, Field::Partition, Codec::DecInt},
    Spec{"__streams.errors.offset", Family::KafkaStreams, Field::Offset, Codec::DecInt},
    Spec{"__streams.errors.exception", Family::KafkaStreams, Field::Exception, Codec::Text},
    Spec{"__streams.errors.message", Family::KafkaStreams, Field::Reason, Codec::Text},
    Spec{"__streams.errors.stacktrace", Family::KafkaStreams, Field::Stack, Codec::Text},
    Spec{"dlq-original-topic", Family::BerthCanonical, Field::Topic, Codec::Text},
    Spec{"dlq-original-partition", Family::BerthCanonical, Field::Partition, Codec::DecInt},
    Spec{"dlq-original-offset", Family::BerthCanonical, Field::Offset, Codec::DecInt},
    Spec{"dlq-consumer", Family::BerthCanonical, Field::Consumer, Codec::Text},
    Spec{"dlq-reason", Family::BerthCanonical, Field::Reason, Codec::Text},
    Spec{"dlq-exception-class", Family::BerthCanonical, Field::Exception, Codec::Text},
    Spec{"dlq-attempts", Family::BerthCanonical, Field::Attempts, Codec::DecInt},
    Spec{"dlq-first-failure-at", Family::BerthCanonical, Field::Time, Codec::DecTime},
    Spec{"dlq-last-failure-at", Family::BerthCanonical, Field::Time, Codec::DecTime},
    Spec{"dlq-schema-version", Family::BerthCanonical, Field::Text, Codec::Text},
    Spec{"correlation-id", kCommon, Field::Text, Codec::Text},
    Spec{"idempotency-key", kCommon, Field::IdempotencyKey, Codec::Text},
};
constexpr int kSpecCount = int(kSpecs.size());
static_assert(kSpecCount < 64, "seen-masks are 64 bits");

// Name look-up: names differ in length and a few bytes; an open-addressing table built at compile time.
constexpr quint32 nameHash(std::string_view n)
{
    const auto at = [&](size_t i) { return quint32(quint8(n[i])); };
    const size_t z = n.size();
    return (quint32(z) * 0x9e3779b1u) ^ (at(z - 1) * 0x85ebca6bu) ^ (at(z - 2) * 0xc2b2ae35u)
           ^ (at(z / 2) * 0x27d4eb2fu) ^ (at(2) * 0x165667b1u);
}
constexpr quint32 kSlots = 256;
constexpr auto kSlotOf = [] {
    std::array<qint8, kSlots> slots{};
    slots.fill(-1);
    for (int i = 0; i < kSpecCount; ++i) {
        quint32 h = nameHash(kSpecs[i].name) % kSlots;
        while (slots[h] >= 0)
            h = (h + 1) % kSlots;
        slots[h] = qint8(i);
    }
    return slots;
}();

constexpr auto kByLength = [](const Spec &a, const Spec &b) { return a.name.size() < b.name.size(); };
constexpr qsizetype kMinName =
    qsizetype(std::min_element(kSpecs.begin(), kSpecs.end(), kByLength)->name.size());
constexpr qsizetype kMaxName =
    qsizetype(std::max_element(kSpecs.begin(), kSpecs.end(), kByLength)->name.size());

// Equal bytes, for names of at least 8 bytes: eight at a time, the last eight overlapping. Every header
// of every record is compared once, and a call to memcmp costs more than the comparison.
bool sameName(std::string_view a, std::string_view b)
{
    static_assert(kMinName >= 8);
    if (a.size() != b.size())
        return false;
    const auto word = [](const char *p) {
        quint64 w;
        std::memcpy(&w, p, 8);
        return w;
    };
    const size_t n = a.size();
    for (size_t i = 0; i + 8 < n; i += 8) {
        if (word(a.data() + i) != word(b.data() + i))
            return false;
    }
    return word(a.data() + n - 8) == word(b.data() + n - 8);
}

int specIndex(QByteArrayView name)
{
    if (name.size() < kMinName || name.size() > kMaxName)
        return -1;
    const std::string_view key(name.data(), size_t(name.size()));
    for (quint32 h = nameHash(key) % kSlots; kSlotOf[h] >= 0; h = (h + 1) % kSlots) {
        if (sameName(kSpecs[kSlotOf[h]].name, key))
            return kSlotOf[h];
    }
    return -1;
}

constexpr bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

// What decodeDlqHeaders' parseDecimal accepts: blanks, an optional sign, digits. Then the value.
enum class Decimal { No, OutOfRange, Yes };
Decimal parseDecimal(QByteArrayView v, qint64 &out)
{
    while (!v.isEmpty() && (v.front() == ' ' || v.front() == '\t'))
        v = v.sliced(1);
    while (!v.isEmpty() && (v.back() == ' ' || v.back() == '\t'))
        v.chop(1);
    const bool negative = !v.isEmpty() && v.front() == '-';
    if (!v.isEmpty() && (negative || v.front() == '+'))
        v = v.sliced(1);
    if (v.isEmpty())
        return Decimal::No;
    for (const char c : v) {
        if (!isDigit(c))
            return Decimal::No;
    }
    qint64 value = 0;
    for (const char c : v) {
        if (qMulOverflow(value, qint64(10), &value) || qSubOverflow(value, qint64(c - '0'), &value))
            return Decimal::OutOfRange;
    }
    if (!negative && value == std::numeric_limits<qint64>::min())
        return Decimal::OutOfRange;
    out = negative ? value : -value;
    return Decimal::Yes;
}

qint64 readBigEndian(QByteArrayView v)
{
    quint64 u = (quint8(v.front()) & 0x80) ? ~quint64(0) : 0;
    for (const char c : v)
        u = (u << 8) | quint8(c);
    return qint64(u);
}

// "YYYY-MM-DDTHH:MM:SS[.mmm]Z" with plausible numbers: what decodeDlqHeaders parses without QDateTime.
bool isCanonicalIso(QByteArrayView v)
{
    if ((v.size() != 20 && v.size() != 24) || v.back() != 'Z')
        return false;
    static constexpr char kShape[] = "dddd-dd-ddTdd:dd:dd.dddZ";
    for (qsizetype i = 0; i + 1 < v.size(); ++i) {
        const char want = (v.size() == 20 && i == 19) ? 'Z' : kShape[i];
        if (want == 'd' ? !isDigit(v[i]) : v[i] != want)
            return false;
    }
    const auto num = [&](qsizetype p, qsizetype n) {
        int x = 0;
        for (qsizetype k = p; k < p + n; ++k)
            x = x * 10 + (v[k] - '0');
        return x;
    };
    const int y = num(0, 4), mo = num(5, 2), d = num(8, 2), h = num(11, 2), mi = num(14, 2), s = num(17, 2);
    return y >= 1 && mo >= 1 && mo <= 12 && d >= 1 && d <= 31 && h <= 23 && mi <= 59 && s <= 59;
}

bool isText(QByteArrayView v)
{
    // A leading BOM is dropped by decodeDlqHeaders' decoder: leave such values to it.
    return Utf8Check::isValid(v) && !Utf8Check::startsWithBom(v);
}

// The number the codec reads without a note, or false.
bool number(const Spec &s, QByteArrayView v, bool is32, qint64 &out)
{
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
    quint64 seen = 0;
    std::array<int, kFamilyCount> present{};
    int retryTopic = 0;
    std::array<qint16, kSpecCount> at;
    for (qsizetype i = 0; i < count; ++i) {
        const int s = specIndex(headers[i].name);
        if (s < 0)
            continue;
        if (seen & (quint64(1) << s))
            return false; // repeated: the codec notes which occurrence it used
        seen |= quint64(1) << s;
        at[s] = qint16(i);
        if (kSpecs[s].field == Field::KeyFailure)
            return false;
        ++present[int(kSpecs[s].family)];
        retryTopic += kSpecs[s].retryTopic;
    }
    if (count > std::numeric_limits<qint16>::max())
        return false;
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
        const Spec &spec = kSpecs[s];
        const DlqHeaderView &h = headers[at[s]];
        if (spec.field == Field::Ignored)
            continue;
        if (h.isNull)
            return false;
        if (spec.field == Field::Stack)
            continue;
        const QByteArrayView v = h.value;
        qint64 n = 0;
        switch (spec.field) {
        case Field::Topic:
            if (!isText(v))
                return false;
            out.originalTopic = v;
            break;
        case Field::Consumer:
            if (!isText(v))
                return false;
            out.consumer = v;
            break;
        case Field::Exception:
            if (!isText(v))
                return false;
            out.exceptionClass = v;
            break;
        case Field::Cause:
            if (!isText(v))
                return false;
            out.causeClass = v;
            break;
        case Field::Reason:
            if (!isText(v))
                return false;
            out.reason = v;
            break;
        case Field::IdempotencyKey:
            if (!isText(v))
                return false;
            out.idempotencyKey = v;
            break;
        case Field::Text:
            if (!isText(v))
                return false;
            break;
        case Field::Partition:
            if (!number(spec, v, true, n))
                return false;
            out.originalPartition = int(n);
            break;
        case Field::Attempts:
            if (!number(spec, v, true, n))
                return false;
            out.attempts = int(n);
            break;
        case Field::Offset:
            if (!number(spec, v, false, n))
                return false;
            out.originalOffset = n;
            break;
        case Field::Long:
            if (!number(spec, v, false, n))
                return false;
            break;
        case Field::Time:
            if (!isCanonicalIso(v) && !number(spec, v, false, n))
                return false; // other ISO forms go through QDateTime in the codec
            break;
        default:
            break;
        }
    }
    // Spring DLT records carry the DLT timestamp and the retry topic's; the codec decodes the latter
    // only when the former is absent, so it is checked above regardless: harmless when it is valid.
    return true;
}
