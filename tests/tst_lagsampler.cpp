#include "services/demo/mockkafkacluster.h"
#include "services/kafka/clusterinspector.h"
#include "services/kafka/kafkaproducer.h"
#include "services/kafka/offsetcommitter.h"
#include "services/monitor/lagsampler.h"

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
        const LagSnapshot snap = LagSampler::sampleOnce(*inspector, settings);
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
        const LagSnapshot snap = LagSampler::sampleOnce(*inspector, settings);
        const auto *ahead = find(snap, u"payment-capture"_s, u"payments"_s, 0);
        QVERIFY(ahead);
        QCOMPARE(ahead->lag, 0);
        QVERIFY(ahead->flags & PartitionLag::CommittedAhead);
        const auto *fromZero = find(snap, u"payment-capture"_s, u"payments"_s, 1);
        QVERIFY(fromZero);
        QCOMPARE(fromZero->lag, m_produced.value({u"payments"_s, 1}));
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
