#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>

// How the demo world's worker threads wait: in short naps that look at the worker's stop flag, so a stop
// is seen within one nap and never slept through (DemoWorld::stop sets every flag, then joins each).
inline void napUnlessStopped(const std::atomic_bool &stop, std::chrono::milliseconds total)
{
    constexpr std::chrono::milliseconds nap(20);
    for (auto left = total; left.count() > 0 && !stop; left -= nap)
        std::this_thread::sleep_for(std::min(left, nap));
}
