// FetchWaker: a wake-up round goes to the leaders only after the reader's queue was half full (or the reader
// took half a queue at once) and has drained, reaches them (the mock cluster answers it), and never holds up
// the scan's end when a broker is gone.

#include "services/demo/mockkafkacluster.h"
#include "services/kafka/fetchwaker.h"
#include "services/kafka/kafkaconfig.h"

#include <QElapsedTimer>
#include <QTest>

#include <memory>
#include <thread>

using namespace Qt::StringLiterals;

class TestFetchWaker : public QObject {
    Q_OBJECT

    // A waker over a three-broker cluster whose topic "dlt" has a partition led by each broker.
    struct ThreeLeaders {
        MockKafkaCluster cluster{3};
        KafkaHandle rk;
        std::unique_ptr<FetchWaker> waker;
    };
    static void start(ThreeLeaders &t)
    {
        QVERIFY2(t.cluster.isValid(), qPrintable(t.cluster.error()));
        QVERIFY(t.cluster.createTopic(u"dlt"_s, 3));
        QString error;
        t.rk = KafkaConfig::createClient(RD_KAFKA_CONSUMER, t.cluster.clientProperties(), &error);
        QVERIFY2(t.rk, qPrintable(error));
        t.waker = std::make_unique<FetchWaker>(
            t.rk.get(), QList<TopicPartition>{{u"dlt"_s, 0}, {u"dlt"_s, 1}, {u"dlt"_s, 2}}, 5000);
    }

private Q_SLOTS:
    void roundOnlyAfterTheQueueFilledAndDrained()
    {
        ThreeLeaders leaders;
        start(leaders);
        if (QTest::currentTestFailed())
            return;
        FetchWaker &waker = *leaders.waker;

        // A queue that never reaches half of what it holds: the brokers are fetching, nothing to wake.
        for (const size_t depth : {0, 10, 49, 20, 0})
            waker.observe(depth, 100);
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        QCOMPARE(waker.answeredRounds() + waker.unansweredRounds(), 0);

        // Half full (the brokers may have stopped), then drained: one round, answered by every leader.
        waker.observe(50, 100);
        waker.observe(80, 100);
        QCOMPARE(waker.answeredRounds() + waker.unansweredRounds(), 0);
        waker.observe(30, 100);
        QTRY_COMPARE_WITH_TIMEOUT(waker.answeredRounds(), 1, 10000);

        // Staying low does not repeat it; the next fill and drain does.
        waker.observe(10, 100);
        waker.observe(0, 100);
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        QCOMPARE(waker.answeredRounds(), 1);
        waker.observe(100, 100);
        waker.observe(0, 100);
        QTRY_COMPARE_WITH_TIMEOUT(waker.answeredRounds(), 2, 10000);
        QCOMPARE(waker.unansweredRounds(), 0);
    }

    void heldRecordsCountAsQueued()
    {
        // A reader that took all that was queued at once leaves the queue reading empty while it works
        // through what it took, which may be what stopped every broker.
        ThreeLeaders leaders;
        start(leaders);
        if (QTest::currentTestFailed())
            return;
        FetchWaker &waker = *leaders.waker;

        // Few held from a queue that never fills: nothing to wake.
        waker.observe(0, 100, 10);
        waker.observe(0, 100, 49);
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        QCOMPARE(waker.answeredRounds() + waker.unansweredRounds(), 0);

        // Half a queue held, the queue itself below half: a round, at once.
        waker.observe(0, 100, 50);
        QTRY_COMPARE_WITH_TIMEOUT(waker.answeredRounds(), 1, 10000);

        // Held records that are not half a queue wake nobody again.
        waker.observe(0, 100, 30);
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        QCOMPARE(waker.answeredRounds(), 1);

        // Half a queue held while the queue is still half full waits until the queue is not.
        waker.observe(60, 100, 80);
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        QCOMPARE(waker.answeredRounds(), 1);
        waker.observe(20, 100, 90);
        QTRY_COMPARE_WITH_TIMEOUT(waker.answeredRounds(), 2, 10000);
        QCOMPARE(waker.unansweredRounds(), 0);
    }

    void brokerGoneDoesNotHoldTheEnd()
    {
        // A port nothing listens on: the round cannot be answered, and ending waits at most its timeout.
        QString error;
        KafkaHandle rk = KafkaConfig::createClient(RD_KAFKA_CONSUMER,
                                                   {{u"bootstrap.servers"_s, u"127.0.0.1:1"_s}}, &error);
        QVERIFY2(rk, qPrintable(error));
        QElapsedTimer clock;
        {
            FetchWaker waker(rk.get(), {{u"dlt"_s, 0}}, 300);
            waker.observe(60, 100);
            waker.observe(0, 100);
            QTRY_COMPARE_WITH_TIMEOUT(waker.unansweredRounds(), 1, 10000);
            waker.observe(60, 100);
            waker.observe(0, 100);
            clock.start();
        }
        QVERIFY2(clock.elapsed() < 3000, qPrintable(QString::number(clock.elapsed()) + u" ms"_s));
    }

    void noProbesNoThread()
    {
        FetchWaker waker(nullptr, {}, 100);
        waker.observe(60, 100);
        waker.observe(0, 100);
        QCOMPARE(waker.answeredRounds() + waker.unansweredRounds(), 0);
    }
};

QTEST_GUILESS_MAIN(TestFetchWaker)
#include "tst_fetchwaker.moc"
