// Where schemas come from (ARCHITECTURE.md, Data flows: payload decoding): SchemaRegistryClient against the
// registry's REST subset served on loopback (support/fakeschemaregistry.h), including slow, failing and
// garbage answers; and the whole path: payloads encoded by the reference Python libraries, produced with
// DLQ headers to the mock cluster, fetched back as the inspector does, decoded and compared field by field.
#include "services/demo/mockkafkacluster.h"
#include "services/dlq/dlqheadercodec.h"
#include "services/dlq/dlqrecordfetcher.h"
#include "services/kafka/kafkaproducer.h"
#include "services/payload/payloaddecoder.h"
#include "services/payload/schemacatalog.h"
#include "services/payload/schemaregistryclient.h"
#include "services/support/profilesecrets.h"
#include "support/fakeschemaregistry.h"
#include "support/referenceencoder.h"
#include "support/testsupport.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTcpServer>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {
using ReferenceEncoder::fixturePath;


const char *const kPayment = R"({"id":"6f1c2a52-8f4e-4b59-9d3a-0c5e1f2a3b4c","amount":"19.99","fee":"0.250",
  "createdAt":"2024-02-29T13:45:00.123Z","bookedOn":"2024-02-29","sequence":12,"status":"DECLINED",
  "customer":{"id":"c-42","email":"ada@example.com","tier":null},"card":null,
  "lines":[{"sku":"A-1","quantity":2,"price":9.995}],"tags":{},"approved":false,"ratio":1.25,"note":"late"})";

// Decodes, waiting for the registry's answer when the first decode is pending.
DecodedPayload decodeWaiting(QByteArrayView value, SchemaCatalog &catalog, SchemaRegistryClient &client, int id)
{
    QSignalSpy arrived(&client, &SchemaRegistryClient::schemaArrived);
    DecodedPayload d = PayloadDecoder::decode(value, false, u"t"_s, &catalog);
    if (!d.pending)
        return d;
    for (int i = 0; i < 100 && !arrived.contains(QVariantList{id}); ++i)
        arrived.wait(100);
    return PayloadDecoder::decode(value, false, u"t"_s, &catalog);
}

QByteArray avroPayment(QString *error)
{
    const QList<QByteArray> encoded =
        ReferenceEncoder::avro(fixturePath(u"payment.avsc"_s), 7, QJsonArray{jsonObject(kPayment)}, error);
    return encoded.value(0);
}
} // namespace

