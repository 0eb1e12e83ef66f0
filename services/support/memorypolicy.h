#pragma once

#include <QtGlobal>

namespace MemoryPolicy {
// The process's allocator settings, applied first thing in main(), before any thread starts.
//
// glibc gives each new thread its own malloc arena, up to eight per core. librdkafka's broker threads
// allocate every fetch response in theirs, the scan frees the records in its own, and each arena keeps what
// it once held, so after a large DLQ scan the process holds far more than the index. Two arenas keep it
// close to the index at the same scan speed (FIGURE dlq_rss_1m_mb and dlq_scan_s, tests/bench/bench_dlq.cpp).
// Large blocks stay in the heap and freed ones are kept for reuse (see memorypolicy.cpp). Linux/glibc only;
// elsewhere it does nothing.
void apply();

// What the allocator holds (-1 where it cannot tell): for tests.
struct MallocFigures {
    qint64 mappedBlocks = -1;  // blocks given their own mapping rather than heap memory
    qint64 freeHeapBytes = -1; // freed heap memory kept for reuse
};
MallocFigures figures();

// Arenas the allocator has created so far (-1 where it cannot tell): for tests.
int arenaCount();
} // namespace MemoryPolicy
