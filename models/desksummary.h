#pragma once

#include "services/inbox/inboxboard.h"
#include "services/monitor/lagsnapshot.h"

#include <QDateTime>
#include <QHash>
#include <QMap>
#include <QObject>

class AlertEngine;
class MonitorService;
class QAbstractItemModel;

// The first window's answer to "is anything wrong right now?" (ARCHITECTURE.md, Views: status at a glance):
// groups behind their lag SLO, dead letters per DLQ topic in the last 15 minutes, parked rows and alerts
// firing, each naming the main view that shows it. The counts on the tabs are the same figures, so the strip
// and the tabs never disagree. It follows its sources itself (follow, followApprovals): the composition root
// only hands them over.
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

    // Lag samples and the DLQ arrivals counted with them, inbox boards, alerts firing.
    void follow(const MonitorService *monitor, const AlertEngine *alerts);
    // Requests waiting for approval: the queue's rows.
    void followApprovals(const QAbstractItemModel *queue);
    void observeBoard(const InboxBoard &board);

    void setLag(const LagSnapshot &snapshot);
    // Records that arrived per DLQ topic within the window, counted since nowMs's first call when Berth has
    // watched for less than the window.
    void setDeadLetters(const QMap<QString, qint64> &inWindow, qint64 nowMs);
    // Parked and failed-terminal rows of one inbox mapping's latest board.
    void setParkedRows(const QString &mapping, qint64 rows);
    // The mapping the Parked view lists: its tab counts that mapping's rows, as its table does.
    void setParkedFocus(const QString &mapping);
    void setAlertsFiring(int count);
    void setPendingApprovals(int count);

    QList<Item> items() const;
    // The figure a main view's tab shows; -1 when it shows none. Parked: the focused mapping's rows (all
    // mappings' until a focus is set or while its board is unknown).
    qint64 tabCount(const QString &view) const;
    qint64 parkedInAll() const;

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
    QString m_parkedFocus;
    int m_alertsFiring = -1;
    int m_pendingApprovals = -1;
};
