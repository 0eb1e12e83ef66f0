#pragma once

#include "laghistory.h"

#include <QHash>
#include <QString>

// Burrow's rules, evaluated on Berth's fixed clock over the last `windowSamples` samples.
enum class LagStatus : quint8 { Ok, Warn, Rewind, Stall, Stop }; // ascending severity
QString lagStatusName(LagStatus status);

struct StatusRules {
    static constexpr qint64 DefaultMaxTimeLagMs = 60'000; // seed 002: S = 60 s where the policy states none

    qint64 allowedLag = 0;     // messages of lag that are fine whatever else happens
    // The lag SLO (lagSlo.maxLagSeconds): a group whose time lag is within it is OK while it consumes.
    qint64 maxTimeLagMs = DefaultMaxTimeLagMs; // -1: none (message rules only)
    QHash<QString, qint64> maxTimeLagMsByGroup; // the policy's per consumer group
    qint64 maxTimeLagFor(const QString &group) const { return maxTimeLagMsByGroup.value(group, maxTimeLagMs); }
    bool statedFor(const QString &group) const { return maxTimeLagMsByGroup.contains(group); }
    int windowSamples = 6;     // 30 s at the default clock
    int stopAfterSamples = 24; // no progress this long while lagging: the consumer has stopped
};

struct StatusVerdict {
    LagStatus status = LagStatus::Ok;
    QString reason; // one sentence an operator can act on
};

// Over the group partition's remembered samples (the last `max(windowSamples, stopAfterSamples)` at least).
// timeLagMs: the partition's time lag now (-1: unknown); OK while it is within maxTimeLagMs (ARCHITECTURE.md,
// Data flows: Lag), unless the committed offset went back or stopped moving for stopAfterSamples.
StatusVerdict evaluateStatus(const LagHistory::GroupProgress &history, const StatusRules &rules,
                             qint64 timeLagMs = -1, qint64 maxTimeLagMs = -1, bool sloStated = false);
// The samples a group partition must keep for these rules.
int statusSamplesNeeded(const StatusRules &rules);
