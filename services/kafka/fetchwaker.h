#pragma once

#include "services/kafka/kafkatypes.h"

#include <librdkafka/rdkafka.h>

#include <QList>

#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <thread>

// Keeps a legacy consumer's broker threads fetching while the reader drains a full prefetch queue.
//
// librdkafka 2.0 stops fetching a partition once the queue it feeds holds queued.max.messages.kbytes, and the
// broker thread then sleeps until something else wakes it: up to a second, while the reader empties the
// queue and then sits idle with it empty (librdkafka issue #2879; 2.4 added fetch.queue.backoff.ms for it).
//
// The reader reports the queue's depth as it consumes. Each time the queue has been at least half full and
// is back below half, a thread of the waker's own asks each leader for an end offset: that request wakes
// the leader's broker thread, which finds room in the queue and fetches again. One request per leader and
// one round at a time (it waits for the answers up to its timeout), so a scan that never fills its queue
// sends none.
//
// Records the reader has taken out of the queue and not handled yet count as queued: it reports how many
// it holds. A reader that takes all that is queued at once (librdkafka's callback consumer does) leaves
// the queue reading empty while it works; responses that filled the queue while it waited then went
// unseen, and every broker slept its full second.
class FetchWaker final {
public:
    // oneLeaderEach: a partition led by each broker the reader fetches from.
    FetchWaker(rd_kafka_t *rk, QList<TopicPartition> oneLeaderEach, int timeoutMs);
    ~FetchWaker();
    FetchWaker(const FetchWaker &) = delete;
    FetchWaker &operator=(const FetchWaker &) = delete;

    // On the reader's thread: the queue holds depth records, about capacity fit, and the reader holds taken
    // more that it has taken out.
    void observe(std::size_t depth, std::size_t capacity, std::size_t taken = 0);
    // Wake-up rounds so far that every leader answered, and that some did not.
    long long answeredRounds() const;
    long long unansweredRounds() const;

private:
    void run();

    rd_kafka_t *const m_rk;
    const QList<TopicPartition> m_probes;
    const int m_timeoutMs;
    bool m_armed = false; // the reader's: the queue was half full since the last wake-up

    mutable std::mutex m_mutex;
    std::condition_variable m_wanted;
    bool m_pending = false;
    bool m_quit = false;
    long long m_answered = 0;
    long long m_unanswered = 0;
    std::thread m_thread;
};