class TestSchemaRegistry : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QString why;
        QVERIFY2(ReferenceEncoder::available(&why), qPrintable(why));
    }

    void fetchesOnceAndNamesSubjectAndVersion()
    {
        FakeSchemaRegistry registry;
        QVERIFY(registry.listen());
        registry.addSchema(7, u"payments-value"_s, 3, ReferenceEncoder::fixture(u"payment.avsc"_s));
        SchemaCatalog catalog;
        SchemaRegistryClient client({registry.url()}, &catalog);
        QString error;
        const QByteArray value = avroPayment(&error);
        QVERIFY2(!value.isEmpty(), qPrintable(error));

        // The first decode does not wait for the registry: it is pending.
        const DecodedPayload first = PayloadDecoder::decode(value, false, u"t"_s, &catalog);
        QVERIFY(first.pending);
        const DecodedPayload d = decodeWaiting(value, catalog, client, 7);
        QVERIFY2(d.kind == DecodedPayload::Kind::Schema, qPrintable(d.error));
        QCOMPARE(d.schema.subject, u"payments-value"_s);
        QCOMPARE(d.schema.version, 3);
        QCOMPARE(d.schema.id, 7);
        QCOMPARE(QJsonDocument::fromJson(d.json).object(), jsonObject(kPayment));
        for (int i = 0; i < 5; ++i)
            QCOMPARE(PayloadDecoder::decode(value, false, u"t"_s, &catalog).kind, DecodedPayload::Kind::Schema);
        QCOMPARE(registry.requests(u"/schemas/ids/7"_s), 1); // cached per id
    }

    void protobufReferencesAreFetched()
    {
        FakeSchemaRegistry registry;
        QVERIFY(registry.listen());
        const QByteArray common = "syntax = \"proto3\"; package common; message Money { string currency = 1; int64 minor = 2; }";
        const QByteArray main = "syntax = \"proto3\"; package shop; import \"common/money.proto\";\n"
                                "message Charge { string id = 1; common.Money amount = 2; }";
        registry.addSchema(21, u"charges-value"_s, 1, main, u"PROTOBUF"_s,
                           R"([{"name":"common/money.proto","subject":"money","version":4}])");
        registry.addSubjectVersion(u"money"_s, 4, common);
        SchemaCatalog catalog;
        SchemaRegistryClient client({registry.url()}, &catalog);
        // Framed by hand: index [0], Charge{id:"c1", amount:{currency:"EUR", minor:250}}.
        const QByteArray body = QByteArray("\x0a\x02" "c1" "\x12\x08\x0a\x03" "EUR" "\x10\xfa\x01", 14);
        QByteArray value = QByteArray("\x00\x00\x00\x00\x15\x00", 6) + body;
        const DecodedPayload d = decodeWaiting(value, catalog, client, 21);
        QVERIFY2(d.kind == DecodedPayload::Kind::Schema, qPrintable(d.error));
        QCOMPARE(QJsonDocument::fromJson(d.json).object(),
                 jsonObject(R"({"id":"c1","amount":{"currency":"EUR","minor":250}})"));
        QCOMPARE(d.schema.messageName, u"shop.Charge"_s);
        QCOMPARE(registry.requests(u"/subjects/money/versions/4"_s), 1);
    }

    void badAnswersAreReasons_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<int>("delayMs");
        QTest::addColumn<QString>("reason");
        QTest::addColumn<bool>("askedAgain"); // a failure that may pass is asked again later
        QTest::newRow("unknown id") << 404 << QByteArray(R"({"error_code":40403,"message":"Schema 7 not found"})") << 0
                                    << u"unknown schema id: the registry does not know it (404: Schema 7 not found)"_s << false;
        QTest::newRow("server error") << 500 << QByteArray(R"({"error_code":50001,"message":"store timeout"})") << 0
                                      << u"the registry answered 500: store timeout"_s << true;
        QTest::newRow("garbage") << 200 << QByteArray("<html>\x01\xff oops</html>") << 0
                                 << u"the registry's answer is not a schema: <html>"_s << true;
        QTest::newRow("not a schema object") << 200 << QByteArray(R"([1,2,3])") << 0
                                             << u"the registry's answer is not a schema"_s << true;
        QTest::newRow("slow") << 200 << QByteArray("{}") << -1 << u"did not answer within 300 ms"_s << true;
        QTest::newRow("schema does not parse") << 200 << QJsonDocument(QJsonObject{{u"schema"_s, u"{\"type\": \"record\"}"_s}}).toJson() << 0
                                               << u"the registry's schema does not parse"_s << false;
    }
    void badAnswersAreReasons()
    {
        QFETCH(int, status);
        QFETCH(QByteArray, body);
        QFETCH(int, delayMs);
        QFETCH(QString, reason);
        FakeSchemaRegistry registry;
        QVERIFY(registry.listen());
        registry.setAnswer(u"/schemas/ids/7"_s, status, body, delayMs);
        SchemaCatalog catalog;
        SchemaRegistryConfig config{registry.url()};
        config.timeoutMs = 300;
        SchemaRegistryClient client(config, &catalog);
        QString error;
        const QByteArray value = avroPayment(&error);
        QVERIFY2(!value.isEmpty(), qPrintable(error));
        const DecodedPayload d = decodeWaiting(value, catalog, client, 7);
        QVERIFY(!d.pending);
        QCOMPARE(d.kind, DecodedPayload::Kind::Binary); // the bytes are still there to show
        QCOMPARE(d.schema.id, 7);
        QVERIFY2(d.error.contains(reason), qPrintable(d.error));
    }

    void unreachableRegistry()
    {
        // A port nobody listens on: grab one, then close it.
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
        const QString url = u"http://127.0.0.1:%1"_s.arg(probe.serverPort());
        probe.close();
        SchemaCatalog catalog;
        SchemaRegistryClient client({url}, &catalog);
        QString error;
        const DecodedPayload d = decodeWaiting(avroPayment(&error), catalog, client, 7);
        QVERIFY2(d.error.contains(u"the registry is unreachable"_s), qPrintable(d.error));
    }

    void basicAuthAndItsRefusal()
    {
        FakeSchemaRegistry registry;
        QVERIFY(registry.listen());
        registry.addSchema(7, u"payments-value"_s, 3, ReferenceEncoder::fixture(u"payment.avsc"_s));
        registry.requireBasicAuth(u"berth"_s, u"s3cret:with:colons"_s);
        QString error;
        const QByteArray value = avroPayment(&error);
        {
            SchemaCatalog catalog;
            SchemaRegistryClient client({registry.url(), u"berth"_s, u"s3cret:with:colons"_s}, &catalog);
            QCOMPARE(decodeWaiting(value, catalog, client, 7).kind, DecodedPayload::Kind::Schema);
        }
        SchemaCatalog catalog;
        SchemaRegistryClient client({registry.url(), u"berth"_s, u"wrong"_s}, &catalog);
        const DecodedPayload d = decodeWaiting(value, catalog, client, 7);
        QVERIFY2(d.error.contains(u"refused the credentials (401"_s), qPrintable(d.error));
        QVERIFY(!d.error.contains(u"wrong"_s));
    }

    // TLS with a certificate the profile's CA file names: trusted; without it the handshake fails and says so.
    void tlsWithTheProfilesCaFile()
    {
        if (!TestSupport::haveExecutable(u"openssl"_s))
            QSKIP("openssl is not installed");
        QTemporaryDir dir;
        const QString cert = dir.filePath(u"registry.pem"_s), key = dir.filePath(u"registry.key"_s);
        QProcess openssl;
        openssl.start(u"openssl"_s, {u"req"_s, u"-x509"_s, u"-newkey"_s, u"rsa:2048"_s, u"-nodes"_s, u"-keyout"_s, key,
                                     u"-out"_s, cert, u"-days"_s, u"2"_s, u"-subj"_s, u"/CN=127.0.0.1"_s,
                                     u"-addext"_s, u"subjectAltName=IP:127.0.0.1"_s});
        QVERIFY(openssl.waitForFinished(60000));
        QCOMPARE(openssl.exitCode(), 0);
        FakeSchemaRegistry registry;
        QString error;
        QVERIFY2(registry.listenTls(cert, key, &error), qPrintable(error));
        QVERIFY(registry.url().startsWith(u"https://"_s));
        registry.addSchema(7, u"payments-value"_s, 3, ReferenceEncoder::fixture(u"payment.avsc"_s));
        const QByteArray value = avroPayment(&error);
        {
            SchemaCatalog catalog;
            SchemaRegistryConfig config{registry.url()};
            config.caFile = cert;
            SchemaRegistryClient client(config, &catalog);
            const DecodedPayload d = decodeWaiting(value, catalog, client, 7);
            QVERIFY2(d.kind == DecodedPayload::Kind::Schema, qPrintable(d.error));
            QCOMPARE(d.schema.subject, u"payments-value"_s);
        }
        SchemaCatalog catalog;
        SchemaRegistryClient client({registry.url()}, &catalog);
        const DecodedPayload d = decodeWaiting(value, catalog, client, 7);
        QVERIFY(d.kind != DecodedPayload::Kind::Schema);
        QVERIFY2(d.error.contains(u"unreachable"_s) && d.error.contains(u"certificate"_s, Qt::CaseInsensitive),
                 qPrintable(d.error));
    }

    void registryPasswordGoesToTheKeychain()
    {
        ConnectionProfile profile;
        profile.schemaRegistry = {u"https://registry:8081"_s, u"berth"_s, u"pw-123"_s};
        QHash<QString, QString> secrets = ProfileSecrets::extract(&profile);
        QCOMPARE(secrets.value(QString::fromLatin1(ProfileSecrets::RegistryPasswordId)), u"pw-123"_s);
        QVERIFY(profile.schemaRegistry.password.isEmpty());
        QVERIFY(ProfileSecrets::hasPlaceFor(profile, QString::fromLatin1(ProfileSecrets::RegistryPasswordId)));
        ProfileSecrets::apply(&profile, secrets);
        QCOMPARE(profile.schemaRegistry.password, u"pw-123"_s);
    }

    // The whole path: reference encodings with DLQ headers on the mock cluster, read back one by one as the
    // inspector does, decoded with schemas from the registry, compared field by field.
    void deadLettersFromTheClusterDecodeFieldByField()
    {
        MockKafkaCluster cluster(1);
        QVERIFY2(cluster.isValid(), qPrintable(cluster.error()));
        const QString topic = u"payments-dlt"_s;
        QVERIFY(cluster.createTopic(topic, 1));
        QString error;
        auto producer = KafkaProducer::create(cluster.clientProperties(), &error);
        QVERIFY2(producer, qPrintable(error));

        QJsonObject second = jsonObject(kPayment);
        second.insert(u"customer"_s, jsonObject(R"({"id":"c-9","email":null,"tier":"gold"})"));
        second.insert(u"card"_s, jsonObject(R"({"number":"4000000000000002","expiry":"01/30"})"));
        const QJsonArray avroRecords{jsonObject(kPayment), second};
        const QJsonArray protoRecords{jsonObject(R"({"payment_id":"p-1","amount_minor":"123456789012","status":"CAPTURED",
            "lines":[{"sku":"A","quantity":1,"price":2.5}],"tags":{"k":"v"},"approved":true,"iban":"DE89"})")};
        QList<QByteArray> values = ReferenceEncoder::avro(fixturePath(u"payment.avsc"_s), 7, avroRecords, &error);
        QVERIFY2(values.size() == 2, qPrintable(error));
        const QList<QByteArray> proto = ReferenceEncoder::protobuf(fixturePath(u"payment.proto"_s), u"shop.payments.Payment"_s,
                                                                   9, {1}, protoRecords, &error);
        QVERIFY2(proto.size() == 1, qPrintable(error));
        values += proto;
        for (qsizetype i = 0; i < values.size(); ++i) {
            DlqMetadata m;
            m.originalTopic = u"payments"_s;
            m.originalPartition = 0;
            m.originalOffset = 100 + i;
            m.reason = u"declined by the gateway"_s;
            m.exceptionClass = u"com.acme.Declined"_s;
            m.attempts = 3;
            OutgoingRecord r{topic, 0, "key-" + QByteArray::number(i), false, values[i],
                             encodeDlqHeaders(DlqDialect::BerthCanonical, m), 0};
            QVERIFY(producer->produce(r, &error));
        }
        QVERIFY(producer->flush(20000, &error));

        FakeSchemaRegistry registry;
        QVERIFY(registry.listen());
        registry.addSchema(7, u"payments-value"_s, 3, ReferenceEncoder::fixture(u"payment.avsc"_s));
        registry.addSchema(9, u"payments-proto-value"_s, 1, ReferenceEncoder::fixture(u"payment.proto"_s), u"PROTOBUF"_s);
        SchemaCatalog catalog;
        SchemaRegistryClient client({registry.url()}, &catalog);
        auto fetcher = DlqRecordFetcher::create(cluster.clientProperties(), &error);
        QVERIFY2(fetcher, qPrintable(error));
        const QJsonArray expected{avroRecords[0], avroRecords[1],
                                  jsonObject(R"({"payment_id":"p-1","amount_minor":123456789012,"sequence_no":0,"status":"CAPTURED",
            "lines":[{"sku":"A","quantity":1,"price":2.5}],"tags":{"k":"v"},"signature":"","approved":true,"iban":"DE89"})")};
        for (qsizetype i = 0; i < values.size(); ++i) {
            const KafkaRecord record = fetcher->fetch(topic, 0, i, 10000, [] { return false; }, &error);
            QVERIFY2(record.offset == i, qPrintable(error));
            const DlqMetadata m = decodeDlqHeaders(record.headers);
            QCOMPARE(m.originalOffset, 100 + i);
            const DecodedPayload d = decodeWaiting(record.value, catalog, client, i < 2 ? 7 : 9);
            QVERIFY2(d.kind == DecodedPayload::Kind::Schema, qPrintable(d.error));
            QCOMPARE(d.schema.subject, i < 2 ? u"payments-value"_s : u"payments-proto-value"_s);
            const QJsonObject actual = QJsonDocument::fromJson(d.json).object();
            const QJsonObject want = expected[i].toObject();
            QCOMPARE(actual.keys(), want.keys());
            for (const QString &field : want.keys())
                QVERIFY2(actual.value(field) == want.value(field), qPrintable(u"record %1, field %2"_s.arg(i).arg(field)));
        }
    }
};

QTEST_GUILESS_MAIN(TestSchemaRegistry)
#include "tst_schemaregistry.moc"
