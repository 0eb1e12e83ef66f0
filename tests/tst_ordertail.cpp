#include "services/accounting/sequencetracker.h"
#include "services/demo/mockkafkacluster.h"
#include "services/dlq/dlqheadercodec.h"
#include "services/kafka/kafkaproducer.h"
#include "services/kafka/offsetcommitter.h"
#include "services/monitor/ordertail.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>

#include <limits>

using namespace Qt::StringLiterals;

namespace {
// A mock cluster with one-partition topics, a producer on it, and a tail reading it (started by the test
// once its settings are complete).
struct TailRig {
    explicit TailRig(const QStringList &topics)
    {
        for (const QString &topic : topics)
            cluster.createTopic(topic, 1);
        producer = KafkaProducer::create(cluster.clientProperties(), &error);
        settings.cluster = cluster.clientProperties();
    }
    OrderTailStats last() const { return spy.isEmpty() ? OrderTailStats{} : spy.last().first().value<OrderTailStats>(); }

    MockKafkaCluster cluster{1};
    QString error;
    std::unique_ptr<KafkaProducer> producer;
    OrderTail tail;
    QSignalSpy spy{&tail, &OrderTail::statsUpdated};
    OrderTail::Settings settings;
};
} // namespace

// The live order tail (ARCHITECTURE.md, Data flows: Alerts) against the mock cluster: the gaps,
// out-of-order arrivals and repeats the test arranges per key are counted with their keys, history from
// before the tail began is never judged, and the keys held stay within the bound.
class TestOrderTail final : public QObject {
    Q_OBJECT
    using Kind = SequenceFinding::Kind;

private Q_SLOTS:
    void countsTheArrangedBreaksPerKey()
    {
        MockKafkaCluster cluster(1);
        QVERIFY(cluster.createTopic(u"cases"_s, 2));
        QVERIFY(cluster.createTopic(u"plain"_s, 1));
        QString error;
        auto producer = KafkaProducer::create(cluster.clientProperties(), &error);
        QVERIFY2(producer, qPrintable(error));
        const auto send = [&](const QByteArray &key, int version, int partition = -1) {
            QVERIFY(producer->produce({u"cases"_s, partition, key, false,
                                       "{\"caseId\":\"" + key + "\",\"version\":" + QByteArray::number(version) + "}",
                                       {}, 0}));
        };
        send("CASE-1", 1);
        send("CASE-1", 5); // before the tail: never judged (or the next 2 would be out of order)
        QVERIFY(producer->flush(5000));

        OrderTail tail;
        QSignalSpy spy(&tail, &OrderTail::statsUpdated);
        OrderTail::Settings settings;
        settings.cluster = cluster.clientProperties();
        settings.sequences.insert(u"cases"_s, RecordField{RecordField::Kind::JsonPath, u"$.version"_s});
        tail.start(settings);
        QTRY_VERIFY_WITH_TIMEOUT(!spy.isEmpty() && spy.last().first().value<OrderTailStats>().ready, 15000);

        for (int v : {2, 3, 4})
            send("CASE-1", v); // in order
        for (int v : {1, 2, 4})
            send("CASE-GAP", v); // 3 missing
        for (int v : {1, 3, 2})
            send("CASE-LATE", v); // 2 after 3
        send("CASE-MOVED", 2, 1); // the key moved: 2 on partition 1 first
        QVERIFY(producer->flush(5000));
        QTest::qWait(200);
        send("CASE-MOVED", 1, 0); // then 1 on partition 0
        for (int v : {1, 2, 2})
            send("CASE-AGAIN", v); // 2 twice
        QVERIFY(producer->produce({u"cases"_s, -1, "CASE-NONE", false, "not json", {}, 0}));
        QVERIFY(producer->flush(5000));

        QTRY_VERIFY_WITH_TIMEOUT(spy.last().first().value<OrderTailStats>().topics.value(u"cases"_s).examined == 15,
                                 15000);
        const OrderTailStats stats = spy.last().first().value<OrderTailStats>();
        const OrderTailStats::Topic t = stats.topics.value(u"cases"_s);
        QCOMPARE(t.withoutSequence, 1);
        QCOMPARE(t.count(Kind::Gap), 2); // CASE-GAP's 3, and CASE-LATE's 2 when 3 arrived
        const auto sorted = [](QStringList keys) { // partitions are read side by side: any order
            keys.sort();
            return keys;
        };
        QCOMPARE(sorted(t.examples[size_t(Kind::Gap)]), (QStringList{u"CASE-GAP"_s, u"CASE-LATE"_s}));
        QCOMPARE(t.count(Kind::OutOfOrder), 2);
        QCOMPARE(sorted(t.examples[size_t(Kind::OutOfOrder)]), (QStringList{u"CASE-LATE"_s, u"CASE-MOVED"_s}));
        QCOMPARE(t.count(Kind::Repeat), 1);
        QCOMPARE(t.examples[size_t(Kind::Repeat)], QStringList{u"CASE-AGAIN"_s});
        QCOMPARE(t.recentBreaks, 5);
        QCOMPARE(stats.keysTracked, 5);
        QVERIFY(!stats.topics.contains(u"plain"_s)); // no sequence field: not followed
    }

