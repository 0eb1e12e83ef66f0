#include "alertengine.h"

namespace {
constexpr qsizetype maxKept = 500; // cleared alerts beyond this are forgotten, oldest first
}

AlertEngine::AlertEngine(QObject *parent)
    : QObject(parent)
{
    qRegisterMetaType<Alert>();
}

void AlertEngine::setTiming(const QString &rule, Timing timing)
{
    m_timing.insert(rule, timing);
}

Alert *AlertEngine::find(quint64 id)
{
    for (auto &a : m_alerts) {
        if (a.id == id)
            return &a;
    }
    return nullptr;
}

int AlertEngine::activeCount() const
{
    return int(std::count_if(m_alerts.cbegin(), m_alerts.cend(), [](const Alert &a) { return a.isActive(); }));
}

QList<Alert> AlertEngine::activeAlerts() const
{
    QList<Alert> active;
    for (const Alert &a : m_alerts) {
        if (a.isActive())
            active.append(a);
    }
    return active;
}

void AlertEngine::observe(const QString &rule, const QString &subject, Observation observation,
                          const QString &message, qint64 nowMs)
{
    observe(Finding{rule, subject, observation, message, {}, {}}, nowMs);
}

void AlertEngine::observe(const Finding &finding, qint64 nowMs)
{
    const Timing timing = m_timing.value(finding.rule, Timing{});
    Track &track = m_tracks[{finding.rule, finding.subject}];
    if (finding.observation == Observation::Breach) {
        track.normalSince = -1;
        if (track.breachSince < 0)
            track.breachSince = nowMs;
        if (Alert *active = track.activeId ? find(track.activeId) : nullptr) {
            if (active->message != finding.message || active->owner != finding.owner) {
                active->message = finding.message;
                active->owner = finding.owner;
                Q_EMIT changed();
            }
            return;
        }
        if (nowMs - track.breachSince >= timing.sustainMs) {
            Alert alert;
            alert.id = m_nextId++;
            alert.rule = finding.rule;
            alert.subject = finding.subject;
            alert.message = finding.message;
            alert.owner = finding.owner;
            alert.view = finding.view;
            alert.firedAt = QDateTime::fromMSecsSinceEpoch(nowMs, Qt::UTC);
            if (timing.repeatWindowMs > 0 && track.lastFiredMs >= 0
                && nowMs - track.lastFiredMs <= timing.repeatWindowMs)
                alert.note = timing.repeatNote;
            if (track.snoozedUntilMs > nowMs) {
                alert.snoozedUntil = QDateTime::fromMSecsSinceEpoch(track.snoozedUntilMs, Qt::UTC);
                alert.snoozeReason = track.snoozeReason;
            }
            track.activeId = alert.id;
            track.lastFiredMs = nowMs;
            m_alerts.prepend(alert);
            while (m_alerts.size() > maxKept && !m_alerts.last().isActive())
                m_alerts.removeLast();
            Q_EMIT fired(alert);
            Q_EMIT changed();
        }
        return;
    }
    if (finding.observation == Observation::Hold) {
        track.normalSince = -1; // neither fires a pending breach nor clears an active alert
        return;
    }
    track.breachSince = -1;
    if (!track.activeId)
        return;
    if (track.normalSince < 0)
        track.normalSince = nowMs;
    if (nowMs - track.normalSince >= timing.clearAfterMs) {
        if (Alert *active = find(track.activeId)) {
            active->clearedAt = QDateTime::fromMSecsSinceEpoch(nowMs, Qt::UTC);
            Q_EMIT cleared(*active);
            Q_EMIT changed();
        }
        track.activeId = 0;
        track.normalSince = -1;
    }
}

void AlertEngine::acknowledge(quint64 id)
{
    if (Alert *a = find(id); a && !a->acknowledged) {
        a->acknowledged = true;
        Q_EMIT changed();
    }
}

bool AlertEngine::snooze(quint64 id, qint64 untilMs, const QString &reason)
{
    Alert *a = find(id);
    if (!a || reason.trimmed().isEmpty())
        return false;
    a->snoozedUntil = QDateTime::fromMSecsSinceEpoch(untilMs, Qt::UTC);
    a->snoozeReason = reason.trimmed();
    Track &track = m_tracks[{a->rule, a->subject}];
    track.snoozedUntilMs = untilMs;
    track.snoozeReason = a->snoozeReason;
    Q_EMIT changed();
    return true;
}
