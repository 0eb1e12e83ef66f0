#pragma once

// The one line a benchmark reports a figure with: `FIGURE <name> <value> <unit>` (tests/bench/run.sh).

#include <QString>
#include <QTextStream>

inline void figure(const char *name, double value, const char *unit)
{
    QTextStream(stdout) << "FIGURE " << name << ' ' << QString::number(value, 'f', 3) << ' ' << unit << Qt::endl;
}
