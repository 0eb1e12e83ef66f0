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
LagHistory::GroupProgress series(const QList<qint64> &committed, const QList<qint64> &lag)
{
    LagHistory history;
    history.setProgressCapacity(statusSamplesNeeded(StatusRules{}));
    const TopicPartition tp{u"t"_s, 0};
    for (qsizetype i = 0; i < committed.size(); ++i)
        history.recordProgress(u"g"_s, tp, {i * 5000, committed[i], lag[i]});
    return history.progress(u"g"_s, tp);
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

    // Lag status follows the lag SLO (seed 002, S = lagSlo.maxLagSeconds, 60 s unless stated): a sink a few
    // messages and a few seconds behind while its lag creeps up is OK, said as within the default; a
    // group whose policy states a tighter S is WARN on the same samples, and a stopped group stays STOP.
    void timeLagWithinTheSloIsOk()
    {
        LagHistory history;
        LagEvaluation evaluation;
        evaluation.rules.maxTimeLagMsByGroup.insert(u"tight"_s, 2000);
        const TopicPartition tp{u"events"_s, 0};
        LagSnapshot s;
        for (int i = 0; i <= 6; ++i) {
            s = LagSnapshot{};
            s.takenAt = QDateTime::fromMSecsSinceEpoch(100'000 + i * 5000);
            const qint64 end = 100 + 10 * i;
            s.endOffsets.insert(tp, end);
            for (const QString &group : {u"sink"_s, u"tight"_s}) {
                PartitionLag row;
                row.group = group;
                row.topic = tp.topic;
                row.partition = tp.partition;
                row.start = 0;
                row.end = end;
                row.committed = end - 1 - i; // lag 1, 2, ... 7: rising over the whole window
                row.lag = row.end - row.committed;
                s.rows.append(row);
            }
            evaluateLag(s, history, nullptr, evaluation);
        }
        const PartitionLag &sink = s.rows.at(0);
        const PartitionLag &tight = s.rows.at(1);
        QVERIFY2(sink.timeLagMs > 0 && sink.timeLagMs < 5000, qPrintable(QString::number(sink.timeLagMs)));
        QCOMPARE(lagStatusName(sink.status), u"OK"_s);
        QVERIFY2(sink.statusReason.contains(u"within the lag SLO of 60 s (default)"_s), qPrintable(sink.statusReason));
        QCOMPARE(lagStatusName(tight.status), u"WARN"_s);

        // Committed offsets that stop moving are STOP whatever the time lag.
        QList<qint64> still(24, 50), lags;
        for (int i = 0; i < 24; ++i)
            lags << 10 + i;
        const StatusVerdict stopped = evaluateStatus(series(still, lags), StatusRules{}, 1000, 60'000, false);
        QCOMPARE(stopped.status, LagStatus::Stop);
    }

    void trailingMarkerLagIsCaughtUp()
    {
        // A transactional producer's last commit marker takes offset 40 of a log ending at 41; the group
        // committed 40 after the last record (39) and stands still, as does the log. Over many samples
        // that is a lag of 1 that never drains: caught up, with the reason, not a stalled consumer. The
        // offsets are constructed: the last record a consumer is handed in [committed, end) is given.
        const TopicPartition tp{u"payments"_s, 0};
        const auto run = [&](qint64 lastRecord) {
            LagHistory history;
            LagEvaluation evaluation;
            int asked = 0;
            evaluation.lastRecords = [&](const PartitionOffsets &from, const PartitionOffsets &ends) {
                ++asked;
                QHash<TopicPartition, qint64> out;
                if (from.value(tp, -1) == 40 && ends.value(tp) == 41)
                    out.insert(tp, lastRecord);
                return out;
            };
            LagSnapshot s;
            for (int i = 0; i < 30; ++i) {
                s = LagSnapshot{};
                s.takenAt = QDateTime::fromMSecsSinceEpoch(100'000 + i * 5000);
                s.endOffsets.insert(tp, 41);
                PartitionLag row;
                row.group = u"ledger"_s;
                row.topic = tp.topic;
                row.partition = tp.partition;
                row.start = 0;
                row.end = 41;
                row.committed = 40;
                row.lag = 1;
                s.rows.append(row);
                evaluateLag(s, history, nullptr, evaluation);
            }
            if (asked == 0)
                return PartitionLag{};
            return s.rows.at(0);
        };
        const PartitionLag markers = run(39); // no record at or after 40
        QCOMPARE(markers.timeLagMethod, PartitionLag::TimeLagMethod::BehindMarkers);
        QCOMPARE(markers.timeLagMs, 0);
        QCOMPARE(lagStatusName(markers.status), u"OK"_s);
        QVERIFY2(markers.statusReason.contains(u"only transaction markers follow the last record"_s),
                 qPrintable(markers.statusReason));
        QCOMPARE(timeLagMethodName(markers.timeLagMethod), u"behind-markers"_s);

        // A record at 40 is real lag: the consumer has something to read and does not.
        const PartitionLag stuck = run(40);
        QVERIFY(stuck.timeLagMethod != PartitionLag::TimeLagMethod::BehindMarkers);
        QVERIFY2(stuck.status != LagStatus::Ok, qPrintable(stuck.statusReason));
    }

    void progressKeepsWhatTheRulesNeedAndWhenCommitsStopped()
    {
        LagHistory history;
        history.setProgressCapacity(statusSamplesNeeded(StatusRules{}));
        const TopicPartition tp{u"t"_s, 0};
        // An hour at 5 s: committed moves for 10 min, then stands still for 50 min while lag grows.
        for (int i = 0; i < 720; ++i) {
            const qint64 committed = i < 120 ? i * 10 : 1190;
            history.recordProgress(u"g"_s, tp, {qint64(i) * 5000, committed, 5 + (i < 120 ? 0 : i)});
        }
        const LagHistory::GroupProgress &p = history.progress(u"g"_s, tp);
        QCOMPARE(p.samples.size(), statusSamplesNeeded(StatusRules{})); // not 720
        QCOMPARE(p.samples.back().timeMs, 719 * 5000);
        QCOMPARE(p.committedSinceMs, 119 * 5000); // the last move: 1180 -> 1190
        const StatusVerdict v = evaluateStatus(p, StatusRules{});
        QCOMPARE(v.status, LagStatus::Stop);
        // The time it has stood still is from when it last moved, beyond the samples kept.
        QVERIFY2(v.reason.contains(u"No progress for 3000 s"_s), qPrintable(v.reason));
        // A wider rule window keeps more samples, the newest ones.
        history.setProgressCapacity(60);
        history.recordProgress(u"g"_s, tp, {720 * 5000, 1190, 800});
        QCOMPARE(history.progress(u"g"_s, tp).samples.size(), statusSamplesNeeded(StatusRules{}) + 1);
        QCOMPARE(history.progress(u"g"_s, tp).samples.back().lag, 800);
    }

    void olderOffsetsAreDatedFromMinutePoints()
    {
        LagHistory history(4, 10); // 4 fine samples, 10 minute points
        const TopicPartition tp{u"t"_s, 0};
        // 100 records per 5 s sample for 20 minutes.
        for (int i = 0; i <= 240; ++i)
            history.recordEnd(tp, qint64(i) * 5000, qint64(i) * 100);
        // The last 15 s at full resolution.
        QCOMPARE(history.timeOfOffset(tp, 23950), 239 * 5000 + 2550);
        // Eight minutes back: between two minute points (offsets 1200 apart), interpolated.
        const qint64 eightMinutesAgo = 240 * 5000 - 8 * 60000;
        const qint64 dated = history.timeOfOffset(tp, eightMinutesAgo / 50);
        QVERIFY2(std::abs(dated - eightMinutesAgo) <= 1000, qPrintable(QString::number(dated - eightMinutesAgo)));
        // Older than ten minute points: unknown, the sampler peeks instead.
        QCOMPARE(history.timeOfOffset(tp, 100), -1);
        const LagHistory::Ends ends = history.ends(tp);
        QCOMPARE(ends.size(), 10 + 4 - 1); // minute points older than the fine ones, then the fine ones
        for (int i = 1; i < ends.size(); ++i)
            QVERIFY(ends[i].timeMs > ends[i - 1].timeMs);
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
