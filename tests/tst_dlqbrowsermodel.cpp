#include "models/dlqbrowsermodel.h"
#include "models/failuregroupmodel.h"
#include "services/dlq/largebuffer.h"

#include <QAbstractItemModelTester>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {
constexpr qint64 kT0 = 1'700'000'000'000;

// Synthetic index entries (no Kafka): what a scan of `n` dead letters would deliver.
struct Corpus {
    std::shared_ptr<StringPool> pool = std::make_shared<StringPool>();
    DlqIndexEntries entries;
    QList<quint32> groups;
    QList<FailureGroup> groupList;
};

Corpus makeCorpus(int n)
{
    Corpus c;
    StringPool &pool = *c.pool;
    FailureGroups groups(pool);
    const quint32 exceptions[] = {pool.intern(QStringView(u"com.acme.OrderNotFound")),
                                  pool.intern(QStringView(u"com.acme.PaymentDeclined")),
                                  pool.intern(QStringView(u"java.lang.IllegalStateException"))};
    const quint32 route =
        pool.internPair(pool.intern(QStringView(u"orders")), pool.intern(QStringView(u"projection")));
    c.entries.reserve(n);
    c.groups.reserve(n);
    for (int i = 0; i < n; ++i) {
        DlqIndexEntry e;
        e.partition = quint16(i % 4);
        e.offset = i / 4;
        e.timestampMs = kT0 + qint64((i * 7919LL) % n) * 1000; // a permutation: sorting has work to do
        e.originalPartition = i % 6;
        e.originalOffset = i;
        e.valueSize = quint32((i * 31) % 5000);
        e.keySize = 10;
        const QByteArray key = QByteArray("key-") + QByteArray::number(i);
        e.keyId = pool.intern(QByteArrayView(key));
        e.attempts = quint32(i % 5);
        e.exceptionId = exceptions[i % 3];
        e.reasonId = pool.intern(QStringView(
            i % 10 == 0 ? u"Card 'visa' declined"_s : u"Order "_s + QString::number(i) + u" not found"_s));
        e.routeId = route;
        e.dialect = quint8(DlqDialect::SpringDlt);
        c.entries.append(e);
        c.groups.append(groups.add(e));
    }
    c.groupList = groups.groups();
    return c;
}

void feed(DlqBrowserModel &model, const Corpus &c, int batchSize, qsizetype from = 0, qsizetype to = -1)
{
    if (to < 0)
        to = c.entries.size();
    for (qsizetype i = from; i < to; i += batchSize) {
        DlqScanBatch b;
        b.scanId = model.scanId();
        const qsizetype n = qMin<qsizetype>(batchSize, to - i);
        b.entries = c.entries.mid(i, n);
        b.groupIds = c.groups.mid(i, n);
        model.appendBatch(b);
    }
}

DlqScanPlan planFor(const Corpus &c, quint64 scanId = 1)
{
    DlqScanPlan plan;
    plan.scanId = scanId;
    plan.topic = u"orders-dlt"_s;
    plan.strings = c.pool;
    return plan;
}

int expectedCount(const Corpus &c, const QString &text, qint64 group)
{
    int n = 0;
    for (qsizetype i = 0; i < c.entries.size(); ++i) {
        const DlqIndexEntry &e = c.entries[i];
        if (group >= 0 && c.groups[i] != quint32(group))
            continue;
        const QStringList fields = {c.pool->text(e.keyId), c.pool->text(e.reasonId),
                                    c.pool->text(e.exceptionId)};
        if (text.isEmpty() || std::any_of(fields.cbegin(), fields.cend(), [&](const QString &f) {
                return f.contains(text, Qt::CaseInsensitive);
            }))
            ++n;
    }
    return n;
}
} // namespace

