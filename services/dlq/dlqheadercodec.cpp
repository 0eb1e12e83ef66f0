#include "dlqheadercodec.h"

#include <QDateTime>
#include <QStringDecoder>
#include <QtEndian>
#include <QtNumeric>

#include <algorithm>
#include <array>
#include <limits>
#include <string_view>

using namespace Qt::StringLiterals;

namespace {

// A header family is its dialect; enum order breaks ties when two families have as many recognised
// headers. Unknown holds the business headers read whatever the dialect (it never decides the dialect).
using Family = DlqDialect;
constexpr Family kCommon = DlqDialect::Unknown;
constexpr int kFamilyCount = int(DlqDialect::BerthCanonical) + 1;

// Grouped by type, in the order of the member tables below: QString fields, int fields (from
// OriginalPartition), qint64 fields (from OriginalOffset), then None: recognised for detection only.
// clang-format off
enum class Field : quint8 {
    OriginalTopic, TimestampType, ConsumerGroup, ExceptionClass, CauseClass, Reason, StackTrace,
    SchemaVersion, CorrelationId, IdempotencyKey, ConnectorName, ConnectorTask, ConnectorStage,
    ConnectorClass, OriginalPartition, Attempts, OriginalOffset, OriginalTimestamp, FirstFailure,
    LastFailure, None
};
// clang-format on
constexpr int kFieldCount = int(Field::None) + 1;

// How the producer writes the value. Every numeric codec also accepts the other form (DESIGN.md:
// "fall back by length/charset"): decimal text is recognised by its charset, binary by its length.
enum class Codec : quint8 {
    Text,    // UTF-8 string
    BinInt,  // big-endian two's complement, 4 bytes for int fields, 8 for long fields
    BigInt,  // Java BigInteger.toByteArray(): 1..4 / 1..8 bytes (Spring retry_topic-*)
    DecInt,  // decimal text
    DecTime, // ISO-8601 text or epoch millis text
};

struct HeaderSpec {
    std::string_view name;
    Family family;
    Field field;
    Codec codec;
    bool keyFailure = false; // Spring's kafka_dlt-key-exception-*: the key, not the value, failed
    // Spring's retry_topic-*: also on DLT records of @RetryableTopic listeners, so they count towards
    // the retry dialect only when no kafka_dlt-* header is present.
    bool retryTopic = false;
};

// Within a family, earlier rows win when two headers feed the same field.
constexpr std::array kSpecs = {
    HeaderSpec{"kafka_dlt-original-topic", Family::SpringDlt, Field::OriginalTopic, Codec::Text},
    HeaderSpec{"kafka_dlt-original-partition", Family::SpringDlt, Field::OriginalPartition, Codec::BinInt},
    HeaderSpec{"kafka_dlt-original-offset", Family::SpringDlt, Field::OriginalOffset, Codec::BinInt},
    HeaderSpec{"kafka_dlt-original-timestamp", Family::SpringDlt, Field::OriginalTimestamp, Codec::BinInt},
    HeaderSpec{"kafka_dlt-original-timestamp-type", Family::SpringDlt, Field::TimestampType, Codec::Text},
    HeaderSpec{"kafka_dlt-original-consumer-group", Family::SpringDlt, Field::ConsumerGroup, Codec::Text},
    HeaderSpec{"kafka_dlt-exception-fqcn", Family::SpringDlt, Field::ExceptionClass, Codec::Text},
    HeaderSpec{"kafka_dlt-exception-cause-fqcn", Family::SpringDlt, Field::CauseClass, Codec::Text},
    HeaderSpec{"kafka_dlt-exception-message", Family::SpringDlt, Field::Reason, Codec::Text},
    HeaderSpec{"kafka_dlt-exception-stacktrace", Family::SpringDlt, Field::StackTrace, Codec::Text},
    HeaderSpec{"kafka_dlt-key-exception-fqcn", Family::SpringDlt, Field::ExceptionClass, Codec::Text, true},
    HeaderSpec{"kafka_dlt-key-exception-cause-fqcn", Family::SpringDlt, Field::CauseClass, Codec::Text, true},
    HeaderSpec{"kafka_dlt-key-exception-message", Family::SpringDlt, Field::Reason, Codec::Text, true},
    HeaderSpec{"kafka_dlt-key-exception-stacktrace", Family::SpringDlt, Field::StackTrace, Codec::Text, true},

    HeaderSpec{"kafka_original-topic", Family::SpringRetry, Field::OriginalTopic, Codec::Text},
    HeaderSpec{"kafka_original-partition", Family::SpringRetry, Field::OriginalPartition, Codec::BinInt},
    HeaderSpec{"kafka_original-offset", Family::SpringRetry, Field::OriginalOffset, Codec::BinInt},
    HeaderSpec{"kafka_original-timestamp", Family::SpringRetry, Field::OriginalTimestamp, Codec::BinInt},
    HeaderSpec{"kafka_original-timestamp-type", Family::SpringRetry, Field::TimestampType, Codec::Text},
    HeaderSpec{"kafka_exception-fqcn", Family::SpringRetry, Field::ExceptionClass, Codec::Text},
    HeaderSpec{"kafka_exception-cause-fqcn", Family::SpringRetry, Field::CauseClass, Codec::Text},
    HeaderSpec{"kafka_exception-message", Family::SpringRetry, Field::Reason, Codec::Text},
    HeaderSpec{"kafka_exception-stacktrace", Family::SpringRetry, Field::StackTrace, Codec::Text},
    HeaderSpec{"retry_topic-attempts", Family::SpringRetry, Field::Attempts, Codec::BigInt, false, true},
    HeaderSpec{"retry_topic-original-timestamp", Family::SpringRetry, Field::OriginalTimestamp, Codec::BigInt,
               false, true},
    HeaderSpec{"retry_topic-backoff-timestamp", Family::SpringRetry, Field::None, Codec::BigInt, false, true},

    HeaderSpec{"x-original-topic", Family::SpringCloudStream, Field::OriginalTopic, Codec::Text},
    HeaderSpec{"x-original-partition", Family::SpringCloudStream, Field::OriginalPartition, Codec::BinInt},
    HeaderSpec{"x-original-offset", Family::SpringCloudStream, Field::OriginalOffset, Codec::BinInt},
    HeaderSpec{"x-original-timestamp", Family::SpringCloudStream, Field::OriginalTimestamp, Codec::BinInt},
    HeaderSpec{"x-original-timestamp-type", Family::SpringCloudStream, Field::TimestampType, Codec::Text},
    HeaderSpec{"x-exception-fqcn", Family::SpringCloudStream, Field::ExceptionClass, Codec::Text},
    HeaderSpec{"x-exception-message", Family::SpringCloudStream, Field::Reason, Codec::Text},
    HeaderSpec{"x-exception-stacktrace", Family::SpringCloudStream, Field::StackTrace, Codec::Text},

    HeaderSpec{"__connect.errors.topic", Family::KafkaConnect, Field::OriginalTopic, Codec::Text},
    HeaderSpec{"__connect.errors.partition", Family::KafkaConnect, Field::OriginalPartition, Codec::DecInt},
    HeaderSpec{"__connect.errors.offset", Family::KafkaConnect, Field::OriginalOffset, Codec::DecInt},
    HeaderSpec{"__connect.errors.connector.name", Family::KafkaConnect, Field::ConnectorName, Codec::Text},
    HeaderSpec{"__connect.errors.task.id", Family::KafkaConnect, Field::ConnectorTask, Codec::Text},
    HeaderSpec{"__connect.errors.stage", Family::KafkaConnect, Field::ConnectorStage, Codec::Text},
    HeaderSpec{"__connect.errors.class.name", Family::KafkaConnect, Field::ConnectorClass, Codec::Text},
    HeaderSpec{"__connect.errors.exception.class.name", Family::KafkaConnect, Field::ExceptionClass,
               Codec::Text},
    HeaderSpec{"__connect.errors.exception.message", Family::KafkaConnect, Field::Reason, Codec::Text},
    HeaderSpec{"__connect.errors.exception.stacktrace", Family::KafkaConnect, Field::StackTrace, Codec::Text},

    HeaderSpec{"__streams.errors.topic", Family::KafkaStreams, Field::OriginalTopic, Codec::Text},
    HeaderSpec{"__streams.errors.partition", Family::KafkaStreams, Field::OriginalPartition, Codec::DecInt},
    HeaderSpec{"__streams.errors.offset", Family::KafkaStreams, Field::OriginalOffset, Codec::DecInt},
    HeaderSpec{"__streams.errors.exception", Family::KafkaStreams, Field::ExceptionClass, Codec::Text},
    HeaderSpec{"__streams.errors.message", Family::KafkaStreams, Field::Reason, Codec::Text},
    HeaderSpec{"__streams.errors.stacktrace", Family::KafkaStreams, Field::StackTrace, Codec::Text},

    HeaderSpec{"dlq-original-topic", Family::BerthCanonical, Field::OriginalTopic, Codec::Text},
    HeaderSpec{"dlq-original-partition", Family::BerthCanonical, Field::OriginalPartition, Codec::DecInt},
    HeaderSpec{"dlq-original-offset", Family::BerthCanonical, Field::OriginalOffset, Codec::DecInt},
    HeaderSpec{"dlq-consumer", Family::BerthCanonical, Field::ConsumerGroup, Codec::Text},
    HeaderSpec{"dlq-reason", Family::BerthCanonical, Field::Reason, Codec::Text},
    HeaderSpec{"dlq-exception-class", Family::BerthCanonical, Field::ExceptionClass, Codec::Text},
    HeaderSpec{"dlq-attempts", Family::BerthCanonical, Field::Attempts, Codec::DecInt},
    HeaderSpec{"dlq-first-failure-at", Family::BerthCanonical, Field::FirstFailure, Codec::DecTime},
    HeaderSpec{"dlq-last-failure-at", Family::BerthCanonical, Field::LastFailure, Codec::DecTime},
    HeaderSpec{"dlq-schema-version", Family::BerthCanonical, Field::SchemaVersion, Codec::Text},

    HeaderSpec{"correlation-id", kCommon, Field::CorrelationId, Codec::Text},
    HeaderSpec{"idempotency-key", kCommon, Field::IdempotencyKey, Codec::Text},
};
constexpr int kSpecCount = int(kSpecs.size());

// Name lookup: an open-addressing table built at compile time. The hash reads only the length and a
// few bytes (names share long prefixes, their ends and lengths tell them apart), so a lookup costs a
// handful of loads and usually one memcmp; names of any other length are rejected at once.
constexpr quint32 nameHash(std::string_view n)
{
    const auto at = [&](size_t i) { return quint32(quint8(n[i])); };
    const size_t z = n.size();
    return (quint32(z) * 0x9e3779b1u) ^ (at(z - 1) * 0x85ebca6bu) ^ (at(z - 2) * 0xc2b2ae35u)
           ^ (at(z / 2) * 0x27d4eb2fu) ^ (at(2) * 0x165667b1u);
}
constexpr auto kByLength = [](const HeaderSpec &a, const HeaderSpec &b) {
    return a.name.size() < b.name.size();
};
constexpr size_t kMinName = std::min_element(kSpecs.begin(), kSpecs.end(), kByLength)->name.size();
constexpr size_t kMaxName = std::max_element(kSpecs.begin(), kSpecs.end(), kByLength)->name.size();
static_assert(kSpecCount < 128, "slots hold spec indices as qint8");
constexpr quint32 kSlots = 256;
constexpr auto kSlotOf = [] {
    std::array<qint8, kSlots> slots{};
    slots.fill(-1);
    for (int i = 0; i < kSpecCount; ++i) {
        quint32 h = nameHash(kSpecs[i].name) % kSlots;
        while (slots[h] >= 0) {
            if (kSpecs[slots[h]].name == kSpecs[i].name)
                throw "duplicate header name in kSpecs";
            h = (h + 1) % kSlots;
        }
        slots[h] = qint8(i);
    }
    return slots;
}();

int specIndex(QByteArrayView name)
{
    const std::string_view key(name.data(), size_t(name.size()));
    if (key.size() < kMinName || key.size() > kMaxName)
        return -1;
    for (quint32 h = nameHash(key) % kSlots; kSlotOf[h] >= 0; h = (h + 1) % kSlots) {
        if (kSpecs[kSlotOf[h]].name == key)
            return kSlotOf[h];
    }
    return -1;
}

// Rows of one family are contiguous in kSpecs: decoding a family walks only its own rows.
constexpr auto kFamilyRows = [] {
    std::array<std::pair<int, int>, kFamilyCount> rows{}; // [first, last + 1)
    for (int i = kSpecCount - 1; i >= 0; --i) {
        auto &[begin, end] = rows[int(kSpecs[i].family)];
        begin = i;
        end = end ? end : i + 1;
    }
    for (int i = 1; i < kSpecCount; ++i) {
        if (kSpecs[i].family != kSpecs[i - 1].family && rows[int(kSpecs[i].family)].first != i)
            throw "rows of a family must be contiguous in kSpecs";
    }
    return rows;
}();

constexpr std::array kTextMembers = {&DlqMetadata::originalTopic,  &DlqMetadata::originalTimestampType,
                                     &DlqMetadata::consumerGroup,  &DlqMetadata::exceptionClass,
                                     &DlqMetadata::causeClass,     &DlqMetadata::reason,
                                     &DlqMetadata::stackTrace,     &DlqMetadata::schemaVersion,
                                     &DlqMetadata::correlationId,  &DlqMetadata::idempotencyKey,
                                     &DlqMetadata::connectorName,  &DlqMetadata::connectorTask,
                                     &DlqMetadata::connectorStage, &DlqMetadata::connectorClass};
constexpr std::array kIntMembers = {&DlqMetadata::originalPartition, &DlqMetadata::attempts};
constexpr std::array kLongMembers = {&DlqMetadata::originalOffset, &DlqMetadata::originalTimestampMs,
                                     &DlqMetadata::firstFailureMs, &DlqMetadata::lastFailureMs};
constexpr int kFirstInt = int(Field::OriginalPartition), kFirstLong = int(Field::OriginalOffset);
static_assert(kTextMembers.size() == kFirstInt && kFirstInt + kIntMembers.size() == kFirstLong
              && kFirstLong + kLongMembers.size() == int(Field::None));

constexpr bool isIntField(Field f)
{
    return int(f) >= kFirstInt && int(f) < kFirstLong;
}

template <typename M> auto &textOf(M &m, Field f)
{
    return m.*kTextMembers[int(f)];
}

qint64 numberOf(const DlqMetadata &m, Field f)
{
    return isIntField(f) ? m.*kIntMembers[int(f) - kFirstInt] : m.*kLongMembers[int(f) - kFirstLong];
}

void setNumber(DlqMetadata &m, Field f, qint64 v)
{
    if (isIntField(f))
        m.*kIntMembers[int(f) - kFirstInt] = int(v);
    else
        m.*kLongMembers[int(f) - kFirstLong] = v;
}

// Raw bytes for a note; long values are cut, the note already says how long they are.
QString rawHex(QByteArrayView v)
{
    constexpr qsizetype kMaxShown = 64;
    const QByteArray hex = QByteArray::fromRawData(v.data(), qMin(v.size(), kMaxShown)).toHex();
    return QString::fromLatin1(hex) + (v.size() > kMaxShown ? u"…"_s : QString());
}

constexpr auto isDigit = [](char c) { return c >= '0' && c <= '9'; };
QByteArrayView trimmed(QByteArrayView v)
{
    while (!v.isEmpty() && (v.front() == ' ' || v.front() == '\t'))
        v = v.sliced(1);
    while (!v.isEmpty() && (v.back() == ' ' || v.back() == '\t'))
        v.chop(1);
    return v;
}

// Decimal text: optional sign and at least one digit, nothing else (surrounding blanks allowed).
enum class Decimal { No, OutOfRange, Yes };
Decimal parseDecimal(QByteArrayView v, qint64 &out)
{
    v = trimmed(v);
    const bool negative = !v.isEmpty() && v.front() == '-';
    if (!v.isEmpty() && (negative || v.front() == '+'))
        v = v.sliced(1);
    if (v.isEmpty() || !std::all_of(v.begin(), v.end(), isDigit))
        return Decimal::No;
    qint64 value = 0; // accumulated negatively, so that INT64_MIN parses too
    for (const char c : v) {
        if (qMulOverflow(value, qint64(10), &value) || qSubOverflow(value, qint64(c - '0'), &value))
            return Decimal::OutOfRange;
    }
    if (!negative && value == std::numeric_limits<qint64>::min())
        return Decimal::OutOfRange;
    out = negative ? value : -value;
    return Decimal::Yes;
}

// Sign-extending big-endian read of 1..8 bytes.
qint64 readBigEndian(QByteArrayView v)
{
    quint64 u = (quint8(v.front()) & 0x80) ? ~quint64(0) : 0;
    for (const char c : v)
        u = (u << 8) | quint8(c);
    return qint64(u);
}

// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm): the canonical ISO form
// is parsed without QDateTime, which is far slower, and the scanner is hot.
constexpr qint64 daysFromCivil(qint64 y, unsigned m, unsigned d)
{
    y -= m <= 2;
    const qint64 era = (y >= 0 ? y : y - 399) / 400;
    const unsigned yoe = unsigned(y - era * 400);
    const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + qint64(doe) - 719468;
}

constexpr qint64 kMsPerDay = 86'400'000;
constexpr qint64 kIsoMinMs = daysFromCivil(1, 1, 1) * kMsPerDay; // outside 0001..9999 write millis
constexpr qint64 kIsoMaxMs = daysFromCivil(10000, 1, 1) * kMsPerDay - 1;

// "YYYY-MM-DDTHH:MM:SS[.mmm]Z", what encodeDlqHeaders writes (Qt::ISODateWithMs in UTC).
bool parseCanonicalIso(QByteArrayView v, qint64 &out)
{
    if ((v.size() != 20 && v.size() != 24) || v.back() != 'Z')
        return false;
    auto num = [&](qsizetype pos, qsizetype len, unsigned &n) {
        n = 0;
        for (qsizetype i = pos; i < pos + len; ++i) {
            if (!isDigit(v[i]))
                return false;
            n = n * 10 + unsigned(v[i] - '0');
        }
        return true;
    };
    unsigned y, mo, d, h, mi, s, ms = 0;
    if (!num(0, 4, y) || v[4] != '-' || !num(5, 2, mo) || v[7] != '-' || !num(8, 2, d) || v[10] != 'T'
        || !num(11, 2, h) || v[13] != ':' || !num(14, 2, mi) || v[16] != ':' || !num(17, 2, s))
        return false;
    if (v.size() == 24 && (v[19] != '.' || !num(20, 3, ms)))
        return false;
    if (y < 1 || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59)
        return false;
    out = daysFromCivil(y, mo, d) * kMsPerDay + ((h * 60 + mi) * 60 + s) * 1000 + ms;
    return true;
}

// Decodes one header into `m`. Returns true when the field got a value.
class FieldDecoder final {
public:
    explicit FieldDecoder(DlqMetadata &m)
        : m_m(m)
    {
    }

