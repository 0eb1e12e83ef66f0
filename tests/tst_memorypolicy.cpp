// The process's allocator policy: however many threads allocate, the arenas stay capped.

#include "services/support/memorypolicy.h"

#include <QTest>

#include <atomic>
#include <cstdlib>
#include <thread>
#include <vector>

using namespace Qt::StringLiterals;

class TestMemoryPolicy : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void threadsShareTheCappedArenas();
};

void TestMemoryPolicy::threadsShareTheCappedArenas()
{
    const int before = MemoryPolicy::arenaCount();
    QVERIFY2(before >= 0, "the allocator cannot report its arenas");
    QVERIFY2(before <= 2, "the test process already had more arenas than the cap");
    MemoryPolicy::apply();
    // glibc attaches a new arena to each new thread's first allocation while under its limit (eight per
    // core by default): six threads alive at once would make six more without the cap.
    std::vector<std::thread> threads;
    std::atomic<int> ready = 0;
    for (int t = 0; t < 6; ++t) {
        threads.emplace_back([&ready] {
            std::vector<void *> blocks;
            for (int i = 0; i < 1000; ++i)
                blocks.push_back(std::malloc(size_t(64 + i)));
            ++ready;
            while (ready.load() < 6)
                std::this_thread::yield(); // hold the arena until every thread has one
            for (void *b : blocks)
                std::free(b);
        });
    }
    for (std::thread &t : threads)
        t.join();
    const int after = MemoryPolicy::arenaCount();
    QVERIFY2(after >= 1 && after <= 2, qPrintable(QString::number(after) + u" arenas"_s));
}

QTEST_APPLESS_MAIN(TestMemoryPolicy)
#include "tst_memorypolicy.moc"
