#pragma once

#include "laghistory.h"

#include <QString>

struct PartitionLag;

// Whether a group partition's lag is clearing, said from what the samples show: "keeping up" where nothing
// beyond the allowed lag waits or the lag holds while the consumer moves, a time to clear only where the
// lag measurably shrinks, "not clearing" where it rises as the status's warning counts a rise (every sample
// at least the one before). Ascending: a group reads as its worst partition.
enum class LagClearing : quint8 {
    CaughtUp,      // no lag, or only transaction markers after the last record
    WithinAllowed, // lag within the allowed lag
    Steady,        // the committed offset moves and the lag holds: consumed as fast as produced
    Draining,      // the lag shrinks: time to clear is the lag over the drain rate
    Unmeasured,    // lag beyond the allowed, and no two samples to compare yet
    NotShrinking,  // the committed offset moves, but the lag rose sample after sample (falling behind)
    NoProgress,    // the committed offset stands still while records wait
};
// The machine-readable word (JSON's "clearing"); DisplayFormat::timeToClear is the shown one.
QString lagClearingName(LagClearing clearing);

// The one decision: sets the row's drain rate, time to clear and clearing from its lag and the group
// partition's samples, compared over the last `window` of them (at least two).
void evaluateClearing(PartitionLag &row, const SampleRing<LagHistory::Progress> &progress, int window,
                      qint64 allowedLag);
