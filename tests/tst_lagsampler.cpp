#include "services/demo/mockkafkacluster.h"
#include "services/kafka/clusterinspector.h"
#include "services/kafka/kafkaproducer.h"
#include "services/kafka/offsetcommitter.h"
#include "services/monitor/lagsampler.h"
#include "services/monitor/offsetpeeker.h"

#include <QRandomGenerator>
#include <QSignalSpy>
#include <QTest>

using namespace Qt::StringLiterals;

// Lag must equal end - committed, computed here from what the test itself produced and committed.
class TestLagSampler final : public QObject {
    Q_OBJECT
    std::unique_ptr<MockKafkaCluster> m_cluster;
    QHash<TopicPartition, qint64> m_produced;

    static const PartitionLag *find(const LagSnapshot &s, const QString &g, const QString &t, int p)
    {
        for (const auto &r : s.rows) {
            if (r.group == g && r.topic == t && r.partition == p)
                return &r;
        }
        return nullptr;
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_cluster = std::make_unique<MockKafkaCluster>(3);
        QVERIFY(m_cluster->isValid());
        QVERIFY(m_cluster->createTopic(u"orders"_s, 6));
        QVERIFY(m_cluster->createTopic(u"payments"_s, 3));
        QString error;
        auto producer = KafkaProducer::create(m_cluster->clientProperties(), &error);
        QVERIFY(producer);
        auto *rng = QRandomGenerator::global();
        for (const auto &[topic, parts] : {std::pair{u"orders"_s, 6}, std::pair{u"payments"_s, 3}}) {
            for (int p = 0; p < parts; ++p) {
                const int n = 5 + int(rng->bounded(40));
                for (int i = 0; i < n; ++i)
                    QVERIFY(producer->produce({topic, p, "k", false, "v", {}, 0}));
                m_produced.insert({topic, p}, n);
            }
        }
        QVERIFY(producer->flush(10000));
    }

    void lagEqualsEndMinusCommitted()
    {
        // Commit a random point per partition; leave orders[5] uncommitted.
        PartitionOffsets commits;
        auto *rng = QRandomGenerator::global();
        for (int p = 0; p < 5; ++p)
            commits.insert({u"orders"_s, p}, rng->bounded(m_produced.value({u"orders"_s, p}) + 1));
        QString error;
        QVERIFY2(OffsetCommitter::commit(m_cluster->clientProperties(), u"order-projection"_s, commits, &error),
                 qPrintable(error));

        QString err;
        auto inspector = ClusterInspector::create(m_cluster->clientProperties(), &err);
        QVERIFY(inspector);
        LagSampler::Settings settings;
        settings.cluster = m_cluster->clientProperties();
        settings.namedGroups = {u"order-projection"_s};
        LagHistory history;
        const LagSnapshot snap = LagSampler::sampleOnce(*inspector, settings, history, nullptr);
        QVERIFY(snap.reachable);
        QVERIFY2(snap.problems.isEmpty(), qPrintable(snap.problems.join(u'\n')));
        QVERIFY(snap.groupSource.contains(u"named"_s));
        QCOMPARE(snap.rows.size(), 6);
        for (int p = 0; p < 6; ++p) {
            const auto *row = find(snap, u"order-projection"_s, u"orders"_s, p);
            QVERIFY(row);
            const qint64 end = m_produced.value({u"orders"_s, p});
            QCOMPARE(row->end, end);
            if (p < 5) {
                QCOMPARE(row->committed, commits.value({u"orders"_s, p}));
                QCOMPARE(row->lag, end - commits.value({u"orders"_s, p}));
                QVERIFY(!(row->flags & PartitionLag::NoCommit));
            } else {
                QCOMPARE(row->committed, -1);
                QCOMPARE(row->lag, end); // from the log start
                QVERIFY(row->flags & PartitionLag::NoCommit);
            }
        }
    }

