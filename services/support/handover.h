#pragma once

#include <QtGlobal>

#include <functional>
#include <thread>
#include <utility>

// One piece of work handed to a thread of its own and joined when its result is taken (ARCHITECTURE.md,
// Threads: an owned thread): the owner hands one over, goes on with its own work, and takes the result
// before handing over another. The destructor joins a piece never taken, so whatever the work reads must
// outlive its HandOver.
template <typename T>
class HandOver final {
public:
    HandOver() = default;
    ~HandOver()
    {
        if (m_thread.joinable())
            m_thread.join();
    }
    Q_DISABLE_COPY_MOVE(HandOver)

    void handOver(std::function<T()> work)
    {
        Q_ASSERT(!m_thread.joinable());
        m_thread = std::thread([this, work = std::move(work)] { m_result = work(); });
    }
    bool isHanded() const { return m_thread.joinable(); }
    // Waits for the work handed over and returns what it made.
    T take()
    {
        m_thread.join();
        return std::exchange(m_result, T{});
    }

private:
    T m_result; // written by the thread, read after joining it
    std::thread m_thread;
};