    // A cluster that does not answer: the tail says so once, and closing it (the console's shutdown)
    // does not wait for each followed topic's metadata to time out in turn.
    void unreachableClusterIsReportedAndStopsPromptly()
    {
        OrderTail tail;
        QSignalSpy spy(&tail, &OrderTail::statsUpdated);
        OrderTail::Settings settings;
        settings.cluster = {{u"bootstrap.servers"_s, u"127.0.0.1:1"_s}};
        for (const QString &topic : {u"a"_s, u"b"_s, u"c"_s, u"d"_s})
            settings.sequences.insert(topic, RecordField{RecordField::Kind::JsonPath, u"$.version"_s});
        tail.start(settings);
        QTRY_VERIFY_WITH_TIMEOUT(!spy.isEmpty(), 15000);
        const OrderTailStats stats = spy.last().first().value<OrderTailStats>();
        QVERIFY(!stats.ready);
        QVERIFY2(stats.error.contains(u"did not answer"_s), qPrintable(stats.error));

        tail.start(settings); // assigning again, against the same silence
        QTest::qWait(300);
        QElapsedTimer stopping;
        stopping.start();
        tail.stop();
        // One metadata wait per topic would hold the stop for 5 s each.
        QVERIFY2(stopping.elapsed() < 2000, qPrintable(QString::number(stopping.elapsed())));
    }

