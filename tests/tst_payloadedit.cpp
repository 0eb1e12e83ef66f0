// Edit and replay of schema payloads (ARCHITECTURE.md, Data flows: edit and replay of schema payloads): an
// edit of a record's display JSON is encoded by Berth as the original was (schema id, framing, Protobuf
// message indexes) and read back by the independent Python libraries (support/referenceencoder.h);
// edits that do not fit the schema are refused with the field's path; an unchanged edit keeps its bytes.
#include "services/payload/confluentwireformat.h"
#include "services/payload/payloaddecoder.h"
#include "services/payload/payloadencoder.h"
#include "services/payload/payloadschema.h"
#include "services/payload/payloadmask.h"
#include "services/payload/schemacatalog.h"
#include "services/remediation/editedpayload.h"
#include "support/referenceencoder.h"
#include "support/schemafixtures.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {
using ReferenceEncoder::fixturePath;

using SchemaFixtures::Registry;

std::shared_ptr<const PayloadSchema> compile(SchemaRef::Format format, const QByteArray &text, int id)
{
    return SchemaFixtures::compile(format, text, id, u"payments-value"_s);
}

QJsonObject decodedObject(const QByteArray &bytes, SchemaCatalog *catalog)
{
    const DecodedPayload d = PayloadDecoder::decode(bytes, false, u"payments"_s, catalog);
    if (d.kind != DecodedPayload::Kind::Schema)
        qWarning("not decoded: %s", qPrintable(d.error));
    return QJsonDocument::fromJson(d.json).object();
}

QByteArray compact(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

using SchemaFixtures::kPaymentRecord;
using SchemaFixtures::kProtoPayment;

// The fixture's payment, encoded by the reference library as schema id 7, in a catalog that has the schema.
QByteArray referencePayment(Registry &registry, QString *error)
{
    registry.catalog.insert(7, compile(SchemaRef::Format::Avro, ReferenceEncoder::fixture(u"payment.avsc"_s), 7));
    return ReferenceEncoder::avro(fixturePath(u"payment.avsc"_s), 7, QJsonArray{jsonObject(kPaymentRecord)}, error).value(0);
}
} // namespace

