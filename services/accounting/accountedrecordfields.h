#pragma once

#include "services/accounting/accountingtypes.h"

#include <QString>
#include <QStringList>

// What one accounted record says, as values (ARCHITECTURE.md, Data flows: Delivery accounting): its
// coordinates, class, keys and notes, and the dead letter that names it. Built in one place from the
// result, so the Accounting view and its inspectors never read the result's compact records.
struct AccountedRecordFields {
    QString topic;
    int partition = -1;
    qint64 offset = -1;
    qint64 timestampMs = -1;
    AccountClass cls = AccountClass::NotConsumed;
    QString key;            // the record key as text (empty: none)
    QString idempotencyKey; // empty: none
    qint64 sequence = AccountedRecord::NoSequence;
    QStringList notes; // AccountNote::names
    // The consumer's dead letter for this record: the one naming its coordinates, else the first carrying
    // its idempotency key. Empty topic: none was read.
    QString deadLetterTopic;
    int deadLetterPartition = -1;
    qint64 deadLetterOffset = -1;

    bool hasDeadLetter() const { return !deadLetterTopic.isEmpty(); }
    bool hasSequence() const { return sequence != AccountedRecord::NoSequence; }
    // Record `index` of `result` (index < result.records.size()).
    static AccountedRecordFields from(const AccountingResult &result, size_t index);
};
