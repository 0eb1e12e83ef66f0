#pragma once

#include "services/audit/audittypes.h"

#include <QCoreApplication>
#include <QString>
#include <QStringList>

// What an action that produces to Kafka, changes inbox rows or moves offsets is about to do, in the words
// its confirmation shows (ARCHITECTURE.md, Views: confirming an action): the request, the destination,
// the count and the keys that repeat. Built from values only, so any feature that runs such an action
// fills one and hands it to ActionConfirmation (views/).
struct ActionSummary {
    Q_DECLARE_TR_FUNCTIONS(ActionSummary)

public:
    QString verb;        // the confirm button: "Execute request 12"
    QString request;     // "Replay request 12 by alice: poison-fixed consumer fixed"
    QString destination; // "Produces to orders", "Changes inbox rows of orders-projector"
    int count = 0;       // records produced, rows changed or partitions moved
    QStringList repeatingKeys; // idempotency keys more than one item carries (empty: none)
    QStringList notes;         // other things the operator should read first (merged copies, canary)

    // A stored request, from its summary and the dry run stored with it.
    static ActionSummary forRequest(const RemediationRequest &request);
};
