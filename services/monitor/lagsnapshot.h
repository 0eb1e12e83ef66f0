#pragma once

#include "lagclearing.h"
#include "lagstatus.h"
#include "services/kafka/kafkatypes.h"

#include <QDateTime>
#include <QMetaType>

// One partition of one group at one sample. Lag is never negative (see flags).
struct PartitionLag {
    enum Flag : quint8 {
        NoCommit = 0x1,        // the group never committed here: lag counted from the log start
        CommittedAhead = 0x2,  // committed > end (e.g. topic recreated): shown as 0
        EndUnknown = 0x4,      // the partition's end offset could not be read this time
    };
    QString group;
    QString topic;
    int partition = -1;
    qint64 committed = -1;
    qint64 start = -1;
    qint64 end = -1;
    qint64 lag = 0;
    quint8 flags = 0;

    enum class TimeLagMethod : quint8 {
        Unknown,      // not measurable this time (no history yet, peek budget spent, peek failed)
        CaughtUp,     // committed == end: zero, exactly
        Interpolated, // from this partition's own (end offset, sample time) history
        Peeked,       // the timestamp of the record at the committed offset
        // committed < end, but only transaction markers (or records a read_committed consumer skips)
        // follow the last record: caught up (TransactionWindow::caughtUpBehindMarkers)
        BehindMarkers,
    };
    qint64 timeLagMs = -1;
    TimeLagMethod timeLagMethod = TimeLagMethod::Unknown;
    // Set by evaluateClearing (lagclearing.h), with `clearing` below: time to clear is -1 unless caught up
    // (0) or draining.
    double drainPerSecond = 0; // consumed minus produced, over the status window
    qint64 timeToClearS = -1;
    LagStatus status = LagStatus::Ok;
    QString statusReason;
    LagClearing clearing = LagClearing::Unmeasured;
};
QString timeLagMethodName(PartitionLag::TimeLagMethod method);

// One row per group: the worst partition decides the status.
struct GroupLag {
    QString group;
    QStringList topics;
    int partitions = 0;
    qint64 lag = 0;
    qint64 maxTimeLagMs = -1;
    qint64 timeToClearS = -1; // the longest partition's while none is worse than draining, else -1
    LagStatus status = LagStatus::Ok;
    QString statusReason;
    // The lag SLO its status is judged against (-1: none) and whether the policy states it (else the default).
    qint64 lagSloMs = -1;
    bool lagSloStated = false;
    LagClearing clearing = LagClearing::Unmeasured; // its worst partition's
};

struct LagSnapshot {
    QString bootstrap;
    QDateTime takenAt;
    qint64 durationMs = 0;
    QStringList groups;
    QString groupSource; // how the groups were found: listed by the brokers, or named in the profile
    QList<PartitionLag> rows; // sorted by group, topic, partition
    QList<GroupLag> groupRows; // sorted by group
    PartitionOffsets endOffsets; // every watched partition, DLQ topics included
    QHash<QString, double> topicRatePerMinute; // appended records per minute since the previous sample
    QList<TopicPartition> idlePartitions;      // took traffic earlier in the history, none for idleAfter
    QStringList problems;     // partial failures; empty when everything answered
    bool reachable = false;
};

Q_DECLARE_METATYPE(LagSnapshot)
