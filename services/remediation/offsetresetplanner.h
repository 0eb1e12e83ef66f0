#pragma once

#include "services/audit/audittypes.h"
#include "services/inbox/inboxmappingset.h"
#include "services/kafka/kafkaconfig.h"
#include "services/policy/deliverypolicy.h"

#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

class PgSession;

// Offset reset with preview (ARCHITECTURE.md, Data flows: Remediation): a consumer group's committed
// offsets on one topic moved to a time, the earliest or latest offset, by N, or to explicit offsets per
// partition, as a four-eyes request. The planner is the dry run: each partition's committed and target
// offsets, how many records the group would process again or never, the predicted no-op rate of the ones
// it processes again (their keys in the consumer's inbox), and the ordering notes.

// Where a reset moves the partitions, as `--to` writes it: earliest, latest, time:<ISO-8601 or epoch ms>,
// shift:N (N records forward, -N back, from the committed offset) or P=O,... (explicit offsets; the
// partitions not named stay where they are).
struct OffsetResetTo {
    enum class Kind { Earliest, Latest, Time, Shift, Explicit };
    Kind kind = Kind::Earliest;
    qint64 timeMs = 0;
    qint64 shift = 0;
    QList<QPair<int, qint64>> offsets; // Explicit, in the order written

    static std::optional<OffsetResetTo> parse(const QString &text, QString *error);
    QString text() const; // what parse reads back (the runbook's command)
};

struct OffsetResetInput {
    QString group;
    QString topic;
    OffsetResetTo to;
    KafkaProperties cluster;
    DeliveryPolicy policy;         // the group's consumer: its idempotencyKey, the topic's ordering
    InboxMappingSet inboxMappings; // the group's inbox mapping answers the no-op prediction
    qint64 predictionBudget = 200'000; // records read at most to predict the no-op rate
    int timeoutMs = 15'000;
    std::function<bool()> cancelled;
};

struct OffsetResetPartition {
    int partition = -1;
    qint64 low = 0;      // the log start when planned
    qint64 high = 0;     // the log end when planned
    qint64 current = -1; // the group's committed offset; -1: none
    qint64 target = 0;
    bool moves() const { return current != target; }
    // Records the group processes again (moving back) or never (moving forward); 0 when it has no
    // committed offset (it would start where auto.offset.reset says).
    qint64 reprocessed() const { return current >= 0 && target < current ? current - target : 0; }
    qint64 skipped() const { return current >= 0 && target > current ? target - current : 0; }
};

struct OffsetResetPlan {
    QString group;
    QString topic;
    QString to; // OffsetResetTo::text()
    QList<OffsetResetPartition> partitions; // every partition of the topic, in order

    // No-op prediction over the records processed again: a key with a row in the consumer's inbox in a
    // state the consumer does not take again (the mapping's retakes) is a no-op.
    QString mapping; // the group's inbox mapping; empty: none
    bool inboxChecked = false;
    qint64 recordsRead = 0;
    qint64 keyedRecords = 0; // records read that carry a key: the ones predicted
    qint64 keysLookedUp = 0; // distinct keys
    qint64 predictedNoOps = 0;
    qint64 notPredicted = 0; // records without a key, or beyond the read budget
    QString inboxError;
    QStringList orderingNotes;
    QString error; // empty when the plan can be filed

    qint64 reprocessed() const;
    qint64 skipped() const;
    int movedPartitions() const;
    double predictedNoOpRate() const; // predictedNoOps / keyedRecords (0 when none)

    // The request's items: one per partition that moves, {"group", "topic", "partition", "from", "to"}.
    QList<RequestItem> items() const;
    QJsonObject toJson() const; // stored as requests.dry_run.offsetReset
    static OffsetResetPlan fromJson(const QJsonObject &json);
    QString summary() const; // the dry run's lines for the terminal, the runbook and the approver
    // The command that files the same reset (the runbook's), without connection options.
    QString command(const QString &berth) const;
};

// One item's pin (RequestItem::offsetReset), read back by the executor.
struct OffsetResetTarget {
    QString group;
    QString topic;
    int partition = -1;
    qint64 from = -1; // the committed offset the dry run saw
    qint64 to = -1;
    QJsonObject toJson() const;
    static std::optional<OffsetResetTarget> fromJson(const QJsonObject &json);
};

namespace OffsetResetPlanner {
// Blocking (a worker thread, the command line, tests). inboxDb: the default inbox database's session.
OffsetResetPlan plan(const OffsetResetInput &input, PgSession *inboxDb);
} // namespace OffsetResetPlanner
