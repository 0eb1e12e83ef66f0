#include "models/alertmodel.h"
#include "models/connectionsmodel.h"
#include "models/grouplagmodel.h"
#include "models/lagseriesstore.h"
#include "models/lagtablemodel.h"
#include "models/logmodel.h"
#include "services/monitor/lagevaluator.h"
#include "services/monitor/lagsnapshotjson.h"

#include <QAbstractItemModelTester>
#include <QJsonArray>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTest>

#include <thread>

using namespace Qt::StringLiterals;

namespace {
LagSnapshot snapshot(const QList<std::tuple<QString, QString, int, qint64, qint64>> &rows)
{
    LagSnapshot s;
    s.reachable = true;
    for (const auto &[g, t, p, committed, end] : rows) {
        PartitionLag r;
        r.group = g;
        r.topic = t;
        r.partition = p;
        r.committed = committed;
        r.end = end;
        r.lag = committed < 0 ? end : end - committed;
        if (committed < 0)
            r.flags |= PartitionLag::NoCommit;
        s.rows.append(r);
        if (!s.groups.contains(g))
            s.groups.append(g);
    }
    return s;
}

// Group "sink" on partitions 0.. of "orders" (one list of committed offsets each) over samples 5 s apart,
// evaluated as the sampler does.
LagSnapshot evaluated(const QList<QList<qint64>> &committed, const QList<qint64> &end, qint64 allowedLag = 0)
{
    LagHistory history;
    LagEvaluation evaluation;
    evaluation.rules.allowedLag = allowedLag;
    // No lag here is only transaction markers: a record follows every committed offset.
    evaluation.lastRecords = [](const PartitionOffsets &from, const PartitionOffsets &) {
        QHash<TopicPartition, qint64> last;
        for (auto it = from.cbegin(); it != from.cend(); ++it)
            last.insert(it.key(), it.value());
        return last;
    };
    LagSnapshot s;
    for (qsizetype i = 0; i < end.size(); ++i) {
        s = LagSnapshot{};
        s.reachable = true;
        s.takenAt = QDateTime::fromMSecsSinceEpoch(1'000'000 + i * 5000);
        s.groups = {u"sink"_s};
        for (int p = 0; p < int(committed.size()); ++p) {
            const TopicPartition tp{u"orders"_s, p};
            s.endOffsets.insert(tp, end[i]);
            PartitionLag row;
            row.group = u"sink"_s;
            row.topic = tp.topic;
            row.partition = p;
            row.start = 0;
            row.end = end[i];
            row.committed = committed[p][i];
            row.lag = row.end - row.committed;
            s.rows.append(row);
        }
        evaluateLag(s, history, nullptr, evaluation);
    }
    return s;
}
}