    bool apply(const HeaderSpec &s, const RecordHeader &h)
    {
        if (h.isNull) {
            note(s, u"null value"_s);
            return false;
        }
        if (s.codec == Codec::Text)
            return applyText(s, h.value);
        qint64 value = 0;
        if (!decodeNumber(s, h.value, value))
            return false;
        setNumber(m_m, s.field, value);
        return true;
    }

private:
    void note(const HeaderSpec &s, const QString &text)
    {
        m_m.notes.append(QLatin1StringView(s.name) + u": "_s + text);
    }

    bool applyText(const HeaderSpec &s, QByteArrayView v)
    {
        // Stateless: a truncated trailing sequence is an error now, not carried into the next header.
        QStringDecoder decoder(QStringConverter::Utf8,
                               QStringConverter::Flag::Stateless | QStringConverter::Flag::ConvertInitialBom);
        textOf(m_m, s.field) = decoder.decode(v);
        if (decoder.hasError())
            note(s, u"invalid UTF-8, shown with replacement characters; raw: "_s + rawHex(v));
        return true;
    }

    bool decodeNumber(const HeaderSpec &s, QByteArrayView v, qint64 &out)
    {
        const bool is32 = isIntField(s.field);
        const qsizetype width = is32 ? 4 : 8;
        const bool binaryExpected = s.codec == Codec::BinInt || s.codec == Codec::BigInt;
        if (v.isEmpty()) {
            note(s, u"empty value, not a number"_s);
            return false;
        }
        if (const Decimal d = parseDecimal(v, out); d != Decimal::No) {
            if (d == Decimal::OutOfRange || (is32 && out != qint32(out))) {
                note(s, u"decimal text out of range; shown raw: "_s + rawHex(v));
                return false;
            }
            if (binaryExpected)
                note(s, u"decimal text where a binary number is expected; read as text"_s);
            return true;
        }
        if (s.codec == Codec::DecTime && parseTime(s, v, out))
            return true;
        const bool binaryFits = s.codec == Codec::BigInt ? v.size() <= width : v.size() == width;
        if (binaryFits) {
            out = readBigEndian(v);
            if (!binaryExpected)
                note(s, QString::number(v.size())
                            + u"-byte binary where decimal text is expected; read as "
                              u"big-endian"_s);
            return true;
        }
        QString what;
        if (s.codec == Codec::BigInt)
            what =
                is32 ? u"not a big-endian int of 1 to 4 bytes"_s : u"not a big-endian long of 1 to 8 bytes"_s;
        else if (s.codec == Codec::BinInt)
            what = is32 ? u"not a 4-byte int"_s : u"not an 8-byte long"_s;
        else if (s.codec == Codec::DecTime)
            what = u"not ISO-8601, epoch millis or an 8-byte long"_s;
        else
            what = is32 ? u"not decimal text or a 4-byte int"_s : u"not decimal text or an 8-byte long"_s;
        note(s, QString::number(v.size()) + (v.size() == 1 ? u" byte, "_s : u" bytes, "_s) + what
                    + u"; shown raw: "_s + rawHex(v));
        return false;
    }

