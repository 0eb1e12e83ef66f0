#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

// Readable forms of the logical types of schema payloads (ARCHITECTURE.md, Contracts: payload display
// JSON), for any input value: dates and times in ISO 8601 (proleptic Gregorian, years beyond 9999 and
// before 1 written out), decimals exactly from their two's-complement bytes.
namespace PayloadTime {
// Days since 1970-01-01 → "2024-02-29".
QByteArray dateText(qint64 days);
// Units since midnight (perSecond 1000 or 1000000) → "13:45:00.123"; out of range → the number.
QByteArray timeOfDayText(qint64 units, qint64 perSecond);
// Units since the epoch → "2024-02-29T13:45:00.123Z" (utc) or without the Z (a local timestamp).
QByteArray timestampText(qint64 units, qint64 perSecond, bool utc);
// A big-endian two's-complement unscaled integer and a scale → "-1234.50".
QByteArray decimalText(QByteArrayView unscaled, int scale);

// The inverses, for re-encoding an edited payload: each accepts exactly what the writers above produce
// (a fraction may have fewer digits) and returns false for anything else.
// "2024-02-29" → days since 1970-01-01.
bool parseDate(QByteArrayView text, qint64 *days);
// "13:45:00.123" → units since midnight.
bool parseTimeOfDay(QByteArrayView text, qint64 perSecond, qint64 *units);
// "2024-02-29T13:45:00.123Z" (utc: the Z required; else none) → units since the epoch.
bool parseTimestamp(QByteArrayView text, qint64 perSecond, bool utc, qint64 *units);
// "-1234.50" at scale 2 → the shortest big-endian two's-complement unscaled integer; false (with why) when
// the text is no decimal number, has more fraction digits than the scale, or is longer than any decimal
// a schema declares.
bool decimalBytes(QByteArrayView text, int scale, QByteArray *unscaled, QString *why);
} // namespace PayloadTime
