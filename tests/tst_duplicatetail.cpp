#include "services/demo/mockkafkacluster.h"
#include "services/kafka/kafkaproducer.h"
#include "services/monitor/duplicatetail.h"

#include <QSignalSpy>
#include <QTest>

using namespace Qt::StringLiterals;

// The duplicate counter must count exactly the duplicates the test produced, and nothing that was there
// before the tail started.
class TestDuplicateTail final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void countsExactlyTheDuplicatesProduced()
    {
        MockKafkaCluster cluster(3);
        QVERIFY(cluster.createTopic(u"events"_s, 4));
        QString error;
        auto producer = KafkaProducer::create(cluster.clientProperties(), &error);
        const auto send = [&](int id, const QByteArray &via) {
            OutgoingRecord r{u"events"_s, id % 4, "k" + QByteArray::number(id), false, "{\"eventId\":\"e" + QByteArray::number(id) + "\"}", {}, 0};
            if (via == "header")
                r.headers.append({"idempotency-key", "e" + QByteArray::number(id), false});
            QVERIFY(producer->produce(r));
        };
        for (int i = 0; i < 50; ++i)
            send(i, "header"); // history before the tail: never judged
        QVERIFY(producer->flush(5000));

        DuplicateTail tail;
        QSignalSpy spy(&tail, &DuplicateTail::statsUpdated);
        DuplicateTail::Settings settings;
        settings.cluster = cluster.clientProperties();
        settings.topics = {u"events"_s};
        settings.jsonField = u"eventId"_s;
        settings.fallBackToRecordKey = false;
        tail.start(settings);
        QTRY_VERIFY_WITH_TIMEOUT(!spy.isEmpty() && spy.last().first().value<DuplicateStats>().ready, 15000);

        int expectedDuplicates = 0;
        for (int i = 100; i < 300; ++i) {
            send(i, i % 2 ? "header" : "json");
            if (i % 7 == 0) { // a producer retry: the same event again, by header or only in the payload
                send(i, i % 2 ? "header" : "json");
                ++expectedDuplicates;
            }
        }
        send(25, "header"); // seen before the tail started: not a duplicate as far as the tail knows
        QVERIFY(producer->flush(5000));
        const int expectedExamined = 200 + expectedDuplicates + 1;
        QTRY_VERIFY_WITH_TIMEOUT(spy.last().first().value<DuplicateStats>().topics.value(u"events"_s).examined == expectedExamined,
                                 15000);
        const auto stats = spy.last().first().value<DuplicateStats>().topics.value(u"events"_s);
        QCOMPARE(stats.duplicates, expectedDuplicates);
        QCOMPARE(stats.withoutKey, 0);
        QVERIFY(stats.duplicatePercent > 0);
        QCOMPARE(qRound(stats.duplicatePercent * expectedExamined), qRound(100.0 * expectedDuplicates));
    }

    void keyChoiceFollowsSettings()
    {
        DuplicateTail::Settings s;
        KafkaRecord r;
        r.key = "record-key";
        r.keyIsNull = false;
        r.value = R"({"meta":{"id":"from-json"}})";
        QCOMPARE(DuplicateTail::idempotencyKey(s, r), QByteArray("record-key"));
        s.jsonField = u"meta.id"_s;
        QCOMPARE(DuplicateTail::idempotencyKey(s, r), QByteArray("from-json"));
        r.headers.append({"idempotency-key", "from-header", false});
        QCOMPARE(DuplicateTail::idempotencyKey(s, r), QByteArray("from-header"));
        s.fallBackToRecordKey = false;
        s.jsonField.clear();
        r.headers.clear();
        QVERIFY(DuplicateTail::idempotencyKey(s, r).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestDuplicateTail)
#include "tst_duplicatetail.moc"
