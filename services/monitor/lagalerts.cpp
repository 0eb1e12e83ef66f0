#include "lagalerts.h"

#include <QCoreApplication>
#include <QSet>

namespace {
class LagAlertText {
    Q_DECLARE_TR_FUNCTIONS(LagAlerts)
};
}

namespace LagAlerts {
void observe(AlertEngine &engine, const LagSnapshot &snapshot, const LagAlertSettings &settings)
{
    if (!snapshot.reachable)
        return; // no news is not good news, but it is not a breach either
    const qint64 now = snapshot.takenAt.toMSecsSinceEpoch();
    for (const GroupLag &group : snapshot.groupRows) {
        const qint64 limitS = settings.maxLagSeconds.value(group.group, settings.defaultMaxLagSeconds);
        const qint64 limitMs = limitS * 1000;
        AlertEngine::Observation o = AlertEngine::Observation::Normal;
        if (group.maxTimeLagMs > limitMs)
            o = AlertEngine::Observation::Breach;
        else if (group.maxTimeLagMs > qint64(double(limitMs) * settings.clearFraction))
            o = AlertEngine::Observation::Hold;
        engine.observe(sloRule, group.group, o,
                       LagAlertText::tr("Time lag %1 s exceeds the SLO of %2 s (%3 messages behind).")
                           .arg(group.maxTimeLagMs / 1000)
                           .arg(limitS)
                           .arg(group.lag),
                       now);
        const bool stalled = group.status == LagStatus::Stop || group.status == LagStatus::Stall;
        engine.observe(stalledRule, group.group,
                       stalled ? AlertEngine::Observation::Breach : AlertEngine::Observation::Normal,
                       group.statusReason, now);
    }
    QSet<QString> idle;
    for (const TopicPartition &tp : snapshot.idlePartitions) {
        const QString subject = tp.topic + u'[' + QString::number(tp.partition) + u']';
        idle.insert(subject);
        engine.observe(idleRule, subject, AlertEngine::Observation::Breach,
                       LagAlertText::tr("No records appended to %1 for a while, though it had traffic before.").arg(subject),
                       now);
    }
    for (auto it = snapshot.endOffsets.cbegin(); it != snapshot.endOffsets.cend(); ++it) {
        const QString subject = it.key().topic + u'[' + QString::number(it.key().partition) + u']';
        if (!idle.contains(subject))
            engine.observe(idleRule, subject, AlertEngine::Observation::Normal, {}, now);
    }
    for (const QString &topic : settings.criticalDlqTopics) {
        const double rate = snapshot.topicRatePerMinute.value(topic, 0.0);
        engine.observe(dlqRule, topic, rate > 0 ? AlertEngine::Observation::Breach : AlertEngine::Observation::Normal,
                       LagAlertText::tr("%1 dead-lettered records per minute arriving on %2.").arg(rate, 0, 'f', 1).arg(topic),
                       now);
    }
}
}
