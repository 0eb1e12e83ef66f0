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
