// WireHeaders reads a consumed record's headers from the fetch buffer: for every record it accepts, exactly
// what rd_kafka_message_headers() gives; it accepts the records a DLQ holds (and every ordinary shape of
// key, value and headers, compressed or not); it declines what librdkafka would read differently.

#include "services/demo/mockkafkacluster.h"
#include "services/kafka/kafkaconfig.h"
#include "services/kafka/kafkaproducer.h"
#include "services/kafka/kafkarecord.h"
#include "services/kafka/wireheaders.h"

#include <QElapsedTimer>
#include <QRandomGenerator>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {
struct Seen {
    QList<RecordHeader> headers;
    bool accepted = false;
};
QStringList problems; // roundTrip's: a test fails on any

// librdkafka's own reading of the record's headers (names as the C strings it hands out).
RecordHeaders parsedByLibrdkafka(rd_kafka_message_t *m)
{
    RecordHeaders out;
    rd_kafka_headers_t *headers = nullptr;
    if (rd_kafka_message_headers(m, &headers) != RD_KAFKA_RESP_ERR_NO_ERROR || !headers)
        return out;
    const char *name = nullptr;
    const void *value = nullptr;
    size_t size = 0;
    for (size_t i = 0;
         rd_kafka_header_get_all(headers, i, &name, &value, &size) == RD_KAFKA_RESP_ERR_NO_ERROR; ++i)
        out.append({QByteArray(name),
                    value ? QByteArray(static_cast<const char *>(value), qsizetype(size)) : QByteArray(),
                    value == nullptr});
    return out;
}
} // namespace

class TestWireHeaders final : public QObject {
    Q_OBJECT

    QRandomGenerator m_rng{20261126};

    QByteArray randomBytes(int maxLength)
    {
        QByteArray b(qsizetype(m_rng.bounded(maxLength + 1)), Qt::Uninitialized);
        for (char &c : b)
            c = char(m_rng.bounded(256));
        return b;
    }
    QByteArray randomName()
    {
        QByteArray n = randomBytes(30);
        n.replace('\0', 'x'); // names with a NUL byte are declined: tested on their own
        return n;
    }
    RecordHeaders randomHeaders(int maxCount)
    {
        RecordHeaders h;
        const int n = int(m_rng.bounded(maxCount + 1));
        for (int i = 0; i < n; ++i) {
            switch (m_rng.bounded(5)) {
            case 0:
                h.append({randomName(), {}, true});
                break;
            case 1:
                h.append({randomName(), QByteArray(""), false});
                break;
            case 2:
                h.append({randomName(), randomBytes(300), false});
                break;
            default:
                h.append({randomName(), randomBytes(40), false});
            }
        }
        return h;
    }

