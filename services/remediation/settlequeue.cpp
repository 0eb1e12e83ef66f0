#include "settlequeue.h"

#include <QElapsedTimer>

SettleQueue::SettleQueue(qint64 requestId)
    : m_requestId(requestId)
{
}

SettleQueue::~SettleQueue()
{
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
    for (std::thread &t : m_threads)
        t.join();
}

bool SettleQueue::start(const PgSession &like, QString *error, int workers)
{
    for (int i = 0; i < workers; ++i) {
        auto db = std::make_unique<PgSession>();
        if (!db->connectLike(like, error))
            break;
        m_sessions.push_back(std::move(db));
    }
    if (m_sessions.empty())
        return false;
    for (const std::unique_ptr<PgSession> &db : m_sessions)
        m_threads.emplace_back([this, session = db.get()] { work(session); });
    return true;
}

void SettleQueue::enqueue(QList<IntentJournal::Update> rows)
{
    if (rows.isEmpty())
        return;
    {
        std::lock_guard lock(m_mutex);
        m_queue.push_back(std::move(rows));
    }
    m_wake.notify_all();
}

bool SettleQueue::drain(QString *error)
{
    std::unique_lock lock(m_mutex);
    m_wake.wait(lock, [this] { return (m_queue.empty() && m_busy == 0) || !m_error.isEmpty(); });
    if (m_error.isEmpty())
        return true;
    *error = m_error;
    return false;
}

qint64 SettleQueue::busyMs() const
{
    std::lock_guard lock(m_mutex);
    return m_busyMs;
}

void SettleQueue::work(PgSession *db)
{
    IntentJournal journal(*db, m_requestId);
    std::unique_lock lock(m_mutex);
    for (;;) {
        // Drain everything queued before stopping: the destructor is no place to lose delivery results.
        m_wake.wait(lock, [this] { return !m_queue.empty() || m_stop; });
        if (m_queue.empty())
            return;
        QList<IntentJournal::Update> rows = std::move(m_queue.front());
        m_queue.pop_front();
        if (!m_error.isEmpty())
            continue; // after a failure nothing more is written: the rest stays pending
        ++m_busy;
        lock.unlock();
        QString error;
        QElapsedTimer clock;
        clock.start();
        const bool ok = journal.settle(rows, {}, {}, &error);
        const qint64 took = clock.elapsed();
        lock.lock();
        --m_busy;
        m_busyMs += took;
        if (!ok)
            m_error = error;
        m_wake.notify_all();
    }
}
