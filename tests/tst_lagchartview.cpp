#include "models/lagseriesstore.h"
#include "views/lagchartview.h"
#include "views/qcustomplotinclude.h"

#include <QTest>

using namespace Qt::StringLiterals;

// The chart says what it draws: a line per group (partitions summed) or one group's partitions a line each.
class TestLagChartView final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void metricBoxNamesWhatTheLinesAre()
    {
        LagSeriesStore store;
        LagSnapshot snapshot;
        snapshot.reachable = true;
        snapshot.takenAt = QDateTime::currentDateTimeUtc();
        snapshot.groups = {u"g"_s};
        for (int p = 0; p < 2; ++p) {
            PartitionLag row;
            row.group = u"g"_s;
            row.topic = u"orders"_s;
            row.partition = p;
            row.committed = 10;
            row.end = 20 + p;
            row.lag = 10 + p;
            snapshot.rows.append(row);
        }
        snapshot.groupRows.append({u"g"_s, {u"orders"_s}, 2, 21, -1, -1, LagStatus::Ok, {}});
        store.append(snapshot);
        LagChartView view(&store);
        view.redrawNow();
        QVERIFY2(view.metricText().contains(u"summed"_s), qPrintable(view.metricText()));
        QCOMPARE(view.lagPlot()->graphCount(), 1);

        view.showGroup(u"g"_s);
        view.redrawNow();
        QCOMPARE(view.lagPlot()->graphCount(), 2);
        QVERIFY2(view.metricText().contains(u"a line per partition"_s), qPrintable(view.metricText()));
        QVERIFY(!view.metricText().contains(u"sum"_s));
    }
};

QTEST_MAIN(TestLagChartView)
#include "tst_lagchartview.moc"
