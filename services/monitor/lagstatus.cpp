#include "lagstatus.h"

#include <QCoreApplication>

namespace {
class LagStatusText {
    Q_DECLARE_TR_FUNCTIONS(LagStatus)
};
}

QString lagStatusName(LagStatus status)
{
    switch (status) {
    case LagStatus::Ok: return QStringLiteral("OK");
    case LagStatus::Warn: return QStringLiteral("WARN");
    case LagStatus::Rewind: return QStringLiteral("REWIND");
    case LagStatus::Stall: return QStringLiteral("STALL");
    case LagStatus::Stop: return QStringLiteral("STOP");
    }
    return {};
}

StatusVerdict evaluateStatus(const std::deque<LagHistory::Progress> &progress, const StatusRules &rules)
{
    if (progress.empty())
        return {LagStatus::Ok, LagStatusText::tr("No samples yet.")};
    const LagHistory::Progress &now = progress.back();
    const size_t window = std::min(progress.size(), size_t(std::max(2, rules.windowSamples)));
    const auto first = progress.end() - qsizetype(window);

    // A committed offset that went back is news whatever the lag: someone reset offsets or a consumer
    // committed stale positions, and records will be processed again.
    for (auto it = first + 1; it != progress.end(); ++it) {
        if ((it - 1)->committed >= 0 && it->committed >= 0 && it->committed < (it - 1)->committed)
            return {LagStatus::Rewind, LagStatusText::tr("Committed offset went back from %1 to %2: records will be processed again.")
                                           .arg((it - 1)->committed)
                                           .arg(it->committed)};
    }
    if (now.lag <= rules.allowedLag)
        return {LagStatus::Ok, now.lag == 0 ? LagStatusText::tr("Caught up.") : LagStatusText::tr("Lag %1 is within the allowed %2.").arg(now.lag).arg(rules.allowedLag)};

    // How long has the committed offset stood still (while there was something to consume)?
    size_t still = 0;
    for (auto it = progress.rbegin(); it != progress.rend() && it->committed == now.committed; ++it)
        ++still;
    const qint64 stillMs = still > 1 ? now.timeMs - progress[progress.size() - still].timeMs : 0;
    if (int(still) >= rules.stopAfterSamples)
        return {LagStatus::Stop, LagStatusText::tr("No progress for %1 s while %2 messages wait: the consumer appears stopped.")
                                     .arg(stillMs / 1000)
                                     .arg(now.lag)};
    if (still >= window && window >= 2)
        return {LagStatus::Stall, LagStatusText::tr("Committed offset stuck at %1 for %2 s while %3 messages wait.")
                                      .arg(now.committed)
                                      .arg(stillMs / 1000)
                                      .arg(now.lag)};
    bool rising = window >= 2;
    for (auto it = first + 1; it != progress.end() && rising; ++it)
        rising = it->lag >= (it - 1)->lag;
    if (rising && now.lag > first->lag)
        return {LagStatus::Warn, LagStatusText::tr("Consuming, but lag rose from %1 to %2 over the last %3 s.")
                                     .arg(first->lag)
                                     .arg(now.lag)
                                     .arg((now.timeMs - first->timeMs) / 1000)};
    return {LagStatus::Ok, LagStatusText::tr("Consuming; lag %1 is not growing.").arg(now.lag)};
}