    // Produces the records to a one-partition topic (in order) and reads them back with a plain consumer.
    static QList<Seen> roundTrip(MockKafkaCluster &cluster, const QString &topic,
                                 const QList<OutgoingRecord> &records,
                                 const KafkaProperties &producerExtra = {})
    {
        QList<Seen> seen;
        if (!cluster.createTopic(topic, 1)) {
            problems.append(QString::asprintf("cannot create the topic"));
            return seen;
        }
        QString error;
        KafkaProperties props = cluster.clientProperties();
        props += {{u"linger.ms"_s, u"50"_s}, {u"message.max.bytes"_s, u"20000000"_s}};
        props += producerExtra;
        auto producer = KafkaProducer::create(props, &error);
        if (!producer) {
            problems.append(QString::asprintf("producer: %s", qPrintable(error)));
            return seen;
        }
        for (OutgoingRecord r : records) {
            r.topic = topic;
            r.partition = 0;
            if (!producer->produce(r, &error)) {
                problems.append(QString::asprintf("produce: %s", qPrintable(error)));
                return seen;
            }
        }
        if (!producer->flush(30000, &error)) {
            problems.append(QString::asprintf("flush: %s", qPrintable(error)));
            return seen;
        }
        KafkaProperties consumerProps = cluster.clientProperties();
        consumerProps += {{u"fetch.message.max.bytes"_s, u"20000000"_s}};
        KafkaHandle rk = KafkaConfig::createClient(RD_KAFKA_CONSUMER, consumerProps, &error);
        if (!rk) {
            problems.append(QString::asprintf("consumer: %s", qPrintable(error)));
            return seen;
        }
        rd_kafka_topic_t *rkt = rd_kafka_topic_new(rk.get(), topic.toUtf8().constData(), nullptr);
        rd_kafka_consume_start(rkt, 0, RD_KAFKA_OFFSET_BEGINNING);
        std::vector<WireHeaders::Header> wire;
        QElapsedTimer clock;
        clock.start();
        while (seen.size() < records.size() && clock.elapsed() < 30000) {
            rd_kafka_message_t *m = rd_kafka_consume(rkt, 0, 200);
            if (!m)
                continue;
            if (!m->err) {
                Seen s;
                s.accepted = WireHeaders::read(m, wire);
                for (const WireHeaders::Header &h : wire)
                    s.headers.append({h.name.toByteArray(),
                                      h.value ? QByteArray(h.value, h.size) : QByteArray(),
                                      h.value == nullptr});
                // What the scanner and KafkaRecord see: the buffer's reading when accepted, else
                // librdkafka's.
                const RecordHeaders theirs = parsedByLibrdkafka(m);
                if (s.accepted && s.headers.size() == theirs.size()) {
                    for (qsizetype i = 0; i < theirs.size(); ++i) {
                        const RecordHeader &a = s.headers.at(i), &b = theirs.at(i);
                        if (a.name != b.name || a.isNull != b.isNull || a.value != b.value) {
                            problems.append(QString::asprintf("offset %lld header %lld differs",
                                                              qint64(m->offset), qint64(i)));
                            s.accepted = false;
                        }
                    }
                } else if (s.accepted) {
                    problems.append(QString::asprintf("offset %lld: %lld headers read, librdkafka %lld",
                                                      qint64(m->offset), qint64(s.headers.size()),
                                                      qint64(theirs.size())));
                    s.accepted = false;
                }
                if (!s.accepted)
                    s.headers = theirs;
                // KafkaRecord, the inspector's and replay's copy, reads the same.
                const KafkaRecord copy = KafkaRecord::fromMessage(m);
                if (copy.headers.size() != theirs.size())
                    problems.append(QString::asprintf("offset %lld: KafkaRecord has %lld headers",
                                                      qint64(m->offset), qint64(copy.headers.size())));
                for (qsizetype i = 0; i < qMin(copy.headers.size(), theirs.size()); ++i) {
                    if (copy.headers.at(i).name != theirs.at(i).name
                        || copy.headers.at(i).value != theirs.at(i).value
                        || copy.headers.at(i).isNull != theirs.at(i).isNull)
                        problems.append(QString::asprintf("offset %lld: KafkaRecord header %lld differs",
                                                          qint64(m->offset), qint64(i)));
                }
                seen.append(s);
            }
            rd_kafka_message_destroy(m);
        }
        rd_kafka_consume_stop(rkt, 0);
        rd_kafka_topic_destroy(rkt);
        return seen;
    }

