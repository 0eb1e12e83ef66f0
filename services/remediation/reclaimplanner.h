#pragma once

#include "services/inbox/inboxmappingset.h"
#include "services/kafka/kafkaconfig.h"
#include "services/payload/keymask.h"
#include "services/policy/deliverypolicy.h"
#include "services/remediation/remediationtypes.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <functional>

class PgSession;

// Reclaim of stuck rows (ARCHITECTURE.md, Data flows: Remediation): a consumer's in-progress inbox rows
// not updated for longer than a threshold (its consumer died mid-message) are released for retry and
// their records replayed, as one four-eyes release-and-replay request. The planner finds the rows, the
// record each one was claimed for (the latest record of the consumer's topic carrying its message id), and
// whether the group has committed past that record, i.e. whether the consumer would ever see it again.
struct ReclaimInput {
    QString consumer;        // the policy consumer: its group id, its inbox mapping
    QString topic;           // empty: the consumer's one topic in the policy
    qint64 olderThanMs = -1; // -1: the mapping's "stuck after"
    KafkaProperties cluster;
    DeliveryPolicy policy;
    InboxMappingSet inboxMappings;
    int rowLimit = 1000;             // stuck rows taken at most (oldest first)
    qint64 readBudget = 2'000'000;   // topic records read at most while looking for the rows' records
    qint64 lookBackMs = 10 * 60'000; // the read starts this long before the oldest row was first seen
    int timeoutMs = 15'000;
    std::function<bool()> cancelled;
};

struct ReclaimRow {
    QString messageId;
    QString status; // the raw word the row had
    QDateTime updated;
    DlqSelection record;        // partition -1: no record carrying the message id was found
    bool committedPast = false; // the group's committed offset is past the record: it will not come again
};

struct ReclaimPlan {
    QString consumer;
    QString topic;
    QString mapping;
    qint64 olderThanMs = 0;
    QString releaseTo;
    QList<ReclaimRow> rows; // stuck rows, oldest update first
    bool moreRows = false;  // more rows are stuck than rowLimit
    qint64 recordsRead = 0;
    bool budgetExhausted = false;
    QString error; // empty when the plan can be filed (it may still hold no row)

    int found() const;
    int committedPast() const;
    // The stuck rows that carry a record (the request's items), in row order.
    QList<DlqSelection> selection() const;

    // Stored with the dry run (requests.dry_run.reclaim) and read back for the approver and the runbook.
    QJsonObject toJson() const;
    static ReclaimPlan fromJson(const QJsonObject &json);
    // The plan as it may be shown and stored (ARCHITECTURE.md, Masking): each row's message id, an
    // idempotency key of `topic`, as KeyMask shows it. The plan as read keeps the ids (the builder pins the
    // records by them); the dry run stores this one.
    ReclaimPlan masked(const KeyMask &mask) const;
    // The dry run's lines about the rows: what is released, which records the consumer will not see again
    // unless they are replayed, which rows have no record to replay.
    QString summary() const;
};

namespace ReclaimPlanner {
// Blocking (a worker thread, the command line, tests). inboxDb: the default inbox database's session.
ReclaimPlan plan(const ReclaimInput &input, PgSession *inboxDb);
} // namespace ReclaimPlanner
