#include "dlqheadercodec.h"

#include "dlqdialects.h"
#include "dlqheadernumbers.h"

#include <QDateTime>
#include <QStringDecoder>
#include <QtEndian>

#include <algorithm>
#include <array>
#include <string_view>

using namespace Qt::StringLiterals;

namespace {

using namespace DlqDialects;
using namespace DlqHeaderNumbers;

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
static_assert(kTextMembers.size() == kFirstIntField && kFirstIntField + kIntMembers.size() == kFirstLongField
              && kFirstLongField + kLongMembers.size() == int(Field::None));

template <typename M> auto &textOf(M &m, Field f)
{
    return m.*kTextMembers[int(f)];
}

qint64 numberOf(const DlqMetadata &m, Field f)
{
    return isIntField(f) ? m.*kIntMembers[int(f) - kFirstIntField]
                         : m.*kLongMembers[int(f) - kFirstLongField];
}

void setNumber(DlqMetadata &m, Field f, qint64 v)
{
    if (isIntField(f))
        m.*kIntMembers[int(f) - kFirstIntField] = int(v);
    else
        m.*kLongMembers[int(f) - kFirstLongField] = v;
}

// Raw bytes for a note; long values are cut, the note already says how long they are.
QString rawHex(QByteArrayView v)
{
    constexpr qsizetype kMaxShown = 64;
    const QByteArray hex = QByteArray::fromRawData(v.data(), qMin(v.size(), kMaxShown)).toHex();
    return QString::fromLatin1(hex) + (v.size() > kMaxShown ? u"…"_s : QString());
}

constexpr qint64 kIsoMinMs = daysFromCivil(1, 1, 1) * kMsPerDay; // outside 0001..9999 write millis
constexpr qint64 kIsoMaxMs = daysFromCivil(10000, 1, 1) * kMsPerDay - 1;

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

    bool number(const HeaderSpec &s, QByteArrayView v, qint64 &out) { return decodeNumber(s, v, out); }

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

namespace {
// The full decode, or (`only` a Field) only that field's, with the same choice of header and no notes.
DlqMetadata decode(const RecordHeaders &headers, int only)
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

    for (int f = 1; only < 0 && f < kFamilyCount - 1 && recognised[int(order[f])] > 0; ++f) {
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
            if (occurrences[s] == 0 || spec.field == Field::None || assigned[int(spec.field)]
                || (only >= 0 && int(spec.field) != only))
                continue;
            if (occurrences[s] > 1 && only < 0) {
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
    if (keyFailure && only < 0)
        m.notes.append(u"The record key, not the value, failed (kafka_dlt-key-exception-* headers)"_s);
    return m;
}
} // namespace

DlqMetadata decodeDlqHeaders(const RecordHeaders &headers)
{
    return decode(headers, -1);
}

QString dlqOriginalTopic(const RecordHeaders &headers)
{
    return decode(headers, int(Field::OriginalTopic)).originalTopic;
}

DlqHeaderNumber decodeDlqHeaderNumber(const RecordHeader &header)
{
    const int s = specIndex(header.name);
    if (s < 0 || header.isNull || kSpecs[s].codec == Codec::Text)
        return {};
    const HeaderSpec &spec = kSpecs[s];
    DlqMetadata scratch; // notes are the full decode's business
    FieldDecoder decoder(scratch);
    // Field::None rows (retry_topic-backoff-timestamp) hold a time; only the named time fields else.
    const bool isTime = spec.field == Field::OriginalTimestamp || spec.field == Field::FirstFailure
                        || spec.field == Field::LastFailure || spec.field == Field::None;
    DlqHeaderNumber out;
    out.isTime = isTime;
    out.ok = decoder.number(spec, header.value, out.value);
    return out;
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
    const std::string_view n(name.data(), size_t(name.size()));
    return std::any_of(kDiagnosticPrefixes.begin(), kDiagnosticPrefixes.end(),
                       [&](std::string_view p) { return n.starts_with(p); });
}
