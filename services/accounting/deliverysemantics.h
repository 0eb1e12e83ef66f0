#pragma once

#include "services/accounting/accountingtypes.h"
#include "services/policy/consumerchecklist.h"
#include "services/policy/deliverypolicy.h"

// Delivery semantics per consumer (seed 003, seed 000 §26; ARCHITECTURE.md, Contracts: Delivery
// accounting): what the policy promises (offset-commit timing, idempotency strategy, external provider
// idempotency) and what an accounting of its window shows, with every place the two disagree.
enum class DeliveryGuarantee { Unknown, AtMostOnce, AtLeastOnce, EffectivelyOnce };
QString deliveryGuaranteeKey(DeliveryGuarantee g); // unknown, at-most-once, at-least-once, effectively-once

struct DeliverySemanticsVerdict {
    QString consumer;
    DeliveryGuarantee promised = DeliveryGuarantee::Unknown; // from the policy
    QString promisedBecause;                                 // the policy keys, in words
    DeliveryGuarantee observed = DeliveryGuarantee::Unknown; // what the evidence supports (Unknown: no run)
    QStringList contradictions;                              // evidence against the promise, in words
    QStringList lostKeys;                                    // unaccounted records' keys (a few)
    bool contradicted() const { return !contradictions.isEmpty(); }
};

namespace DeliverySemantics {
// The promise alone: commits before the work → at-most-once; after it → at-least-once, and
// effectively-once when an idempotency strategy (not `none`) absorbs redeliveries and no external side
// effect can repeat (externalProviderIdempotency not false). Unknown when offsetCommit.timing is not stated.
DeliveryGuarantee promised(const ConsumerPolicy &consumer, QString *because = nullptr);
// The promise checked against an accounting of the consumer (nullptr: no evidence yet). An unaccounted
// record is an at-most-once loss whatever the policy says; duplicates delivered to a consumer with no
// inbox to absorb them, and order breaks on a topic ordered per key, contradict effectively-once.
DeliverySemanticsVerdict classify(const ConsumerPolicy &consumer, const TopicPolicy *topic,
                                  const AccountingResult *evidence);
// What the consumer checklist shows of it (its "When is the offset committed?" question).
void addToEvidence(const DeliverySemanticsVerdict &verdict, ConsumerEvidence *evidence);
} // namespace DeliverySemantics
