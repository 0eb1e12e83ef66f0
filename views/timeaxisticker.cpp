#include "views/timeaxisticker.h"

#include <QDateTime>

#include <array>
#include <cmath>

using namespace Qt::StringLiterals;

namespace {
constexpr double kMinute = 60;
constexpr double kHour = 3600;
constexpr double kDay = 86400;
// The steps a clock reads well in, shortest first.
constexpr std::array<double, 19> kSteps{1,          2,          5,         10,        15,        30,
                                        kMinute,    2 * kMinute, 5 * kMinute, 10 * kMinute, 15 * kMinute, 30 * kMinute,
                                        kHour,      2 * kHour,  3 * kHour, 6 * kHour, 12 * kHour, kDay,
                                        7 * kDay};

// Seconds the local clock is ahead of UTC at `seconds` since the epoch.
double localOffset(double seconds)
{
    return QDateTime::fromSecsSinceEpoch(qint64(seconds), Qt::LocalTime).offsetFromUtc();
}
} // namespace

TimeAxisTicker::TimeAxisTicker()
{
    setTickCount(6);
}

QString TimeAxisTicker::formatFor(double stepSeconds, double spanSeconds)
{
    if (stepSeconds >= kDay)
        return u"yyyy-MM-dd"_s;
    if (spanSeconds > kDay)
        return u"MM-dd HH:mm"_s;
    if (stepSeconds >= kMinute && std::fmod(stepSeconds, kMinute) == 0)
        return u"HH:mm"_s;
    return u"HH:mm:ss"_s;
}

double TimeAxisTicker::stepFor(double spanSeconds, int tickCount)
{
    const double target = spanSeconds / std::max(1, tickCount);
    for (const double s : kSteps) {
        if (s >= target)
            return s;
    }
    return kSteps.back() * std::ceil(target / kSteps.back());
}

double TimeAxisTicker::getTickStep(const QCPRange &range)
{
    const double step = stepFor(range.size(), tickCount());
    m_format = formatFor(step, range.size());
    return step;
}

int TimeAxisTicker::getSubTickCount(double tickStep)
{
    if (tickStep == 15 || tickStep == 15 * kMinute || tickStep == 3 * kHour)
        return 2;
    if (tickStep == 5 || tickStep == 5 * kMinute || tickStep == 6 * kHour || tickStep == 12 * kHour)
        return 4;
    return 1;
}

QString TimeAxisTicker::getTickLabel(double tick, const QLocale &locale, QChar formatChar, int precision)
{
    Q_UNUSED(locale)
    Q_UNUSED(formatChar)
    Q_UNUSED(precision)
    return QDateTime::fromMSecsSinceEpoch(qint64(std::llround(tick * 1000)), Qt::LocalTime).toString(m_format);
}

QVector<double> TimeAxisTicker::createTickVector(double tickStep, const QCPRange &range)
{
    // Multiples of the step on the local clock (an hour step on the hour, a day step at midnight), from
    // the first at or below the range's start.
    const double offset = localOffset(range.lower);
    QVector<double> ticks;
    double tick = std::floor((range.lower + offset) / tickStep) * tickStep - offset;
    while (tick <= range.upper + tickStep && ticks.size() < 1000) {
        ticks.append(tick);
        tick += tickStep;
    }
    return ticks;
}
