#include "app/dlqcommand.h"
#include "models/dlqbrowsermodel.h"
#include "models/dlqrowquery.h"
#include "services/demo/mockkafkacluster.h"
#include "services/demo/temppostgres.h"
#include "services/dlq/dlqheadercodec.h"
#include "services/dlq/dlqscanner.h"
#include "services/inbox/pgsession.h"
#include "services/kafka/kafkaproducer.h"
#include "services/payload/fieldfilter.h"
#include "services/payload/payloaddecoder.h"
#include "services/payload/schemacatalog.h"
#include "support/fakeschemaregistry.h"
#include "support/referenceencoder.h"
#include "support/testsupport.h"
#include "views/dlqinspectorview.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QTableWidget>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QThread>
#include <QTest>

#include <fcntl.h>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace {
constexpr qint64 kT0 = 1'700'000'000'000;

struct Outcome {
    DlqScanPlan plan;
    DlqIndexEntries entries;
    QList<quint32> groupIds;
    DlqScanResult result;
    std::shared_ptr<const StringPool> strings;
    int batches = 0;
    bool finished = false;
    QString text(quint32 id) const { return strings ? strings->text(id) : QString(); }
};

// Collects everything one scanner sends.
void collect(DlqScanner &scanner, Outcome &out)
{
    QObject::connect(&scanner, &DlqScanner::scanStarted, &scanner, [&out](const DlqScanPlan &p) {
        out.plan = p;
        out.strings = p.strings;
    });
    QObject::connect(&scanner, &DlqScanner::batchReady, &scanner, [&out](const DlqScanBatch &b) {
        out.entries += b.entries;
        out.groupIds += b.groupIds;
        ++out.batches;
    });
    QObject::connect(&scanner, &DlqScanner::scanFinished, &scanner, [&out](const DlqScanResult &r) {
        out.result = r;
        out.finished = true;
    });
}

DlqMetadata fullMetadata()
{
    DlqMetadata m;
    m.originalTopic = u"orders"_s;
    m.originalPartition = 4;
    m.originalOffset = 123'456'789'012;
    m.originalTimestampMs = kT0 - 5000;
    m.originalTimestampType = u"CreateTime"_s;
    m.consumerGroup = u"order-projection"_s;
    m.connectorName = u"warehouse-sink"_s;
    m.connectorTask = u"0"_s;
    m.connectorStage = u"VALUE_CONVERTER"_s;
    m.exceptionClass = u"com.acme.OrderRejected"_s;
    m.causeClass = u"java.lang.IllegalArgumentException"_s;
    m.reason = u"Order ORD-42 rejected: 'price' < 0"_s;
    m.stackTrace = u"com.acme.OrderRejected: boom\n\tat com.acme.Projection.apply(Projection.java:42)"_s;
    m.attempts = 7;
    m.firstFailureMs = kT0 - 4000;
    m.lastFailureMs = kT0 - 1000;
    m.schemaVersion = u"3"_s;
    return m;
}
} // namespace

class TestDlqScanner final : public QObject {
    Q_OBJECT
    std::unique_ptr<MockKafkaCluster> m_cluster;
    std::unique_ptr<KafkaProducer> m_producer;

    DlqScanRequest request(const QString &topic) const
    {
        DlqScanRequest r;
        r.cluster = m_cluster->clientProperties();
        r.topic = topic;
        r.requestTimeoutMs = 5000;
        return r;
    }

    bool produce(const QString &topic, int partition, const QByteArray &key, bool keyNull,
                 const QByteArray &value, const RecordHeaders &headers, qint64 timestampMs = 0)
    {
        OutgoingRecord r{topic, partition, key, keyNull, value, headers, timestampMs};
        QString error;
        return m_producer->produce(r, &error) && m_producer->flush(20000, &error);
    }

    // KafkaProducer sends an empty value for a null QByteArray; a tombstone needs a null payload.
    bool produceTombstone(const QString &topic, int partition, const QByteArray &key)
    {
        const QByteArray t = topic.toUtf8();
        const rd_kafka_resp_err_t err = rd_kafka_producev(
            m_producer->handle(), RD_KAFKA_V_TOPIC(t.constData()), RD_KAFKA_V_PARTITION(partition),
            RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_KEY(key.constData(), size_t(key.size())),
            RD_KAFKA_V_VALUE(nullptr, 0), RD_KAFKA_V_END);
        return err == RD_KAFKA_RESP_ERR_NO_ERROR && m_producer->flush(20000);
    }

    bool run(const DlqScanRequest &req, Outcome &out, int timeoutMs = 30000)
    {
        DlqScanner scanner;
        collect(scanner, out);
        scanner.start(req);
        return QTest::qWaitFor([&] { return out.finished; }, timeoutMs);
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_cluster = std::make_unique<MockKafkaCluster>(3);
        QVERIFY2(m_cluster->isValid(), qPrintable(m_cluster->error()));
        QString error;
        KafkaProperties props = m_cluster->clientProperties();
        props.append({u"message.max.bytes"_s, u"20000000"_s}); // the 16 MB record
        props.append({u"linger.ms"_s, u"1"_s});
        m_producer = KafkaProducer::create(props, &error);
        QVERIFY2(m_producer, qPrintable(error));
    }

    void everyDialectDecodedIntoEntries()
    {
        const QString topic = u"dlq-dialects"_s;
        QVERIFY(m_cluster->createTopic(topic, 1));
        const QList<DlqDialect> dialects = {DlqDialect::SpringDlt,         DlqDialect::SpringRetry,
                                            DlqDialect::SpringCloudStream, DlqDialect::KafkaConnect,
                                            DlqDialect::KafkaStreams,      DlqDialect::BerthCanonical};
        const DlqMetadata m = fullMetadata();
        for (int i = 0; i < dialects.size(); ++i) {
            RecordHeaders h = encodeDlqHeaders(dialects[i], m);
            h.append({"correlation-id", "corr-" + QByteArray::number(i), false});
            h.append({"idempotency-key", "idem-" + QByteArray::number(i), false});
            QVERIFY(produce(topic, 0, "key-" + QByteArray::number(i), false, QByteArray(100 + i, 'v'), h,
                            kT0 + i));
        }
        Outcome out;
        QVERIFY(run(request(topic), out));
        QVERIFY2(out.result.error.isEmpty(), qPrintable(out.result.error));
        QCOMPARE(out.entries.size(), dialects.size());
        QCOMPARE(out.plan.totalRecords, dialects.size());
        for (int i = 0; i < dialects.size(); ++i) {
            const DlqDialect d = dialects[i];
            const DlqIndexEntry &e = out.entries[i];
            const StringPool &pool = *out.strings;
            QCOMPARE(e.dialectValue(), d);
            QCOMPARE(e.partition, 0);
            QCOMPARE(e.offset, i);
            QCOMPARE(e.timestampMs, kT0 + i);
            QCOMPARE(e.keySize, 5u);
            QCOMPARE(DlqEntryText::key(e, pool), u"key-"_s + QString::number(i));
            QCOMPARE(e.valueSize, quint32(100 + i));
            QCOMPARE(DlqEntryText::originalTopic(e, pool), m.originalTopic);
            QCOMPARE(e.originalPartition, m.originalPartition);
            QCOMPARE(e.originalOffset, m.originalOffset);
            QCOMPARE(DlqEntryText::exceptionClass(e, pool), m.exceptionClass);
            QCOMPARE(DlqEntryText::reason(e, pool), m.reason);
            QCOMPARE(DlqEntryText::idempotencyKey(e, pool), u"idem-"_s + QString::number(i));
            const bool spring = d == DlqDialect::SpringDlt || d == DlqDialect::SpringRetry;
            QCOMPARE(DlqEntryText::causeClass(e, pool), spring ? m.causeClass : QString());
            const QString consumer = d == DlqDialect::SpringDlt || d == DlqDialect::BerthCanonical
                                         ? m.consumerGroup
                                     : d == DlqDialect::KafkaConnect ? m.connectorName
                                                                     : QString();
            QCOMPARE(DlqEntryText::consumer(e, pool), consumer);
            const bool attempts = spring || d == DlqDialect::BerthCanonical;
            QCOMPARE(e.attemptCount(), attempts ? m.attempts : -1);
            QCOMPARE(e.has(DlqIndexEntry::HasStackTrace), d != DlqDialect::BerthCanonical);
            QVERIFY2(!e.has(DlqIndexEntry::HasNotes), qPrintable(dialectName(d)));
            QVERIFY(!e.has(DlqIndexEntry::NullKey) && !e.has(DlqIndexEntry::NullValue));
            QVERIFY(!e.has(DlqIndexEntry::BinaryKey) && !e.has(DlqIndexEntry::InvalidUtf8));
        }
        // Same exception, cause and reason pattern: one group per distinct (exception, cause) pair.
        QCOMPARE(out.result.groups.size(), 2);
        QCOMPARE(out.result.progress.records, dialects.size());
    }

