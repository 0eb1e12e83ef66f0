#include "services/demo/mockkafkacluster.h"
#include "services/kafka/clusterinspector.h"
#include "services/kafka/kafkaproducer.h"
#include "services/kafka/offsetcommitter.h"

#include <QTest>

using namespace Qt::StringLiterals;

// Against librdkafka's mock cluster: what Berth reads must equal what the test wrote.
class TestClusterInspector final : public QObject {
    Q_OBJECT
    std::unique_ptr<MockKafkaCluster> m_cluster;
    std::unique_ptr<ClusterInspector> m_inspector;
    QHash<TopicPartition, qint64> m_produced;

private Q_SLOTS:
    void initTestCase()
    {
        m_cluster = std::make_unique<MockKafkaCluster>(3);
        QVERIFY2(m_cluster->isValid(), qPrintable(m_cluster->error()));
        QVERIFY(m_cluster->createTopic(u"alpha"_s, 4));
        QVERIFY(m_cluster->createTopic(u"beta"_s, 2));
        QString error;
        auto producer = KafkaProducer::create(m_cluster->clientProperties(), &error);
        QVERIFY2(producer, qPrintable(error));
        // A different, known number of records per partition.
        for (int p = 0; p < 4; ++p) {
            for (int i = 0; i < 10 + p * 7; ++i)
                QVERIFY(producer->produce({u"alpha"_s, p, "k", false, "v" + QByteArray::number(i), {}, 0}));
            m_produced.insert({u"alpha"_s, p}, 10 + p * 7);
        }
        for (int i = 0; i < 5; ++i)
            QVERIFY(producer->produce({u"beta"_s, 1, {}, true, "x", {}, 0}));
        m_produced.insert({u"beta"_s, 0}, 0);
        m_produced.insert({u"beta"_s, 1}, 5);
        QVERIFY2(producer->flush(10000, &error), qPrintable(error));
        QCOMPARE(producer->failed(), 0);
        m_inspector = ClusterInspector::create(m_cluster->clientProperties(), &error);
        QVERIFY2(m_inspector, qPrintable(error));
    }

    void metadataListsBrokersTopicsAndLeaders()
    {
        const auto md = m_inspector->metadata(5000);
        QVERIFY2(md.ok(), qPrintable(md.error));
        QCOMPARE(md.value.brokers.size(), 3);
        QStringList names;
        for (const auto &t : md.value.topics)
            names << t.name;
        QVERIFY(names.contains(u"alpha"_s));
        QVERIFY(names.contains(u"beta"_s));
        for (const auto &t : md.value.topics) {
            if (t.name == u"alpha")
                QCOMPARE(t.partitionCount(), 4);
            for (int leader : t.leaders)
                QVERIFY(leader >= 1 && leader <= 3);
        }
    }

    void endOffsetsEqualProducedCounts()
    {
        const auto ends = m_inspector->endOffsets(m_produced.keys(), 5000);
        QVERIFY2(ends.ok(), qPrintable(ends.error));
        QCOMPARE(ends.value.size(), m_produced.size());
        for (auto it = m_produced.cbegin(); it != m_produced.cend(); ++it)
            QCOMPARE(ends.value.value(it.key(), -99), it.value());
        const auto starts = m_inspector->startOffsets(m_produced.keys(), 5000);
        QVERIFY2(starts.ok(), qPrintable(starts.error));
        for (auto it = m_produced.cbegin(); it != m_produced.cend(); ++it)
            QCOMPARE(starts.value.value(it.key(), -99), 0);
    }

    void committedOffsetsForManyGroups()
    {
        QString error;
        const PartitionOffsets g1 = {{{u"alpha"_s, 0}, 3}, {{u"alpha"_s, 2}, 11}};
        const PartitionOffsets g2 = {{{u"beta"_s, 1}, 4}};
        QVERIFY2(OffsetCommitter::commit(m_cluster->clientProperties(), u"g1"_s, g1, &error), qPrintable(error));
        QVERIFY2(OffsetCommitter::commit(m_cluster->clientProperties(), u"g2"_s, g2, &error), qPrintable(error));
        const QList<TopicPartition> all = m_produced.keys();
        const auto results = m_inspector->committedOffsets({u"g1"_s, u"g2"_s, u"never-committed"_s}, all, 2, 5000);
        QCOMPARE(results.size(), 3);
        QCOMPARE(results[0].group, u"g1"_s);
        QVERIFY2(results[0].error.isEmpty(), qPrintable(results[0].error));
        QCOMPARE(results[0].committed, g1);
        QCOMPARE(results[1].committed, g2);
        QVERIFY(results[2].committed.isEmpty());
    }

    void groupListingFallsBackWhenUnsupported()
    {
        // The mock cluster lacks ListGroups: Berth must say so rather than report "no groups".
        const auto groups = m_inspector->listGroups(3000);
        QVERIFY(!groups.ok());
        QVERIFY(groups.unsupported);
        QVERIFY2(groups.error.contains(u"not supported"_s), qPrintable(groups.error));
    }

    void invalidPropertyIsRejectedByLibrdkafka()
    {
        QString error;
        auto bad = ClusterInspector::create({{u"bootstrap.servers"_s, u"x:1"_s}, {u"security.protocol"_s, u"carrier-pigeon"_s}}, &error);
        QVERIFY(!bad);
        QVERIFY2(error.contains(u"security.protocol"_s) || error.contains(u"carrier-pigeon"_s), qPrintable(error));
    }

    void unreachableClusterGivesAClearError()
    {
        QString error;
        auto lonely = ClusterInspector::create({{u"bootstrap.servers"_s, u"127.0.0.1:1"_s}}, &error);
        QVERIFY(lonely);
        const auto md = lonely->metadata(1500);
        QVERIFY(!md.ok());
        QVERIFY2(md.error.contains(u"127.0.0.1:1"_s), qPrintable(md.error));
    }
};

QTEST_GUILESS_MAIN(TestClusterInspector)
#include "tst_clusterinspector.moc"
