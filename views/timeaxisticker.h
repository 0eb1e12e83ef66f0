#pragma once

#include "views/qcustomplotinclude.h"

#include <QString>

// A time axis whose step and label format follow the visible span (ARCHITECTURE.md, Views): steps of
// whole seconds, minutes, hours or days, and labels that show the unit the step moves by (seconds when the
// span is minutes long, the date when it is days long), so no two adjacent labels read the same. Ticks
// fall on local clock boundaries. Values are seconds since the epoch.
class TimeAxisTicker final : public QCPAxisTicker {
public:
    TimeAxisTicker();

    // The label format for a step (in seconds) over a span (in seconds): HH:mm:ss, HH:mm, MM-dd HH:mm or
    // yyyy-MM-dd.
    static QString formatFor(double stepSeconds, double spanSeconds);
    // The shortest readable step giving at most tickCount ticks over the span (seconds); beyond a week,
    // whole weeks.
    static double stepFor(double spanSeconds, int tickCount);
    // The label format the ticker uses over a span, for an axis label that names the unit.
    QString formatFor(double spanSeconds) const { return formatFor(stepFor(spanSeconds, tickCount()), spanSeconds); }

protected:
    double getTickStep(const QCPRange &range) override;
    int getSubTickCount(double tickStep) override;
    QString getTickLabel(double tick, const QLocale &locale, QChar formatChar, int precision) override;
    QVector<double> createTickVector(double tickStep, const QCPRange &range) override;

private:
    QString m_format = QStringLiteral("HH:mm"); // of the ticks being generated
};
