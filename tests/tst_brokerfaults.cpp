// Broker faults injected into the mock cluster while Berth works: retriable and fatal errors on Fetch,
// ListOffsets and OffsetFetch, and brokers set down and up. Lag sampling shows a degraded state with its cause and recovers
// by itself; a DLQ scan loses nothing and indexes nothing twice. (Produce faults during a replay are in
// tst_replay.)
#include "app/console.h"
#include "models/grouplagmodel.h"
#include "services/demo/mockkafkacluster.h"
#include "services/dlq/dlqscanner.h"
#include "services/kafka/kafkaproducer.h"
#include "services/kafka/offsetcommitter.h"
#include "views/mainwindow.h"

#include <librdkafka/rdkafka_mock.h>

#include <QSet>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>

#include <chrono>
#include <thread>

using namespace Qt::StringLiterals;

namespace {
// librdkafka's protocol API keys (rdkafka_protocol.h is not installed).
constexpr int ApiFetch = 1;
constexpr int ApiListOffsets = 2;
constexpr int ApiOffsetFetch = 9;

// Records first..first+count-1, round-robin over the partitions; waits until every one is acknowledged.
bool produceRecords(const MockKafkaCluster &cluster, const QString &topic, int partitions, int count, int first,
                    QString *error)
{
    auto producer = KafkaProducer::create(cluster.clientProperties() + KafkaProperties{{u"linger.ms"_s, u"5"_s}}, error);
    if (!producer)
        return false;
    for (int i = first; i < first + count; ++i) {
        const QByteArray n = QByteArray::number(i);
        const RecordHeaders headers{{"berth-original-topic", "orders", false},
                                    {"berth-exception-class", "com.acme.Boom", false},
                                    {"berth-exception-message", "failure " + n, false}};
        if (!producer->produce({topic, i % partitions, "k" + n, false, "{\"i\":" + n + "}", headers, 0}, error))
            return false;
    }
    return producer->flush(30000, error);
}
} // namespace

