#pragma once

#include "services/accounting/accountingtypes.h"
#include "services/inbox/inboxmappingset.h"
#include "services/policy/deliverypolicy.h"

#include <functional>
#include <optional>

// What to account for: a consumer group's window of one topic (ARCHITECTURE.md, Data flows: Delivery
// accounting). Positions as `berth dlq scan` reads them (DlqScanRequest::parseStart).
struct AccountingRequest {
    KafkaProperties cluster;
    QString group;
    QString topic;
    QString from = QStringLiteral("beginning");
    QString to;            // empty: the end offsets when the run starts; the window ends before it
    QStringList dlqTopics; // empty: the defaults that exist (<topic>-dlt, <topic>.DLT, error.<topic>.<group>)
    RecordField idempotencyKey; // not stated: header idempotency-key, else the record key
    RecordField sequence;       // the topic's sequence field, when it names one
    bool readCommitted = false;
    MaskRule mask; // the policy's masking rule for the topic: what of the keys the result shows masked
    std::optional<InboxMapping> inbox; // the consumer's inbox; none: a consumer without one (a sink)
    InboxMappingSet inboxes;           // where the inbox's database is
    int timeoutMs = 10'000;
    qint64 maxRecords = 20'000'000; // the bound on one run; beyond it the run stops and says so
    int lookupBatch = 5'000;        // keys per inbox look-up

    // The request the policy file describes for this consumer and topic: its DLQ topic, idempotency key,
    // isolation level, inbox mapping, the topic's sequence field and masking rule.
    static AccountingRequest fromPolicy(const DeliveryPolicy &policy, const InboxMappingSet &inboxes,
                                        const QString &group, const QString &topic);
};

struct AccountingHooks {
    std::function<bool()> cancelled;                          // polled between records
    std::function<void(const AccountingProgress &)> progress; // about every 20,000 records
};

// Blocking: reads the DLQ topics, the group's committed offsets and the window (without committing and
// without a group), looks the idempotency keys up in the inbox on threads of their own while the window is
// read (InboxKeyStage: batched probes or merge joins, never a query per record), then classifies every
// record (AccountingClassifier) and checks order and sequence (SequenceCheck). Runs on a worker thread: the
// console's AccountingService job, or `berth account`'s main thread.
namespace DeliveryAccountant {
AccountingResultPtr run(const AccountingRequest &request, const AccountingHooks &hooks = {});
}
