#include "lagevaluator.h"

#include "offsetpeeker.h"
#include "services/accounting/accountingclassifier.h"

#include <QSet>

QString timeLagMethodName(PartitionLag::TimeLagMethod method)
{
    switch (method) {
    case PartitionLag::TimeLagMethod::Unknown: return QStringLiteral("unknown");
    case PartitionLag::TimeLagMethod::CaughtUp: return QStringLiteral("caught-up");
    case PartitionLag::TimeLagMethod::Interpolated: return QStringLiteral("interpolated");
    case PartitionLag::TimeLagMethod::Peeked: return QStringLiteral("peeked");
    case PartitionLag::TimeLagMethod::BehindMarkers: return QStringLiteral("behind-markers");
    }
    return {};
}

namespace {
// The next record the group will read.
qint64 position(const PartitionLag &row)
{
    return row.committed < 0 ? std::max<qint64>(0, row.start) : std::max(row.committed, row.start);
}
}

void evaluateLag(LagSnapshot &snapshot, LagHistory &history, OffsetPeeker *peeker, const LagEvaluation &evaluation)
{
    const qint64 now = snapshot.takenAt.toMSecsSinceEpoch();
    QSet<TopicPartition> seen;
    for (auto it = snapshot.endOffsets.cbegin(); it != snapshot.endOffsets.cend(); ++it) {
        // Rate since the previous sample, per topic (a DLQ's rate is its end offsets moving).
        const LagHistory::Ends before = history.ends(it.key());
        double &rate = snapshot.topicRatePerMinute[it.key().topic];
        if (!before.empty() && now > before.back().timeMs && it.value() >= before.back().offset)
            rate += double(it.value() - before.back().offset) * 60000.0 / double(now - before.back().timeMs);
        history.recordEnd(it.key(), now, it.value());
        seen.insert(it.key());
        // Idle unexpectedly: the end offset has not moved for idleAfter, though it moved before that.
        const LagHistory::Ends ends = history.ends(it.key());
        if (ends.size() >= 3 && ends.front().offset < it.value()) {
            int still = ends.size() - 1;
            while (still > 0 && ends[still - 1].offset == it.value())
                --still;
            if (now - ends[still].timeMs >= evaluation.idleAfterMs)
                snapshot.idlePartitions.append(it.key());
        }
    }

    history.setProgressCapacity(statusSamplesNeeded(evaluation.rules));
    QSet<QPair<QString, TopicPartition>> seenGroups;
    seenGroups.reserve(snapshot.rows.size());
    PartitionOffsets toPeek;
    for (PartitionLag &row : snapshot.rows) {
        const TopicPartition tp{row.topic, row.partition};
        seenGroups.insert({row.group, tp});
        if (row.flags & PartitionLag::EndUnknown)
            continue;
        history.recordProgress(row.group, tp, {now, row.committed, row.lag});
        if (row.lag == 0) {
            row.timeLagMs = 0;
            row.timeLagMethod = PartitionLag::TimeLagMethod::CaughtUp;
            continue;
        }
        const qint64 appended = history.timeOfOffset(tp, position(row));
        if (appended >= 0) {
            row.timeLagMs = std::max<qint64>(0, now - appended);
            row.timeLagMethod = PartitionLag::TimeLagMethod::Interpolated;
        } else if (toPeek.size() < evaluation.peekBudget) {
            toPeek.insert(tp, position(row)); // groups at the same position share one read
        }
    }
    if (peeker && !toPeek.isEmpty()) {
        const auto stamps = peeker->timestamps(toPeek, evaluation.peekTimeoutMs);
        for (PartitionLag &row : snapshot.rows) {
            const TopicPartition tp{row.topic, row.partition};
            if (row.timeLagMethod == PartitionLag::TimeLagMethod::Unknown && row.lag > 0
                && toPeek.value(tp, -1) == position(row) && stamps.contains(tp)) {
                row.timeLagMs = std::max<qint64>(0, now - stamps.value(tp));
                row.timeLagMethod = PartitionLag::TimeLagMethod::Peeked;
            }
        }
    }

    // A small lag that neither the group nor the log moved since the last sample may be only transaction
    // markers after the last record (a transactional producer's commit marker takes an offset no consumer
    // is handed): read from the committed offset to see whether any record follows.
    PartitionOffsets markerFrom, markerEnds;
    for (const PartitionLag &row : std::as_const(snapshot.rows)) {
        if (row.lag <= 0 || row.lag > evaluation.markerLagAtMost || row.committed < 0 || row.flags)
            continue;
        const TopicPartition tp{row.topic, row.partition};
        const auto &samples = history.progress(row.group, tp).samples;
        if (samples.size() < 2 || samples[samples.size() - 2].committed != row.committed
            || samples[samples.size() - 2].lag != row.lag || markerFrom.contains(tp))
            continue;
        markerFrom.insert(tp, row.committed);
        markerEnds.insert(tp, row.end);
    }
    if (!markerFrom.isEmpty() && (evaluation.lastRecords || peeker)) {
        const QHash<TopicPartition, qint64> last =
            evaluation.lastRecords ? evaluation.lastRecords(markerFrom, markerEnds)
                                   : peeker->lastRecords(markerFrom, markerEnds, evaluation.peekTimeoutMs);
        for (PartitionLag &row : snapshot.rows) {
            const TopicPartition tp{row.topic, row.partition};
            const auto found = last.constFind(tp);
            if (found != last.cend() && markerFrom.value(tp, -1) == row.committed
                && markerEnds.value(tp) == row.end
                && TransactionWindow::caughtUpBehindMarkers(row.committed, row.end, *found)) {
                row.timeLagMs = 0;
                row.timeLagMethod = PartitionLag::TimeLagMethod::BehindMarkers;
            }
        }
    }

    snapshot.groupRows.clear();
    for (PartitionLag &row : snapshot.rows) {
        const LagHistory::GroupProgress &progress = history.progress(row.group, {row.topic, row.partition});
        const StatusVerdict verdict =
            evaluateStatus(progress, evaluation.rules, row.timeLagMs, evaluation.rules.maxTimeLagFor(row.group),
                           evaluation.rules.statedFor(row.group));
        row.status = verdict.status;
        row.statusReason = verdict.reason;
        if (row.timeLagMethod == PartitionLag::TimeLagMethod::BehindMarkers) {
            row.status = LagStatus::Ok;
            row.statusReason = QStringLiteral("Caught up: only transaction markers follow the last record (%1 "
                                              "offset(s) of lag that no consumer is handed).")
                                   .arg(row.lag);
        }
        evaluateClearing(row, progress.samples, evaluation.rules.windowSamples, evaluation.rules.allowedLag);

        if (snapshot.groupRows.isEmpty() || snapshot.groupRows.last().group != row.group)
            snapshot.groupRows.append(GroupLag{row.group});
        GroupLag &group = snapshot.groupRows.last();
        if (!group.topics.contains(row.topic))
            group.topics.append(row.topic);
        ++group.partitions;
        group.lag += row.lag;
        group.maxTimeLagMs = std::max(group.maxTimeLagMs, row.timeLagMs);
        group.clearing = group.partitions == 1 ? row.clearing : std::max(group.clearing, row.clearing);
        group.timeToClearS =
            group.partitions == 1 ? row.timeToClearS : std::max(group.timeToClearS, row.timeToClearS);
        if (group.partitions == 1 || row.status > group.status) {
            group.status = row.status;
            group.statusReason = row.topic + u'[' + QString::number(row.partition) + u"]: " + row.statusReason;
        }
    }
    // Groups that committed nothing still get a row, so the operator sees them.
    QSet<QString> present;
    present.reserve(snapshot.groupRows.size());
    for (const GroupLag &g : std::as_const(snapshot.groupRows))
        present.insert(g.group);
    for (const QString &name : std::as_const(snapshot.groups)) {
        if (!present.contains(name)) {
            GroupLag empty{name};
            empty.statusReason = QStringLiteral("No committed offsets.");
            snapshot.groupRows.append(empty);
        }
    }
    std::sort(snapshot.groupRows.begin(), snapshot.groupRows.end(),
              [](const GroupLag &a, const GroupLag &b) { return a.group < b.group; });
    for (GroupLag &g : snapshot.groupRows) {
        if (g.clearing > LagClearing::Draining)
            g.timeToClearS = -1; // a partition that does not clear: neither does the group
        g.lagSloMs = evaluation.rules.maxTimeLagFor(g.group);
        g.lagSloStated = evaluation.rules.statedFor(g.group);
    }
    history.retainOnly(seen, seenGroups);
}
