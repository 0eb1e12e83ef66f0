#include "services/support/jobtracker.h"

#include <QSemaphore>
#include <QSignalSpy>
#include <QTest>

#include <atomic>
#include <memory>
#include <thread>
#include <vector>

class TestJobTracker final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void deliversResultOnContextThread()
    {
        QObject context;
        JobTracker tracker(&context);
        Qt::HANDLE deliveredOn = nullptr;
        int result = 0;
        tracker.start([](const JobControl &) { return 42; },
                      [&](int value) {
                          result = value;
                          deliveredOn = QThread::currentThreadId();
                      });
        QTRY_COMPARE(result, 42);
        QCOMPARE(deliveredOn, QThread::currentThreadId());
        QVERIFY(!tracker.isRunning());
    }

    void newerJobSupersedesOlder()
    {
        QObject context;
        JobTracker tracker(&context);
        QList<int> delivered;
        tracker.start(
            [](const JobControl &) {
                std::this_thread::sleep_for(std::chrono::milliseconds(150));
                return 1;
            },
            [&](int v) { delivered << v; });
        tracker.start([](const JobControl &) { return 2; }, [&](int v) { delivered << v; });
        QTRY_COMPARE(delivered, QList<int>{2});
        QTest::qWait(300); // the first job finishes later; its stale result must be dropped
        QCOMPARE(delivered, QList<int>{2});
    }

    void cancelStopsCooperativeWorkAndDropsResult()
    {
        QObject context;
        JobTracker tracker(&context);
        std::atomic_int iterations = 0;
        bool delivered = false;
        tracker.start(
            [&](const JobControl &control) {
                while (!control.isCancelled() && iterations < 1000000) {
                    ++iterations;
                    std::this_thread::sleep_for(std::chrono::milliseconds(1));
                }
                return iterations.load();
            },
            [&](int) { delivered = true; });
        QTRY_VERIFY(iterations > 5);
        tracker.cancel();
        QTest::qWait(100);
        const int after = iterations;
        QTest::qWait(100);
        QCOMPARE(iterations.load(), after);
        QVERIFY(!delivered);
    }

    void progressArrivesInOrder()
    {
        QObject context;
        JobTracker tracker(&context);
        QList<qint64> seen;
        bool finished = false;
        tracker.start(
            [](const JobControl &control) {
                for (int i = 1; i <= 5; ++i)
                    control.reportProgress(i, 5);
                return true;
            },
            [&](bool) { finished = true; },
            [&](qint64 done, qint64 total) {
                QCOMPARE(total, 5);
                seen << done;
            });
        QTRY_VERIFY(finished);
        QCOMPARE(seen, (QList<qint64>{1, 2, 3, 4, 5}));
    }

    void contextDestroyedDropsDelivery()
    {
        auto *context = new QObject;
        JobTracker tracker(context);
        bool delivered = false;
        tracker.start(
            [](const JobControl &) {
                std::this_thread::sleep_for(std::chrono::milliseconds(50));
                return 0;
            },
            [&](int) { delivered = true; });
        delete context;
        QTest::qWait(200);
        QVERIFY(!delivered);
    }

    void progressStopsWhenContextGoes()
    {
        // A job reporting progress as fast as it can while its context is deleted, at a different moment
        // each round: nothing arrives once the context has gone, and nothing is posted to it afterwards
        // (under the sanitizers a post reaching the deleted object fails the run).
        for (int round = 0; round < 50; ++round) {
            auto *context = new QObject;
            JobTracker tracker(context);
            std::atomic_bool stop = false;
            std::atomic_int reports = 0;
            int seen = 0;
            std::atomic_bool ended = false;
            tracker.start(
                [&](const JobControl &control) {
                    while (!stop) {
                        control.reportProgress(reports.fetch_add(1), 0);
                        std::this_thread::yield();
                    }
                    ended = true;
                    return 0;
                },
                [](int) {}, [&](qint64, qint64) { ++seen; });
            while (reports < round * 20)
                std::this_thread::yield();
            QCoreApplication::processEvents();
            delete context;
            const int seenAtDelete = seen;
            QTest::qWait(5);
            QCOMPARE(seen, seenAtDelete);
            stop = true;
            QTRY_VERIFY(ended);
        }
    }

    // QtGui splits a large fill across Qt's global thread pool and the painting thread waits for the parts:
    // jobs there would freeze every repaint of the window while they run. With every background thread
    // held by a job, work on the global pool still runs at once.
    void jobsLeaveThePaintingPoolFree()
    {
        QObject context;
        const int threads = JobTracker::backgroundPool()->maxThreadCount();
        QSemaphore release;
        std::atomic_int started = 0;
        std::vector<std::unique_ptr<JobTracker>> trackers;
        for (int i = 0; i < threads; ++i) {
            trackers.push_back(std::make_unique<JobTracker>(&context));
            trackers.back()->start(
                [&](const JobControl &) {
                    ++started;
                    release.acquire(); // holds its thread until the global pool's work below is over
                    return 0;
                },
                [](int) {});
        }
        QTRY_COMPARE(started.load(), threads);

        std::atomic_bool done = false;
        QThreadPool::globalInstance()->start([&] { done = true; });
        const bool ran = QTest::qWaitFor([&] { return done.load(); }, 10'000); // a deadlock bound
        release.release(threads);
        QThreadPool::globalInstance()->waitForDone();
        // The jobs use this function's semaphore: they must be out of it before it goes.
        QVERIFY(JobTracker::backgroundPool()->waitForDone(10'000));
        QVERIFY2(ran, "the global pool waited for the background jobs");
    }
};

QTEST_GUILESS_MAIN(TestJobTracker)
#include "tst_jobtracker.moc"
