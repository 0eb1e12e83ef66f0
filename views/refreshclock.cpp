#include "refreshclock.h"

#include <QTimer>

RefreshClock::RefreshClock(QObject *parent, std::function<void()> read, int intervalMs)
    : QObject(parent)
    , m_read(std::move(read))
    , m_timer(new QTimer(this))
{
    m_timer->setInterval(intervalMs);
    connect(m_timer, &QTimer::timeout, this, [this] {
        if (!m_inFlight)
            m_read();
    });
    m_timer->start();
}

void RefreshClock::setInterval(int intervalMs)
{
    m_timer->start(intervalMs);
}

int RefreshClock::interval() const
{
    return m_timer->interval();
}

void RefreshClock::readStarted()
{
    m_inFlight = true;
}

void RefreshClock::readFinished(const QDateTime &readAt)
{
    m_inFlight = false;
    m_lastRead = readAt.isValid() ? readAt : QDateTime::currentDateTimeUtc();
}

QString RefreshClock::freshness() const
{
    const int seconds = std::max(1, (m_timer->interval() + 500) / 1000);
    if (!m_lastRead.isValid())
        return tr("not read yet, follows the source every %n s", nullptr, seconds);
    return tr("read %1, follows the source every %n s", nullptr, seconds)
        .arg(m_lastRead.toLocalTime().toString(QStringLiteral("HH:mm:ss")));
}
