#include "jobtracker.h"

#include <QCoreApplication>
#include <QThread>

#include <algorithm>

namespace {
struct BackgroundPool : QThreadPool {
    BackgroundPool()
    {
        setObjectName(QStringLiteral("berth-jobs"));
        // Most jobs wait on a database or a broker rather than compute: a few more threads than cores keep
        // one slow query from holding up the others.
        setMaxThreadCount(std::max(4, QThread::idealThreadCount()));
        // As Qt does for its own pool: the application ends only after the jobs do, while what they use
        // still exists.
        qAddPostRoutine([] { backgroundJobsDone(); });
    }
    static void backgroundJobsDone();
};
Q_GLOBAL_STATIC(BackgroundPool, pool)

void BackgroundPool::backgroundJobsDone()
{
    if (pool.exists())
        pool->waitForDone();
}
} // namespace

QThreadPool *JobTracker::backgroundPool()
{
    return pool();
}