    bool parseTime(const HeaderSpec &s, QByteArrayView v, qint64 &out)
    {
        if (parseCanonicalIso(v, out))
            return true;
        QStringDecoder decoder(QStringConverter::Utf8, QStringConverter::Flag::Stateless);
        const QString text = decoder.decode(trimmed(v));
        if (decoder.hasError() || text.size() < 10)
            return false;
        QDateTime dt = QDateTime::fromString(text, Qt::ISODateWithMs);
        if (!dt.isValid())
            return false;
        if (dt.timeSpec() == Qt::LocalTime) {
            // A zone-less time must not depend on the desk's time zone.
            dt.setTimeSpec(Qt::UTC);
            note(s, u"ISO-8601 time without a zone, read as UTC"_s);
        }
        out = dt.toMSecsSinceEpoch();
        return true;
    }

    DlqMetadata &m_m;
};

// Java's BigInteger.valueOf(v).toByteArray(): minimal big-endian two's complement, as Spring writes
// retry_topic-original-timestamp.
QByteArray toJavaBigInteger(qint64 value)
{
    QByteArray full = toBigEndian64(value);
    qsizetype skip = 0;
    while (skip < 7) {
        const quint8 b = quint8(full[skip]), next = quint8(full[skip + 1]);
        if (!((b == 0x00 && !(next & 0x80)) || (b == 0xff && (next & 0x80))))
            break;
        ++skip;
    }
    return full.sliced(skip);
}

} // namespace

