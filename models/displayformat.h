#pragma once

#include "services/monitor/lagclearing.h"
#include "services/monitor/lagstatus.h"

#include <QColor>
#include <QString>

// How numbers and states read everywhere in the console, in one place.
namespace DisplayFormat {
QString duration(qint64 ms);          // "850 ms", "42 s", "3 min 05 s", "2 h 10 min"; "—" when negative
QString count(qint64 value);          // locale grouping
QColor statusColor(LagStatus status); // readable on light and dark palettes
// A "Time to clear" cell: the duration while the lag drains, else what the samples show (LagClearing).
QString timeToClear(LagClearing clearing, qint64 timeToClearS);
// "org.acme.OrderNotFoundException" -> "OrderNotFoundException": what an operator reads in a narrow
// column (the full name goes in the tooltip). Text that is not a dotted class name comes back unchanged.
QString shortClassName(const QString &className);
}
