#pragma once

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
};

struct LagSnapshot {
    QString bootstrap;
    QDateTime takenAt;
    qint64 durationMs = 0;
    QStringList groups;
    QString groupSource; // how the groups were found: listed by the brokers, or named in the profile
    QList<PartitionLag> rows; // sorted by group, topic, partition
    QStringList problems;     // partial failures; empty when everything answered
    bool reachable = false;
};

Q_DECLARE_METATYPE(LagSnapshot)