class TestDlqBrowserModel final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void modelTesterThroughLifecycle()
    {
        const Corpus c = makeCorpus(20'000);
        DlqBrowserModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
        model.beginScan(planFor(c));
        feed(model, c, 3000, 0, 12'000);
        QCOMPARE(model.rowCount(), 12'000);
        DlqFilter filter;
        filter.text = u"VISA"_s;
        model.setFilter(filter);
        QTRY_VERIFY(!model.isFiltering());
        QCOMPARE(model.rowCount(), 1200);
        model.sort(int(DlqColumn::Time), Qt::DescendingOrder);
        QTRY_VERIFY(!model.isFiltering());
        feed(model, c, 3000, 12'000, 20'000); // appended while filtered and sorted
        QCOMPARE(model.rowCount(), 2000);
        QTRY_COMPARE_WITH_TIMEOUT(model.rowCount(), 2000, 5000);
        model.setFilter({});
        QTRY_VERIFY(!model.isFiltering());
        QCOMPARE(model.rowCount(), 20'000);
        model.sort(-1);
        QTRY_VERIFY(!model.isFiltering());
        QCOMPARE(model.entryIndex(123), 123u);
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    void oneInsertPerBatch()
    {
        const Corpus c = makeCorpus(10'000);
        DlqBrowserModel model;
        model.beginScan(planFor(c));
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        feed(model, c, 2500);
        QCOMPARE(inserted.count(), 4);
        QCOMPARE(inserted.at(1).at(1).toInt(), 2500);
        QCOMPARE(inserted.at(1).at(2).toInt(), 4999);
        // Batches of another scan are dropped.
        DlqScanBatch stale;
        stale.scanId = model.scanId() + 7;
        stale.entries = c.entries.mid(0, 10);
        stale.groupIds = c.groups.mid(0, 10);
        model.appendBatch(stale);
        QCOMPARE(model.rowCount(), 10'000);
    }

    void filterOn200kRowsRunsOffTheUiThread()
    {
        const Corpus c = makeCorpus(200'000);
        DlqBrowserModel model;
        model.beginScan(planFor(c));
        feed(model, c, 20'000);
        QCOMPARE(model.rowCount(), 200'000);

        // The event loop keeps turning while the job runs: count timer ticks during the filter.
        int ticks = 0;
        QTimer ticker;
        ticker.setInterval(2);
        connect(&ticker, &QTimer::timeout, this, [&] { ++ticks; });
        QSignalSpy applied(&model, &DlqBrowserModel::filterApplied);
        ticker.start();
        QElapsedTimer clock;
        clock.start();
        DlqFilter filter;
        filter.text = u"7 NOT"_s; // reasons "Order …7 not found", case-insensitive
        model.setFilter(filter);
        const qint64 callMs = clock.elapsed();
        QVERIFY2(callMs < 50, qPrintable(u"setFilter blocked for %1 ms"_s.arg(callMs)));
        QVERIFY(model.isFiltering());
        QCOMPARE(model.rowCount(), 200'000); // the old order stays until the new one is ready
        QTRY_COMPARE_WITH_TIMEOUT(applied.count(), 1, 20000);
        ticker.stop();
        QCOMPARE(model.rowCount(), expectedCount(c, filter.text, -1));
        QVERIFY(model.rowCount() > 1000);
        QVERIFY(ticks > 0);

        // Sorting 200k rows by a string column is a job too.
        applied.clear();
        clock.restart();
        model.sort(int(DlqColumn::Reason), Qt::AscendingOrder);
        QVERIFY(clock.elapsed() < 50);
        QTRY_COMPARE_WITH_TIMEOUT(applied.count(), 1, 20000);
        for (int row = 1; row < model.rowCount(); row += 97) {
            const QByteArrayView a = c.pool->bytes(model.entry(row - 1).reasonId);
            const QByteArrayView b = c.pool->bytes(model.entry(row).reasonId);
            QVERIFY(a.compare(b, Qt::CaseInsensitive) <= 0);
        }
    }

    void newerFilterSupersedesRunningOne()
    {
        const Corpus c = makeCorpus(100'000);
        DlqBrowserModel model;
        model.beginScan(planFor(c));
        feed(model, c, 50'000);
        QSignalSpy applied(&model, &DlqBrowserModel::filterApplied);
        DlqFilter first;
        first.text = u"order"_s;
        model.setFilter(first);
        DlqFilter second;
        second.text = u"visa"_s;
        model.setFilter(second);
        QTRY_COMPARE_WITH_TIMEOUT(applied.count(), 1, 20000);
        QTest::qWait(50);
        QCOMPARE(applied.count(), 1); // the first job's result was dropped
        QCOMPARE(model.rowCount(), 10'000);
    }

    void sortOrders_data()
    {
        QTest::addColumn<int>("column");
        QTest::addColumn<int>("order");
        for (const auto &[name, column] :
             {std::pair{"time", DlqColumn::Time}, std::pair{"size", DlqColumn::Size},
              std::pair{"attempts", DlqColumn::Attempts}, std::pair{"position", DlqColumn::Position},
              std::pair{"key", DlqColumn::Key}}) {
            QTest::addRow("%s ascending", name) << int(column) << int(Qt::AscendingOrder);
            QTest::addRow("%s descending", name) << int(column) << int(Qt::DescendingOrder);
        }
    }

    void sortOrders()
    {
        QFETCH(int, column);
        QFETCH(int, order);
        const Corpus c = makeCorpus(30'000);
        DlqBrowserModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
        model.beginScan(planFor(c));
        feed(model, c, 10'000);
        model.sort(column, Qt::SortOrder(order));
        QTRY_VERIFY(!model.isFiltering());
        QCOMPARE(model.rowCount(), 30'000);
        auto key = [&](int row) -> std::pair<qint64, qint64> {
            const DlqIndexEntry &e = model.entry(row);
            switch (DlqColumn(column)) {
            case DlqColumn::Time:
                return {e.timestampMs, 0};
            case DlqColumn::Size:
                return {e.valueSize, 0};
            case DlqColumn::Attempts:
                return {e.attemptCount(), 0};
            case DlqColumn::Position:
                return {e.partition, e.offset};
            default:
                return {0, 0};
            }
        };
        for (int row = 1; row < model.rowCount(); ++row) {
            if (DlqColumn(column) == DlqColumn::Key) {
                const int cmp = c.pool->bytes(model.entry(row - 1).keyId)
                                    .compare(c.pool->bytes(model.entry(row).keyId), Qt::CaseInsensitive);
                QVERIFY(order == Qt::AscendingOrder ? cmp <= 0 : cmp >= 0);
            } else {
                QVERIFY(order == Qt::AscendingOrder ? key(row - 1) <= key(row) : key(row - 1) >= key(row));
            }
        }
    }

    void filterByGroupAndText()
    {
        const Corpus c = makeCorpus(40'000);
        DlqBrowserModel model;
        model.beginScan(planFor(c));
        feed(model, c, 10'000);
        for (quint32 g = 0; g < quint32(c.groupList.size()); ++g) {
            DlqFilter filter;
            filter.groupId = g;
            model.setFilter(filter);
            QTRY_VERIFY(!model.isFiltering());
            QCOMPARE(model.rowCount(), int(c.groupList[g].count));
            for (int row = 0; row < model.rowCount(); row += 101)
                QCOMPARE(model.groupOf(row), g);
            filter.text = u"99"_s;
            model.setFilter(filter);
            QTRY_VERIFY(!model.isFiltering());
            QCOMPARE(model.rowCount(), expectedCount(c, filter.text, g));
        }
        DlqFilter byException;
        byException.exceptionClass = u"com.acme.PaymentDeclined"_s;
        model.setFilter(byException);
        QTRY_VERIFY(!model.isFiltering());
        QCOMPARE(model.rowCount(), 40'000 / 3);
    }

    void cellsArePlainText()
    {
        Corpus c;
        DlqIndexEntry e;
        e.offset = 5;
        e.timestampMs = kT0;
        e.reasonId = c.pool->intern(QStringView(u"<b>bold</b>\x1b[31mred\x1b[0m\nnext\u202Eevil"));
        e.keyId = c.pool->intern(QByteArrayView("\x01\x02\xff", 3));
        e.keySize = 3;
        e.flags = DlqIndexEntry::BinaryKey | DlqIndexEntry::NullValue;
        c.entries.append(e);
        c.groups.append(0);
        DlqBrowserModel model;
        model.beginScan(planFor(c));
        feed(model, c, 10);
        const QString reason = model.index(0, int(DlqColumn::Reason)).data().toString();
        QVERIFY(!reason.contains(QChar(0x1b)));
        QVERIFY(!reason.contains(u'\n'));
        QVERIFY(!reason.contains(QChar(0x202e)));
        QVERIFY(reason.contains(u"<b>bold</b>"_s)); // shown as typed, never rendered
        QVERIFY(reason.contains(QChar(0x241b)));    // ␛
        const QString tip = model.index(0, int(DlqColumn::Reason)).data(Qt::ToolTipRole).toString();
        QVERIFY(tip.contains(u"&lt;b&gt;"_s));
        QCOMPARE(model.index(0, int(DlqColumn::Key)).data().toString(), u"0x0102ff"_s);
        QCOMPARE(model.index(0, int(DlqColumn::Size)).data().toString(), u"tombstone"_s);
        QCOMPARE(model.index(0, int(DlqColumn::Time)).data().toString(), u"2023-11-14 22:13:20.000"_s);
        QCOMPARE(model.index(0, int(DlqColumn::InboxStatus)).data().toString(), QString());
        QCOMPARE(model.index(0, 0).data(DlqBrowserModel::EntryIndexRole).toUInt(), 0u);
    }

    void entryStoreSnapshotIsStable()
    {
        const Corpus c = makeCorpus(70'000); // more than one chunk
        DlqEntryStore store;
        store.append(c.entries.mid(0, 66'000), c.groups.mid(0, 66'000));
        const DlqEntryStore::Snapshot snap = store.snapshot();
        store.append(c.entries.mid(66'000), c.groups.mid(66'000));
        QCOMPARE(snap.size(), 66'000u);
        QCOMPARE(store.size(), 70'000u);
        for (quint32 i : {0u, 65'535u, 65'536u, 65'999u}) {
            QCOMPARE(snap.at(i).offset, c.entries[i].offset);
            QCOMPARE(snap.groupOf(i), c.groups[i]);
        }
        QCOMPARE(store.at(69'999).keyId, c.entries[69'999].keyId);
    }

    void entryStoreTakesSpareChunksFirst()
    {
        // The scan maps the store's chunks on its own thread and hands them over with the batches.
        const Corpus c = makeCorpus(140'000);
        const auto entryChunk = [] { return LargeBuffer::makeShared<DlqIndexEntry>(DlqEntryStore::ChunkSize); };
        const std::vector<DlqEntryStore::EntryChunk> spare = {entryChunk(), entryChunk()};
        const std::vector<DlqEntryStore::GroupChunk> spareGroups = {
            LargeBuffer::makeShared<quint32>(DlqEntryStore::GroupChunkSize)};
        DlqEntryStore store;
        store.append(c.entries.mid(0, 66'000), c.groups.mid(0, 66'000), spare, spareGroups);
        QCOMPARE(&store.at(0), spare[0].get());
        QCOMPARE(&store.at(65'536), spare[1].get());
        // None left: the store maps the next chunk itself.
        store.append(c.entries.mid(66'000), c.groups.mid(66'000), {}, {});
        QCOMPARE(store.size(), 140'000u);
        QCOMPARE(&store.at(65'999), spare[1].get() + (65'999 - 65'536));
        QVERIFY(&store.at(131'072) != spare[0].get() && &store.at(131'072) != spare[1].get());
        for (quint32 i : {0u, 65'536u, 131'071u, 131'072u, 139'999u}) {
            QCOMPARE(store.at(i).offset, c.entries[i].offset);
            QCOMPARE(store.groupOf(i), c.groups[i]);
        }
    }

    void entryStoreAdoptsEntriesWrittenInPlace()
    {
        // The scan writes the entries into the chunks itself; the store copies only when the batch's
        // position and chunks are not its own. The chunks here hold offsets the batch does not, so what the
        // store reads tells which happened.
        const Corpus c = makeCorpus(70'000);
        const auto entryChunk = [] { return LargeBuffer::makeShared<DlqIndexEntry>(DlqEntryStore::ChunkSize); };
        const std::vector<DlqEntryStore::EntryChunk> chunks = {entryChunk(), entryChunk()};
        const std::vector<DlqEntryStore::GroupChunk> groupChunks = {
            LargeBuffer::makeShared<quint32>(DlqEntryStore::GroupChunkSize)};
        for (quint32 i = 0; i < 70'000; ++i) {
            DlqIndexEntry e = c.entries[i];
            e.offset = 1'000'000 + i;
            chunks[i >> DlqEntryStore::ChunkBits].get()[i & (DlqEntryStore::ChunkSize - 1)] = e;
            groupChunks[0].get()[i] = 7;
        }
        DlqEntryStore store;
        // Written in place from entry 0, in these chunks: adopted as they are.
        store.append(c.entries.mid(0, 40'000), c.groups.mid(0, 40'000), chunks, groupChunks,
                     {0, chunks[0].get(), groupChunks[0].get()});
        QCOMPARE(store.at(39'999).offset, 1'039'999);
        QCOMPARE(store.groupOf(0), 7u);
        // Continuing in a chunk the store holds, into the next spare one.
        store.append(c.entries.mid(40'000, 20'000), c.groups.mid(40'000, 20'000), {chunks[1]}, {},
                     {40'000, chunks[0].get(), groupChunks[0].get()});
        QCOMPARE(store.at(40'000).offset, 1'040'000);
        QCOMPARE(store.at(59'999).offset, 1'059'999);
        // A batch that names another position is copied, whatever the chunks hold.
        store.append(c.entries.mid(60'000, 5'000), c.groups.mid(60'000, 5'000), {}, {},
                     {61'000, chunks[0].get(), groupChunks[0].get()});
        QCOMPARE(store.at(60'000).offset, c.entries[60'000].offset);
        QCOMPARE(store.groupOf(64'999), c.groups[64'999]);
        // So is one that names a chunk the store does not hold at that position,
        store.append(c.entries.mid(65'000, 400), c.groups.mid(65'000, 400), {}, {},
                     {65'000, chunks[1].get(), groupChunks[0].get()});
        QCOMPARE(store.at(65'399).offset, c.entries[65'399].offset);
        // and one whose writer did not hand over the chunk it reaches into (the store maps its own).
        store.append(c.entries.mid(65'400), c.groups.mid(65'400), {}, {},
                     {65'400, chunks[0].get(), groupChunks[0].get()});
        QCOMPARE(store.size(), 70'000u);
        QCOMPARE(store.at(65'535).offset, c.entries[65'535].offset);
        QCOMPARE(store.at(69'999).offset, c.entries[69'999].offset);
    }

    void failureGroupModelUpdates()
    {
        FailureGroupModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        proxy.setSortRole(FailureGroupModel::SortRole);
        proxy.setDynamicSortFilter(true);
        proxy.sort(FailureGroupModel::Count, Qt::DescendingOrder);
        QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::Fatal);
        FailureGroup a;
        a.id = 0;
        a.count = 2;
        a.exceptionClass = u"A"_s;
        a.perMinute = {{100, 2}};
        FailureGroup b;
        b.id = 1;
        b.count = 5;
        b.exceptionClass = u"B\nwith <i>markup</i>"_s;
        b.perMinute = {{101, 5}};
        model.updateGroups({a, b});
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.totalRecords(), 7);
        QCOMPARE(proxy.index(0, 0).data(FailureGroupModel::GroupIdRole).toUInt(), 1u);
        a.count = 9;
        a.perMinute = {{100, 2}, {102, 7}};
        model.updateGroups({a});
        QCOMPARE(model.totalRecords(), 14);
        QCOMPARE(proxy.index(0, 0).data(FailureGroupModel::GroupIdRole).toUInt(), 0u);
        QVERIFY(!model.index(1, FailureGroupModel::Exception).data().toString().contains(u'\n'));
        FailureGroup c;
        c.id = 3; // ids arrive dense, but a batch may skip one that another batch of it brings
        c.count = 1;
        FailureGroup d;
        d.id = 2;
        d.count = 1;
        model.updateGroups({c, d});
        QCOMPARE(model.rowCount(), 4);
        QCOMPARE(model.group(3)->count, 1);
        model.updatePoison({PoisonMessage{u"k1"_s, true, 0, 3, 5}});
        model.updatePoison({PoisonMessage{u"k1"_s, true, 0, 4, 6}});
        QCOMPARE(model.poisonMessages().size(), 1);
        QCOMPARE(model.poisonMessages().first().failures, 4);
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    void sparkline_data()
    {
        QTest::addColumn<QList<int>>("counts"); // minute offsets from 0, one count each
        QTest::addColumn<QString>("expected");
        QTest::newRow("empty") << QList<int>{} << u"     "_s;
        QTest::newRow("peak last") << QList<int>{0, 0, 0, 0, 8} << u"▁   █"_s;
        QTest::newRow("even") << QList<int>{2, 2, 2, 2, 2} << u"█████"_s;
    }

    void sparkline()
    {
        QFETCH(QList<int>, counts);
        QFETCH(QString, expected);
        QMap<qint64, qint32> perMinute;
        for (int i = 0; i < counts.size(); ++i) {
            if (counts[i] > 0)
                perMinute.insert(1000 + i, counts[i]);
        }
        if (counts == QList<int>{0, 0, 0, 0, 8})
            perMinute.insert(1000, 1);
        QCOMPARE(FailureGroupModel::sparkline(perMinute, 1004, 5), expected);
    }
};

QTEST_MAIN(TestDlqBrowserModel)
#include "tst_dlqbrowsermodel.moc"
