#pragma once

#include <QDateTime>
#include <QHash>
#include <QList>
#include <QMetaType>
#include <QObject>

// An alert is raised only when its condition has held for a sustained time, and cleared only after the
// condition has been back to normal for a while (hysteresis), so a flapping signal does not page anyone.
// The rules that decide Breach / Hold / Normal live in services/monitor/alertrules.h.
struct Alert {
    quint64 id = 0;
    QString rule;    // e.g. "lag-slo", "dlq-arrivals"
    QString subject; // the group, topic or inbox it is about
    QString message; // the evidence, in words, as of the last observation
    QString owner;   // who the policy says owns it; empty when the policy names nobody
    QString view;    // the main view that shows the evidence ("lag", "charts", "dlq", "inbox", "parked")
    QString note;    // what to do beyond investigating, e.g. "rollback the last deploy" on a repeat page
    QDateTime firedAt;
    QDateTime clearedAt; // invalid while active
    bool acknowledged = false;
    QDateTime snoozedUntil; // notifications silenced until then (invalid: not snoozed)
    QString snoozeReason;
    bool isActive() const { return !clearedAt.isValid(); }
    bool isSnoozed(qint64 nowMs) const
    {
        return snoozedUntil.isValid() && snoozedUntil.toMSecsSinceEpoch() > nowMs;
    }
};

class AlertEngine final : public QObject {
    Q_OBJECT
public:
    enum class Observation { Breach, Hold, Normal }; // Hold: between the clear and the fire thresholds
    struct Timing {
        qint64 sustainMs = 120000;   // the breach must hold this long before the alert fires (0: at once)
        qint64 clearAfterMs = 60000; // back to normal this long before it clears
        qint64 repeatWindowMs = 0;   // a new alert within this of the subject's last one carries repeatNote
        QString repeatNote;
    };
    // One observation of a rule for a subject, with what the alert would say.
    struct Finding {
        QString rule;
        QString subject;
        Observation observation = Observation::Normal;
        QString message;
        QString owner;
        QString view;
    };

    explicit AlertEngine(QObject *parent = nullptr);

    void setTiming(const QString &rule, Timing timing);
    Timing timing(const QString &rule) const { return m_timing.value(rule, Timing{}); }
    // Feed one observation at time `nowMs` (the caller's clock: sample times, or a test's fake clock).
    void observe(const Finding &finding, qint64 nowMs);
    void observe(const QString &rule, const QString &subject, Observation observation, const QString &message,
                 qint64 nowMs);
    void acknowledge(quint64 id);
    // Silences the alert, and any new alert of the same rule and subject, until `untilMs`. The reason is
    // required: a snooze nobody can explain later is how pages get lost.
    bool snooze(quint64 id, qint64 untilMs, const QString &reason);

    QList<Alert> alerts() const { return m_alerts; } // newest first; cleared ones kept (bounded)
    QList<Alert> activeAlerts() const;
    int activeCount() const;

Q_SIGNALS:
    void fired(const Alert &alert);
    void cleared(const Alert &alert);
    void changed();

private:
    struct Track {
        qint64 breachSince = -1;
        qint64 normalSince = -1;
        quint64 activeId = 0;
        qint64 lastFiredMs = -1;
        qint64 snoozedUntilMs = -1;
        QString snoozeReason;
    };
    Alert *find(quint64 id);
    QHash<QString, Timing> m_timing;
    QHash<QPair<QString, QString>, Track> m_tracks;
    QList<Alert> m_alerts;
    quint64 m_nextId = 1;
};

Q_DECLARE_METATYPE(Alert)
