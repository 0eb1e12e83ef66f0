// The inspector shows payloads through the decoder seam (ARCHITECTURE.md, Data flows: payload decoding):
// a schema payload decoded on the fetch thread, named by its schema; one whose schema is still being
// fetched decoded again when it arrives; one that cannot be decoded shown as hex beside the reason; the
// export carries the decoded payload and its schema.
#include "services/demo/mockkafkacluster.h"
#include "services/dlq/dlqheadercodec.h"
#include "services/dlq/dlqscanner.h"
#include "services/kafka/kafkaproducer.h"
#include "services/payload/confluentwireformat.h"
#include "services/payload/schemacatalog.h"
#include "services/payload/schemaregistryclient.h"
#include "support/fakeschemaregistry.h"
#include "support/referenceencoder.h"
#include "views/dlqinspectorview.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {
const char *const kPayment = R"({"id":"6f1c2a52-8f4e-4b59-9d3a-0c5e1f2a3b4c","amount":"19.99","fee":"0.250",
  "createdAt":"2024-02-29T13:45:00.123Z","bookedOn":"2024-02-29","sequence":12,"status":"DECLINED",
  "customer":{"id":"c-42","email":"ada@example.com","tier":null},"card":{"number":"4111111111111111","expiry":"12/29"},
  "lines":[],"tags":{},"approved":false,"ratio":1.25,"note":"late"})";
} // namespace

class TestPayloadInspector : public QObject {
    Q_OBJECT

    std::unique_ptr<MockKafkaCluster> m_cluster;
    const QString m_topic = u"payments-dlt"_s;
    QByteArray m_value; // framed Avro, schema id 7

    bool inspect(DlqInspectorView &inspector, qint64 offset)
    {
        QSignalSpy loaded(&inspector, &DlqInspectorView::recordLoaded);
        DlqEntryFields e;
        e.partition = 0;
        e.offset = offset;
        inspector.showEntry(e, m_topic, m_cluster->bootstrapServers());
        return QTest::qWaitFor([&] { return loaded.count() >= 1; }, 30000);
    }
    // A catalog behind a registry that has answered id 7 with payment.avsc already.
    static std::shared_ptr<SchemaCatalog> cachedPaymentSchema()
    {
        auto catalog = std::make_shared<SchemaCatalog>();
        catalog->setFetcher([](int) {});
        SchemaRef ref;
        ref.id = 7;
        QString error;
        catalog->insert(7, PayloadSchema::compile(ref, ReferenceEncoder::fixture(u"payment.avsc"_s), {}, &error));
        return catalog;
    }
    DlqScanner *scannerWith(std::shared_ptr<SchemaCatalog> catalog, QObject *parent)
    {
        auto *scanner = new DlqScanner(parent);
        DlqScanRequest r;
        r.cluster = m_cluster->clientProperties();
        r.topic = m_topic;
        r.requestTimeoutMs = 5000;
        scanner->setSchemaCatalog(std::move(catalog));
        scanner->start(r); // the inspector fetches from the latest scan's cluster and topic
        if (!QTest::qWaitFor([&] { return !scanner->isRunning(); }, 30000))
            qWarning("the scan did not finish");
        return scanner;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QString error;
        QVERIFY2(ReferenceEncoder::available(&error), qPrintable(error));
        m_cluster = std::make_unique<MockKafkaCluster>(1);
        QVERIFY2(m_cluster->isValid(), qPrintable(m_cluster->error()));
        QVERIFY(m_cluster->createTopic(m_topic, 1));
        m_value = ReferenceEncoder::avro(ReferenceEncoder::fixturePath(u"payment.avsc"_s), 7,
                                         QJsonArray{jsonObject(kPayment)}, &error)
                      .value(0);
        QVERIFY2(!m_value.isEmpty(), qPrintable(error));
        auto producer = KafkaProducer::create(m_cluster->clientProperties(), &error);
        QVERIFY2(producer, qPrintable(error));
        DlqMetadata m;
        m.originalTopic = u"payments"_s;
        m.reason = u"declined"_s;
        const RecordHeaders headers = encodeDlqHeaders(DlqDialect::BerthCanonical, m);
        QByteArray truncated = m_value.first(40);
        for (const QByteArray &value : {m_value, truncated})
            QVERIFY(producer->produce({m_topic, 0, "k", false, value, headers, 0}, &error));
        // Offset 2: a record whose card number and e-mail address the policy masks, repeated in the reason,
        // the stack trace and a header; its key is masked too.
        DlqMetadata leaky = m;
        leaky.reason = u"card 4111111111111111 declined for ada@example.com"_s;
        leaky.stackTrace = u"com.acme.Declined: ada@example.com\n\tat com.acme.Gateway.charge(Gateway.java:42)"_s;
        RecordHeaders leakyHeaders = encodeDlqHeaders(DlqDialect::BerthCanonical, leaky);
        leakyHeaders.append({"x-customer-email", "ada@example.com", false});
        QVERIFY(producer->produce({m_topic, 0, "customer-c42", false, m_value, leakyHeaders, 0}, &error));
        QVERIFY(producer->flush(20000, &error));
    }

