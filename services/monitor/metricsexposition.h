#pragma once

#include <QByteArray>

class MonitorService;

// What MonitorService knows, in the Prometheus text exposition format (version 0.0.4), with the metric
// names of ARCHITECTURE.md (Contracts: Metrics): lag in messages and seconds per group partition, group
// status, DLQ arrivals and duplicates as counters, inbox rows per consumer and state, the oldest stuck
// row's age, pending outbox rows, and the alerts firing. Unknown values are left out, never written as 0.
QByteArray prometheusExposition(const MonitorService &monitor);
