#include "services/monitor/alertengine.h"
#include "services/monitor/lagevaluator.h"
#include "services/monitor/laghistory.h"
#include "services/monitor/lagstatus.h"

#include <QSignalSpy>
#include <QTest>

using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(LagStatus)

namespace {
// committed offsets and lags per sample, 5 s apart
std::deque<LagHistory::Progress> series(const QList<qint64> &committed, const QList<qint64> &lag)
{
    std::deque<LagHistory::Progress> out;
    for (qsizetype i = 0; i < committed.size(); ++i)
        out.push_back({i * 5000, committed[i], lag[i]});
    return out;
}
}

class TestLagStatus final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void rules_data()
    {
        QTest::addColumn<QList<qint64>>("committed");
        QTest::addColumn<QList<qint64>>("lag");
        QTest::addColumn<LagStatus>("expected");
        QTest::addColumn<QString>("reasonContains");
        QTest::newRow("caught up") << QList<qint64>{10, 20, 30} << QList<qint64>{0, 0, 0} << LagStatus::Ok << u"Caught up"_s;
        QTest::newRow("catching up") << QList<qint64>{10, 30, 60, 90, 120, 150} << QList<qint64>{100, 90, 70, 50, 30, 10}
                                     << LagStatus::Ok << u"not growing"_s;
        QTest::newRow("falling behind") << QList<qint64>{10, 20, 30, 40, 50, 60} << QList<qint64>{5, 8, 12, 12, 20, 31}
                                        << LagStatus::Warn << u"rose from 5 to 31"_s;
        QTest::newRow("stalled") << QList<qint64>{50, 50, 50, 50, 50, 50} << QList<qint64>{3, 5, 9, 12, 14, 20}
                                 << LagStatus::Stall << u"stuck at 50"_s;
        QList<qint64> still(24, 50), lags;
        for (int i = 0; i < 24; ++i)
            lags << 10 + i;
        QTest::newRow("stopped") << still << lags << LagStatus::Stop << u"appears stopped"_s;
        QTest::newRow("rewound") << QList<qint64>{100, 120, 40, 60} << QList<qint64>{0, 0, 80, 60} << LagStatus::Rewind
                                 << u"from 120 to 40"_s;
        QTest::newRow("rewound but now caught up still says rewind")
            << QList<qint64>{100, 20, 100} << QList<qint64>{0, 80, 0} << LagStatus::Rewind << u"went back"_s;
        QTest::newRow("idle partition, nothing to read") << QList<qint64>{7, 7, 7, 7, 7, 7, 7} << QList<qint64>{0, 0, 0, 0, 0, 0, 0}
                                                       << LagStatus::Ok << u"Caught up"_s;
    }
    void rules()
    {
        QFETCH(QList<qint64>, committed);
        QFETCH(QList<qint64>, lag);
        QFETCH(LagStatus, expected);
        QFETCH(QString, reasonContains);
        const StatusVerdict v = evaluateStatus(series(committed, lag), StatusRules{});
        QCOMPARE(lagStatusName(v.status), lagStatusName(expected));
        QVERIFY2(v.reason.contains(reasonContains), qPrintable(v.reason));
    }

    void allowedLagIsOk()
    {
        StatusRules rules;
        rules.allowedLag = 100;
        const auto v = evaluateStatus(series({50, 50, 50, 50, 50, 50}, {90, 90, 90, 90, 90, 90}), rules);
        QCOMPARE(v.status, LagStatus::Ok);
    }

    void interpolationFindsAppendTime()
    {
        LagHistory history;
        const TopicPartition tp{u"t"_s, 0};
        history.recordEnd(tp, 1000, 100);
        history.recordEnd(tp, 2000, 200); // records 100..199 appended during (1000, 2000]
        history.recordEnd(tp, 3000, 200);
        history.recordEnd(tp, 4000, 260);
        QCOMPARE(history.timeOfOffset(tp, 149), 1500);
        QCOMPARE(history.timeOfOffset(tp, 199), 2000);
        QCOMPARE(history.timeOfOffset(tp, 229), 3500); // the idle interval is skipped, not averaged in
        QCOMPARE(history.timeOfOffset(tp, 99), -1);    // older than the history: peek instead
        QCOMPARE(history.timeOfOffset(tp, 260), -1);   // not produced yet
        history.recordEnd(tp, 5000, 10);              // truncated or recreated: history restarts
        QCOMPARE(history.timeOfOffset(tp, 149), -1);
    }

    void idlePartitionIsFlaggedOnlyAfterTraffic()
    {
        LagHistory history;
        LagEvaluation evaluation;
        evaluation.idleAfterMs = 20000;
        const TopicPartition busy{u"busy"_s, 0};
        const TopicPartition quiet{u"quiet"_s, 0};
        auto sampleAt = [&](qint64 t, qint64 busyEnd) {
            LagSnapshot s;
            s.takenAt = QDateTime::fromMSecsSinceEpoch(t);
            s.endOffsets.insert(busy, busyEnd);
            s.endOffsets.insert(quiet, 0); // never had traffic: not "unexpectedly" idle
            evaluateLag(s, history, nullptr, evaluation);
            return s;
        };
        sampleAt(0, 10);
        QCOMPARE(sampleAt(5000, 20).topicRatePerMinute.value(u"busy"_s), 120.0); // 10 records in 5 s
        QVERIFY(sampleAt(10000, 20).idlePartitions.isEmpty());
        QVERIFY(sampleAt(20000, 20).idlePartitions.isEmpty());
        const auto idle = sampleAt(30000, 20).idlePartitions; // no record since t=5 s: 25 s
        QCOMPARE(idle, QList<TopicPartition>{busy});
        QVERIFY(sampleAt(35000, 21).idlePartitions.isEmpty()); // traffic again
    }

    void alertFiresOnlyAfterSustainAndClearsWithHysteresis()
    {
        AlertEngine engine;
        engine.setTiming(u"lag-slo"_s, {120000, 60000});
        QSignalSpy fired(&engine, &AlertEngine::fired);
        QSignalSpy cleared(&engine, &AlertEngine::cleared);
        using O = AlertEngine::Observation;
        qint64 t = 0;
        auto feed = [&](O o, int samples) {
            for (int i = 0; i < samples; ++i, t += 5000)
                engine.observe(u"lag-slo"_s, u"g"_s, o, u"lag"_s, t);
        };
        feed(O::Breach, 20);  // 95 s of breach: not yet
        QCOMPARE(fired.size(), 0);
        feed(O::Normal, 1);   // interrupted: the sustain clock restarts
        feed(O::Breach, 24);  // 0..115 s
        QCOMPARE(fired.size(), 0);
        feed(O::Breach, 1);   // 120 s
        QCOMPARE(fired.size(), 1);
        QCOMPARE(engine.activeCount(), 1);
        feed(O::Hold, 30);    // between thresholds: stays active
        feed(O::Normal, 12);  // 55 s normal
        QCOMPARE(cleared.size(), 0);
        feed(O::Breach, 1);   // flaps: no second alert, still the same one
        QCOMPARE(fired.size(), 1);
        feed(O::Normal, 13);  // 60 s normal
        QCOMPARE(cleared.size(), 1);
        QCOMPARE(engine.activeCount(), 0);
        const Alert alert = engine.alerts().first();
        QVERIFY(!alert.isActive());
        engine.acknowledge(alert.id);
        QVERIFY(engine.alerts().first().acknowledged);
    }
};

QTEST_GUILESS_MAIN(TestLagStatus)
#include "tst_lagstatus.moc"
