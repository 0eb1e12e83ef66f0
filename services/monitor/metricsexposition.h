#pragma once

#include "alertengine.h"
#include "duplicatetail.h"
#include "lagsnapshot.h"
#include "services/inbox/inboxboard.h"

#include <QByteArray>
#include <QHash>

class DlqArrivalRule;
class MonitorService;

// What the exposition reads: the latest of each input, and the alerts.
struct MetricsInputs {
    const LagSnapshot &sample;
    const QHash<QString, InboxBoard> &boards; // by mapping
    const DuplicateStats &duplicates;
    const DlqArrivalRule &dlqArrivals;
    const QStringList &dlqTopics;
    const QList<Alert> &activeAlerts;
};

// What MonitorService knows, in the Prometheus text exposition format (version 0.0.4), with the metric
// names of ARCHITECTURE.md (Contracts: Metrics): lag in messages and seconds per group partition, group
// status, DLQ arrivals and duplicates as counters, inbox rows per consumer and state, the oldest stuck
// row's age, pending outbox rows, and the alerts firing. Unknown values are left out, never written as 0.
QByteArray prometheusExposition(const MetricsInputs &inputs);
QByteArray prometheusExposition(const MonitorService &monitor);