class TestPayloadEdit : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QString why;
        QVERIFY2(ReferenceEncoder::available(&why), qPrintable(why));
    }

    void avroEditIsReadBackByTheReferenceLibrary()
    {
        QString error;
        Registry registry;
        const QList<QByteArray> encoded{referencePayment(registry, &error)};
        QVERIFY2(!encoded[0].isEmpty(), qPrintable(error));

        // The operator's edit of the display JSON: every kind of value the schema has changes.
        QJsonObject edit = decodedObject(encoded[0], &registry.catalog);
        QVERIFY(!edit.isEmpty());
        edit.insert(u"id"_s, u"00000000-0000-4000-8000-000000000001"_s);
        edit.insert(u"amount"_s, u"99999999.99"_s);
        edit.insert(u"fee"_s, u"-0.5"_s);
        edit.insert(u"createdAt"_s, u"1969-12-31T23:59:59.999Z"_s);
        edit.insert(u"bookedOn"_s, u"2000-01-01"_s);
        edit.insert(u"sequence"_s, u"9007199254740993"_s); // beyond 2^53: written as text
        edit.insert(u"status"_s, u"DECLINED"_s);
        edit.insert(u"customer"_s, jsonObject(R"({"id":"c-42","email":null,"tier":"gold"})"));
        edit.insert(u"card"_s, QJsonValue::Null);
        edit.insert(u"lines"_s, QJsonArray{jsonObject(R"({"sku":"B","quantity":-3,"price":0.25})"),
                                           jsonObject(R"({"sku":"C","quantity":1,"price":1e300})")});
        edit.insert(u"tags"_s, QJsonObject{});
        edit.insert(u"note"_s, u"r\u00e9sum\u00e9"_s);

        const EncodedPayload out = PayloadEncoder::encodeLike(encoded[0], compact(edit), u"payments"_s, &registry.catalog);
        QVERIFY2(out.ok, qPrintable(out.error));
        QVERIFY(out.reencoded);
        QVERIFY(!out.unchanged);
        QCOMPARE(ConfluentWireFormat::readHeader(out.bytes).schemaId, 7u);

        const QList<QJsonObject> back = ReferenceEncoder::decodeAvro(fixturePath(u"payment.avsc"_s), {out.bytes}, &error);
        QVERIFY2(back.size() == 1, qPrintable(error));
        QCOMPARE(back[0].value(u"schemaId"_s).toInt(), 7);
        QJsonObject expected = edit;
        expected.insert(u"sequence"_s, QJsonValue(qint64(9007199254740993)));
        expected.insert(u"fee"_s, u"-0.500"_s); // a decimal shows all the digits of its scale
        QCOMPARE(back[0].value(u"value"_s).toObject(), expected);
    }

    void protobufEditIsReadBackByTheReferenceLibrary()
    {
        QString error;
        const QList<QByteArray> encoded = ReferenceEncoder::protobuf(
            fixturePath(u"payment.proto"_s), u"shop.payments.Payment"_s, 9, {1}, QJsonArray{jsonObject(kProtoPayment)}, &error);
        QVERIFY2(encoded.size() == 1, qPrintable(error));
        Registry registry;
        registry.catalog.insert(9, compile(SchemaRef::Format::Protobuf, ReferenceEncoder::fixture(u"payment.proto"_s), 9));

        QJsonObject edit = decodedObject(encoded[0], &registry.catalog);
        QVERIFY(!edit.isEmpty());
        edit.insert(u"amount_minor"_s, 1250);
        edit.insert(u"status"_s, u"DECLINED"_s);
        edit.insert(u"lines"_s, QJsonArray{jsonObject(R"({"sku":"Z","quantity":5,"price":2.5})")});
        edit.insert(u"created_at"_s, u"2025-01-02T03:04:05Z"_s);
        edit.remove(u"card_number"_s);
        edit.insert(u"iban"_s, u"DE00"_s);

        const EncodedPayload out = PayloadEncoder::encodeLike(encoded[0], compact(edit), u"payments"_s, &registry.catalog);
        QVERIFY2(out.ok, qPrintable(out.error));
        QVERIFY(out.reencoded);

        const QList<QJsonObject> back = ReferenceEncoder::decodeProtobuf(fixturePath(u"payment.proto"_s),
                                                                         u"shop.payments.Payment"_s, {out.bytes}, &error);
        QVERIFY2(back.size() == 1, qPrintable(error));
        QCOMPARE(back[0].value(u"schemaId"_s).toInt(), 9);
        QCOMPARE(back[0].value(u"indexes"_s).toArray(), QJsonArray{1}); // the original's message indexes
        // json_format writes 64-bit integers as strings and leaves defaults out.
        const QJsonObject expected = jsonObject(R"({"payment_id":"p-1","amount_minor":"1250","sequence_no":"18446744073709551615",
            "status":"DECLINED","lines":[{"sku":"Z","quantity":5,"price":2.5}],"tags":{"a":"b"},
            "created_at":"2025-01-02T03:04:05Z","signature":"AAEC","customer_email":"ada@example.com",
            "approved":true,"iban":"DE00"})");
        QCOMPARE(back[0].value(u"value"_s).toObject(), expected);
    }

    void editsThatDoNotFitAreRefusedWithThePath()
    {
        QString error;
        Registry registry;
        const QList<QByteArray> avro{referencePayment(registry, &error)};
        QVERIFY2(!avro[0].isEmpty(), qPrintable(error));
        const QJsonObject original = decodedObject(avro[0], &registry.catalog);

        const auto refused = [&](const QString &path, const QJsonValue &value, const QString &expected) {
            QJsonObject edit = original;
            const QStringList steps = path.split(u'.');
            if (steps.size() == 1) {
                if (value.isUndefined())
                    edit.remove(path);
                else
                    edit.insert(path, value);
            } else {
                QJsonObject inner = edit.value(steps[0]).toObject();
                inner.insert(steps[1], value);
                edit.insert(steps[0], inner);
            }
            const EncodedPayload out = PayloadEncoder::encodeLike(avro[0], compact(edit), u"payments"_s, &registry.catalog);
            if (out.ok)
                return u"accepted"_s;
            return out.error.contains(expected) ? QString() : out.error;
        };
        QString why;
        QVERIFY2((why = refused(u"customer.tier"_s, true, u"$.customer.tier: true fits no branch"_s)).isEmpty(), qPrintable(why));
        QVERIFY2((why = refused(u"status"_s, u"LOST"_s, u"$.status: \"LOST\" is none of the symbols"_s)).isEmpty(), qPrintable(why));
        QVERIFY2((why = refused(u"amount"_s, u"1.234"_s, u"$.amount: \"1.234\" is no decimal of scale 2"_s)).isEmpty(), qPrintable(why));
        QVERIFY2((why = refused(u"fee"_s, u"9999999.999"_s, u"$.fee: \"9999999.999\" does not fit 4 bytes"_s)).isEmpty(), qPrintable(why));
        QVERIFY2((why = refused(u"createdAt"_s, u"yesterday"_s, u"$.createdAt: expected a UTC time"_s)).isEmpty(), qPrintable(why));
        QVERIFY2((why = refused(u"bookedOn"_s, u"2023-02-29"_s, u"$.bookedOn: expected a date"_s)).isEmpty(), qPrintable(why));
        QVERIFY2((why = refused(u"id"_s, u"not-a-uuid"_s, u"$.id: \"not-a-uuid\" is no UUID"_s)).isEmpty(), qPrintable(why));
        QVERIFY2((why = refused(u"sequence"_s, 1.5, u"$.sequence: expected a long"_s)).isEmpty(), qPrintable(why));
        QVERIFY2((why = refused(u"approved"_s, QJsonValue(QJsonValue::Undefined), u"$.approved: missing"_s)).isEmpty(), qPrintable(why));
        QVERIFY2((why = refused(u"extra"_s, 1, u"$.extra: no such field in shop.payments.Payment"_s)).isEmpty(), qPrintable(why));
        QVERIFY2((why = refused(u"customer.id"_s, 5, u"$.customer.id: expected text, found 5"_s)).isEmpty(), qPrintable(why));
        const EncodedPayload notJson = PayloadEncoder::encodeLike(avro[0], "{\"id\":", u"payments"_s, &registry.catalog);
        QVERIFY(!notJson.ok);
        QVERIFY2(notJson.error.contains(u"not JSON"_s), qPrintable(notJson.error));

        // Protobuf: its own parser's words, naming the field.
        const QList<QByteArray> proto = ReferenceEncoder::protobuf(
            fixturePath(u"payment.proto"_s), u"shop.payments.Payment"_s, 9, {1}, QJsonArray{jsonObject(kProtoPayment)}, &error);
        QVERIFY2(proto.size() == 1, qPrintable(error));
        registry.catalog.insert(9, compile(SchemaRef::Format::Protobuf, ReferenceEncoder::fixture(u"payment.proto"_s), 9));
        QJsonObject edit = decodedObject(proto[0], &registry.catalog);
        edit.insert(u"amount_minor"_s, u"lots"_s);
        EncodedPayload out = PayloadEncoder::encodeLike(proto[0], compact(edit), u"payments"_s, &registry.catalog);
        QVERIFY(!out.ok);
        QVERIFY2(out.error.contains(u"amount_minor"_s), qPrintable(out.error));
        edit = decodedObject(proto[0], &registry.catalog);
        edit.insert(u"no_such_field"_s, 1);
        out = PayloadEncoder::encodeLike(proto[0], compact(edit), u"payments"_s, &registry.catalog);
        QVERIFY(!out.ok);
        QVERIFY2(out.error.contains(u"no_such_field"_s), qPrintable(out.error));

        // JSON Schema: validated against the schema (valijson), the path of the offending value named.
        const QByteArray jsonSchema = R"({"type":"object","required":["amount"],"properties":{
            "amount":{"type":"number","minimum":0},"lines":{"type":"array","items":{"type":"object",
            "properties":{"sku":{"type":"string"}}}}}})";
        registry.catalog.insert(11, compile(SchemaRef::Format::JsonSchema, jsonSchema, 11));
        const QByteArray framedJson = ConfluentWireFormat::frame(11, R"({"amount":5,"lines":[{"sku":"A"}]})");
        out = PayloadEncoder::encodeLike(framedJson, R"({"amount":5,"lines":[{"sku":7}]})", u"payments"_s, &registry.catalog);
        QVERIFY(!out.ok);
        QVERIFY2(out.error.contains(u"$.lines[0].sku"_s), qPrintable(out.error));
        out = PayloadEncoder::encodeLike(framedJson, R"({"lines":[]})", u"payments"_s, &registry.catalog);
        QVERIFY(!out.ok);
        QVERIFY2(out.error.contains(u"amount"_s), qPrintable(out.error));
        out = PayloadEncoder::encodeLike(framedJson, R"({"amount":6,"lines":[]})", u"payments"_s, &registry.catalog);
        QVERIFY2(out.ok, qPrintable(out.error));
        QCOMPARE(out.bytes, ConfluentWireFormat::frame(11, R"({"amount":6,"lines":[]})"));
    }

    void unchangedEditKeepsTheBytes()
    {
        QString error;
        // The reference encoder's bytes, which Berth's own encoder need not reproduce bit for bit.
        const QList<QByteArray> encoded = ReferenceEncoder::protobuf(
            fixturePath(u"payment.proto"_s), u"shop.payments.Payment"_s, 9, {1}, QJsonArray{jsonObject(kProtoPayment)}, &error);
        QVERIFY2(encoded.size() == 1, qPrintable(error));
        // A field the schema does not know (number 99, varint 1): shown as a note, never in the display JSON,
        // so only keeping the bytes keeps it.
        const QByteArray original = encoded[0] + QByteArray("\x98\x06\x01", 3);
        Registry registry;
        registry.catalog.insert(9, compile(SchemaRef::Format::Protobuf, ReferenceEncoder::fixture(u"payment.proto"_s), 9));
        const QJsonObject shown = decodedObject(original, &registry.catalog);
        QVERIFY(!shown.isEmpty());
        // Re-formatted (indented) but not changed: the original bytes, exactly.
        const EncodedPayload out = PayloadEncoder::encodeLike(original, QJsonDocument(shown).toJson(QJsonDocument::Indented),
                                                              u"payments"_s, &registry.catalog);
        QVERIFY2(out.ok, qPrintable(out.error));
        QVERIFY(out.unchanged);
        QCOMPARE(out.bytes, original);
    }

    void aNewerVersionOfTheSubjectFramesItsId()
    {
        QString error;
        Registry registry;
        const QList<QByteArray> encoded{referencePayment(registry, &error)};
        QVERIFY2(!encoded[0].isEmpty(), qPrintable(error));
        const QJsonObject shown = decodedObject(encoded[0], &registry.catalog);
        // Version 2 adds a field: the edit fills it in, and the frame names version 2's id.
        QJsonObject schemaV2 = QJsonDocument::fromJson(ReferenceEncoder::fixture(u"payment.avsc"_s)).object();
        QJsonArray fields = schemaV2.value(u"fields"_s).toArray();
        fields.append(jsonObject(R"({"name":"channel","type":"string","default":"web"})"));
        schemaV2.insert(u"fields"_s, fields);
        const auto v2 = compile(SchemaRef::Format::Avro, QJsonDocument(schemaV2).toJson(), 12);
        QVERIFY(v2);
        QJsonObject edit = shown;
        edit.insert(u"channel"_s, u"pos"_s);
        const EncodedPayload out = PayloadEncoder::encodeWith(encoded[0], compact(edit), *v2, 12);
        QVERIFY2(out.ok, qPrintable(out.error));
        QCOMPARE(ConfluentWireFormat::readHeader(out.bytes).schemaId, 12u);
        registry.catalog.insert(12, v2);
        QCOMPARE(decodedObject(out.bytes, &registry.catalog).value(u"channel"_s).toString(), u"pos"_s);
    }

    // What the request path does with an edit (EditedPayload::prepare): masked fields left as shown take the
    // original's values; a masked field edited without a reveal is refused; after a reveal it is taken.
    void maskedFieldCannotBeEditedUnlessRevealed()
    {
        QString error;
        auto registry = std::make_shared<Registry>();
        const QList<QByteArray> encoded{referencePayment(*registry, &error)};
        QVERIFY2(!encoded[0].isEmpty(), qPrintable(error));
        DeliveryPolicy policy;
        MaskRule rule;
        rule.topic = u"payments"_s;
        rule.fields = {u"$.customer.email"_s, u"$.card"_s};
        policy.masking.append(rule);

        KafkaRecord original;
        original.value = encoded[0];
        // What the operator was shown: the display JSON masked as the inspector masks it.
        KafkaRecord shownRecord = original;
        DlqMetadata metadata;
        DecodedPayload shownPayload = PayloadDecoder::decode(original.value, false, u"payments"_s, &registry->catalog);
        PayloadMask::apply(policy.maskFor(u"payments"_s), shownRecord, metadata, shownPayload);
        QJsonObject shown = QJsonDocument::fromJson(shownPayload.json).object();
        QCOMPARE(shown.value(u"card"_s).toString(), QString::fromLatin1(PayloadMask::kMasked));
        QVERIFY(!shownPayload.json.contains("ada@example.com"));

        const auto prepare = [&](const QJsonObject &edit, bool revealed) {
            return EditedPayload::prepare(original, compact(edit), u"dlq.payments"_s, u"payments"_s,
                                          &registry->catalog, policy, revealed);
        };
        // Unedited: the original's bytes exactly, although the masked values were never shown.
        EditedPayload::Result r = prepare(shown, false);
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(r.bytes, encoded[0]);

        // Another field edited: the masked ones keep their real values in what is produced.
        QJsonObject edit = shown;
        edit.insert(u"status"_s, u"DECLINED"_s);
        r = prepare(edit, false);
        QVERIFY2(r.ok(), qPrintable(r.error));
        QList<QJsonObject> back = ReferenceEncoder::decodeAvro(fixturePath(u"payment.avsc"_s), {r.bytes}, &error);
        QVERIFY2(back.size() == 1, qPrintable(error));
        QJsonObject value = back[0].value(u"value"_s).toObject();
        QCOMPARE(value.value(u"status"_s).toString(), u"DECLINED"_s);
        QCOMPARE(value.value(u"customer"_s).toObject().value(u"email"_s).toString(), u"ada@example.com"_s);
        QCOMPARE(value.value(u"card"_s).toObject().value(u"number"_s).toString(), u"4111111111111111"_s);

        // A masked field edited, replaced or removed without a reveal: refused, with its path.
        QJsonObject customer = shown.value(u"customer"_s).toObject();
        customer.insert(u"email"_s, u"eve@example.com"_s);
        edit = shown;
        edit.insert(u"customer"_s, customer);
        r = prepare(edit, false);
        QVERIFY(!r.ok());
        QVERIFY2(r.error.contains(u"$.customer.email is masked"_s), qPrintable(r.error));
        edit = shown;
        edit.insert(u"card"_s, QJsonValue::Null);
        r = prepare(edit, false);
        QVERIFY2(r.error.contains(u"$.card is masked"_s), qPrintable(r.error));
        edit = shown;
        edit.insert(u"customer"_s, u"gone"_s);
        r = prepare(edit, false);
        QVERIFY2(r.error.contains(u"$.customer holds masked fields"_s), qPrintable(r.error));
        edit = shown;
        edit.remove(u"card"_s);
        r = prepare(edit, false);
        QVERIFY2(r.error.contains(u"$.card is masked"_s), qPrintable(r.error));

        // Revealed (recorded): the operator edits the real values, and the edit is taken.
        QJsonObject revealed = decodedObject(encoded[0], &registry->catalog);
        customer = revealed.value(u"customer"_s).toObject();
        customer.insert(u"email"_s, u"eve@example.com"_s);
        revealed.insert(u"customer"_s, customer);
        r = prepare(revealed, true);
        QVERIFY2(r.ok(), qPrintable(r.error));
        // The item names the masked paths (never values): the audit database files it only with the
        // requester's recorded reveal (tst_reveal).
        QCOMPARE(r.maskedFields, (QStringList{u"$.customer.email"_s, u"$.card"_s}));
        back = ReferenceEncoder::decodeAvro(fixturePath(u"payment.avsc"_s), {r.bytes}, &error);
        QVERIFY2(back.size() == 1, qPrintable(error));
        QCOMPARE(back[0].value(u"value"_s).toObject().value(u"customer"_s).toObject().value(u"email"_s).toString(),
                 u"eve@example.com"_s);
    }
};

QTEST_GUILESS_MAIN(TestPayloadEdit)
#include "tst_payloadedit.moc"