    void schemaPayloadShownDecodedAfterTheRegistryAnswers()
    {
        FakeSchemaRegistry registry;
        QVERIFY(registry.listen());
        registry.addSchema(7, u"payments-value"_s, 3, ReferenceEncoder::fixture(u"payment.avsc"_s));
        registry.setAnswer(u"/schemas/ids/7"_s, 200, {}, -1); // not yet: the first look is pending
        auto catalog = std::make_shared<SchemaCatalog>();
        SchemaRegistryConfig config{registry.url()};
        config.timeoutMs = 60000;
        auto *client = new SchemaRegistryClient(config, catalog.get(), this);
        QObject owner;
        DlqInspectorView inspector(scannerWith(catalog, &owner));
        connect(client, &SchemaRegistryClient::schemaArrived, &inspector, &DlqInspectorView::refreshPendingPayload);

        QVERIFY(inspect(inspector, 0));
        QVERIFY(inspector.payload().pending);
        QVERIFY2(inspector.payloadNoteText().contains(u"being fetched"_s), qPrintable(inspector.payloadNoteText()));
        QVERIFY(inspector.payloadText().startsWith(u"00000000  00 00 00 00 07"_s)); // the bytes meanwhile

        // The registry answers (a new client: the old request hangs by design): decoded in place.
        delete client;
        registry.addSchema(7, u"payments-value"_s, 3, ReferenceEncoder::fixture(u"payment.avsc"_s));
        catalog->fail(7, u"retry"_s, true, 0);
        client = new SchemaRegistryClient(config, catalog.get(), this);
        connect(client, &SchemaRegistryClient::schemaArrived, &inspector, &DlqInspectorView::refreshPendingPayload);
        inspector.refreshPendingPayload(); // the look-up asks the new client
        QTRY_VERIFY_WITH_TIMEOUT(inspector.payload().kind == DecodedPayload::Kind::Schema, 20000);
        QTRY_VERIFY(inspector.payloadText().contains(u"\"email\": \"ada@example.com\""_s));
        QVERIFY(inspector.payloadText().contains(u"\"createdAt\": \"2024-02-29T13:45:00.123Z\""_s));
        QVERIFY2(inspector.payloadNoteText().contains(u"Decoded with avro, payments-value v3 (id 7)"_s),
                 qPrintable(inspector.payloadNoteText()));

        // The export carries the decoded payload and its schema beside the raw value.
        QTemporaryDir dir;
        QString error;
        QVERIFY2(inspector.exportJson(dir.filePath(u"r.json"_s), &error), qPrintable(error));
        QFile file(dir.filePath(u"r.json"_s));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject exported = QJsonDocument::fromJson(file.readAll()).object();
        QCOMPARE(exported.value(u"payload"_s).toObject(), jsonObject(kPayment));
        QCOMPARE(exported.value(u"schema"_s).toObject(),
                 jsonObject(R"({"format":"avro","subject":"payments-value","version":3,"id":7})"));
        QVERIFY(exported.contains(u"valueBase64"_s));
        delete client;
    }

