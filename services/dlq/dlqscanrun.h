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
    int batchIntervalMs = 50;
};

DlqScanResult run(const DlqScanRequest &request, quint64 scanId, const std::shared_ptr<StringPool> &strings,
                  const Sink &sink);

// The reader's librdkafka properties: the cluster's (without group.id), tuned for throughput, with a
// prefetch queue of queueKbytes for the whole scan.
KafkaProperties consumerProperties(const KafkaProperties &cluster, int queueKbytes);
} // namespace DlqScanRun
