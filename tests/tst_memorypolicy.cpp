// The process's allocator policy: however many threads allocate, the arenas stay capped; large buffers stay
// in the heap and, once freed, are kept for the next one.

#include "services/support/memorypolicy.h"
#include "support/sanitizers.h"

#include <QTest>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

using namespace Qt::StringLiterals;

class TestMemoryPolicy : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void threadsShareTheCappedArenas();
    void largeBuffersStayInTheHeapForReuse();
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

void TestMemoryPolicy::largeBuffersStayInTheHeapForReuse()
{
#ifdef BERTH_UNDER_ASAN
    QSKIP("ASan's allocator replaces glibc's here: the thresholds are glibc's and do not apply");
#endif
    MemoryPolicy::apply();
    const MemoryPolicy::MallocFigures before = MemoryPolicy::figures();
    QVERIFY2(before.mappedBlocks >= 0, "the allocator cannot report its figures");
    // glibc's defaults give each block over 128 KB its own mapping (until one such block has been freed), and
    // hand free memory over 128 KB on top of the heap back to the kernel.
    constexpr size_t kBlock = 12u << 20;
    std::vector<char *> blocks;
    for (int i = 0; i < 2; ++i) {
        auto *block = static_cast<char *>(std::malloc(kBlock));
        QVERIFY(block);
        std::memset(block, i + 1, kBlock);
        blocks.push_back(block);
    }
    QCOMPARE(MemoryPolicy::figures().mappedBlocks, before.mappedBlocks);
    for (char *block : blocks)
        std::free(block);
    const qint64 kept = MemoryPolicy::figures().freeHeapBytes;
    QVERIFY2(kept >= qint64(2 * kBlock), qPrintable(QString::number(kept) + u" bytes kept"_s));
}

QTEST_APPLESS_MAIN(TestMemoryPolicy)
#include "tst_memorypolicy.moc"