class TestModels final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void lagModelPassesTheTesterThroughUpdates()
    {
        LagTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        proxy.setSortRole(LagTableModel::SortRole);
        proxy.sort(LagTableModel::Lag, Qt::DescendingOrder);
        QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);

        model.setSnapshot(snapshot({{u"g"_s, u"t"_s, 0, 5, 10}, {u"g"_s, u"t"_s, 1, 0, 100}}));
        QCOMPARE(model.rowCount(), 2);
        model.setSnapshot(snapshot({{u"g"_s, u"t"_s, 0, 9, 10}, {u"g"_s, u"t"_s, 1, 99, 100}}));
        model.setSnapshot(snapshot({{u"g"_s, u"t"_s, 0, 9, 10}}));
        model.setSnapshot({});
        QCOMPARE(model.rowCount(), 0);
    }

    void sameKeysUpdateInPlaceNewKeysReset()
    {
        LagTableModel model;
        model.setSnapshot(snapshot({{u"g"_s, u"t"_s, 0, 5, 10}, {u"g"_s, u"t"_s, 1, 0, 100}}));
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        model.setSnapshot(snapshot({{u"g"_s, u"t"_s, 0, 7, 12}, {u"g"_s, u"t"_s, 1, 50, 100}}));
        QCOMPARE(changed.size(), 1);
        QCOMPARE(reset.size(), 0);
        QCOMPARE(model.index(0, LagTableModel::Lag).data(LagTableModel::SortRole).toLongLong(), 5);
        model.setSnapshot(snapshot({{u"g"_s, u"t"_s, 0, 7, 12}, {u"h"_s, u"t"_s, 1, 50, 100}}));
        QCOMPARE(reset.size(), 1);
    }

    void sortingUsesNumbersNotText()
    {
        LagTableModel model;
        // As text "9" > "10000"; as numbers it is the other way round.
        model.setSnapshot(snapshot({{u"a"_s, u"t"_s, 0, 0, 9}, {u"b"_s, u"t"_s, 0, 0, 10000}, {u"c"_s, u"t"_s, 0, 0, 500}}));
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        proxy.setSortRole(LagTableModel::SortRole);
        proxy.sort(LagTableModel::Lag, Qt::DescendingOrder);
        QCOMPARE(proxy.index(0, LagTableModel::Group).data().toString(), u"b"_s);
        QCOMPARE(proxy.index(2, LagTableModel::Group).data().toString(), u"a"_s);
    }

    void flagsAreExplained()
    {
        LagTableModel model;
        LagSnapshot s = snapshot({{u"g"_s, u"t"_s, 0, -1, 40}});
        s.rows[0].start = 3;
        model.setSnapshot(s);
        QCOMPARE(model.index(0, LagTableModel::Committed).data().toString(), u"none"_s);
        QVERIFY(model.index(0, LagTableModel::Lag).data(Qt::ToolTipRole).toString().contains(u"log start"_s));
        PartitionLag ahead;
        ahead.group = u"g"_s;
        ahead.topic = u"t"_s;
        ahead.partition = 1;
        ahead.committed = 50;
        ahead.end = 40;
        ahead.flags = PartitionLag::CommittedAhead;
        s.rows.append(ahead);
        model.setSnapshot(s);
        QCOMPARE(model.index(1, LagTableModel::Lag).data(LagTableModel::SortRole).toLongLong(), 0);
        QVERIFY(model.index(1, LagTableModel::Lag).data(Qt::ToolTipRole).toString().contains(u"past the end"_s));
    }

    void timeToClearSaysWhatTheSamplesShow_data()
    {
        QTest::addColumn<QList<qint64>>("committed");
        QTest::addColumn<QList<qint64>>("end");
        QTest::addColumn<qint64>("allowedLag");
        QTest::addColumn<QString>("shown");
        QTest::addColumn<QString>("clearing");
        QTest::addColumn<qint64>("timeToClearS"); // -1: null in JSON
        // A stopped consumer whose time lag is still within its SLO: status OK, and nothing is consumed.
        QTest::newRow("stopped within its SLO")
            << QList<qint64>{100, 100, 100, 100} << QList<qint64>{100, 120, 140, 160} << qint64(0)
            << u"no progress"_s << u"no-progress"_s << qint64(-1);
        QTest::newRow("draining") << QList<qint64>{0, 40, 80, 120} << QList<qint64>{100, 120, 140, 160}
                                  << qint64(0) << u"10 s"_s << u"draining"_s << qint64(10);
        QTest::newRow("consuming at the produced rate")
            << QList<qint64>{0, 20, 40, 60} << QList<qint64>{50, 70, 90, 110} << qint64(0)
            << u"keeping up"_s << u"steady"_s << qint64(-1);
        QTest::newRow("lag holding with ups and downs")
            << QList<qint64>{0, 21, 39, 60} << QList<qint64>{50, 70, 90, 110} << qint64(0)
            << u"keeping up"_s << u"steady"_s << qint64(-1);
        QTest::newRow("falling behind")
            << QList<qint64>{0, 10, 20, 30} << QList<qint64>{50, 70, 90, 110} << qint64(0)
            << u"not clearing"_s << u"not-shrinking"_s << qint64(-1);
        QTest::newRow("stopped within the allowed lag")
            << QList<qint64>{100, 100, 100} << QList<qint64>{100, 110, 120} << qint64(50) << u"keeping up"_s
            << u"within-allowed-lag"_s << qint64(-1);
        QTest::newRow("caught up") << QList<qint64>{100, 120} << QList<qint64>{100, 120} << qint64(0)
                                   << u"caught up"_s << u"caught-up"_s << qint64(0);
        QTest::newRow("first sample") << QList<qint64>{100} << QList<qint64>{150} << qint64(0)
                                      << u"not measured yet"_s << u"unmeasured"_s << qint64(-1);
    }
    void timeToClearSaysWhatTheSamplesShow()
    {
        QFETCH(QList<qint64>, committed);
        QFETCH(QList<qint64>, end);
        QFETCH(qint64, allowedLag);
        QFETCH(QString, shown);
        QFETCH(QString, clearing);
        QFETCH(qint64, timeToClearS);
        const LagSnapshot s = evaluated({committed}, end, allowedLag);
        if (QByteArrayView(QTest::currentDataTag()) == "stopped within its SLO")
            QCOMPARE(lagStatusName(s.groupRows.at(0).status), u"OK"_s);
        LagTableModel partitions;
        GroupLagModel groups;
        partitions.setSnapshot(s);
        groups.setSnapshot(s);
        QCOMPARE(partitions.index(0, LagTableModel::TimeToClear).data().toString(), shown);
        QCOMPARE(groups.index(0, GroupLagModel::TimeToClear).data().toString(), shown);
        // `berth lag --json` states the same: a null time to clear comes with the word that says why.
        const QJsonObject group = lagSnapshotToJson(s).value(u"groups"_s).toArray().at(0).toObject();
        const QJsonObject partition = group.value(u"partitions"_s).toArray().at(0).toObject();
        for (const QJsonObject &o : {group, partition}) {
            QCOMPARE(o.value(u"clearing"_s).toString(), clearing);
            QCOMPARE(o.value(u"timeToClearSeconds"_s).isNull(), timeToClearS < 0);
            if (timeToClearS >= 0)
                QCOMPARE(o.value(u"timeToClearSeconds"_s).toInteger(), timeToClearS);
        }
    }

    void groupReadsAsItsWorstPartition()
    {
        // One partition draining, one standing still: the group does not clear.
        const LagSnapshot s = evaluated({{0, 40, 80, 120}, {100, 100, 100, 100}}, {100, 120, 140, 160});
        QCOMPARE(s.rows.at(0).clearing, LagClearing::Draining);
        GroupLagModel groups;
        groups.setSnapshot(s);
        QCOMPARE(groups.index(0, GroupLagModel::TimeToClear).data().toString(), u"no progress"_s);
        QCOMPARE(s.groupRows.at(0).timeToClearS, -1);
    }

    void groupModelSortsByLagStatusAndTimeLag()
    {
        GroupLagModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        LagSnapshot s;
        s.reachable = true;
        GroupLag a{u"alpha"_s};
        a.lag = 9;
        a.maxTimeLagMs = 120000;
        a.status = LagStatus::Stall;
        a.statusReason = u"stuck"_s;
        GroupLag b{u"beta"_s};
        b.lag = 10000;
        b.maxTimeLagMs = 2000;
        s.groupRows = {a, b};
        model.setSnapshot(s);
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        proxy.setSortRole(GroupLagModel::SortRole);
        QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.sort(GroupLagModel::Lag, Qt::DescendingOrder);
        QCOMPARE(proxy.index(0, 0).data().toString(), u"beta"_s);
        proxy.sort(GroupLagModel::MaxTimeLag, Qt::DescendingOrder);
        QCOMPARE(proxy.index(0, 0).data().toString(), u"alpha"_s);
        proxy.sort(GroupLagModel::Status, Qt::DescendingOrder);
        QCOMPARE(proxy.index(0, 0).data().toString(), u"alpha"_s);
        QCOMPARE(proxy.index(0, GroupLagModel::Status).data().toString(), u"STALL"_s);
        QCOMPARE(proxy.index(0, GroupLagModel::Status).data(Qt::ToolTipRole).toString(), u"stuck"_s);
        QCOMPARE(proxy.index(0, GroupLagModel::MaxTimeLag).data().toString(), u"2 min 00 s"_s);
        s.groupRows.removeFirst();
        model.setSnapshot(s);
        QCOMPARE(model.rowCount(), 1);
    }

    void alertModelShowsStateAndIds()
    {
        AlertModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        Alert active;
        active.id = 7;
        active.rule = u"lag-slo"_s;
        active.subject = u"g"_s;
        active.message = u"<b>not markup</b>"_s;
        active.firedAt = QDateTime::currentDateTimeUtc();
        Alert cleared = active;
        cleared.id = 3;
        cleared.clearedAt = active.firedAt.addSecs(60);
        model.setAlerts({active, cleared});
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.index(0, AlertModel::State).data().toString(), u"ACTIVE"_s);
        QCOMPARE(model.index(1, AlertModel::State).data().toString(), u"cleared"_s);
        QCOMPARE(model.index(0, 0).data(AlertModel::AlertIdRole).toULongLong(), 7u);
        QCOMPARE(model.index(0, AlertModel::Message).data().toString(), u"<b>not markup</b>"_s);
    }

    void seriesStoreKeepsOrderAndRetention()
    {
        LagSeriesStore store;
        store.setRetention(120, 60);
        LagSnapshot s;
        s.reachable = true;
        s.groupRows = {GroupLag{u"g"_s}};
        const qint64 t0 = 1'700'000'000'000;
        for (int i = 0; i < 400; ++i) {
            s.takenAt = QDateTime::fromMSecsSinceEpoch(t0 + i * 1000);
            s.groupRows[0].lag = i;
            store.append(s);
        }
        const auto series = store.groupSeries(u"g"_s, LagSeriesStore::Metric::LagMessages);
        QVERIFY(std::is_sorted(series.keys.cbegin(), series.keys.cend()));
        QVERIFY(series.keys.constFirst() >= double(t0) / 1000.0 + 399 - 120 - 64); // trimmed in chunks
        QCOMPARE(series.values.constLast(), 399.0);
        const auto coarse = store.groupSeries(u"g"_s, LagSeriesStore::Metric::LagMessages, true);
        QVERIFY(coarse.keys.size() <= 4);
        QCOMPARE(coarse.values.constLast(), 399.0); // a minute's maximum
    }

    void seriesStoreKeepsSideFamiliesApart()
    {
        LagSeriesStore store;
        store.setRateTopics({u"orders-dlt"_s});
        QSignalSpy appended(&store, &LagSeriesStore::appended);
        LagSnapshot s;
        s.reachable = true;
        const QDateTime t0 = QDateTime::fromMSecsSinceEpoch(1'700'000'000'000);
        s.takenAt = t0;
        s.topicRatePerMinute.insert(u"orders-dlt"_s, 12.0);
        store.append(s);
        store.appendSide(LagSeriesStore::Side::Duplicates, u"payments"_s, t0, 3.0);
        store.appendSide(LagSeriesStore::Side::Duplicates, u"payments"_s, t0.addSecs(5), 4.0);
        store.appendSide(LagSeriesStore::Side::Duplicates, u"payments"_s, t0.addSecs(1), 9.0); // out of order: dropped
        store.appendSide(LagSeriesStore::Side::InboxFailures, u"order-projection"_s, t0, 7.0);
        QCOMPARE(appended.size(), 5);
        const auto dlq = store.sideSeries(LagSeriesStore::Side::DlqArrivals);
        QCOMPARE(dlq.keys(), QStringList{u"orders-dlt"_s});
        QCOMPARE(dlq.value(u"orders-dlt"_s).values, QVector<double>{12.0});
        const auto duplicates = store.sideSeries(LagSeriesStore::Side::Duplicates);
        QCOMPARE(duplicates.keys(), QStringList{u"payments"_s});
        QCOMPARE(duplicates.value(u"payments"_s).values, (QVector<double>{3.0, 4.0}));
        QCOMPARE(store.sideSeries(LagSeriesStore::Side::InboxFailures).value(u"order-projection"_s).values,
                 QVector<double>{7.0});
    }

    void logModelFiltersFollowsAndStaysBounded()
    {
        LogBuffer buffer(50);
        LogModel model(&buffer);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        buffer.append(QtDebugMsg, u"berth.kafka"_s, u"noise"_s);
        buffer.append(QtInfoMsg, u"berth.kafka"_s, u"connected"_s);
        buffer.append(QtWarningMsg, u"berth.inbox"_s, u"<b>database</b>\nwent away"_s);
        model.refresh();
        QCOMPARE(model.rowCount(), 2); // info and above by default
        QCOMPARE(model.index(1, LogModel::Message).data().toString(), u"<b>database</b> went away"_s);
        model.setMinimumType(QtWarningMsg);
        QCOMPARE(model.rowCount(), 1);
        model.setMinimumType(QtDebugMsg);
        model.setCategoryFilter(u"KAFKA"_s);
        QCOMPARE(model.rowCount(), 2);
        model.setCategoryFilter({});
        // Over capacity: the oldest go, the model follows by removing and appending rows.
        for (int i = 0; i < 120; ++i)
            buffer.append(QtInfoMsg, u"berth.monitor"_s, u"sample "_s + QString::number(i));
        model.refresh();
        QCOMPARE(model.rowCount(), 50);
        QCOMPARE(model.index(49, LogModel::Message).data().toString(), u"sample 119"_s);
        QCOMPARE(model.index(0, LogModel::Message).data().toString(), u"sample 70"_s);
        // Messages from another thread arrive through the coalesced signal.
        QSignalSpy appended(&buffer, &LogBuffer::appended);
        std::thread([&buffer] {
            for (int i = 0; i < 10; ++i)
                buffer.append(QtWarningMsg, u"berth.dlq"_s, u"from a worker"_s);
        }).join();
        QTRY_VERIFY(appended.size() >= 1);
        QVERIFY(appended.size() <= 10);
        QTRY_COMPARE(model.index(49, LogModel::Message).data().toString(), u"from a worker"_s);
    }

    void connectionsModelShowsClusterAndHealth()
    {
        ConnectionsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        ClusterSnapshot cluster;
        cluster.bootstrap = u"127.0.0.1:9092"_s;
        cluster.brokers = {{1, u"127.0.0.1"_s, 9092}, {2, u"127.0.0.1"_s, 9093}};
        cluster.topics = {{u"orders"_s, {1, 2, 1}, {}}};
        model.setCluster(cluster);
        model.setGroups({u"order-projection"_s}, u"named in the profile"_s);
        model.setClusterHealth(ConnectionsModel::Health::Down, u"unreachable"_s, u"Connection refused"_s);
        const QModelIndex clusterIndex = model.indexFromItem(model.clusterItem());
        QCOMPARE(clusterIndex.data().toString(), u"Kafka 127.0.0.1:9092"_s);
        QCOMPARE(clusterIndex.siblingAtColumn(1).data().toString(), u"unreachable"_s);
        QCOMPARE(clusterIndex.siblingAtColumn(1).data(ConnectionsModel::HealthRole).toInt(), int(ConnectionsModel::Health::Down));
        QCOMPARE(model.rowCount(clusterIndex), 3); // brokers, topics, groups
        QCOMPARE(model.rowCount(model.index(0, 0, clusterIndex)), 2);
        QCOMPARE(model.index(1, 0, clusterIndex).siblingAtColumn(1).data().toString(), u"1 topic(s)"_s);
        // A second snapshot replaces, never appends.
        cluster.brokers.removeLast();
        model.setCluster(cluster);
        QCOMPARE(model.rowCount(model.index(0, 0, clusterIndex)), 1);
        model.setDatabase(u"db"_s, ConnectionsModel::Health::Good, u"connected"_s, {});
        QCOMPARE(model.indexFromItem(model.databaseItem()).siblingAtColumn(1).data().toString(), u"connected"_s);
    }
};

QTEST_MAIN(TestModels)
#include "tst_models.moc"
