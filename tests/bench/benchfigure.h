#pragma once

// What every benchmark shares: the one line it reports a figure with, `FIGURE <name> <value> <unit>`
// (tests/bench/run.sh), and its record-count options.

#include <QString>
#include <QStringList>
#include <QTextStream>

inline void figure(const char *name, double value, const char *unit)
{
    QTextStream(stdout) << "FIGURE " << name << ' ' << QString::number(value, 'f', 3) << ' ' << unit << Qt::endl;
}

// How many records a benchmark makes: `full`, or `quick` with --quick, or N with --records N.
inline qint64 recordCount(const QStringList &args, qint64 quick, qint64 full)
{
    qint64 records = args.contains(QStringLiteral("--quick")) ? quick : full;
    if (const qsizetype i = args.indexOf(QStringLiteral("--records")); i >= 0 && i + 1 < args.size())
        records = args.at(i + 1).toLongLong();
    return records;
}
