#pragma once

#include <QByteArrayView>
#include <QtNumeric>

#include <limits>

// The number forms of DLQ header values, parsed without allocating: the codec (dlqheadercodec.cpp) and
// the scan's fast path (dlqfastdecode.cpp) read numbers with these, so both accept the same bytes.
namespace DlqHeaderNumbers {

constexpr bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

// Without surrounding blanks (spaces and tabs).
constexpr QByteArrayView trimmed(QByteArrayView v)
{
    while (!v.isEmpty() && (v.front() == ' ' || v.front() == '\t'))
        v = v.sliced(1);
    while (!v.isEmpty() && (v.back() == ' ' || v.back() == '\t'))
        v.chop(1);
    return v;
}

// Decimal text: optional sign and at least one digit, nothing else (surrounding blanks allowed).
enum class Decimal { No, OutOfRange, Yes };
inline Decimal parseDecimal(QByteArrayView v, qint64 &out)
{
    v = trimmed(v);
    const bool negative = !v.isEmpty() && v.front() == '-';
    if (!v.isEmpty() && (negative || v.front() == '+'))
        v = v.sliced(1);
    if (v.isEmpty())
        return Decimal::No;
    for (const char c : v) {
        if (!isDigit(c))
            return Decimal::No;
    }
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
constexpr qint64 readBigEndian(QByteArrayView v)
{
    quint64 u = (quint8(v.front()) & 0x80) ? ~quint64(0) : 0;
    for (const char c : v)
        u = (u << 8) | quint8(c);
    return qint64(u);
}

// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm): the canonical ISO form
// is parsed without QDateTime, which is far slower, and the scan is hot.
constexpr qint64 daysFromCivil(qint64 y, unsigned m, unsigned d)
{
    y -= m <= 2;
    const qint64 era = (y >= 0 ? y : y - 399) / 400;
    const unsigned yoe = unsigned(y - era * 400);
    const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + qint64(doe) - 719468;
}

inline constexpr qint64 kMsPerDay = 86'400'000;

// "YYYY-MM-DDTHH:MM:SS[.mmm]Z", what encodeDlqHeaders writes (Qt::ISODateWithMs in UTC), as epoch
// millis. Other ISO-8601 forms are left to QDateTime (false here).
constexpr bool parseCanonicalIso(QByteArrayView v, qint64 &out)
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
    unsigned y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0, ms = 0;
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

} // namespace DlqHeaderNumbers