    void kcatTextHeadersAndRepeats()
    {
        if (!TestSupport::haveExecutable(u"kcat"_s))
            QSKIP("kcat is not installed");
        const QString topic = u"dlq-kcat"_s;
        QVERIFY(m_cluster->createTopic(topic, 1));
        // Text everywhere, as a hand-made dead letter would have it; kafka_dlt numbers as decimal text.
        QProcess kcat;
        kcat.start(u"kcat"_s, {u"-P"_s,
                               u"-b"_s,
                               m_cluster->bootstrapServers(),
                               u"-t"_s,
                               topic,
                               u"-p"_s,
                               u"0"_s,
                               u"-k"_s,
                               u"ORD-7"_s,
                               u"-H"_s,
                               u"dlq-original-topic=payments"_s,
                               u"-H"_s,
                               u"dlq-original-partition=2"_s,
                               u"-H"_s,
                               u"dlq-original-offset=9001"_s,
                               u"-H"_s,
                               u"dlq-consumer=payment-capture"_s,
                               u"-H"_s,
                               u"dlq-exception-class=com.acme.Declined"_s,
                               u"-H"_s,
                               u"dlq-reason=first reason"_s,
                               u"-H"_s,
                               u"dlq-reason=Card 4242 declined"_s,
                               u"-H"_s,
                               u"dlq-attempts=5"_s,
                               u"-H"_s,
                               u"idempotency-key=pay-77"_s});
        QVERIFY(kcat.waitForStarted());
        kcat.write("{\"amount\": 12}\n");
        kcat.closeWriteChannel();
        QVERIFY(kcat.waitForFinished(20000));
        QCOMPARE(kcat.exitCode(), 0);
        Outcome out;
        QVERIFY(run(request(topic), out));
        QCOMPARE(out.entries.size(), 1);
        const DlqIndexEntry &e = out.entries.first();
        const StringPool &pool = *out.strings;
        QCOMPARE(e.dialectValue(), DlqDialect::BerthCanonical);
        QCOMPARE(DlqEntryText::originalTopic(e, pool), u"payments"_s);
        QCOMPARE(e.originalPartition, 2);
        QCOMPARE(e.originalOffset, 9001);
        QCOMPARE(DlqEntryText::consumer(e, pool), u"payment-capture"_s);
        QCOMPARE(DlqEntryText::exceptionClass(e, pool), u"com.acme.Declined"_s);
        QCOMPARE(DlqEntryText::reason(e, pool), u"Card 4242 declined"_s); // the last occurrence wins
        QVERIFY(e.has(DlqIndexEntry::HasNotes));                          // ...and says so
        QCOMPARE(e.attemptCount(), 5);
        QCOMPARE(DlqEntryText::idempotencyKey(e, pool), u"pay-77"_s);
        QCOMPARE(DlqEntryText::key(e, pool), u"ORD-7"_s);
        QCOMPARE(e.valueSize, 14u);
    }

