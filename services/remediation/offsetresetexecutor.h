#pragma once

#include "services/audit/audittypes.h"
#include "services/kafka/kafkaconfig.h"

#include <QJsonArray>
#include <QList>
#include <QString>

class PgSession;

// Executes an approved reset_offsets request (ARCHITECTURE.md, Data flows: Remediation): the group's
// committed offsets moved to the pinned targets, only while the group has no active member, then read back
// and verified. Journaled as audit events: offsets.reset_intent before the commit, offsets.reset_refused
// (nothing moved) or offsets.reset, then offsets.verified. Blocking: a JobTracker job, the command line,
// tests. Running it again after a refusal or a crash resumes from the audit events: once an earlier run
// journaled its intent, a partition already at its target is recognised as committed by that run and not
// committed again (a consumer that ran since must not be moved back twice); one still where the dry run or
// an earlier intent found it is committed; one anywhere else has moved since the reset (its consumers ran
// on from the target) and is left where it is, which ends the request verified with failures.
struct OffsetResetPartitionOutcome {
    int partition = -1;
    qint64 before = -1;    // committed when executed; -1: none
    qint64 target = -1;
    qint64 committed = -1; // read back afterwards; -1: none or unread
    bool recognised = false; // an earlier, interrupted run of the request committed it: not committed again
    bool movedSince = false; // resumed, and committed neither where the reset found it nor at its target:
                             // the group moved on since an earlier run's commit; left where it is
    bool verified() const { return committed == target; }
};

struct OffsetResetOutcome {
    bool started = false; // the database let the request execute
    QString group;
    QString topic;
    RequestStatus finalStatus = RequestStatus::Approved;
    bool refused = false; // the group has active members: nothing moved
    QString refusal;      // why, in the broker's or the group's words
    bool verified = false; // every partition's committed offset read back equals its target
    QList<OffsetResetPartitionOutcome> partitions;
    QString error; // could not finish (connect, read, database); the request stays as it was left
    qint64 elapsedMs = 0;
};

namespace OffsetResetExecutor {
OffsetResetOutcome run(PgSession &audit, const KafkaProperties &cluster, qint64 requestId,
                       int timeoutMs = 15'000);
// The group's members as DescribeGroups reports them; -1 (and *error) where the brokers cannot say (the
// mock cluster): then the commit itself is the check (UNKNOWN_MEMBER_ID while members are active).
int activeMembers(const KafkaProperties &cluster, const QString &group, int timeoutMs, QString *error);
// The partitions as the audit events keep them ({"partition", "from", "to"[, "committed"]}), and read back:
// the one shape offsets.reset_intent, offsets.reset and offsets.verified share.
QJsonArray partitionsJson(const QList<OffsetResetPartitionOutcome> &list, bool withCommitted);
QList<OffsetResetPartitionOutcome> partitionsFromJson(const QJsonArray &array);
// One partition's outcome in words, for the command line and the verification's summary:
// "partition 0: 120 -> 100, committed 100", with why when it is not at its target.
QString partitionText(const OffsetResetPartitionOutcome &p);
} // namespace OffsetResetExecutor
