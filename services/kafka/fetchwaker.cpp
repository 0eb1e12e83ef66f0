#include "fetchwaker.h"

#include "services/kafka/clusterinspector.h"

#include <pthread.h>

FetchWaker::FetchWaker(rd_kafka_t *rk, QList<TopicPartition> oneLeaderEach, int timeoutMs)
    : m_rk(rk)
    , m_probes(std::move(oneLeaderEach))
    , m_timeoutMs(timeoutMs)
{
    if (!m_probes.isEmpty())
        m_thread = std::thread([this] { run(); });
}

FetchWaker::~FetchWaker()
{
    {
        std::lock_guard lock(m_mutex);
        m_quit = true;
    }
    m_wanted.notify_one();
    if (m_thread.joinable())
        m_thread.join();
}

void FetchWaker::observe(std::size_t depth, std::size_t capacity, std::size_t taken)
{
    if (capacity == 0 || !m_thread.joinable())
        return;
    if ((depth + taken) * 2 >= capacity)
        m_armed = true; // the brokers may have found the queue full
    if (depth * 2 >= capacity)
        return;
    if (!m_armed)
        return;
    m_armed = false;
    {
        std::lock_guard lock(m_mutex);
        m_pending = true; // merges with a round not yet sent
    }
    m_wanted.notify_one();
}

long long FetchWaker::answeredRounds() const
{
    std::lock_guard lock(m_mutex);
    return m_answered;
}

long long FetchWaker::unansweredRounds() const
{
    std::lock_guard lock(m_mutex);
    return m_unanswered;
}

void FetchWaker::run()
{
#ifdef __linux__
    pthread_setname_np(pthread_self(), "fetch-waker");
#endif
    for (;;) {
        {
            std::unique_lock lock(m_mutex);
            m_wanted.wait(lock, [this] { return m_pending || m_quit; });
            if (m_quit)
                return;
            m_pending = false;
        }
        // The end-offset sentinel makes this one ListOffsets request per leader, sent together; the answer
        // itself is not needed, and an error only means this round woke nobody.
        PartitionList list(toPartitionList(m_probes, RD_KAFKA_OFFSET_END));
        const bool answered =
            rd_kafka_offsets_for_times(m_rk, list.get(), m_timeoutMs) == RD_KAFKA_RESP_ERR_NO_ERROR;
        std::lock_guard lock(m_mutex);
        ++(answered ? m_answered : m_unanswered);
    }
}
