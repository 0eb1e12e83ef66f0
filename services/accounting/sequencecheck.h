#pragma once

#include "services/accounting/accountingtypes.h"

// Order and sequence per key over a classified window (seed 004; ARCHITECTURE.md, Contracts: Delivery
// accounting). Records of one ordering key (the record key, which partitions the topic) are taken in
// the order a consumer received them: offset order within a partition, timestamp order across
// partitions (a key that moved partition), and judged one by one by SequenceTracker, the definition the
// live order tail applies too: repeats, out-of-order arrivals (across partitions when the two records are
// on different partitions), gaps (the numbers still missing at the end of the window), and, whatever the
// numbers, DLQ-and-continue breaks (seed 000 §16): a record dead-lettered or parked while a later record
// of the same key was processed.
namespace SequenceCheck {
QList<SequenceFinding> run(const AccountingResult &result);
}