    // ARCHITECTURE.md, Contracts: masking. Every text the inspector holds, its export and the log are
    // searched for the masked values.
    void maskedValuesReachNoOutput()
    {
        QStringList log;
        static QStringList *sink = nullptr;
        sink = &log;
        const QtMessageHandler previous = qInstallMessageHandler([](QtMsgType, const QMessageLogContext &, const QString &m) {
            sink->append(m);
        });
        const auto restore = qScopeGuard([&] { qInstallMessageHandler(previous); });

        auto catalog = cachedPaymentSchema();
        QString error;
        MaskRule rule;
        rule.topic = u"payments"_s; // the original topic: it applies to its dead letters
        rule.fields = {u"$.customer.email"_s, u"$.card.number"_s};
        rule.headers = {u"X-Customer-Email"_s};
        rule.key = true;
        QObject owner;
        DlqScanner *scanner = scannerWith(catalog, &owner);
        scanner->setMasking({rule});
        DlqInspectorView inspector(scanner);
        QVERIFY(inspect(inspector, 2));
        QCOMPARE(inspector.payload().kind, DecodedPayload::Kind::Schema);

        QTemporaryDir dir;
        QVERIFY2(inspector.exportJson(dir.filePath(u"r.json"_s), &error), qPrintable(error));
        QFile file(dir.filePath(u"r.json"_s));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QStringList outputs{inspector.summaryText(), inspector.payloadText(), inspector.payloadNoteText(),
                            inspector.hexText(), inspector.stackTraceText(), inspector.kcatCommand(),
                            QString::fromUtf8(file.readAll()), log.join(u'\n')};
        for (int r = 0; r < inspector.headerTable()->rowCount(); ++r) {
            for (int c = 0; c < inspector.headerTable()->columnCount(); ++c)
                outputs.append(inspector.headerTable()->item(r, c)->text());
        }
        // The key tab, as raw bytes in hex too.
        outputs.append(QString::fromLatin1(inspector.record().key.toHex()));
        for (const QString &secret : {u"4111111111111111"_s, u"ada@example.com"_s, u"customer-c42"_s}) {
            const QString hex = QString::fromLatin1(secret.toUtf8().toHex());
            for (const QString &out : outputs) {
                QVERIFY2(!out.contains(secret), qPrintable(u"%1 found in %2"_s.arg(secret, out.left(200))));
                QVERIFY2(!out.contains(hex), qPrintable(secret + u" found as hex"_s));
            }
        }
        // What was masked is said, and the rest is still there to work with.
        QVERIFY(inspector.payloadText().contains(u"\"email\": \"(masked)\""_s));
        QVERIFY(inspector.payloadText().contains(u"\"id\": \"c-42\""_s));
        QVERIFY(inspector.summaryText().contains(u"card (masked) declined for (masked)"_s));
        QCOMPARE(inspector.record().key, QByteArray("(masked)"));
        QCOMPARE(inspector.maskedFields(), (QStringList{u"$.customer.email"_s, u"$.card.number"_s,
                                                        u"header:x-customer-email"_s, u"key"_s}));

        // Once the audit database has recorded a reveal, the same record is fetched without masking.
        QSignalSpy loaded(&inspector, &DlqInspectorView::recordLoaded);
        inspector.showRevealed();
        QVERIFY(QTest::qWaitFor([&] { return loaded.count() >= 1; }, 20000));
        QVERIFY(inspector.payloadText().contains(u"ada@example.com"_s));
        QCOMPARE(inspector.record().key, QByteArray("customer-c42"));
    }

    void undecodableShownAsHexBesideTheReason()
    {
        auto catalog = cachedPaymentSchema();
        QObject owner;
        DlqInspectorView inspector(scannerWith(catalog, &owner));
        QVERIFY(inspect(inspector, 1));
        QCOMPARE(inspector.payload().kind, DecodedPayload::Kind::Binary);
        QVERIFY2(inspector.payloadNoteText().startsWith(u"Not decoded: truncated"_s), qPrintable(inspector.payloadNoteText()));
        QVERIFY(inspector.payloadNoteText().contains(u"(at byte "_s));
        QVERIFY(inspector.payloadText().startsWith(u"00000000  00 00 00 00 07"_s));
    }
};

QTEST_MAIN(TestPayloadInspector)
#include "tst_payloadinspector.moc"