QString dialectName(DlqDialect dialect)
{
    static const std::array<QString, kFamilyCount> names = {
        u"Unknown"_s,       u"Spring Kafka DLT"_s, u"Spring Kafka retry topic"_s, u"Spring Cloud Stream"_s,
        u"Kafka Connect"_s, u"Kafka Streams"_s,    u"Berth canonical"_s};
    const int i = int(dialect);
    return i >= 0 && i < kFamilyCount ? names[i] : names[0];
}

DlqMetadata decodeDlqHeaders(const RecordHeaders &headers)
{
    // One pass to find the last occurrence of every recognised header; fixed-size, on the stack.
    std::array<int, kSpecCount> last;
    std::array<int, kSpecCount> occurrences{};
    std::array<quint8, kSpecCount> distinct;
    qsizetype found = 0;
    for (qsizetype i = 0; i < headers.size(); ++i) {
        const int s = specIndex(headers[i].name);
        if (s < 0)
            continue;
        if (occurrences[s]++ == 0)
            distinct[found++] = quint8(s);
        last[s] = int(i);
    }

    std::array<int, kFamilyCount> present{};
    int retryTopicHeaders = 0;
    for (qsizetype i = 0; i < found; ++i) {
        present[int(kSpecs[distinct[i]].family)] += 1;
        retryTopicHeaders += kSpecs[distinct[i]].retryTopic;
    }
    // What decides the dialect: retry_topic-* beside kafka_dlt-* is a @RetryableTopic DLT record.
    std::array<int, kFamilyCount> recognised = present;
    if (present[int(Family::SpringDlt)] > 0)
        recognised[int(Family::SpringRetry)] -= retryTopicHeaders;

    // Families in decoding order: most recognised headers first, ties in Family order; Common last.
    std::array<Family, kFamilyCount - 1> order{};
    for (int f = 1; f < kFamilyCount; ++f)
        order[f - 1] = Family(f);
    // Insertion sort: stable, and unlike std::stable_sort it never allocates a buffer.
    for (int i = 1; i < int(order.size()); ++i) {
        for (int j = i; j > 0 && recognised[int(order[j])] > recognised[int(order[j - 1])]; --j)
            std::swap(order[j], order[j - 1]);
    }

    DlqMetadata m;
    if (recognised[int(order.front())] > 0)
        m.dialect = order.front();

    for (int f = 1; f < kFamilyCount - 1 && recognised[int(order[f])] > 0; ++f) {
        m.notes.append(u"Also found "_s + QString::number(recognised[int(order[f])]) + u" "_s
                       + dialectName(order[f]) + u" header(s); used only where "_s + dialectName(m.dialect)
                       + u" set nothing"_s);
    }

    FieldDecoder decoder(m);
    std::array<bool, kFieldCount> assigned{};
    bool keyFailure = false;
    auto decodeFamily = [&](Family family) {
        for (int s = kFamilyRows[int(family)].first; s < kFamilyRows[int(family)].second; ++s) {
            const HeaderSpec &spec = kSpecs[s];
            if (occurrences[s] == 0 || spec.field == Field::None || assigned[int(spec.field)])
                continue;
            if (occurrences[s] > 1) {
                m.notes.append(QLatin1StringView(spec.name) + u": "_s + QString::number(occurrences[s])
                               + u" occurrences, the last one is used"_s);
            }
            if (decoder.apply(spec, headers[last[s]])) {
                assigned[int(spec.field)] = true;
                keyFailure |= spec.keyFailure;
            }
        }
    };
    for (const Family f : order) {
        if (present[int(f)] > 0)
            decodeFamily(f);
    }
    decodeFamily(kCommon);
    if (keyFailure)
        m.notes.append(u"The record key, not the value, failed (kafka_dlt-key-exception-* headers)"_s);
    return m;
}

