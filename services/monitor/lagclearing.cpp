#include "lagclearing.h"

#include "lagsnapshot.h"

QString lagClearingName(LagClearing clearing)
{
    switch (clearing) {
    case LagClearing::CaughtUp:
        return QStringLiteral("caught-up");
    case LagClearing::WithinAllowed:
        return QStringLiteral("within-allowed-lag");
    case LagClearing::Steady:
        return QStringLiteral("steady");
    case LagClearing::Draining:
        return QStringLiteral("draining");
    case LagClearing::Unmeasured:
        return QStringLiteral("unmeasured");
    case LagClearing::NotShrinking:
        return QStringLiteral("not-shrinking");
    case LagClearing::NoProgress:
        return QStringLiteral("no-progress");
    }
    return {};
}

void evaluateClearing(PartitionLag &row, const SampleRing<LagHistory::Progress> &progress, int window,
                      qint64 allowedLag)
{
    row.drainPerSecond = 0;
    row.timeToClearS = -1;
    if (row.flags & PartitionLag::EndUnknown) {
        row.clearing = LagClearing::Unmeasured; // the lag itself is not known this time
        return;
    }
    bool measured = false;
    bool moved = false;
    bool rising = false;
    if (progress.size() >= 2) {
        const int from = progress.size() - std::min(progress.size(), std::max(2, window));
        const auto &last = progress.back();
        const auto &first = progress[from];
        const double seconds = double(last.timeMs - first.timeMs) / 1000.0;
        if (seconds > 0) {
            measured = true;
            moved = last.committed != first.committed;
            row.drainPerSecond = double(first.lag - last.lag) / seconds;
            rising = last.lag > first.lag;
            for (int i = from + 1; i < progress.size() && rising; ++i)
                rising = progress[i].lag >= progress[i - 1].lag;
        }
    }
    const bool caughtUp = row.lag == 0 || row.timeLagMethod == PartitionLag::TimeLagMethod::BehindMarkers;
    if (caughtUp)
        row.timeToClearS = 0;
    else if (moved && row.drainPerSecond > 0)
        row.timeToClearS = qint64(double(row.lag) / row.drainPerSecond);

    if (caughtUp)
        row.clearing = LagClearing::CaughtUp;
    else if (row.lag <= allowedLag)
        row.clearing = LagClearing::WithinAllowed;
    else if (!measured)
        row.clearing = LagClearing::Unmeasured;
    else if (!moved)
        row.clearing = LagClearing::NoProgress;
    else
        row.clearing = row.timeToClearS >= 0 ? LagClearing::Draining
                       : rising              ? LagClearing::NotShrinking
                                             : LagClearing::Steady;
}
