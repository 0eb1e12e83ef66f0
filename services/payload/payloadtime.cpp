#include "payloadtime.h"

#include <charconv>
#include <vector>

namespace {
QByteArray bigMagnitude(QByteArrayView unscaled, bool *negative);

// Howard Hinnant's days-from-civil inverse: exact for every 64-bit day count that fits the arithmetic.
void civilFromDays(qint64 z, qint64 *y, unsigned *m, unsigned *d)
{
    z += 719468;
    const qint64 era = (z >= 0 ? z : z - 146096) / 146097;
    const qint64 doe = z - era * 146097;
    const qint64 yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const qint64 doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const qint64 mp = (5 * doy + 2) / 153;
    *d = unsigned(doy - (153 * mp + 2) / 5 + 1);
    *m = unsigned(mp < 10 ? mp + 3 : mp - 9);
    *y = yoe + era * 400 + (*m <= 2);
}

void pad(QByteArray &out, qint64 v, int width)
{
    const QByteArray digits = QByteArray::number(v);
    if (digits.size() < width)
        out.append(width - digits.size(), '0');
    out += digits;
}

qint64 floorDiv(qint64 a, qint64 b)
{
    const qint64 q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
} // namespace

namespace PayloadTime {
QByteArray dateText(qint64 days)
{
    // Beyond ±2^40 days the year no longer means anything: say the number.
    if (days > (qint64(1) << 40) || days < -(qint64(1) << 40))
        return QByteArray::number(days);
    qint64 y;
    unsigned m, d;
    civilFromDays(days, &y, &m, &d);
    QByteArray out;
    if (y < 0) {
        out += '-';
        y = -y;
    }
    pad(out, y, 4);
    out += '-';
    pad(out, m, 2);
    out += '-';
    pad(out, d, 2);
    return out;
}

QByteArray timeOfDayText(qint64 units, qint64 perSecond)
{
    if (units < 0 || units >= 86400 * perSecond)
        return QByteArray::number(units);
    const qint64 seconds = units / perSecond;
    QByteArray out;
    pad(out, seconds / 3600, 2);
    out += ':';
    pad(out, seconds / 60 % 60, 2);
    out += ':';
    pad(out, seconds % 60, 2);
    out += '.';
    pad(out, units % perSecond, perSecond == 1000 ? 3 : 6);
    return out;
}

QByteArray timestampText(qint64 units, qint64 perSecond, bool utc)
{
    const qint64 seconds = floorDiv(units, perSecond);
    qint64 fraction = units % perSecond; // not units - seconds * perSecond: that overflows near the limits
    if (fraction < 0)
        fraction += perSecond;
    const qint64 days = floorDiv(seconds, 86400);
    QByteArray out = dateText(days);
    out += 'T';
    out += timeOfDayText((seconds - days * 86400) * perSecond + fraction, perSecond);
    if (utc)
        out += 'Z';
    return out;
}

QByteArray decimalText(QByteArrayView unscaled, int scale)
{
    if (unscaled.isEmpty())
        return "0";
    // Longer than any decimal a schema declares (precision is a few dozen digits): not converted.
    if (unscaled.size() > 512)
        return "(decimal of " + QByteArray::number(unscaled.size()) + " bytes, too long to show)";
    QByteArray digits;
    bool negative = false;
    if (unscaled.size() <= 8) {
        // Fits 64 bits: sign-extend and print the magnitude (as unsigned: the minimum has no positive).
        qint64 v = qint8(unscaled[0]);
        for (qsizetype i = 1; i < unscaled.size(); ++i)
            v = qint64(quint64(v) << 8) | quint8(unscaled[i]);
        negative = v < 0;
        const quint64 magnitude = negative ? quint64(0) - quint64(v) : quint64(v);
        char buffer[24];
        const auto end = std::to_chars(buffer, buffer + sizeof buffer, magnitude).ptr;
        digits = QByteArray(buffer, end - buffer);
    } else {
        digits = bigMagnitude(unscaled, &negative);
    }
    if (scale > 0) {
        if (digits.size() <= scale)
            digits.prepend(QByteArray(scale - digits.size() + 1, '0'));
        digits.insert(digits.size() - scale, '.');
    }
    if (negative)
        digits.prepend('-');
    return digits;
}
} // namespace PayloadTime

namespace {
QByteArray bigMagnitude(QByteArrayView unscaled, bool *negativeOut)
{
    // Magnitude of the two's-complement number, big-endian bytes.
    std::vector<unsigned char> mag(unscaled.begin(), unscaled.end());
    const bool negative = (mag[0] & 0x80) != 0;
    if (negative) {
        for (unsigned char &b : mag)
            b = ~b;
        for (auto it = mag.rbegin(); it != mag.rend(); ++it) {
            if (++*it != 0)
                break;
        }
    }
    // Repeated division by 10: quadratic, and decimals are short.
    QByteArray digits;
    size_t start = 0;
    while (start < mag.size() && mag[start] == 0)
        ++start;
    while (start < mag.size()) {
        unsigned rem = 0;
        for (size_t i = start; i < mag.size(); ++i) {
            const unsigned cur = (rem << 8) | mag[i];
            mag[i] = (unsigned char)(cur / 10);
            rem = cur % 10;
        }
        digits.prepend(char('0' + rem));
        while (start < mag.size() && mag[start] == 0)
            ++start;
    }
    if (digits.isEmpty())
        digits = "0";
    *negativeOut = negative;
    return digits;
}
} // namespace

namespace {
qint64 daysFromCivil(qint64 y, unsigned m, unsigned d)
{
    y -= m <= 2;
    const qint64 era = (y >= 0 ? y : y - 399) / 400;
    const qint64 yoe = y - era * 400;
    const qint64 doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
    const qint64 doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

// Reads exactly `width` digits (or at least `width` when atLeast) at *p.
bool digitsAt(QByteArrayView text, qsizetype *p, int width, bool atLeast, qint64 *v)
{
    qsizetype i = *p;
    qint64 out = 0;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9' && (atLeast || i - *p < width)) {
        if (i - *p >= 12)
            return false; // no year or field of a date needs more
        out = out * 10 + (text[i] - '0');
        ++i;
    }
    if (i - *p < width)
        return false;
    *v = out;
    *p = i;
    return true;
}

bool dateAt(QByteArrayView text, qsizetype *p, qint64 *days)
{
    bool negative = false;
    if (*p < text.size() && text[*p] == '-') {
        negative = true;
        ++*p;
    }
    qint64 y = 0, m = 0, d = 0;
    if (!digitsAt(text, p, 4, true, &y) || *p >= text.size() || text[*p] != '-')
        return false;
    ++*p;
    if (!digitsAt(text, p, 2, false, &m) || *p >= text.size() || text[*p] != '-')
        return false;
    ++*p;
    if (!digitsAt(text, p, 2, false, &d))
        return false;
    if (negative)
        y = -y;
    static constexpr int kDays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (m < 1 || m > 12 || d < 1 || d > kDays[m - 1])
        return false;
    const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    if (m == 2 && d == 29 && !leap)
        return false;
    *days = daysFromCivil(y, unsigned(m), unsigned(d));
    return true;
}

bool timeAt(QByteArrayView text, qsizetype *p, qint64 perSecond, qint64 *units)
{
    qint64 h = 0, mi = 0, s = 0;
    if (!digitsAt(text, p, 2, false, &h) || *p >= text.size() || text[*p] != ':')
        return false;
    ++*p;
    if (!digitsAt(text, p, 2, false, &mi) || *p >= text.size() || text[*p] != ':')
        return false;
    ++*p;
    if (!digitsAt(text, p, 2, false, &s) || h > 23 || mi > 59 || s > 59)
        return false;
    qint64 fraction = 0;
    if (*p < text.size() && text[*p] == '.') {
        ++*p;
        const int places = perSecond == 1000 ? 3 : 6;
        qint64 scale = perSecond;
        int n = 0;
        while (*p < text.size() && text[*p] >= '0' && text[*p] <= '9') {
            if (++n > places)
                return false; // finer than the type holds
            scale /= 10;
            fraction += (text[*p] - '0') * scale;
            ++*p;
        }
        if (n == 0)
            return false;
    }
    *units = ((h * 60 + mi) * 60 + s) * perSecond + fraction;
    return true;
}
} // namespace

namespace PayloadTime {
bool parseDate(QByteArrayView text, qint64 *days)
{
    qsizetype p = 0;
    return dateAt(text, &p, days) && p == text.size();
}

bool parseTimeOfDay(QByteArrayView text, qint64 perSecond, qint64 *units)
{
    qsizetype p = 0;
    return timeAt(text, &p, perSecond, units) && p == text.size();
}

bool parseTimestamp(QByteArrayView text, qint64 perSecond, bool utc, qint64 *units)
{
    qsizetype p = 0;
    qint64 days = 0, ofDay = 0;
    if (!dateAt(text, &p, &days) || p >= text.size() || text[p] != 'T')
        return false;
    ++p;
    if (!timeAt(text, &p, perSecond, &ofDay))
        return false;
    if (utc) {
        if (p >= text.size() || text[p] != 'Z')
            return false;
        ++p;
    }
    if (p != text.size())
        return false;
    // Overflow-checked: days * 86400 * perSecond + ofDay.
    qint64 out = 0;
    if (__builtin_mul_overflow(days, qint64(86400) * perSecond, &out) || __builtin_add_overflow(out, ofDay, &out))
        return false;
    *units = out;
    return true;
}

bool decimalBytes(QByteArrayView text, int scale, QByteArray *unscaled, QString *why)
{
    using namespace Qt::StringLiterals;
    qsizetype p = 0;
    bool negative = false;
    if (p < text.size() && (text[p] == '-' || text[p] == '+'))
        negative = text[p++] == '-';
    QByteArray digits;
    int fractionDigits = 0;
    bool point = false;
    for (; p < text.size(); ++p) {
        const char c = text[p];
        if (c == '.' && !point) {
            point = true;
        } else if (c >= '0' && c <= '9') {
            digits += c;
            if (point)
                ++fractionDigits;
        } else {
            *why = u"not a decimal number"_s;
            return false;
        }
    }
    if (digits.isEmpty()) {
        *why = u"not a decimal number"_s;
        return false;
    }
    // Trailing zeros beyond the scale change nothing; other digits there would be lost.
    while (fractionDigits > scale && digits.endsWith('0')) {
        digits.chop(1);
        --fractionDigits;
    }
    if (fractionDigits > scale) {
        *why = u"more than %1 digits after the point"_s.arg(scale);
        return false;
    }
    digits.append(scale - fractionDigits, '0');
    if (digits.size() > 1200) {
        *why = u"longer than any decimal a schema declares"_s;
        return false;
    }
    // Decimal digits → big-endian magnitude, by repeated multiply-and-add (decimals are short).
    std::vector<unsigned char> mag{0};
    for (const char c : digits) {
        unsigned carry = unsigned(c - '0');
        for (auto it = mag.rbegin(); it != mag.rend(); ++it) {
            const unsigned cur = unsigned(*it) * 10 + carry;
            *it = (unsigned char)(cur & 0xff);
            carry = cur >> 8;
        }
        while (carry) {
            mag.insert(mag.begin(), (unsigned char)(carry & 0xff));
            carry >>= 8;
        }
    }
    while (mag.size() > 1 && mag[0] == 0)
        mag.erase(mag.begin());
    const bool zero = mag.size() == 1 && mag[0] == 0;
    if (negative && !zero) {
        // Two's complement: invert and add one.
        for (unsigned char &b : mag)
            b = ~b;
        for (auto it = mag.rbegin(); it != mag.rend(); ++it) {
            if (++*it != 0)
                break;
        }
        if (!(mag[0] & 0x80))
            mag.insert(mag.begin(), 0xff);
        // Shortest form: drop a leading 0xff the next byte's sign bit repeats.
        while (mag.size() > 1 && mag[0] == 0xff && (mag[1] & 0x80))
            mag.erase(mag.begin());
    } else if (mag[0] & 0x80) {
        mag.insert(mag.begin(), 0);
    }
    *unscaled = QByteArray(reinterpret_cast<const char *>(mag.data()), qsizetype(mag.size()));
    return true;
}
} // namespace PayloadTime
