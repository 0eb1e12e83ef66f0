#pragma once

#include <QDateTime>
#include <QHash>
#include <QList>
#include <QMetaType>
#include <QObject>

// An alert is raised only when its condition has held for a sustained time, and cleared only after the
// condition has been back to normal for a while (hysteresis), so a flapping signal does not page anyone.
struct Alert {
    quint64 id = 0;
    QString rule;    // e.g. "lag-slo", "dlq-rate"
    QString subject; // the group, topic or inbox it is about
    QString message; // what is wrong, in words, as of the last observation
    QDateTime firedAt;
    QDateTime clearedAt; // invalid while active
    bool acknowledged = false;
    bool isActive() const { return !clearedAt.isValid(); }
};

class AlertEngine final : public QObject {
    Q_OBJECT
public:
    enum class Observation { Breach, Hold, Normal }; // Hold: between the clear and the fire thresholds
    struct Timing {
        qint64 sustainMs = 120000;
        qint64 clearAfterMs = 60000;
    };

    explicit AlertEngine(QObject *parent = nullptr);

    void setTiming(const QString &rule, Timing timing);
    // Feed one observation of a rule for a subject at time `nowMs`.
    void observe(const QString &rule, const QString &subject, Observation observation, const QString &message,
                 qint64 nowMs);
    void acknowledge(quint64 id);

    QList<Alert> alerts() const { return m_alerts; } // newest first; cleared ones kept (bounded)
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
    };
    Alert *find(quint64 id);
    QHash<QString, Timing> m_timing;
    QHash<QPair<QString, QString>, Track> m_tracks;
    QList<Alert> m_alerts;
    quint64 m_nextId = 1;
};

Q_DECLARE_METATYPE(Alert)
