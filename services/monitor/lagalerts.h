#pragma once

#include "alertengine.h"
#include "lagsnapshot.h"

// The lag desk's alert rules, fed from each sample.
struct LagAlertSettings {
    qint64 defaultMaxLagSeconds = 300;      // lag SLO when the policy names none for a group
    QHash<QString, qint64> maxLagSeconds;   // per group, from the policy's lagSlo.maxLagSeconds
    double clearFraction = 0.8;             // hysteresis: clears below 80 % of the threshold
    QStringList criticalDlqTopics;          // any record arriving here is an alert
};

namespace LagAlerts {
inline const QString sloRule = QStringLiteral("lag-slo");
inline const QString dlqRule = QStringLiteral("dlq-rate");
inline const QString stalledRule = QStringLiteral("consumer-stalled");
inline const QString idleRule = QStringLiteral("partition-idle");
void observe(AlertEngine &engine, const LagSnapshot &snapshot, const LagAlertSettings &settings);
}