QByteArray toBigEndian32(qint32 value)
{
    QByteArray out(4, Qt::Uninitialized);
    qToBigEndian(value, out.data());
    return out;
}

QByteArray toBigEndian64(qint64 value)
{
    QByteArray out(8, Qt::Uninitialized);
    qToBigEndian(value, out.data());
    return out;
}

RecordHeaders encodeDlqHeaders(DlqDialect dialect, const DlqMetadata &m)
{
    // Table-driven: the family's rows, in table order (the order real producers write them).
    RecordHeaders out;
    out.reserve(14);
    for (const HeaderSpec &s : kSpecs) {
        const bool retryTopicOnDlt = dialect == DlqDialect::SpringDlt && s.retryTopic;
        if ((s.family != dialect && !retryTopicOnDlt) || s.family == kCommon || s.keyFailure
            || s.field == Field::None)
            continue;
        QByteArray value;
        if (s.codec == Codec::Text) {
            const QString &text = textOf(m, s.field);
            if (text.isEmpty())
                continue;
            value = text.toUtf8();
        } else {
            const qint64 number = numberOf(m, s.field);
            if (number == -1)
                continue;
            switch (s.codec) {
            case Codec::BinInt:
                value = isIntField(s.field) ? toBigEndian32(qint32(number)) : toBigEndian64(number);
                break;
            case Codec::BigInt:
                // Current Spring writes attempts as a 4-byte int, timestamps as BigInteger bytes.
                value = isIntField(s.field) ? toBigEndian32(qint32(number)) : toJavaBigInteger(number);
                break;
            case Codec::DecTime:
                value = number >= kIsoMinMs && number <= kIsoMaxMs
                            ? QDateTime::fromMSecsSinceEpoch(number, Qt::UTC)
                                  .toString(Qt::ISODateWithMs)
                                  .toLatin1()
                            : QByteArray::number(number);
                break;
            default:
                value = QByteArray::number(number);
                break;
            }
        }
        out.append(
            RecordHeader{QByteArray(s.name.data(), qsizetype(s.name.size())), std::move(value), false});
    }
    return out;
}

bool isDiagnosticDlqHeader(QByteArrayView name)
{
    // Prefixes, not the table: producers add diagnostics over time (Spring did several times).
    static constexpr std::string_view kPrefixes[] = {
        "kafka_dlt-",   "kafka_original-",   "kafka_exception-",  "retry_topic-", "x-original-",
        "x-exception-", "__connect.errors.", "__streams.errors.", "dlq-",
    };
    const std::string_view n(name.data(), size_t(name.size()));
    return std::any_of(std::begin(kPrefixes), std::end(kPrefixes),
                       [&](std::string_view p) { return n.starts_with(p); });
}
