#pragma once

#include "laghistory.h"

#include <QString>

// Burrow's rules, evaluated on Berth's fixed clock over the last `windowSamples` samples.
enum class LagStatus : quint8 { Ok, Warn, Rewind, Stall, Stop }; // ascending severity
QString lagStatusName(LagStatus status);

struct StatusRules {
    qint64 allowedLag = 0;     // messages of lag that are fine whatever else happens
    int windowSamples = 6;     // 30 s at the default clock
    int stopAfterSamples = 24; // no progress this long while lagging: the consumer has stopped
};

struct StatusVerdict {
    LagStatus status = LagStatus::Ok;
    QString reason; // one sentence an operator can act on
};

// Over the group partition's remembered samples (the last `max(windowSamples, stopAfterSamples)` at least).
StatusVerdict evaluateStatus(const LagHistory::GroupProgress &history, const StatusRules &rules);
// The samples a group partition must keep for these rules.
int statusSamplesNeeded(const StatusRules &rules);
