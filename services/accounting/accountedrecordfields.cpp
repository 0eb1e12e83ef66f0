#include "services/accounting/accountedrecordfields.h"

AccountedRecordFields AccountedRecordFields::from(const AccountingResult &result, size_t index)
{
    const AccountedRecord &r = result.records[index];
    AccountedRecordFields f;
    f.topic = result.topic;
    f.partition = r.partition;
    f.offset = r.offset;
    f.timestampMs = r.timestampMs;
    f.cls = r.cls;
    f.key = result.recordKeyText(r.recordKey);
    f.idempotencyKey = result.idempotencyKeyText(r.idempotencyKey);
    f.sequence = r.sequence;
    f.notes = AccountNote::names(r.notes);
    // A linear walk over the dead letters: one record is asked for at a time, and a consumer's dead
    // letters are few next to its records.
    const AccountingDeadLetter *byKey = nullptr;
    const AccountingDeadLetter *named = nullptr;
    for (const AccountingDeadLetter &d : result.deadLetters) {
        if (d.originalPartition == r.partition && d.originalOffset == r.offset) {
            named = &d;
            break;
        }
        if (!byKey && r.idempotencyKey && d.idempotencyKey == r.idempotencyKey)
            byKey = &d;
    }
    if (const AccountingDeadLetter *d = named ? named : byKey) {
        f.deadLetterTopic = result.dlqTopics.value(d->dlqTopic);
        f.deadLetterPartition = d->partition;
        f.deadLetterOffset = d->offset;
    }
    return f;
}