class TestBrokerFaults final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void dlqScanLosesNothingThroughFetchErrorsAndABrokerDown()
    {
        MockKafkaCluster cluster(3);
        QVERIFY2(cluster.isValid(), qPrintable(cluster.error()));
        constexpr int Partitions = 6;
        constexpr int Batch = 3000;
        QVERIFY(cluster.createTopic(u"faults-dlq"_s, Partitions));
        QString error;
        QVERIFY2(produceRecords(cluster, u"faults-dlq"_s, Partitions, Batch, 0, &error), qPrintable(error));

        // A live tail: it keeps reading while the faults come and go, so they hit fetches in flight.
        DlqScanner scanner;
        DlqIndexEntries entries;
        connect(&scanner, &DlqScanner::batchReady, this, [&](const DlqScanBatch &b) { entries += b.entries; });
        DlqScanRequest request;
        request.cluster = cluster.clientProperties();
        request.topic = u"faults-dlq"_s;
        request.requestTimeoutMs = 5000;
        request.liveTail = true;
        scanner.start(request);
        QTRY_COMPARE_WITH_TIMEOUT(qsizetype(entries.size()), qsizetype(Batch), 30000);

        // Retriable Fetch errors and a broker down while more dead letters arrive; the broker returns
        // after two seconds and the producer's retries deliver what waited for it.
        cluster.pushRequestErrors(ApiFetch, {RD_KAFKA_RESP_ERR_NOT_LEADER_FOR_PARTITION, RD_KAFKA_RESP_ERR_REQUEST_TIMED_OUT,
                                             RD_KAFKA_RESP_ERR_LEADER_NOT_AVAILABLE, RD_KAFKA_RESP_ERR_NOT_LEADER_FOR_PARTITION,
                                             RD_KAFKA_RESP_ERR_REQUEST_TIMED_OUT, RD_KAFKA_RESP_ERR_NOT_LEADER_FOR_PARTITION});
        cluster.setBrokerDown(2);
        // From another thread: producing below blocks this one until every record is acknowledged.
        std::thread comesBack([&cluster] {
            std::this_thread::sleep_for(std::chrono::seconds(2));
            cluster.setBrokerUp(2);
        });
        const bool produced = produceRecords(cluster, u"faults-dlq"_s, Partitions, Batch, Batch, &error);
        comesBack.join();
        QVERIFY2(produced, qPrintable(error));
        QTRY_COMPARE_WITH_TIMEOUT(qsizetype(entries.size()), qsizetype(2 * Batch), 60000);
        QTest::qWait(1000); // nothing arrives twice later either
        scanner.cancel();
        QCOMPARE(qsizetype(entries.size()), qsizetype(2 * Batch));
        QSet<QPair<int, qint64>> seen;
        for (const DlqIndexEntry &e : entries)
            seen.insert({int(e.partition), e.offset});
        QCOMPARE(seen.size(), 2 * Batch); // every record exactly once
    }

    // A fatal Fetch error (not authorised for the topic) ends the scan with the broker's own words, and a
    // scan started after it reads every record.
    void dlqScanEndsClearlyOnAFatalFetchError()
    {
        MockKafkaCluster cluster(1);
        QVERIFY2(cluster.isValid(), qPrintable(cluster.error()));
        QVERIFY(cluster.createTopic(u"denied-dlq"_s, 2));
        QString error;
        QVERIFY2(produceRecords(cluster, u"denied-dlq"_s, 2, 500, 0, &error), qPrintable(error));
        DlqScanRequest request;
        request.cluster = cluster.clientProperties();
        request.topic = u"denied-dlq"_s;
        request.requestTimeoutMs = 5000;
        auto scan = [&](DlqScanResult *result, qsizetype *entries) {
            DlqScanner scanner;
            bool done = false;
            connect(&scanner, &DlqScanner::batchReady, this,
                    [&](const DlqScanBatch &b) { *entries += b.entries.size(); });
            connect(&scanner, &DlqScanner::scanFinished, this, [&](const DlqScanResult &r) {
                *result = r;
                done = true;
            });
            scanner.start(request);
            QTRY_VERIFY_WITH_TIMEOUT(done, 30000);
        };
        cluster.pushRequestErrors(ApiFetch, QList<rd_kafka_resp_err_t>(20, RD_KAFKA_RESP_ERR_TOPIC_AUTHORIZATION_FAILED));
        DlqScanResult denied;
        qsizetype deniedEntries = 0;
        scan(&denied, &deniedEntries);
        QVERIFY2(denied.error.contains(u"authoriz"_s, Qt::CaseInsensitive), qPrintable(denied.error));
        QVERIFY(deniedEntries < 500);

        DlqScanResult again;
        qsizetype entries = 0;
        for (int attempt = 0; attempt < 20 && entries < 500; ++attempt) { // whatever of the 20 is left
            entries = 0;
            scan(&again, &entries);
        }
        QVERIFY2(again.error.isEmpty(), qPrintable(again.error));
        QCOMPARE(entries, qsizetype(500));
    }

    void samplerDegradesOnListOffsetsAndOffsetFetchErrorsAndRecovers_data()
    {
        QTest::addColumn<int>("listOffsetsError");
        QTest::addColumn<int>("offsetFetchError");
        QTest::newRow("retriable") << int(RD_KAFKA_RESP_ERR_NOT_LEADER_FOR_PARTITION)
                                   << int(RD_KAFKA_RESP_ERR_COORDINATOR_LOAD_IN_PROGRESS);
        QTest::newRow("fatal") << int(RD_KAFKA_RESP_ERR_TOPIC_AUTHORIZATION_FAILED)
                               << int(RD_KAFKA_RESP_ERR_GROUP_AUTHORIZATION_FAILED);
    }

    void samplerDegradesOnListOffsetsAndOffsetFetchErrorsAndRecovers()
    {
        QFETCH(int, listOffsetsError);
        QFETCH(int, offsetFetchError);
        MockKafkaCluster cluster(3);
        QVERIFY2(cluster.isValid(), qPrintable(cluster.error()));
        QVERIFY(cluster.createTopic(u"orders"_s, 3));
        QString error;
        QVERIFY2(produceRecords(cluster, u"orders"_s, 3, 300, 0, &error), qPrintable(error));
        const PartitionOffsets committed{{TopicPartition{u"orders"_s, 0}, 50},
                                         {TopicPartition{u"orders"_s, 1}, 60},
                                         {TopicPartition{u"orders"_s, 2}, 70}};
        QVERIFY2(OffsetCommitter::commit(cluster.clientProperties(), u"order-projection"_s, committed, &error),
                 qPrintable(error));

        LagSampler sampler;
        QSignalSpy states(&sampler, &LagSampler::stateChanged);
        QList<LagSnapshot> samples;
        connect(&sampler, &LagSampler::sampled, this, [&](const LagSnapshot &s) { samples.append(s); });
        LagSampler::Settings settings;
        settings.cluster = cluster.clientProperties();
        settings.namedGroups = {u"order-projection"_s};
        settings.intervalMs = 300;
        settings.requestTimeoutMs = 1500;
        const auto lastState = [&] { return states.isEmpty() ? LagSampler::State::Idle : states.last().first().value<LagSampler::State>(); };
        const auto lastDetail = [&] { return states.isEmpty() ? QString() : states.last().at(1).toString(); };
        sampler.start(settings);
        QTRY_COMPARE_WITH_TIMEOUT(lastState(), LagSampler::State::Connected, 10000);

        // Every broker refuses every ListOffsets and OffsetFetch for a while: the figures cannot be had.
        cluster.pushRequestErrors(ApiListOffsets, QList<rd_kafka_resp_err_t>(60, rd_kafka_resp_err_t(listOffsetsError)));
        cluster.pushRequestErrors(ApiOffsetFetch, QList<rd_kafka_resp_err_t>(60, rd_kafka_resp_err_t(offsetFetchError)));
        QTRY_VERIFY_WITH_TIMEOUT(lastState() == LagSampler::State::Degraded || lastState() == LagSampler::State::Unreachable, 20000);
        QVERIFY2(!lastDetail().isEmpty(), "a degraded state names its cause");
        cluster.clearRequestErrors(ApiListOffsets);
        cluster.clearRequestErrors(ApiOffsetFetch);
        QTRY_COMPARE_WITH_TIMEOUT(lastState(), LagSampler::State::Connected, 30000);

        // After recovery the figures are the true ones again.
        samples.clear();
        QTRY_VERIFY_WITH_TIMEOUT(!samples.isEmpty(), 10000);
        const LagSnapshot &s = samples.last();
        qint64 lag = -1;
        for (const GroupLag &g : s.groupRows) {
            if (g.group == u"order-projection")
                lag = g.lag;
        }
        QCOMPARE(lag, 300 - (50 + 60 + 70));
    }

    void consoleBannerNamesTheCauseAndClearsItself()
    {
        MockKafkaCluster cluster(3);
        QVERIFY2(cluster.isValid(), qPrintable(cluster.error()));
        QVERIFY(cluster.createTopic(u"orders"_s, 3));
        ConnectionProfile profile;
        profile.cluster = cluster.clientProperties();
        profile.namedGroups = {u"order-projection"_s};
        profile.sampleIntervalMs = 400;
        Console console(profile);
        QTRY_VERIFY_WITH_TIMEOUT(console.window()->bannerText().isEmpty() && console.groupModel()->rowCount() > 0, 15000);
        for (int b = 1; b <= 3; ++b)
            cluster.setBrokerDown(b);
        QTRY_VERIFY_WITH_TIMEOUT(!console.window()->bannerText().isEmpty(), 20000);
        const QString banner = console.window()->bannerText();
        QVERIFY2(banner.contains(u"Kafka"_s) && banner.contains(cluster.bootstrapServers().section(u',', 0, 0)),
                 qPrintable(banner));
        for (int b = 1; b <= 3; ++b)
            cluster.setBrokerUp(b);
        QTRY_VERIFY_WITH_TIMEOUT(console.window()->bannerText().isEmpty(), 30000);
    }
};

QTEST_MAIN(TestBrokerFaults)
#include "tst_brokerfaults.moc"
