// Memory for the DLQ index's big arrays: zero-filled and writable to the last byte, whichever way it is
// mapped; tables probed at random come aligned to a huge page, so that the kernel can back them with
// huge pages, and the kernel is asked to.

#include "services/dlq/largebuffer.h"

#include <QFile>
#include <QTest>

#include <cstdint>
#include <cstring>

using namespace Qt::StringLiterals;

namespace {
bool allZero(const char *p, size_t bytes)
{
    for (size_t i = 0; i < bytes; ++i) {
        if (p[i])
            return false;
    }
    return true;
}

// The flags line of the smaps entry that starts at `start` ("VmFlags: rd wr mr mw me ac hg"), empty if none.
QByteArray vmFlagsOf(const void *start)
{
    QFile smaps(u"/proc/self/smaps"_s);
    if (!smaps.open(QIODevice::ReadOnly))
        return {};
    const QByteArray head = QByteArray::number(quint64(reinterpret_cast<std::uintptr_t>(start)), 16) + '-';
    bool inside = false;
    for (const QByteArray &line : smaps.readAll().split('\n')) {
        if (line.startsWith(head))
            inside = true;
        else if (inside && line.startsWith("VmFlags:"))
            return line;
    }
    return {};
}
} // namespace

class TestLargeBuffer : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void blocksAreZeroedAndWritable_data()
    {
        QTest::addColumn<bool>("randomAccess");
        QTest::addColumn<qulonglong>("bytes");
        for (const bool random : {false, true}) {
            const QByteArray kind = random ? "random access, " : "sequential, ";
            QTest::newRow(QByteArray(kind + "small").constData()) << random << qulonglong(1000);
            QTest::newRow(QByteArray(kind + "mapped").constData()) << random << qulonglong(256 * 1024);
            QTest::newRow(QByteArray(kind + "a huge page and a bit").constData())
                << random << qulonglong(LargeBuffer::HugePage + 12345);
        }
    }

    void blocksAreZeroedAndWritable()
    {
        QFETCH(bool, randomAccess);
        QFETCH(qulonglong, bytes);
        auto *p = static_cast<char *>(randomAccess ? LargeBuffer::allocateRandomAccess(bytes)
                                                   : LargeBuffer::allocate(bytes));
        QVERIFY(p);
        QVERIFY(allZero(p, bytes));
        std::memset(p, 0x5a, bytes); // every byte is ours, the last one too
        QCOMPARE(p[bytes - 1], char(0x5a));
        LargeBuffer::release(p, bytes);
    }

    void randomAccessTablesSitOnHugePages()
    {
#ifndef Q_OS_LINUX
        QSKIP("huge pages are asked for on Linux only");
#else
        const size_t bytes = 3 * LargeBuffer::HugePage;
        void *p = LargeBuffer::allocateRandomAccess(bytes);
        QCOMPARE(reinterpret_cast<std::uintptr_t>(p) % LargeBuffer::HugePage, std::uintptr_t(0));
        const QByteArray flags = vmFlagsOf(p);
        QVERIFY2(!flags.isEmpty(), "the mapping is not in /proc/self/smaps");
        QVERIFY2(flags.split(' ').contains("hg"), flags.constData()); // MADV_HUGEPAGE took
        LargeBuffer::release(p, bytes);
        QVERIFY(vmFlagsOf(p).isEmpty()); // unmapped whole
#endif
    }
};

QTEST_GUILESS_MAIN(TestLargeBuffer)
#include "tst_largebuffer.moc"
