#pragma once

#include <QByteArray>
#include <QByteArrayView>

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
} // namespace PayloadTime