    void badInputIsListedNotDropped()
    {
        const QString topic = u"dlq-bad"_s;
        QVERIFY(m_cluster->createTopic(topic, 2));
        auto canonical = [](const QByteArray &reason) {
            return RecordHeaders{{"dlq-exception-class", "com.acme.Bad", false},
                                 {"dlq-reason", reason, false}};
        };
        QByteArray binary(256, Qt::Uninitialized);
        for (char &c : binary)
            c = char(QRandomGenerator::global()->bounded(256));
        const QByteArray deep = QByteArray(100'000, '[') + QByteArray(100'000, ']');
        RecordHeaders thousand;
        for (int i = 0; i < 1000; ++i)
            thousand.append({"h" + QByteArray::number(i), "v" + QByteArray::number(i), false});
        thousand.append(canonical("one of a thousand"));
        QVERIFY(produce(topic, 0, "k0", false, "\xff\xfe\xfd", canonical("bad \xff reason")));         // 0
        QVERIFY(produce(topic, 0, "k1", false, QByteArray(""), canonical("empty")));                   // 1
        QVERIFY(produceTombstone(topic, 0, "k2"));                                                     // 2
        QVERIFY(produce(topic, 0, {}, true, "v", canonical("null key")));                              // 3
        QVERIFY(produce(topic, 0, QByteArray("\x00\x01\xff", 3), false, binary, canonical("binary"))); // 4
        QVERIFY(produce(topic, 0, "k5", false, deep, canonical("deep")));                              // 5
        QVERIFY(produce(topic, 0, "k6", false, "<html><script>alert(1)</script></html>",
                        canonical("<b>bold</b>")));                                                     // 6
        QVERIFY(produce(topic, 0, "k7", false, "\x1b[31mred\x1b[0m", canonical("\x1b[31mred\x1b[0m"))); // 7
        QVERIFY(produce(topic, 0, "k8", false, "{}", thousand));                                        // 8
        QVERIFY(produce(topic, 0, "k9", false, "{}", {{"dlq-reason", {}, true}}));                      // 9
        QVERIFY(produce(topic, 0, "k10", false, "{}",
                        {{"dlq-original-partition", "abc", false},
                         {"kafka_dlt-original-offset", "\x01\x02\x03", false}}));
        const QByteArray huge = "{\"data\":\"" + QByteArray(16 * 1024 * 1024, 'x') + "\"}";
        QVERIFY(produce(topic, 1, "big", false, huge,
                        canonical("huge"))); // alone: the mock keeps 5 MB a partition

        Outcome out;
        QVERIFY(run(request(topic), out, 60000));
        QVERIFY2(out.result.error.isEmpty(), qPrintable(out.result.error));
        QCOMPARE(out.entries.size(), 12);
        std::sort(out.entries.begin(), out.entries.end(), [](const DlqIndexEntry &a, const DlqIndexEntry &b) {
            return std::pair(a.partition, a.offset) < std::pair(b.partition, b.offset);
        });
        const StringPool &pool = *out.strings;
        const auto &E = out.entries;
        QVERIFY(E[0].has(DlqIndexEntry::InvalidUtf8) && E[0].has(DlqIndexEntry::HasNotes));
        QVERIFY(DlqEntryText::reason(E[0], pool).contains(QChar::ReplacementCharacter));
        QVERIFY(E[1].valueSize == 0 && !E[1].has(DlqIndexEntry::NullValue));
        QVERIFY(E[2].has(DlqIndexEntry::NullValue));
        QVERIFY(E[3].has(DlqIndexEntry::NullKey));
        QVERIFY(E[4].has(DlqIndexEntry::BinaryKey) && E[4].has(DlqIndexEntry::InvalidUtf8));
        QCOMPARE(DlqEntryText::key(E[4], pool), u"0x0001ff"_s);
        QCOMPARE(E[5].valueSize, 200'000u);
        QCOMPARE(DlqEntryText::reason(E[6], pool), u"<b>bold</b>"_s);
        QCOMPARE(DlqEntryText::reason(E[7], pool), u"\x1b[31mred\x1b[0m"_s); // kept as data...
        QVERIFY(!DlqBrowserModel::visibleText(DlqEntryText::reason(E[7], pool))
                     .contains(QChar(0x1b))); // ...shown inert
        QCOMPARE(DlqEntryText::reason(E[8], pool), u"one of a thousand"_s);
        QVERIFY(E[9].has(DlqIndexEntry::HasNotes));
        QVERIFY(E[10].has(DlqIndexEntry::HasNotes));
        QCOMPARE(E[11].partition, 1);
        QVERIFY(E[11].has(DlqIndexEntry::Huge));
        QCOMPARE(E[11].valueSize, quint32(huge.size()));

        // The inspector shows each of them as plain text, bounded.
        DlqScanner scanner;
        scanner.start(request(topic));
        QTRY_VERIFY_WITH_TIMEOUT(!scanner.isRunning(), 60000);
        DlqInspectorView inspector(&scanner);
        QSignalSpy loaded(&inspector, &DlqInspectorView::recordLoaded);
        auto inspect = [&](const DlqIndexEntry &e) {
            loaded.clear();
            inspector.showEntry(DlqEntryFields::from(e, *out.strings), topic, m_cluster->bootstrapServers());
            return QTest::qWaitFor([&] { return loaded.count() == 1; }, 30000);
        };
        QVERIFY(inspect(E[5]));
        QVERIFY(!inspector.payloadText().isEmpty());
        QVERIFY(inspector.payloadText().size() < 2'000'000); // indentation stops growing
        QVERIFY(inspect(E[6]));
        QVERIFY(inspector.payloadText().contains(u"<script>alert(1)</script>"_s));
        QVERIFY(inspect(E[7]));
        QVERIFY(!inspector.payloadText().contains(QChar(0x1b)));
        QVERIFY(inspect(E[8]));
        QCOMPARE(inspector.headerTable()->rowCount(), 1002);
        QVERIFY(inspect(E[4]));
        QVERIFY(inspector.hexText().startsWith(u"00000000  "_s));
        QVERIFY(inspect(E[11]));
        QCOMPARE(inspector.record().value.size(), huge.size());
        QVERIFY(inspector.payloadText().size() < 600'000); // the first 256 KiB, not 16 MB
        const qsizetype before = inspector.payloadText().size();
        inspector.showMore();
        QVERIFY(inspector.payloadText().size() > before);
        QTemporaryDir dir;
        QString error;
        QVERIFY(inspect(E[4]));
        QVERIFY2(inspector.exportJson(dir.filePath(u"binary.json"_s), &error), qPrintable(error));
        QFile file(dir.filePath(u"binary.json"_s));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject exported = QJsonDocument::fromJson(file.readAll()).object();
        QCOMPARE(QByteArray::fromBase64(exported.value(u"valueBase64"_s).toString().toLatin1()), binary);
        QCOMPARE(exported.value(u"decoded"_s).toObject().value(u"reason"_s).toString(), u"binary"_s);
    }

    void cancelStopsDelivery()
    {
        const QString topic = u"dlq-cancel"_s;
        QVERIFY(m_cluster->createTopic(topic, 3));
        // Small records: the mock keeps only 5 MB a partition.
        const RecordHeaders h = {{"dlq-reason", "Order 1 not found", false}};
        for (int i = 0; i < 60'000; ++i)
            QVERIFY(m_producer->produce({topic, i % 3, "k" + QByteArray::number(i), false, "{}", h, 0}));
        QVERIFY(m_producer->flush(30000));
        DlqScanner scanner;
        Outcome out;
        collect(scanner, out);
        QSignalSpy finished(&scanner, &DlqScanner::scanFinished);
        connect(&scanner, &DlqScanner::batchReady, &scanner, [&scanner] { scanner.cancel(); });
        scanner.start(request(topic));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        QVERIFY(out.result.cancelled);
        QVERIFY(!scanner.isRunning());
        const int delivered = out.batches;
        QTest::qWait(300);
        QCOMPARE(out.batches, delivered); // nothing of the cancelled scan arrives afterwards
        QCOMPARE(finished.count(), 1);
        QVERIFY(out.entries.size() < 60'000);

        // The scanner is ready for the next scan at once.
        disconnect(&scanner, &DlqScanner::batchReady, &scanner, nullptr);
        out = Outcome{};
        collect(scanner, out);
        scanner.start(request(topic));
        QTRY_VERIFY_WITH_TIMEOUT(out.finished, 60000);
        QVERIFY(!out.result.cancelled);
        QCOMPARE(out.plan.totalRecords, 60'000);
        QCOMPARE(out.entries.size(), 60'000);
        QCOMPARE(out.result.progress.records, 60'000);
        QVERIFY(out.batches < 60); // batched: at most ~20 a second
    }

    void browserStoreHoldsWhatTheBatchesCarry()
    {
        // The scan writes entries straight into the browser store's chunks; past a chunk's 65,536 entries
        // the store must still read exactly what the batches carry, group ids included.
        const QString topic = u"dlq-store"_s;
        QVERIFY(m_cluster->createTopic(topic, 4));
        const char *reasons[] = {"Order 1 not found", "Card 2 declined", "Timeout calling tax"};
        for (int i = 0; i < 70'000; ++i) {
            const RecordHeaders h = {{"dlq-reason", reasons[i % 3], false}};
            QVERIFY(m_producer->produce({topic, i % 4, "k" + QByteArray::number(i), false, "{}", h, 0}));
        }
        QVERIFY(m_producer->flush(30000));
        DlqScanner scanner;
        DlqBrowserModel model;
        Outcome out;
        collect(scanner, out);
        connect(&scanner, &DlqScanner::scanStarted, &model, &DlqBrowserModel::beginScan);
        connect(&scanner, &DlqScanner::batchReady, &model, &DlqBrowserModel::appendBatch);
        scanner.start(request(topic));
        QTRY_VERIFY_WITH_TIMEOUT(out.finished, 60000);
        QVERIFY(out.result.error.isEmpty());
        QCOMPARE(out.entries.size(), 70'000);
        QCOMPARE(model.rowCount(), 70'000);
        int mismatches = 0;
        for (int i = 0; i < 70'000; ++i) {
            const DlqIndexEntry &e = model.entry(i);
            const DlqIndexEntry &want = out.entries[i];
            mismatches += e.partition != want.partition || e.offset != want.offset || e.keyId != want.keyId
                          || e.reasonId != want.reasonId || model.groupOf(i) != out.groupIds[i];
        }
        QCOMPARE(mismatches, 0);
        QCOMPARE(out.result.groups.size(), 3);
    }

    void liveTailAppends()
    {
        const QString topic = u"dlq-live"_s;
        QVERIFY(m_cluster->createTopic(topic, 2));
        const RecordHeaders h = encodeDlqHeaders(DlqDialect::BerthCanonical, fullMetadata());
        for (int i = 0; i < 10; ++i)
            QVERIFY(produce(topic, i % 2, "k", false, "{}", h));
        DlqScanner scanner;
        Outcome out;
        collect(scanner, out);
        bool caughtUp = false;
        connect(&scanner, &DlqScanner::batchReady, &scanner,
                [&](const DlqScanBatch &b) { caughtUp = b.progress.caughtUp; });
        DlqScanRequest req = request(topic);
        req.liveTail = true;
        scanner.start(req);
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp && out.entries.size() == 10, 20000);
        for (int i = 0; i < 5; ++i)
            QVERIFY(produce(topic, i % 2, "new", false, "{}", h));
        QTRY_COMPARE_WITH_TIMEOUT(out.entries.size(), 15, 20000);
        QVERIFY(scanner.isRunning());
        QCOMPARE(DlqEntryText::key(out.entries.last(), *out.strings), u"new"_s);
        scanner.cancel();
        QVERIFY(out.finished && out.result.cancelled);
    }

    void startPositions()
    {
        const QString topic = u"dlq-positions"_s;
        QVERIFY(m_cluster->createTopic(topic, 2));
        for (int i = 0; i < 40; ++i)
            QVERIFY(m_producer->produce({topic, i % 2, "k", false, "{}", {}, kT0 + i}));
        QVERIFY(m_producer->flush(20000));
        auto scanFrom = [&](const QString &start, QList<int> partitions = {}) {
            DlqScanRequest req = request(topic);
            QString error;
            if (!req.parseStart(start, &error))
                qFatal("%s", qPrintable(error));
            req.partitions = partitions;
            Outcome out;
            if (!run(req, out))
                qFatal("scan did not finish");
            return out;
        };
        Outcome last = scanFrom(u"end-5"_s);
        QCOMPARE(last.entries.size(), 10);
        for (const DlqIndexEntry &e : last.entries)
            QVERIFY(e.offset >= 15 && e.offset < 20);
        QCOMPARE(scanFrom(u"offset:12"_s).entries.size(), 16);
        const Outcome past = scanFrom(u"offset:1000"_s);
        QCOMPARE(past.entries.size(), 0);
        QVERIFY(past.plan.notes.join(u' ').contains(u"holds offsets"_s));
        const Outcome byTime = scanFrom(u"time:"_s + QString::number(kT0 + 30));
        QCOMPARE(byTime.entries.size(), 40); // the mock cannot look times up: from the beginning, with a note
        QVERIFY(byTime.plan.notes.join(u' ').contains(u"cannot look offsets up by time"_s));
        QCOMPARE(scanFrom(u"end"_s).entries.size(), 0);
        const Outcome one = scanFrom(u"beginning"_s, {1});
        QCOMPARE(one.entries.size(), 20);
        QVERIFY(std::all_of(one.entries.cbegin(), one.entries.cend(),
                            [](const auto &e) { return e.partition == 1; }));
        const Outcome wrong = scanFrom(u"beginning"_s, {5});
        QVERIFY(wrong.result.error.contains(u"no partition 5"_s));
        DlqScanRequest bad;
        QString error;
        QVERIFY(!bad.parseStart(u"sometime"_s, &error));
        QVERIFY(error.contains(u"end-N"_s));
        // A time past ISO-8601's four-digit years reads back as the same start (found by fuzz_filter).
        DlqScanRequest far;
        QVERIFY(far.parseStart(u"time:202400000000000000"_s, &error));
        DlqScanRequest again;
        QVERIFY2(again.parseStart(far.startText(), &error), qPrintable(far.startText()));
        QCOMPARE(again.startValue, far.startValue);
    }

    void parsePartitions_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QList<int>>("partitions"); // what is read; unchanged on an error
        QTest::addColumn<QString>("badPart");       // named by the error; empty: no error

        const QList<int> before = {9};
        QTest::newRow("empty: all") << u""_s << QList<int>() << QString();
        QTest::newRow("blanks: all") << u"  "_s << QList<int>() << QString();
        QTest::newRow("one") << u"3"_s << QList<int>{3} << QString();
        QTest::newRow("list and range") << u"0,2,5-7"_s << QList<int>{0, 2, 5, 6, 7} << QString();
        QTest::newRow("blanks around") << u" 7 , 2 - 3 ,2 "_s << QList<int>{2, 3, 7} << QString();
        QTest::newRow("sorted, once") << u"5,1-3,2,5"_s << QList<int>{1, 2, 3, 5} << QString();
        QTest::newRow("one-partition range") << u"4-4"_s << QList<int>{4} << QString();
        QTest::newRow("empty parts") << u",1,,2,"_s << QList<int>{1, 2} << QString();
        QTest::newRow("highest") << u"65535"_s << QList<int>{65535} << QString();
        QTest::newRow("negative") << u"1,-2"_s << before << u"-2"_s;
        QTest::newRow("reversed") << u"7-5"_s << before << u"7-5"_s;
        QTest::newRow("garbage") << u"0,x1,2"_s << before << u"x1"_s;
        QTest::newRow("sign") << u"+1"_s << before << u"+1"_s;
        QTest::newRow("two dashes") << u"1-2-3"_s << before << u"1-2-3"_s;
        QTest::newRow("open range") << u"3-"_s << before << u"3-"_s;
        QTest::newRow("dash alone") << u"-"_s << before << u"-"_s;
        QTest::newRow("blank inside a number") << u"1 2"_s << before << u"1 2"_s;
        QTest::newRow("beyond any topic") << u"65536"_s << before << u"65536"_s;
        QTest::newRow("range beyond any topic") << u"0-99999999999"_s << before << u"0-99999999999"_s;
    }

    void parsePartitions()
    {
        QFETCH(QString, text);
        QFETCH(QList<int>, partitions);
        QFETCH(QString, badPart);
        DlqScanRequest req;
        req.partitions = {9};
        QString error;
        QCOMPARE(req.parsePartitions(text, &error), badPart.isEmpty());
        QCOMPARE(req.partitions, partitions);
        if (badPart.isEmpty())
            QVERIFY(error.isEmpty());
        else
            QVERIFY2(error.contains(u'"' + badPart + u'"'), qPrintable(error));
    }

    void unreachableClusterIsAReadableError()
    {
        DlqScanRequest req = request(u"orders-dlt"_s);
        req.cluster = {{u"bootstrap.servers"_s, u"127.0.0.1:1"_s}};
        req.requestTimeoutMs = 1500;
        Outcome out;
        QVERIFY(run(req, out, 20000));
        QVERIFY2(out.result.error.contains(u"orders-dlt"_s), qPrintable(out.result.error));
    }

    void fetchRecordWholeAndCached()
    {
        const QString topic = u"dlq-fetch"_s;
        QVERIFY(m_cluster->createTopic(topic, 1));
        RecordHeaders h = encodeDlqHeaders(DlqDialect::SpringDlt, fullMetadata());
        h.append({"idempotency-key", "idem-fetch", false});
        for (int i = 0; i < 3; ++i)
            QVERIFY(produce(topic, 0, "key-" + QByteArray::number(i), false,
                            "{\"n\":" + QByteArray::number(i) + "}", h));
        DlqScanner scanner;
        QSignalSpy fetched(&scanner, &DlqScanner::recordFetched);
        const quint64 id = scanner.fetchRecord(m_cluster->clientProperties(), topic, 0, 1);
        QTRY_COMPARE_WITH_TIMEOUT(fetched.count(), 1, 20000);
        auto answer = fetched.takeFirst().at(0).value<DlqFetchedRecord>();
        QVERIFY2(answer.ok(), qPrintable(answer.error));
        QCOMPARE(answer.requestId, id);
        QVERIFY(!answer.fromCache);
        QCOMPARE(answer.record.key, QByteArray("key-1"));
        QCOMPARE(answer.record.value, QByteArray("{\"n\":1}"));
        QCOMPARE(answer.record.headers.size(), h.size());
        QCOMPARE(answer.record.header("idempotency-key"), QByteArray("idem-fetch"));
        QCOMPARE(decodeDlqHeaders(answer.record.headers).stackTrace, fullMetadata().stackTrace);

        scanner.fetchRecord(m_cluster->clientProperties(), topic, 0, 1);
        QTRY_COMPARE_WITH_TIMEOUT(fetched.count(), 1, 5000);
        QVERIFY(fetched.takeFirst().at(0).value<DlqFetchedRecord>().fromCache);

        scanner.fetchRecord(m_cluster->clientProperties(), topic, 0, 99);
        QTRY_COMPARE_WITH_TIMEOUT(fetched.count(), 1, 20000);
        answer = fetched.takeFirst().at(0).value<DlqFetchedRecord>();
        QVERIFY(!answer.ok());
        QVERIFY2(answer.error.contains(u"offset 99"_s), qPrintable(answer.error));

        // "Copy as kcat command" fetches the very record.
        if (!TestSupport::haveExecutable(u"kcat"_s))
            return;
        QProcess sh;
        sh.start(u"sh"_s, {u"-c"_s, DlqRecordFormatCommand(topic, 2)});
        QVERIFY(sh.waitForFinished(20000));
        // kcat's JSON carries binary header values raw (not valid JSON text): look for the fields.
        const QByteArray printed = sh.readAllStandardOutput();
        QVERIFY2(printed.contains("\"partition\":0,\"offset\":2,"), printed.constData());
        QVERIFY(printed.contains("\"key\":\"key-2\""));
    }

    // ARCHITECTURE.md, Contracts: masking: a scan masks each entry as it reads it, so the table, its text
    // filter, the failure groups and poison messages never hold a masked value; a dead letter of a topic no
    // rule names keeps its key.
    void scanEntriesMasked()
    {
        const QString topic = u"dlq-masked-rows"_s;
        QVERIFY(m_cluster->createTopic(topic, 1));
        DlqMetadata m = fullMetadata();
        m.originalTopic = u"payments"_s;
        m.reason = u"card 4111111111111111 declined for ada@example.com"_s;
        RecordHeaders h = encodeDlqHeaders(DlqDialect::BerthCanonical, m);
        h.append({"x-customer-email", "ada@example.com", false});
        h.append({"idempotency-key", "pay-customer-c42", false});
        const QByteArray json = R"({"customer":{"id":"c-42","email":"ada@example.com"},"card":{"number":"4111111111111111"}})";
        for (int i = 0; i < 3; ++i) // three failures of one message: a poison message
            QVERIFY(produce(topic, 0, "customer-c42", false, json, h));
        // A body no schema at hand decodes: its fields cannot be looked for, so its reason is withheld.
        QVERIFY(produce(topic, 0, "customer-c42", false, QByteArray("\0\0\0\0\x63\x02xy", 8), h));
        DlqMetadata other = fullMetadata(); // orders: no rule
        QVERIFY(produce(topic, 0, "order-7", false, "{}", encodeDlqHeaders(DlqDialect::BerthCanonical, other)));

        MaskRule rule;
        rule.topic = u"payments"_s;
        rule.fields = {u"$.customer.email"_s, u"$.card.number"_s};
        rule.headers = {u"x-customer-email"_s};
        rule.key = true;
        DlqScanner scanner;
        scanner.setSchemaCatalog(std::make_shared<SchemaCatalog>());
        scanner.setMasking({rule});
        Outcome out;
        collect(scanner, out);
        scanner.start(request(topic));
        QVERIFY(QTest::qWaitFor([&] { return out.finished; }, 30000));
        QVERIFY2(out.result.error.isEmpty(), qPrintable(out.result.error));
        QCOMPARE(out.entries.size(), 5);

        QStringList shown;
        for (const DlqIndexEntry &e : std::as_const(out.entries)) {
            const DlqEntryFields f = DlqEntryFields::from(e, *out.strings);
            shown << f.key << f.reason << f.idempotencyKey << f.consumer << f.exceptionClass;
        }
        for (const FailureGroup &g : std::as_const(out.result.groups))
            shown << g.sampleReason << g.reasonPattern << g.fingerprint();
        for (const PoisonMessage &p : std::as_const(out.result.poison))
            shown << p.messageId;
        for (const QString &secret : {u"4111111111111111"_s, u"ada@example.com"_s, u"customer-c42"_s}) {
            for (const QString &text : std::as_const(shown))
                QVERIFY2(!text.contains(secret), qPrintable(secret + u" shown in "_s + text));
        }
        const DlqEntryFields first = DlqEntryFields::from(out.entries[0], *out.strings);
        QCOMPARE(first.key, u"(masked)"_s);
        QCOMPARE(first.reason, u"card (masked) declined for (masked)"_s);
        QCOMPARE(first.idempotencyKey, u"pay-(masked)"_s);
        QCOMPARE(first.consumer, u"order-projection"_s); // what masking does not touch stays
        QCOMPARE(DlqEntryFields::from(out.entries[3], *out.strings).reason,
                 QString::fromLatin1(PayloadMask::kMaskedReason));
        QCOMPARE(DlqEntryFields::from(out.entries[4], *out.strings).key, u"order-7"_s);

        // The table's text filter finds the masked key nowhere, the unmasked one where it is.
        DlqFilter filter;
        filter.text = u"customer-c42"_s;
        DlqEntryMatcher matcher(filter, out.strings);
        DlqFilter orders;
        orders.text = u"order-7"_s;
        DlqEntryMatcher ordersMatcher(orders, out.strings);
        int masked = 0, order = 0;
        for (qsizetype i = 0; i < out.entries.size(); ++i) {
            masked += matcher.matches(out.entries[i], out.groupIds[i]) ? 1 : 0;
            order += ordersMatcher.matches(out.entries[i], out.groupIds[i]) ? 1 : 0;
        }
        QCOMPARE(masked, 0);
        QCOMPARE(order, 1);
    }

    // A console whose profile names a policy asks for the masking rules first: a record asked for before
    // they arrive is fetched with them, never without.
    void fetchWaitsForTheMaskingRules()
    {
        const QString topic = u"dlq-fetch-masked"_s;
        QVERIFY(m_cluster->createTopic(topic, 1));
        DlqMetadata m = fullMetadata();
        m.originalTopic = u"payments"_s;
        QVERIFY(produce(topic, 0, "customer-c42", false, "{}", encodeDlqHeaders(DlqDialect::BerthCanonical, m)));
        MaskRule rule;
        rule.topic = u"payments"_s;
        rule.key = true;
        DlqScanner scanner;
        scanner.awaitMasking();
        QSignalSpy fetched(&scanner, &DlqScanner::recordFetched);
        QSignalSpy changed(&scanner, &DlqScanner::maskingChanged);
        Outcome out;
        collect(scanner, out);
        scanner.start(request(topic));
        scanner.fetchRecord(m_cluster->clientProperties(), topic, 0, 0);
        QCoreApplication::processEvents();
        scanner.setMasking({rule});
        QTRY_COMPARE_WITH_TIMEOUT(fetched.count(), 1, 20000);
        const auto answer = fetched.takeFirst().at(0).value<DlqFetchedRecord>();
        QVERIFY2(answer.ok(), qPrintable(answer.error));
        QCOMPARE(answer.record.key, QByteArray("(masked)"));
        QVERIFY(QTest::qWaitFor([&] { return out.finished; }, 30000));
        QCOMPARE(out.entries.size(), 1);
        QCOMPARE(DlqEntryFields::from(out.entries[0], *out.strings).key, u"(masked)"_s);
        QCOMPARE(changed.count(), 0); // the first rules are no change
        scanner.setMasking({});
        QCOMPARE(changed.count(), 1); // new rules: what was shown must be read again
    }

    void dlqScanCommandWritesJsonLines()
    {
        const QString topic = u"dlq-cli"_s;
        QVERIFY(m_cluster->createTopic(topic, 1));
        DlqMetadata m = fullMetadata();
        for (int i = 0; i < 5; ++i) {
            m.reason = u"Order "_s + QString::number(i) + u" not found"_s;
            m.exceptionClass = i < 3 ? u"com.acme.NotFound"_s : u"com.acme.Other"_s;
            RecordHeaders h = encodeDlqHeaders(DlqDialect::BerthCanonical, m);
            h.append({"idempotency-key", i < 3 ? QByteArray("same") : "k" + QByteArray::number(i), false});
            QVERIFY(produce(topic, 0, "k", false, "{}", h));
        }
        QList<QJsonObject> entries, groups, poison, summaries;
        QCOMPARE(runDlqScan({u"--topic"_s, topic, u"--json"_s}, &entries, &groups, &poison, &summaries), 0);
        QCOMPARE(entries.size(), 5);
        QCOMPARE(entries.at(2).value(u"reason"_s).toString(), u"Order 2 not found"_s);
        QCOMPARE(entries.at(2).value(u"originalOffset"_s).toInteger(), fullMetadata().originalOffset);
        QCOMPARE(entries.at(2).value(u"dialect"_s).toString(), u"Berth canonical"_s);
        QCOMPARE(groups.size(), 2);
        QCOMPARE(groups.at(0).value(u"count"_s).toInt(), 3);
        QCOMPARE(groups.at(0).value(u"reasonPattern"_s).toString(), u"Order <num> not found"_s);
        QCOMPARE(poison.size(), 1);
        QCOMPARE(poison.at(0).value(u"messageId"_s).toString(), u"same"_s);
        QCOMPARE(summaries.size(), 1);
        QCOMPARE(summaries.at(0).value(u"records"_s).toInt(), 5);
    }

    // `dlq scan --payloads`: schema payloads named and decoded (registry and a local file mapped to the
    // original topic), failures as payloadError, plain JSON as it is.
    void dlqScanPayloadsDecodes()
    {
        QString error;
        QVERIFY2(ReferenceEncoder::available(&error), qPrintable(error));
        const QString topic = u"dlq-cli-payloads"_s;
        QVERIFY(m_cluster->createTopic(topic, 1));
        const QJsonObject payment = jsonObject(R"({"id":"6f1c2a52-8f4e-4b59-9d3a-0c5e1f2a3b4c","amount":"19.99",
            "fee":"0.250","createdAt":"2024-02-29T13:45:00.123Z","bookedOn":"2024-02-29","sequence":12,"status":"DECLINED",
            "customer":{"id":"c-42","email":"ada@example.com","tier":null},"card":null,"lines":[],"tags":{},
            "approved":false,"ratio":1.25,"note":null})");
        const QString avsc = ReferenceEncoder::fixturePath(u"payment.avsc"_s);
        const QByteArray framed = ReferenceEncoder::avro(avsc, 7, QJsonArray{payment}, &error).value(0);
        const QByteArray bare = ReferenceEncoder::avro(avsc, -1, QJsonArray{payment}, &error).value(0);
        QVERIFY2(!framed.isEmpty() && !bare.isEmpty(), qPrintable(error));
        QByteArray unknown = framed;
        unknown[4] = 99;
        DlqMetadata m = fullMetadata();
        m.originalTopic = u"payments"_s;
        const RecordHeaders h = encodeDlqHeaders(DlqDialect::BerthCanonical, m);
        for (const QByteArray &value : {framed, bare, unknown, QByteArray(R"({"plain":true})"), framed.first(30)})
            QVERIFY(produce(topic, 0, "k", false, value, h));

        // The registry answers on its own thread: this one blocks in the command.
        FakeSchemaRegistryThread registry;
        registry.registry().addSchema(7, u"payments-value"_s, 3,
                                      ReferenceEncoder::fixture(u"payment.avsc"_s));
        const QString url = registry.start();
        QVERIFY(!url.isEmpty());
        QList<QJsonObject> entries;
        QCOMPARE(runDlqScan({u"--topic"_s, topic, u"--json"_s, u"--payloads"_s, u"--schema-registry"_s, url,
                             u"--schema"_s, avsc + u"=payments"_s},
                            &entries),
                 0);
        QCOMPARE(entries.size(), 5);
        QCOMPARE(entries[0].value(u"payload"_s).toObject(), payment);
        QCOMPARE(entries[0].value(u"schema"_s).toObject(),
                 jsonObject(R"({"format":"avro","subject":"payments-value","version":3,"id":7})"));
        QVERIFY(!entries[0].contains(u"payloadError"_s));
        QCOMPARE(entries[1].value(u"payload"_s).toObject(), payment);
        QCOMPARE(entries[1].value(u"schema"_s).toObject().value(u"file"_s).toString(), u"payment.avsc"_s);
        // An id the registry does not know: the file mapped to the original topic decodes it, and says so.
        QCOMPARE(entries[2].value(u"payload"_s).toObject(), payment);
        QCOMPARE(entries[2].value(u"schema"_s).toObject().value(u"id"_s).toInt(), 99);
        QVERIFY(entries[2].value(u"payloadNotes"_s).toArray().at(0).toString().contains(u"unknown schema id"_s));
        QCOMPARE(entries[3].value(u"payload"_s).toObject(), jsonObject(R"({"plain":true})"));
        QVERIFY(!entries[3].contains(u"schema"_s));
        // A body cut short: the reason, and the bytes beside it.
        QVERIFY2(entries[4].value(u"payloadError"_s).toString().startsWith(u"truncated"_s),
                 qPrintable(entries[4].value(u"payloadError"_s).toString()));
        QCOMPARE(entries[4].value(u"payloadHex"_s).toString(), QString::fromLatin1(framed.first(30).toHex()));
    }

    // ARCHITECTURE.md, Contracts: masking: the command line's JSON and text carry no masked value.
    void dlqScanPayloadsMasked()
    {
        QString error;
        const QString topic = u"dlq-cli-masked"_s;
        QVERIFY(m_cluster->createTopic(topic, 1));
        const QJsonObject payment = jsonObject(R"({"id":"6f1c2a52-8f4e-4b59-9d3a-0c5e1f2a3b4c","amount":"19.99",
            "fee":"0.250","createdAt":"2024-02-29T13:45:00.123Z","bookedOn":"2024-02-29","sequence":12,"status":"DECLINED",
            "customer":{"id":"c-42","email":"ada@example.com","tier":null},"card":{"number":"4111111111111111","expiry":"12/29"},
            "lines":[],"tags":{},"approved":false,"ratio":1.25,"note":"mail ada@example.com"})");
        const QString avsc = ReferenceEncoder::fixturePath(u"payment.avsc"_s);
        const QByteArray bare = ReferenceEncoder::avro(avsc, -1, QJsonArray{payment}, &error).value(0);
        QVERIFY2(!bare.isEmpty(), qPrintable(error));
        DlqMetadata m = fullMetadata();
        m.originalTopic = u"payments"_s;
        m.reason = u"card 4111111111111111 declined"_s;
        RecordHeaders h = encodeDlqHeaders(DlqDialect::BerthCanonical, m);
        h.append({"x-customer-email", "ada@example.com", false});
        QVERIFY(produce(topic, 0, "customer-c42", false, bare, h));
        QTemporaryDir dir;
        QFile policy(dir.filePath(u"policy.yaml"_s));
        QVERIFY(policy.open(QIODevice::WriteOnly));
        policy.write("deliverySemantics:\n  topics:\n    payments: {defaultGuarantee: at-least-once}\n"
                     "masking:\n  - topic: payments\n    fields: [$.customer.email, $.card.number]\n"
                     "    headers: [x-customer-email]\n    key: true\n");
        policy.close();
        for (const bool json : {true, false}) {
            QStringList args{u"--topic"_s, topic, u"--payloads"_s, u"--schema"_s, avsc + u"=payments"_s,
                             u"--policy"_s, policy.fileName()};
            if (json)
                args.append(u"--json"_s);
            // Without --payloads, the index's own key and reason are masked all the same.
            if (!json)
                args.removeAt(2);
            QList<QJsonObject> entries;
            QByteArray raw;
            QCOMPARE(runDlqScan(args, &entries, nullptr, nullptr, nullptr, &raw), 0);
            for (const QByteArray &secret : {QByteArray("4111111111111111"), QByteArray("ada@example.com"),
                                            QByteArray("customer-c42")})
                QVERIFY2(!raw.contains(secret), raw.mid(qMax(0, raw.indexOf(secret) - 120), 200).constData());
            QVERIFY(raw.contains("(masked)"));
            if (json) {
                QCOMPARE(entries.size(), 1);
                QCOMPARE(entries[0].value(u"payload"_s).toObject().value(u"customer"_s).toObject().value(u"id"_s).toString(),
                         u"c-42"_s);
                QCOMPARE(entries[0].value(u"masked"_s).toArray().size(), 4); // two fields, one header, the key
            }
        }
    }

    // ARCHITECTURE.md, Masking: look-up keys: with the record key masked, `berth dlq scan --json` still asks
    // the consumer's inbox for the real keys (the record key, and an idempotency key that repeats it), so
    // each entry's inbox state is right, and the keys appear nowhere in what it prints.
    void dlqScanInboxStateOfMaskedKey()
    {
        TempPostgres pg;
        QString error;
        QVERIFY2(pg.start(&error), qPrintable(error));
        PgSession db;
        QVERIFY2(db.connect(pg.conninfo(), &error), qPrintable(error));
        QVERIFY2(db.execScript(u"CREATE TABLE inbox (message_id text PRIMARY KEY, consumer text NOT NULL, "
                               u"status text NOT NULL, updated_at timestamptz NOT NULL DEFAULT now());"
                               u"INSERT INTO inbox (message_id, consumer, status) VALUES "
                               u"('customer-c42', 'payment-capture', 'DONE'), "
                               u"('order-9917', 'payment-capture', 'RETRY');"_s,
                               &error),
                 qPrintable(error));
        const QString topic = u"dlq-cli-masked-inbox"_s;
        QVERIFY(m_cluster->createTopic(topic, 1));
        DlqMetadata m;
        m.originalTopic = u"payments"_s;
        m.consumerGroup = u"payment-capture"_s;
        m.reason = u"declined"_s;
        QVERIFY(
            produce(topic, 0, "customer-c42", false, "{}", encodeDlqHeaders(DlqDialect::BerthCanonical, m)));
        m.idempotencyKey = u"order-9917"_s;
        QVERIFY(
            produce(topic, 0, "order-9917", false, "{}", encodeDlqHeaders(DlqDialect::BerthCanonical, m)));
        QTemporaryDir dir;
        QFile policy(dir.filePath(u"policy.yaml"_s));
        QVERIFY(policy.open(QIODevice::WriteOnly));
        policy.write("deliverySemantics:\n  consumers:\n    payment-capture:\n      inbox:\n"
                     "        table: inbox\n"
                     "        columns: {messageId: message_id, status: status, updated: updated_at, "
                     "consumer: consumer}\n"
                     "        statuses: {WORKING: inProgress, DONE: completed, RETRY: failedRetryable}\n"
                     "masking:\n  - topic: payments\n    key: true\n");
        policy.close();
        QList<QJsonObject> entries;
        QByteArray raw;
        QCOMPARE(runDlqScan({u"--topic"_s, topic, u"--json"_s, u"--policy"_s, policy.fileName(), u"--db"_s,
                             pg.conninfo()},
                            &entries, nullptr, nullptr, nullptr, &raw),
                 0);
        QCOMPARE(entries.size(), 2);
        QCOMPARE(entries[0].value(u"inbox"_s).toObject().value(u"state"_s).toString(), u"completed"_s);
        QCOMPARE(entries[1].value(u"inbox"_s).toObject().value(u"state"_s).toString(), u"failedRetryable"_s);
        QCOMPARE(entries[0].value(u"key"_s).toString(), u"(masked)"_s);
        for (const QByteArray &secret : {QByteArray("customer-c42"), QByteArray("order-9917")})
            QVERIFY2(!raw.contains(secret), raw.mid(qMax(0, raw.indexOf(secret) - 120), 200).constData());
    }

    // ARCHITECTURE.md, Contracts: field filters: `berth dlq scan --filter` keeps the dead letters whose
    // decoded payload passes (JSON and Avro from python3-avro alike), refuses a filter it cannot read or one
    // that searches a masked field by value.
    // ARCHITECTURE.md, Field filters: the DLQ view's filter reads the entries' payloads back in one pass and
    // answers as decoding, masking and matching each record would: Avro bodies read the fast way where no
    // masking rule applies, masked records (a masked value scrubbed from the note) and JSON, text and
    // tombstones the whole way; entries not asked about are skipped.
    void fieldFilterAnswersAsEachRecordDecodedAndMasked()
    {
        QString error;
        const QString topic = u"dlq-field-filter"_s;
        QVERIFY(m_cluster->createTopic(topic, 2));
        auto catalog = std::make_shared<SchemaCatalog>();
        catalog->setFetcher([](int) {});
        SchemaRef ref;
        ref.id = 7;
        catalog->insert(
            7, PayloadSchema::compile(ref, ReferenceEncoder::fixture(u"payment.avsc"_s), {}, &error));
        QJsonArray payments;
        for (int i = 0; i < 16; ++i) {
            QJsonObject p = jsonObject(R"({"id":"6f1c2a52-8f4e-4b59-9d3a-0c5e1f2a3b4c","amount":"19.99",
                "fee":"0.250","createdAt":"2024-02-29T13:45:00.123Z","bookedOn":"2024-02-29","sequence":12,
                "status":"DECLINED","customer":{"id":"c-0","email":"ada@example.com","tier":null},"card":null,
                "lines":[],"tags":{},"approved":false,"ratio":1.25,"note":"call ada@example.com"})");
            p.insert(u"customer"_s, QJsonObject{{u"id"_s, u"c-%1"_s.arg(i)},
                                                {u"email"_s, u"ada@example.com"_s},
                                                {u"tier"_s, QJsonValue::Null}});
            p.insert(u"sequence"_s, i);
            payments.append(p);
        }
        const QList<QByteArray> avro =
            ReferenceEncoder::avro(ReferenceEncoder::fixturePath(u"payment.avsc"_s), 7, payments, &error);
        QVERIFY2(avro.size() == 16, qPrintable(error));
        struct Produced {
            int partition;
            qint64 offset;
            QByteArray value;
            bool isNull;
            RecordHeaders headers;
        };
        QList<Produced> produced;
        qint64 next[2] = {0, 0};
        for (int i = 0; i < 16; ++i) {
            DlqMetadata m = fullMetadata();
            m.originalTopic = i % 4 == 1 || i % 4 == 3 ? u"orders"_s : u"payments"_s;
            const RecordHeaders h = encodeDlqHeaders(DlqDialect::BerthCanonical, m);
            const QByteArray value =
                i % 4 < 2 ? avro[i]
                : i % 4 == 2
                    ? u"{\"customer\":{\"id\":\"c-%1\"},\"note\":\"ada@example.com\"}"_s.arg(i).toUtf8()
                    : QByteArray("not json");
            const int partition = i % 2;
            QVERIFY(produce(topic, partition, "k", false, value, h));
            produced.append({partition, next[partition]++, value, false, h});
        }
        QVERIFY(produceTombstone(topic, 0, "gone"));
        produced.append({0, next[0]++, QByteArray(), true, {}});

        MaskRule rule;
        rule.topic = u"payments"_s;
        rule.fields = {u"$.customer.email"_s};
        DlqScanner scanner;
        scanner.setSchemaCatalog(catalog);
        scanner.setMasking({rule});
        DeliveryPolicy policy;
        policy.masking = {rule};
        for (const QString &text :
             {u"$.note contains \"ada\""_s,
              u"$.customer.id == \"c-4\" or $.customer.id == \"c-5\" or $.sequence >= 14"_s,
              u"$.customer.email exists and $.sequence != 3"_s}) {
            const FieldFilter filter = FieldFilter::parse(text, &error);
            QVERIFY2(filter.isValid(), qPrintable(error));
            // What each record gives when decoded, masked and matched one by one; entry 6 is not asked about.
            std::vector<DlqFieldFilterItem> items;
            std::vector<quint32> expected;
            qint64 undecoded = 0;
            for (qsizetype i = produced.size() - 1; i >= 0; --i) { // in no particular order
                if (i == 6)
                    continue;
                const Produced &p = produced[i];
                const quint32 entry = quint32(100 + i);
                items.push_back({entry, p.partition, p.offset});
                KafkaRecord record;
                record.value = p.value;
                record.headers = p.headers;
                DlqMetadata metadata = decodeDlqHeaders(p.headers);
                DecodedPayload decoded =
                    PayloadDecoder::decode(p.value, p.isNull, topic, catalog.get(), metadata.originalTopic);
                PayloadMask::apply(policy.maskFor(topic, metadata.originalTopic), record, metadata, decoded);
                if (!decoded.isJson())
                    ++undecoded;
                else if (filter.matches(decoded))
                    expected.push_back(entry);
            }
            std::sort(expected.begin(), expected.end());
            QVERIFY2(!expected.empty() && expected.size() < 10, qPrintable(text));
            DlqFieldFilterResult result;
            bool done = false;
            const auto connection =
                connect(&scanner, &DlqScanner::fieldFilterFinished, this, [&](const DlqFieldFilterResult &r) {
                    result = r;
                    done = true;
                });
            scanner.filterFields(m_cluster->clientProperties(), topic, filter, items);
            QVERIFY(QTest::qWaitFor([&] { return done; }, 30000));
            disconnect(connection);
            QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
            QCOMPARE(result.read, qint64(produced.size() - 1));
            QCOMPARE(result.undecoded, undecoded);
            QCOMPARE(*result.matched, expected);
        }
    }

    void dlqScanFilterKeepsMatches()
    {
        QString error;
        const QString topic = u"dlq-cli-filter"_s;
        QVERIFY(m_cluster->createTopic(topic, 1));
        const QString avsc = ReferenceEncoder::fixturePath(u"payment.avsc"_s);
        QJsonObject payment = jsonObject(R"({"id":"6f1c2a52-8f4e-4b59-9d3a-0c5e1f2a3b4c","amount":"19.99",
            "fee":"0.250","createdAt":"2024-02-29T13:45:00.123Z","bookedOn":"2024-02-29","sequence":12,"status":"DECLINED",
            "customer":{"id":"c-42","email":"ada@example.com","tier":null},"card":null,
            "lines":[],"tags":{},"approved":false,"ratio":1.25,"note":null})");
        QJsonArray records{payment};
        payment.insert(u"amount"_s, u"250.00"_s);
        records.append(payment);
        const QList<QByteArray> avro = ReferenceEncoder::avro(avsc, -1, records, &error);
        QVERIFY2(avro.size() == 2, qPrintable(error));
        DlqMetadata m = fullMetadata();
        m.originalTopic = u"payments"_s;
        const RecordHeaders h = encodeDlqHeaders(DlqDialect::BerthCanonical, m);
        QVERIFY(produce(topic, 0, "a", false, avro[0], h));                           // 0: c-42, 19.99
        QVERIFY(produce(topic, 0, "b", false, avro[1], h));                           // 1: c-42, 250.00
        QVERIFY(produce(topic, 0, "c", false, R"({"customer":{"id":"c-7"},"amount":300})", h)); // 2
        QVERIFY(produce(topic, 0, "d", false, "not json", h));                        // 3
        const QStringList base{u"--topic"_s, topic, u"--schema"_s, avsc + u"=payments"_s, u"--json"_s};
        const auto offsets = [](const QList<QJsonObject> &entries) {
            QList<qint64> out;
            for (const QJsonObject &e : entries)
                out << e.value(u"offset"_s).toInteger();
            return out;
        };
        QList<QJsonObject> entries, summaries;
        QCOMPARE(runDlqScan(base + QStringList{u"--filter"_s, u"$.customer.id == \"c-42\""_s}, &entries, nullptr,
                            nullptr, &summaries),
                 0);
        QCOMPARE(offsets(entries), (QList<qint64>{0, 1}));
        QCOMPARE(summaries.value(0).value(u"matched"_s).toInteger(), 2);
        entries.clear();
        QCOMPARE(runDlqScan(base + QStringList{u"--filter"_s, u"$.amount > 100 and ($.customer.id == 'c-7' or "
                                                                u"$.status == \"DECLINED\")"_s},
                            &entries),
                 0);
        QCOMPARE(offsets(entries), (QList<qint64>{1, 2}));

        // Refused before anything is read: a filter that cannot be read, a masked field searched by value.
        QCOMPARE(runDlqScan(base + QStringList{u"--filter"_s, u"$.amount >"_s}, &entries), 2);
        QTemporaryDir dir;
        QFile policy(dir.filePath(u"policy.yaml"_s));
        QVERIFY(policy.open(QIODevice::WriteOnly));
        policy.write("deliverySemantics:\n  topics:\n    payments: {defaultGuarantee: at-least-once}\n"
                     "masking:\n  - topic: payments\n    fields: [$.customer.email]\n");
        policy.close();
        QCOMPARE(runDlqScan(base + QStringList{u"--policy"_s, policy.fileName(), u"--filter"_s,
                                               u"$.customer.email contains \"ada\""_s},
                            &entries),
                 2);
        entries.clear();
        QCOMPARE(runDlqScan(base + QStringList{u"--policy"_s, policy.fileName(), u"--filter"_s,
                                               u"$.customer.email exists"_s},
                            &entries),
                 0);
        QCOMPARE(offsets(entries), (QList<qint64>{0, 1}));
    }

private:
    // Runs `berth dlq scan` in this process against the mock cluster and sorts its JSON lines by type.
    int runDlqScan(const QStringList &args, QList<QJsonObject> *entries, QList<QJsonObject> *groups = nullptr,
                   QList<QJsonObject> *poison = nullptr, QList<QJsonObject> *summaries = nullptr,
                   QByteArray *raw = nullptr)
    {
        QTemporaryDir dir;
        const QByteArray path = dir.filePath(u"out.jsonl"_s).toLocal8Bit();
        fflush(stdout);
        const int saved = dup(STDOUT_FILENO);
        const int fd = ::open(path.constData(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        dup2(fd, STDOUT_FILENO);
        ::close(fd);
        const int rc = Commands::dlqScan(QStringList{u"berth"_s, u"scan"_s, u"--bootstrap"_s, m_cluster->bootstrapServers()}
                                         + args);
        fflush(stdout);
        dup2(saved, STDOUT_FILENO);
        ::close(saved);
        QFile file(QString::fromLocal8Bit(path));
        if (!file.open(QIODevice::ReadOnly))
            return -1;
        QList<QJsonObject> ignored;
        const QByteArray all = file.readAll();
        if (raw)
            *raw = all;
        for (const QByteArray &line : all.split('\n')) {
            if (!line.startsWith('{'))
                continue; // the test logger writes to stdout too
            const QJsonObject o = QJsonDocument::fromJson(line).object();
            const QString type = o.value(u"type"_s).toString();
            QList<QJsonObject> *into = type == u"entry"_s    ? entries
                                       : type == u"group"_s  ? groups
                                       : type == u"poison"_s ? poison
                                                             : summaries;
            (into ? into : &ignored)->append(o);
        }
        return rc;
    }

    QString DlqRecordFormatCommand(const QString &topic, qint64 offset) const
    {
        DlqInspectorView inspector(nullptr);
        DlqEntryFields e;
        e.partition = 0;
        e.offset = offset;
        inspector.showEntry(e, topic, m_cluster->bootstrapServers());
        return inspector.kcatCommand();
    }
};

QTEST_MAIN(TestDlqScanner)
#include "tst_dlqscanner.moc"
