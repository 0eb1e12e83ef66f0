#include "threadpriority.h"

#include <QtGlobal>

#ifdef Q_OS_LINUX
#include <algorithm>
#include <cerrno>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace ThreadPriority {
void yieldToInterface()
{
#ifdef Q_OS_LINUX
    thread_local bool lowered = false; // pool threads run many jobs: lower them once
    if (lowered)
        return;
    lowered = true;
    // On Linux the nice level belongs to the thread (the task), not the process, and new threads inherit it.
    const auto tid = id_t(syscall(SYS_gettid));
    errno = 0;
    const int current = getpriority(PRIO_PROCESS, tid);
    if (errno == 0)
        setpriority(PRIO_PROCESS, tid, std::min(current + 5, 19));
#endif
}
} // namespace ThreadPriority
