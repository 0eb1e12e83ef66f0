#pragma once

#include <QDateTime>
#include <QObject>

#include <functional>

class QTimer;

// The one rule for a live view (ARCHITECTURE.md, Views: live views): a view whose source changes on its
// own follows it on a clock (or on NOTIFY, where the source sends one) and says how fresh it is. The clock
// asks the view to read again; a read still in flight is not asked twice, so a slow database is not
// queued up. The view tells the clock when its answer arrived.
class RefreshClock final : public QObject {
    Q_OBJECT
public:
    static constexpr int DefaultIntervalMs = 15'000; // the inbox boards' clock

    RefreshClock(QObject *parent, std::function<void()> read, int intervalMs = DefaultIntervalMs);

    void setInterval(int intervalMs);
    int interval() const;
    // The view asked for a read (the clock, a click, F5): the next tick waits for its answer.
    void readStarted();
    // The answer arrived; readAt: when the source was read (invalid: now).
    void readFinished(const QDateTime &readAt = {});
    QDateTime lastRead() const { return m_lastRead; }
    // "read 18:20:05, follows the source every 15 s" (local time), for the view's status line.
    QString freshness() const;

private:
    std::function<void()> m_read;
    QTimer *m_timer;
    bool m_inFlight = false;
    QDateTime m_lastRead;
};
