#pragma once

#include <QObject>
#include <QThreadPool>

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>

// What a running job sees: whether it should stop, and a way to report progress.
class JobControl final {
public:
    bool isCancelled() const { return m_cancelled->load(std::memory_order_relaxed); }
    // Thread-safe; delivered to the tracker's context, coalesced by the receiver if it wants.
    void reportProgress(qint64 done, qint64 total) const
    {
        if (m_progress)
            m_progress(done, total);
    }

private:
    friend class JobTracker;
    std::shared_ptr<std::atomic_bool> m_cancelled = std::make_shared<std::atomic_bool>(false);
    std::function<void(qint64, qint64)> m_progress;
};

// The one helper for background work (one per kind of job, owned by the object that shows its result).
// Starting a job supersedes the previous one: it is cancelled and whatever it still returns is dropped,
// because a generation id no longer matches. Results and progress arrive queued on the context's thread,
// and never after the context is destroyed.
class JobTracker final {
public:
    explicit JobTracker(QObject *context, QThreadPool *pool = backgroundPool())
        : m_context(context)
        , m_pool(pool)
    {
        // A QPointer checked on a worker thread could pass just before the context goes, and the post then
        // reach a deleted object. destroyed() is emitted before the object's posted events are dropped (at
        // the very end of its destruction): marked under the gate that every post takes, no job posts to it
        // afterwards, and one posted before is dropped with the rest.
        m_contextGone = QObject::connect(context, &QObject::destroyed, [state = m_state] {
            const std::lock_guard gate(state->gate);
            state->contextGone = true;
        });
    }

    // Where jobs run unless given their own pool. Not Qt's global pool: QtGui splits large fills across
    // that one and the painting thread waits for the parts, so jobs holding its threads (an export, a
    // chain verify, a look-up on a slow database) would freeze the window while they run.
    static QThreadPool *backgroundPool();

    ~JobTracker()
    {
        cancel();
        QObject::disconnect(m_contextGone);
    }
    Q_DISABLE_COPY_MOVE(JobTracker) // a copy would share the job and disconnect the context's watch twice

    using Progress = std::function<void(qint64 done, qint64 total)>;

    template <typename Work, typename Done> void start(Work work, Done done, Progress progress = {})
    {
        cancel();
        const quint64 generation = ++m_state->generation;
        JobControl control;
        m_cancelled = control.m_cancelled;
        auto state = m_state;
        QObject *context = m_context;
        if (progress) {
            control.m_progress = [state, generation, context, progress,
                                  cancelled = control.m_cancelled](qint64 d, qint64 t) {
                const std::lock_guard gate(state->gate);
                if (cancelled->load(std::memory_order_relaxed) || state->contextGone)
                    return;
                QMetaObject::invokeMethod(
                    context,
                    [state, generation, progress, d, t] {
                        if (state->generation == generation)
                            progress(d, t);
                    },
                    Qt::QueuedConnection);
            };
        }
        m_pool->start(
            [work = std::move(work), done = std::move(done), control, state, generation, context]() mutable {
                auto result = work(control);
                // Checked and posted under the gate that cancel() takes: once the tracker is cancelled or
                // gone (before its owner is), no job can still be reaching for the context.
                const std::lock_guard gate(state->gate);
                if (control.isCancelled() || state->contextGone)
                    return;
                QMetaObject::invokeMethod(
                    context,
                    [state, generation, done = std::move(done), result = std::move(result)]() mutable {
                        if (state->generation != generation)
                            return;
                        state->running = false;
                        done(std::move(result));
                    },
                    Qt::QueuedConnection);
            });
        m_state->running = true;
    }

    // Stops the current job (cooperatively) and drops its result.
    void cancel()
    {
        if (m_cancelled) {
            const std::lock_guard gate(m_state->gate);
            m_cancelled->store(true);
        }
        ++m_state->generation;
        m_state->running = false;
    }

    bool isRunning() const { return m_state->running; }

private:
    struct State {
        quint64 generation = 0; // touched on the context's thread only
        bool running = false;
        std::mutex gate;          // between a job posting to the context and cancel() or the context going
        bool contextGone = false; // under the gate
    };
    QObject *const m_context;
    QMetaObject::Connection m_contextGone;
    QThreadPool *m_pool;
    std::shared_ptr<State> m_state = std::make_shared<State>();
    std::shared_ptr<std::atomic_bool> m_cancelled;
};