    QList<OutgoingRecord> randomRecords(int count)
    {
        QList<OutgoingRecord> records;
        for (int i = 0; i < count; ++i) {
            OutgoingRecord r;
            r.keyIsNull = m_rng.bounded(6) == 0;
            if (!r.keyIsNull)
                r.key = randomBytes(m_rng.bounded(10) == 0 ? 400 : 20);
            // At least 150 bytes: the headers never outweigh the rest a hundredfold (declined, tested below).
            r.value = randomBytes(m_rng.bounded(8) == 0 ? 20000 : 200);
            r.value += QByteArray(qMax<qsizetype>(0, 150 - r.value.size()), 'v');
            r.headers = randomHeaders(m_rng.bounded(10) == 0 ? 40 : 8);
            // Timestamps far apart: timestamp deltas of every varint size.
            r.timestampMs = m_rng.bounded(3) == 0 ? qint64(1) + m_rng.bounded(1000)
                                                  : 1'700'000'000'000 + qint64(m_rng.bounded(1'000'000'000));
            records.append(r);
        }
        return records;
    }

    static void verifyAllAcceptedAndEqual(const QList<Seen> &seen, const QList<OutgoingRecord> &sent)
    {
        QCOMPARE(seen.size(), sent.size());
        for (qsizetype i = 0; i < seen.size(); ++i) {
            QVERIFY2(seen.at(i).accepted, qPrintable(u"record "_s + QString::number(i) + u" declined"_s));
            const RecordHeaders &want = sent.at(i).headers;
            QCOMPARE(seen.at(i).headers.size(), want.size());
            for (qsizetype h = 0; h < want.size(); ++h) {
                QCOMPARE(seen.at(i).headers.at(h).name, want.at(h).name);
                QCOMPARE(seen.at(i).headers.at(h).isNull, want.at(h).isNull);
                QCOMPARE(seen.at(i).headers.at(h).value, want.at(h).value);
            }
        }
    }

private Q_SLOTS:
    void init() { problems.clear(); }
    void cleanup() { QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u'\n'))); }

    // Random keys (null, empty, long, binary), values, timestamps and header sets, in batches of many
    // records: every record is accepted and reads as it was sent and as librdkafka reads it.
    void randomRecordsReadAsSent_data()
    {
        QTest::addColumn<QString>("codec");
        for (const char *codec : {"none", "gzip", "snappy", "lz4", "zstd"})
            QTest::newRow(codec) << QString::fromLatin1(codec);
    }
    void randomRecordsReadAsSent()
    {
        QFETCH(QString, codec);
        MockKafkaCluster cluster(1);
        QVERIFY2(cluster.isValid(), qPrintable(cluster.error()));
        const QList<OutgoingRecord> sent = randomRecords(1500);
        const QList<Seen> seen =
            roundTrip(cluster, u"random-"_s + codec, sent, {{u"compression.codec"_s, codec}});
        verifyAllAcceptedAndEqual(seen, sent);
    }

    // The shapes at the edges of the format, each after a record whose last byte has the continuation bit
    // (the byte before a record's Length field is its predecessor's last). What the buffer cannot place is
    // declined and read by librdkafka: either way each record reads as it was sent.
    void edgeShapes()
    {
        MockKafkaCluster cluster(1);
        QVERIFY2(cluster.isValid(), qPrintable(cluster.error()));
        QList<OutgoingRecord> sent;
        QList<bool> placed; // expected from the buffer
        auto add = [&](OutgoingRecord r, bool fromBuffer) {
            OutgoingRecord before;
            before.key = "k";
            before.value = "v";
            before.headers = {{"tail", QByteArray("\xff\xff\x80", 3), false}};
            sent += {before, r};
            placed += {true, fromBuffer};
        };
        OutgoingRecord r;
        r.key = "k";
        r.value = "v";
        add(r, true); // no headers at all
        r.headers = {{"", "", false}};
        add(r, true); // empty name, empty value
        r.headers = {{"a", {}, true}};
        add(r, true); // null value last
        r.headers = {{"a", "1", false}, {"b", "", false}};
        add(r, true); // empty value last
        r.value = "";
        add(r, true); // empty record value: placed by the key's end
        r.valueIsNull = true;
        add(r, true); // a tombstone, likewise
        r.valueIsNull = false;
        r.value = QByteArray(70000, 'x');
        add(r, true); // a value needing a three-byte length
        r.keyIsNull = true;
        r.key.clear();
        r.value = "v";
        add(r, true); // null key
        r.value = "";
        add(r, false); // null key and empty value: nothing to start from
        r.value = "v";
        r.keyIsNull = false;
        r.key = "";
        add(r, true); // empty key
        r.key = QByteArray(5000, '\x80');
        add(r, true); // a long key of continuation bytes
        r.key = "k";
        r.headers.clear();
        for (int i = 0; i < 300; ++i)
            r.headers.append({"h" + QByteArray::number(i), QByteArray::number(i), false});
        r.value = QByteArray(5000, 'v');
        add(r, true); // hundreds of headers
        r.timestampMs = 1;
        add(r, true); // a timestamp far from the batch's first
        r.value = "v";
        r.headers = {{"big", QByteArray(3'000'000, '\xfe'), false}};
        add(r, false); // headers outweighing the rest a hundredfold: Length cannot be read back for sure
        const QList<Seen> seen = roundTrip(cluster, u"edges"_s, sent);
        QCOMPARE(seen.size(), sent.size());
        for (qsizetype i = 0; i < seen.size(); ++i) {
            const QString where = u"record "_s + QString::number(i);
            QVERIFY2(seen.at(i).accepted == placed.at(i), qPrintable(where));
            const RecordHeaders &want = sent.at(i).headers;
            QCOMPARE(seen.at(i).headers.size(), want.size());
            for (qsizetype h = 0; h < want.size(); ++h) {
                QVERIFY2(seen.at(i).headers.at(h).name == want.at(h).name, qPrintable(where));
                QVERIFY2(seen.at(i).headers.at(h).isNull == want.at(h).isNull, qPrintable(where));
                QVERIFY2(seen.at(i).headers.at(h).value == want.at(h).value, qPrintable(where));
            }
        }
    }

    // A name holding a NUL byte reads shorter through librdkafka (a C string): declined, so the record
    // keeps librdkafka's reading, as before.
    void nameWithNulIsDeclined()
    {
        MockKafkaCluster cluster(1);
        QVERIFY2(cluster.isValid(), qPrintable(cluster.error()));
        OutgoingRecord r;
        r.key = "k";
        r.value = "v";
        r.headers = {{QByteArray("kafka_dlt-original-topic\0x", 26), "orders", false}};
        const QList<Seen> seen = roundTrip(cluster, u"nul-name"_s, {r});
        QCOMPARE(seen.size(), 1);
        QVERIFY(!seen.at(0).accepted);
        QCOMPARE(seen.at(0).headers.size(), 1);
        QCOMPARE(seen.at(0).headers.at(0).name, QByteArray("kafka_dlt-original-topic"));
    }
};

QTEST_GUILESS_MAIN(TestWireHeaders)
#include "tst_wireheaders.moc"
