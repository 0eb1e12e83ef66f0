#pragma once

#include "services/dlq/dlqscantypes.h"

#include <functional>

// One DLQ scan, blocking: a non-committing reader (no group.id; partitions started at explicit offsets)
// over one topic, every record turned into an index entry and grouped by failure. The scanner runs it
// on its own thread; the command line runs it directly.
namespace DlqScanRun {
struct Sink {
    std::function<void(const DlqScanPlan &)> planned;
    std::function<void(DlqScanBatch &&)> batch; // at most one per batchIntervalMs (the first at once)
    std::function<bool()> cancelled;
    // Each batch costs the interface thread a model update and a repaint, taken from the cores the scan is
    // using: fewer batches keep the interface's longest pause during a scan short (FIGURE
    // dlq_ui_stall_max_ms, tests/bench/bench_dlq.cpp), and rows still arrive several times a second.
    int batchIntervalMs = 150;
    // Batches bring the store chunks their entries will need (DlqScanBatch::entryChunks), already holding
    // the entries (DlqScanBatch::inPlace): for a browser that keeps every entry of the scan, in order.
    bool storeChunks = false;
};

DlqScanResult run(const DlqScanRequest &request, quint64 scanId, const std::shared_ptr<StringPool> &strings,
                  const Sink &sink);
} // namespace DlqScanRun