    void committedAheadOfEndIsZeroAndFlagged()
    {
        const qint64 end = m_produced.value({u"payments"_s, 0});
        QVERIFY(OffsetCommitter::commit(m_cluster->clientProperties(), u"payment-capture"_s,
                                        {{{u"payments"_s, 0}, end + 100}, {{u"payments"_s, 1}, 0}}, nullptr));
        QString err;
        auto inspector = ClusterInspector::create(m_cluster->clientProperties(), &err);
        LagSampler::Settings settings;
        settings.namedGroups = {u"payment-capture"_s};
        LagHistory history;
        const LagSnapshot snap = LagSampler::sampleOnce(*inspector, settings, history, nullptr);
        const auto *ahead = find(snap, u"payment-capture"_s, u"payments"_s, 0);
        QVERIFY(ahead);
        QCOMPARE(ahead->lag, 0);
        QVERIFY(ahead->flags & PartitionLag::CommittedAhead);
        const auto *fromZero = find(snap, u"payment-capture"_s, u"payments"_s, 1);
        QVERIFY(fromZero);
        QCOMPARE(fromZero->lag, m_produced.value({u"payments"_s, 1}));
    }

    void timeLagEqualsAgeOfNextRecord()
    {
        // Records with known timestamps: one per second, ending ten minutes ago.
        QVERIFY(m_cluster->createTopic(u"aged"_s, 1));
        QString error;
        auto producer = KafkaProducer::create(m_cluster->clientProperties(), &error);
        const qint64 base = QDateTime::currentMSecsSinceEpoch() - 700000;
        for (int i = 0; i < 100; ++i)
            QVERIFY(producer->produce({u"aged"_s, 0, "k", false, "v", {}, base + i * 1000}));
        QVERIFY(producer->flush(10000));
        QVERIFY(OffsetCommitter::commit(m_cluster->clientProperties(), u"aged-reader"_s, {{{u"aged"_s, 0}, 40}}, &error));
        auto inspector = ClusterInspector::create(m_cluster->clientProperties(), &error);
        auto peeker = OffsetPeeker::create(m_cluster->clientProperties(), &error);
        QVERIFY(peeker);
        LagSampler::Settings settings;
        settings.namedGroups = {u"aged-reader"_s};
        LagHistory history;
        const LagSnapshot snap = LagSampler::sampleOnce(*inspector, settings, history, peeker.get());
        const auto *row = find(snap, u"aged-reader"_s, u"aged"_s, 0);
        QVERIFY(row);
        QCOMPARE(row->lag, 60);
        QCOMPARE(row->timeLagMethod, PartitionLag::TimeLagMethod::Peeked);
        const qint64 expected = snap.takenAt.toMSecsSinceEpoch() - (base + 40 * 1000);
        QVERIFY2(std::abs(row->timeLagMs - expected) < 50, qPrintable(QString::number(row->timeLagMs - expected)));
        QCOMPARE(snap.groupRows.size(), 1);
        QCOMPARE(snap.groupRows.first().maxTimeLagMs, row->timeLagMs);

        // Caught up: zero, exactly, and said so.
        QVERIFY(OffsetCommitter::commit(m_cluster->clientProperties(), u"aged-reader"_s, {{{u"aged"_s, 0}, 100}}, &error));
        const LagSnapshot after = LagSampler::sampleOnce(*inspector, settings, history, peeker.get());
        QCOMPARE(find(after, u"aged-reader"_s, u"aged"_s, 0)->timeLagMs, 0);
        QCOMPARE(find(after, u"aged-reader"_s, u"aged"_s, 0)->timeLagMethod, PartitionLag::TimeLagMethod::CaughtUp);
    }

    void timeLagInterpolatesOverOwnHistory()
    {
        QVERIFY(m_cluster->createTopic(u"live"_s, 1));
        QString error;
        auto producer = KafkaProducer::create(m_cluster->clientProperties(), &error);
        auto inspector = ClusterInspector::create(m_cluster->clientProperties(), &error);
        LagSampler::Settings settings;
        settings.namedGroups = {u"live-reader"_s};
        QVERIFY(OffsetCommitter::commit(m_cluster->clientProperties(), u"live-reader"_s, {{{u"live"_s, 0}, 0}}, &error));
        LagHistory history;
        LagSampler::sampleOnce(*inspector, settings, history, nullptr); // end 0 at t0
        QTest::qWait(400);
        for (int i = 0; i < 10; ++i)
            QVERIFY(producer->produce({u"live"_s, 0, "k", false, "v", {}, 0}));
        QVERIFY(producer->flush(5000));
        const qint64 producedAt = QDateTime::currentMSecsSinceEpoch();
        QTest::qWait(400);
        const LagSnapshot s2 = LagSampler::sampleOnce(*inspector, settings, history, nullptr); // end 10 at t1
        const auto *row = find(s2, u"live-reader"_s, u"live"_s, 0);
        QCOMPARE(row->timeLagMethod, PartitionLag::TimeLagMethod::Interpolated);
        // Interpolated between the two samples around the append: never more than one interval off.
        const qint64 truth = s2.takenAt.toMSecsSinceEpoch() - producedAt;
        QVERIFY2(row->timeLagMs >= truth - 50 && row->timeLagMs <= truth + 1000,
                 qPrintable(u"%1 vs %2"_s.arg(row->timeLagMs).arg(truth)));
    }