    // DLQ-and-continue (seed 000 §16) without an inbox: CASE-A's first record is dead-lettered and its
    // second committed past by the group: a break. CASE-B's first is dead-lettered too, but its second is
    // not yet committed past: none, until the group commits beyond it.
    void deadLetteredKeyWithALaterCommittedRecordIsABreak()
    {
        TailRig rig({u"cases"_s, u"cases-dlt"_s});
        QVERIFY2(rig.producer, qPrintable(rig.error));
        auto &[cluster, error, producer, tail, spy, settings] = rig;
        settings.sequences.insert(u"cases"_s, RecordField{RecordField::Kind::JsonPath, u"$.version"_s});
        settings.deadLetterGroups.insert(u"cases-dlt"_s, u"handler"_s);
        tail.start(settings);
        QTRY_VERIFY_WITH_TIMEOUT(rig.last().ready, 15000);

        // Offsets 0-3: A v1, B v1, A v2, B v2.
        const QList<std::pair<QByteArray, int>> records{{"CASE-A", 1}, {"CASE-B", 1}, {"CASE-A", 2}, {"CASE-B", 2}};
        for (const auto &[key, version] : records)
            QVERIFY(producer->produce({u"cases"_s, 0, key, false,
                                       "{\"version\":" + QByteArray::number(version) + "}", {}, 0}));
        QVERIFY(producer->flush(5000));
        const auto deadLetter = [&](const QByteArray &key, qint64 offset) {
            DlqMetadata m;
            m.originalTopic = u"cases"_s;
            m.originalPartition = 0;
            m.originalOffset = offset;
            m.reason = u"handler failed"_s;
            // The rig's member: clang before 16 cannot capture a structured binding in a lambda.
            return rig.producer->produce({u"cases-dlt"_s, 0, key, false, "{\"version\":1}",
                                      encodeDlqHeaders(DlqDialect::BerthCanonical, m), 0});
        };
        QVERIFY(deadLetter("CASE-A", 0));
        QVERIFY(deadLetter("CASE-B", 1));
        QVERIFY(producer->flush(5000));
        // The group went on past CASE-A's second record (offset 2), not yet past CASE-B's (offset 3).
        QVERIFY2(OffsetCommitter::commit(cluster.clientProperties(), u"handler"_s, {{{u"cases"_s, 0}, 3}}, &error),
                 qPrintable(error));

        const auto breaks = [&rig] { return rig.last().topics.value(u"cases"_s).count(Kind::DlqAndContinue); };
        // Both dead letters read (CASE-B's waits for its later record to be committed past), CASE-A's break.
        QTRY_VERIFY_WITH_TIMEOUT(breaks() >= 1 && rig.last().deadLettersWaiting == 1, 15000);
        OrderTailStats stats = rig.last();
        QCOMPARE(breaks(), 1);
        QCOMPARE(stats.topics.value(u"cases"_s).examples[size_t(Kind::DlqAndContinue)], QStringList{u"CASE-A"_s});
        QCOMPARE(stats.topics.value(u"cases"_s).recentBreaks, 1); // what the order-break alert reads
        QVERIFY(!stats.topics.contains(u"cases-dlt"_s));

        QVERIFY2(OffsetCommitter::commit(cluster.clientProperties(), u"handler"_s, {{{u"cases"_s, 0}, 4}}, &error),
                 qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(breaks() == 2, 15000);
        stats = rig.last();
        QCOMPARE(stats.topics.value(u"cases"_s).examples[size_t(Kind::DlqAndContinue)],
                 (QStringList{u"CASE-A"_s, u"CASE-B"_s}));
        QCOMPARE(stats.deadLettersWaiting, 0);
    }

    // ARCHITECTURE.md, Contracts: masking. A topic whose record keys the policy masks shows its breaks'
    // example keys as "(masked)", never the key.
    void maskedKeysAreNotShownAsExamples()
    {
        TailRig rig({u"cases"_s});
        QVERIFY2(rig.producer, qPrintable(rig.error));
        DeliveryPolicy policy;
        TopicPolicy cases;
        cases.name = u"cases"_s;
        cases.sequence = {RecordField::Kind::Header, u"seq"_s};
        policy.topics << cases;
        policy.masking << MaskRule{u"cases"_s, {}, {}, true, 0};
        rig.settings.sequences = OrderTail::sequencesOf(policy);
        rig.settings.maskedKeyTopics = OrderTail::maskedKeyTopicsOf(policy);
        rig.tail.start(rig.settings);
        QTRY_VERIFY_WITH_TIMEOUT(rig.last().ready, 15000);
        for (const char *seq : {"1", "3"}) // 2 missing
            QVERIFY(rig.producer->produce({u"cases"_s, 0, "CUSTOMER-4711", false, "{}", {{"seq", seq, false}}, 0}));
        QVERIFY(rig.producer->flush(5000));
        QTRY_VERIFY_WITH_TIMEOUT(rig.last().topics.value(u"cases"_s).count(Kind::Gap) == 1, 15000);
        QCOMPARE(rig.last().topics.value(u"cases"_s).examples[size_t(Kind::Gap)], QStringList{u"(masked)"_s});
    }

    void keysHeldStayWithinTheBound()
    {
        TailRig rig({u"cases"_s});
        QVERIFY2(rig.producer, qPrintable(rig.error));
        auto &[cluster, error, producer, tail, spy, settings] = rig;
        settings.sequences.insert(u"cases"_s, RecordField{RecordField::Kind::Header, u"seq"_s});
        settings.maxKeys = 10;
        tail.start(settings);
        QTRY_VERIFY_WITH_TIMEOUT(!spy.isEmpty() && spy.last().first().value<OrderTailStats>().ready, 15000);
        for (int k = 0; k < 30; ++k)
            QVERIFY(producer->produce({u"cases"_s, 0, "K-" + QByteArray::number(k), false, "{}", {{"seq", "7", false}}, 0}));
        // The first key again, after it was forgotten: its number starts afresh, no repeat.
        QVERIFY(producer->produce({u"cases"_s, 0, "K-0", false, "{}", {{"seq", "7", false}}, 0}));
        QVERIFY(producer->flush(5000));
        QTRY_VERIFY_WITH_TIMEOUT(spy.last().first().value<OrderTailStats>().topics.value(u"cases"_s).examined == 31,
                                 15000);
        const OrderTailStats stats = spy.last().first().value<OrderTailStats>();
        QCOMPARE(stats.keysTracked, 10);
        QCOMPARE(stats.keysForgotten, 21);
        QCOMPARE(stats.topics.value(u"cases"_s).count(Kind::Repeat), 0);
    }

    // The tracker's bounds: numbers far below the highest are judged out of order; open gaps beyond the
    // bound are settled oldest first; a late number splits the gap it falls in.
    void trackerBounds()
    {
        SequenceTracker t;
        QVERIFY(!t.observe(100, 0));
        QCOMPARE(t.observe(100, 1)->kind, Kind::Repeat);
        QCOMPARE(t.observe(100 - SequenceTracker::Window, 2)->kind, Kind::OutOfOrder);
        QCOMPARE(t.observe(100 - SequenceTracker::Window, 3)->kind, Kind::Repeat); // within the window
        QCOMPARE(t.observe(99 - SequenceTracker::Window, 4)->kind, Kind::OutOfOrder); // below it: not told apart
        QCOMPARE(t.observe(99 - SequenceTracker::Window, 5)->kind, Kind::OutOfOrder);

        SequenceTracker g;
        QList<SequenceTracker::Gap> settled;
        QVERIFY(!g.observe(1, 0, &settled));
        const auto opened = g.observe(10, 1, &settled); // 2..9 missing
        QCOMPARE(opened->kind, Kind::Gap);
        QCOMPARE(opened->expected, 2);
        QCOMPARE(opened->missing, 8);
        QCOMPARE(g.observe(5, 2, &settled)->kind, Kind::OutOfOrder); // splits it: 2..4, 6..9
        QCOMPARE(g.openGaps().size(), 2);
        QCOMPARE(g.openGaps()[0].to, 4);
        QCOMPARE(g.openGaps()[1].from, 6);
        QVERIFY(g.observe(12, 3, &settled)); // 11
        QVERIFY(g.observe(14, 4, &settled)); // 13
        QVERIFY(settled.isEmpty());
        QVERIFY(g.observe(16, 5, &settled)); // 15: a fifth gap settles the oldest (2..4)
        QCOMPARE(settled.size(), 1);
        QCOMPARE(settled[0].from, 2);
        QCOMPARE(settled[0].to, 4);
        QCOMPARE(g.openGaps().size(), SequenceTracker::MaxOpenGaps);
        QCOMPARE(g.observe(11, 6, &settled)->kind, Kind::OutOfOrder); // fills 11 whole
        QCOMPARE(g.openGaps().size(), SequenceTracker::MaxOpenGaps - 1);
        // Numbers at the ends of the range of qint64 do not overflow.
        SequenceTracker far;
        QVERIFY(!far.observe(std::numeric_limits<qint64>::min() + 1, 0));
        QCOMPARE(far.observe(std::numeric_limits<qint64>::max(), 1)->kind, Kind::Gap);
        QCOMPARE(far.observe(0, 2)->kind, Kind::OutOfOrder);
    }
};

QTEST_GUILESS_MAIN(TestOrderTail)
#include "tst_ordertail.moc"
