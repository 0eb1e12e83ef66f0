#include "displayformat.h"

#include <QCoreApplication>
#include <QLocale>

namespace {
class DisplayFormatText {
    Q_DECLARE_TR_FUNCTIONS(DisplayFormat)
};
}

namespace DisplayFormat {
QString duration(qint64 ms)
{
    if (ms < 0)
        return QStringLiteral("—");
    if (ms < 1000)
        return DisplayFormatText::tr("%1 ms").arg(ms);
    const qint64 s = ms / 1000;
    if (s < 60)
        return DisplayFormatText::tr("%1 s").arg(s);
    if (s < 3600)
        return DisplayFormatText::tr("%1 min %2 s").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
    if (s < 86400)
        return DisplayFormatText::tr("%1 h %2 min").arg(s / 3600).arg((s % 3600) / 60, 2, 10, QLatin1Char('0'));
    return DisplayFormatText::tr("%1 d %2 h").arg(s / 86400).arg((s % 86400) / 3600);
}

QString timeToClear(LagClearing clearing, qint64 timeToClearS)
{
    switch (clearing) {
    case LagClearing::CaughtUp:
        return DisplayFormatText::tr("caught up");
    case LagClearing::WithinAllowed:
    case LagClearing::Steady:
        return DisplayFormatText::tr("keeping up");
    case LagClearing::Draining:
        return duration(timeToClearS * 1000);
    case LagClearing::Unmeasured:
        return DisplayFormatText::tr("not measured yet");
    case LagClearing::NotShrinking:
        return DisplayFormatText::tr("not clearing");
    case LagClearing::NoProgress:
        return DisplayFormatText::tr("no progress");
    }
    return {};
}

QString count(qint64 value)
{
    return QLocale().toString(value);
}

QColor statusColor(LagStatus status)
{
    switch (status) {
    case LagStatus::Ok: return QColor(0x2e, 0x7d, 0x32);
    case LagStatus::Warn: return QColor(0xd4, 0x8a, 0x00);
    case LagStatus::Rewind: return QColor(0x7b, 0x1f, 0xa2);
    case LagStatus::Stall: return QColor(0xe6, 0x51, 0x00);
    case LagStatus::Stop: return QColor(0xc6, 0x28, 0x28);
    }
    return {};
}

QString shortClassName(const QString &className)
{
    if (className.contains(u' '))
        return className; // a sentence, not a class name
    const qsizetype dot = className.lastIndexOf(u'.');
    return dot < 0 || dot + 1 == className.size() ? className : className.mid(dot + 1);
}
}
