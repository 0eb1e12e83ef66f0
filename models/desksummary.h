#pragma once

#include "services/monitor/lagsnapshot.h"

#include <QDateTime>
#include <QHash>
#include <QMap>
#include <QObject>

// The first window's answer to "is anything wrong right now?" (ARCHITECTURE.md, Views: status at a glance):
// groups behind their lag SLO, dead letters per DLQ topic in the last 15 minutes, parked rows and alerts
// firing, each naming the main view that shows it. The counts on the tabs are the same figures, so the strip
// and the tabs never disagree.
class DeskSummary final : public QObject {
    Q_OBJECT
public:
    static constexpr int DeadLetterWindowMinutes = 15;

    struct Item {
        QString view;    // the main view that shows it (MainWindow::MainView::name)
        QString subject; // what to show there (a DLQ topic); may be empty
        QString text;
        bool attention = false; // something is wrong
    };

    explicit DeskSummary(QObject *parent = nullptr);

    void setLag(const LagSnapshot &snapshot);
    // Records that arrived per DLQ topic within the window, counted since nowMs's first call when Berth has
    // watched for less than the window.
    void setDeadLetters(const QMap<QString, qint64> &inWindow, qint64 nowMs);
    // Parked and failed-terminal rows of one inbox mapping's latest board.
    void setParkedRows(const QString &mapping, qint64 rows);
    void setAlertsFiring(int count);
    void setPendingApprovals(int count);

    QList<Item> items() const;
    // The figure a main view's tab shows; -1 when it shows none.
    qint64 tabCount(const QString &view) const;

Q_SIGNALS:
    void changed();

private:
    bool m_lagKnown = false;
    int m_groups = 0;
    int m_groupsBehind = 0;
    QString m_firstBehind;
    QMap<QString, qint64> m_deadLetters;
    qint64 m_watchedSinceMs = -1;
    qint64 m_deadLettersAtMs = -1;
    QHash<QString, qint64> m_parked;
    int m_alertsFiring = -1;
    int m_pendingApprovals = -1;
};
