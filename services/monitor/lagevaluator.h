#pragma once

#include "laghistory.h"
#include "lagsnapshot.h"

#include <functional>

class OffsetPeeker;

// Turns a sample's raw offsets into what an operator reads: time lag (and how it was measured), status
// with its reason, time to clear, and one row per group. Keeps its memory in `history`.
struct LagEvaluation {
    StatusRules rules;
    int peekBudget = 200;     // records read per sample at most; the rest say "unknown"
    int peekTimeoutMs = 2000;
    qint64 idleAfterMs = 600000; // a partition that had traffic and then none this long is "idle unexpectedly"
    // A lag this small that stood still since the last sample is checked for being only transaction markers.
    qint64 markerLagAtMost = 16;
    // The last offset a consumer is handed in [from, end) per partition (from - 1 when none): by default
    // OffsetPeeker::lastRecords reads it; a test hands constructed offsets.
    std::function<QHash<TopicPartition, qint64>(const PartitionOffsets &from, const PartitionOffsets &ends)>
        lastRecords;
};

void evaluateLag(LagSnapshot &snapshot, LagHistory &history, OffsetPeeker *peeker, const LagEvaluation &evaluation);
