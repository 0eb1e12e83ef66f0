#pragma once

#include "services/accounting/accountingtypes.h"

// Order and sequence per key over a classified window (seed 004; ARCHITECTURE.md, Contracts: Delivery
// accounting). Records of one ordering key (the record key, which partitions the topic) are taken in
// the order a consumer received them: offset order within a partition, timestamp order across
// partitions (a key that moved partition). With sequence numbers read, it finds
//  - repeats: a number already seen for the key;
//  - out-of-order arrivals: a number lower than the highest seen before it (across partitions when the
//    two records are on different partitions);
//  - gaps: numbers between the lowest and highest seen that no record of the window carries;
// and, whatever the numbers, DLQ-and-continue breaks (seed 000 §16): a record dead-lettered or parked
// while a later record of the same key was processed.
namespace SequenceCheck {
QList<SequenceFinding> run(const AccountingResult &result);
}