    void statusFollowsAScriptedConsumer()
    {
        QVERIFY(m_cluster->createTopic(u"scripted"_s, 1));
        QString error;
        auto producer = KafkaProducer::create(m_cluster->clientProperties(), &error);
        auto inspector = ClusterInspector::create(m_cluster->clientProperties(), &error);
        LagSampler::Settings settings;
        settings.namedGroups = {u"scripted-reader"_s};
        settings.evaluation.rules.windowSamples = 3;
        settings.evaluation.rules.stopAfterSamples = 6;
        settings.evaluation.rules.maxTimeLagMs = -1; // Burrow's rules alone: no time-lag SLO
        LagHistory history;
        qint64 end = 0;
        auto step = [&](int produce, qint64 commit) {
            for (int i = 0; i < produce; ++i)
                producer->produce({u"scripted"_s, 0, "k", false, "v", {}, 0});
            producer->flush(5000);
            end += produce;
            OffsetCommitter::commit(m_cluster->clientProperties(), u"scripted-reader"_s, {{{u"scripted"_s, 0}, commit}}, nullptr);
            const LagSnapshot s = LagSampler::sampleOnce(*inspector, settings, history, nullptr);
            return *find(s, u"scripted-reader"_s, u"scripted"_s, 0);
        };
        PartitionLag row;
        for (int i = 1; i <= 3; ++i)
            row = step(10, end + 10); // keeps up
        QCOMPARE(lagStatusName(row.status), u"OK"_s);
        for (int i = 0; i < 3; ++i)
            row = step(10, end - 5 + 10 - 10 * 0); // consumes, but falls behind a little more each time
        const qint64 held = end;
        for (int i = 0; i < 3; ++i)
            row = step(5, held); // committed stands still while records arrive
        QCOMPARE(lagStatusName(row.status), u"STALL"_s);
        for (int i = 0; i < 4; ++i)
            row = step(5, held);
        QCOMPARE(lagStatusName(row.status), u"STOP"_s);
        row = step(0, 3); // offsets reset backwards
        QCOMPARE(lagStatusName(row.status), u"REWIND"_s);
        for (int i = 0; i < 3; ++i)
            row = step(0, end); // catch up
        QCOMPARE(lagStatusName(row.status), u"OK"_s);
        QCOMPARE(row.lag, 0);
    }

    void samplerThreadDeliversSnapshotsAndState()
    {
        LagSampler sampler;
        QSignalSpy samples(&sampler, &LagSampler::sampled);
        QSignalSpy clusters(&sampler, &LagSampler::clusterUpdated);
        QSignalSpy states(&sampler, &LagSampler::stateChanged);
        LagSampler::Settings settings;
        settings.cluster = m_cluster->clientProperties();
        settings.namedGroups = {u"order-projection"_s, u"payment-capture"_s};
        settings.intervalMs = 200;
        sampler.start(settings);
        QTRY_VERIFY_WITH_TIMEOUT(samples.size() >= 2, 10000);
        const auto snap = samples.last().first().value<LagSnapshot>();
        QCOMPARE(snap.groups, settings.namedGroups);
        QVERIFY(!clusters.isEmpty());
        QCOMPARE(clusters.last().first().value<ClusterSnapshot>().brokers.size(), 3);
        QCOMPARE(states.last().first().value<LagSampler::State>(), LagSampler::State::Connected);
    }

