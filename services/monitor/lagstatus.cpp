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

int statusSamplesNeeded(const StatusRules &rules)
{
    return std::max({2, rules.windowSamples, rules.stopAfterSamples}) + 1;
}

StatusVerdict evaluateStatus(const LagHistory::GroupProgress &history, const StatusRules &rules, qint64 timeLagMs,
                             qint64 maxTimeLagMs, bool sloStated)
{
    const SampleRing<LagHistory::Progress> &progress = history.samples;
    if (progress.empty())
        return {LagStatus::Ok, LagStatusText::tr("No samples yet.")};
    const int size = progress.size();
    const LagHistory::Progress &now = progress.back();
    const int window = std::min(size, std::max(2, rules.windowSamples));
    const int first = size - window;

    // A committed offset that went back is news whatever the lag: someone reset offsets or a consumer
    // committed stale positions, and records will be processed again.
    for (int i = first + 1; i < size; ++i) {
        if (progress[i - 1].committed >= 0 && progress[i].committed >= 0 && progress[i].committed < progress[i - 1].committed)
            return {LagStatus::Rewind, LagStatusText::tr("Committed offset went back from %1 to %2: records will be processed again.")
                                           .arg(progress[i - 1].committed)
                                           .arg(progress[i].committed)};
    }
    if (now.lag <= rules.allowedLag)
        return {LagStatus::Ok, now.lag == 0 ? LagStatusText::tr("Caught up.") : LagStatusText::tr("Lag %1 is within the allowed %2.").arg(now.lag).arg(rules.allowedLag)};

    // How long has the committed offset stood still (while there was something to consume)? The samples
    // count for the rules; the time comes from when it last moved, which may be older than the samples kept.
    int still = 0;
    for (int i = size - 1; i >= 0 && progress[i].committed == now.committed; --i)
        ++still;
    const qint64 since = history.committedSinceMs >= 0 ? history.committedSinceMs : progress[size - still].timeMs;
    const qint64 stillMs = still > 1 ? now.timeMs - since : 0;
    if (still >= rules.stopAfterSamples)
        return {LagStatus::Stop, LagStatusText::tr("No progress for %1 s while %2 messages wait: the consumer appears stopped.")
                                     .arg(stillMs / 1000)
                                     .arg(now.lag)};
    if (timeLagMs >= 0 && maxTimeLagMs >= 0 && timeLagMs <= maxTimeLagMs)
        return {LagStatus::Ok, (sloStated ? LagStatusText::tr("%1 messages, %2 s behind: within the lag SLO of %3 s.")
                                          : LagStatusText::tr("%1 messages, %2 s behind: within the lag SLO of %3 s (default).")
                               )
                                   .arg(now.lag)
                                   .arg(timeLagMs / 1000)
                                   .arg(maxTimeLagMs / 1000)};
    if (still >= window && window >= 2)
        return {LagStatus::Stall, LagStatusText::tr("Committed offset stuck at %1 for %2 s while %3 messages wait.")
                                      .arg(now.committed)
                                      .arg(stillMs / 1000)
                                      .arg(now.lag)};
    bool rising = window >= 2;
    for (int i = first + 1; i < size && rising; ++i)
        rising = progress[i].lag >= progress[i - 1].lag;
    if (rising && now.lag > progress[first].lag)
        return {LagStatus::Warn, LagStatusText::tr("Consuming, but lag rose from %1 to %2 over the last %3 s.")
                                     .arg(progress[first].lag)
                                     .arg(now.lag)
                                     .arg((now.timeMs - progress[first].timeMs) / 1000)};
    return {LagStatus::Ok, LagStatusText::tr("Consuming; lag %1 is not growing.").arg(now.lag)};
}