    void allowedLagChangesApplyWhileRunning()
    {
        QVERIFY(m_cluster->createTopic(u"allowed"_s, 1));
        QString error;
        auto producer = KafkaProducer::create(m_cluster->clientProperties(), &error);
        QVERIFY2(producer, qPrintable(error));
        for (int i = 0; i < 20; ++i)
            QVERIFY(producer->produce({u"allowed"_s, 0, "k", false, "v", {}, 0}));
        QVERIFY(producer->flush(5000));
        QVERIFY(OffsetCommitter::commit(m_cluster->clientProperties(), u"allowed-reader"_s, {{{u"allowed"_s, 0}, 5}}, &error));

        LagSampler sampler;
        QSignalSpy samples(&sampler, &LagSampler::sampled);
        LagSampler::Settings settings;
        settings.cluster = m_cluster->clientProperties();
        settings.namedGroups = {u"allowed-reader"_s};
        settings.intervalMs = 100;
        settings.evaluation.rules.windowSamples = 2;
        settings.evaluation.rules.stopAfterSamples = 1000;
        settings.evaluation.rules.maxTimeLagMs = -1; // Burrow's rules alone: no time-lag SLO
        sampler.start(settings);
        const auto latest = [&] {
            const auto snap = samples.last().first().value<LagSnapshot>();
            const PartitionLag *row = find(snap, u"allowed-reader"_s, u"allowed"_s, 0);
            return row ? lagStatusName(row->status) : QString();
        };
        // Committed stands still 15 behind: a stall.
        QTRY_VERIFY_WITH_TIMEOUT(!samples.isEmpty() && latest() == u"STALL"_s, 10000);
        LagEvaluation relaxed = settings.evaluation;
        relaxed.rules.allowedLag = 15;
        sampler.setEvaluation(relaxed);
        QTRY_VERIFY_WITH_TIMEOUT(latest() == u"OK"_s, 10000);
        relaxed.rules.allowedLag = 14; // one below the lag: the stall is back, and the history was kept
        const qsizetype before = samples.size();
        sampler.setEvaluation(relaxed);
        QTRY_VERIFY_WITH_TIMEOUT(samples.size() > before + 1 && latest() == u"STALL"_s, 10000);
    }

    void unreachableClusterIsReportedNotFatal()
    {
        LagSampler sampler;
        QSignalSpy states(&sampler, &LagSampler::stateChanged);
        LagSampler::Settings settings;
        settings.cluster = {{u"bootstrap.servers"_s, u"127.0.0.1:9"_s}};
        settings.requestTimeoutMs = 800;
        settings.intervalMs = 1000;
        sampler.start(settings);
        QTRY_VERIFY_WITH_TIMEOUT(!states.isEmpty()
                                     && states.last().first().value<LagSampler::State>() == LagSampler::State::Unreachable,
                                 8000);
        QVERIFY(states.last().at(1).toString().contains(u"127.0.0.1:9"_s));
    }

    void brokerDownDegradesAndRecovers()
    {
        LagSampler sampler;
        QSignalSpy states(&sampler, &LagSampler::stateChanged);
        LagSampler::Settings settings;
        settings.cluster = m_cluster->clientProperties();
        settings.namedGroups = {u"order-projection"_s};
        settings.intervalMs = 300;
        settings.requestTimeoutMs = 1500;
        auto lastState = [&] { return states.isEmpty() ? LagSampler::State::Idle : states.last().first().value<LagSampler::State>(); };
        sampler.start(settings);
        QTRY_COMPARE_WITH_TIMEOUT(lastState(), LagSampler::State::Connected, 8000);
        for (int b = 1; b <= 3; ++b)
            m_cluster->setBrokerDown(b);
        QTRY_VERIFY_WITH_TIMEOUT(lastState() == LagSampler::State::Degraded || lastState() == LagSampler::State::Unreachable, 15000);
        for (int b = 1; b <= 3; ++b)
            m_cluster->setBrokerUp(b);
        QTRY_COMPARE_WITH_TIMEOUT(lastState(), LagSampler::State::Connected, 20000);
    }
};

QTEST_GUILESS_MAIN(TestLagSampler)
#include "tst_lagsampler.moc"
