// The payload codec (ARCHITECTURE.md, Data flows: payload decoding): payloads encoded by the reference
// Python libraries (support/referenceencoder.h) decode field by field to what they were given; every kind
// of bad input is a result with its reason, never a crash or a hang.
#include "services/payload/avroschema.h"
#include "services/payload/confluentwireformat.h"
#include "services/payload/payloadmask.h"
#include "services/policy/policyloader.h"
#include "services/payload/payloaddecoder.h"
#include "services/payload/payloadschema.h"
#include "services/payload/payloadtime.h"
#include "services/payload/schemacatalog.h"
#include "support/referenceencoder.h"
#include "support/schemafixtures.h"
#include "support/testsupport.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {
using ReferenceEncoder::fixturePath;


// Compares two JSON values and names the first field that differs.
QString difference(const QJsonValue &expected, const QJsonValue &actual, const QString &path = u"$"_s)
{
    if (expected.type() != actual.type())
        return path + u": expected "_s + QString::fromUtf8(QJsonDocument(QJsonArray{expected}).toJson(QJsonDocument::Compact))
               + u", got "_s + QString::fromUtf8(QJsonDocument(QJsonArray{actual}).toJson(QJsonDocument::Compact));
    if (expected.isObject()) {
        const QJsonObject e = expected.toObject(), a = actual.toObject();
        for (auto it = e.begin(); it != e.end(); ++it) {
            if (!a.contains(it.key()))
                return path + u'.' + it.key() + u": missing"_s;
            if (const QString d = difference(it.value(), a.value(it.key()), path + u'.' + it.key()); !d.isEmpty())
                return d;
        }
        for (auto it = a.begin(); it != a.end(); ++it) {
            if (!e.contains(it.key()))
                return path + u'.' + it.key() + u": not expected"_s;
        }
        return {};
    }
    if (expected.isArray()) {
        const QJsonArray e = expected.toArray(), a = actual.toArray();
        if (e.size() != a.size())
            return path + u": %1 items, expected %2"_s.arg(a.size()).arg(e.size());
        for (qsizetype i = 0; i < e.size(); ++i) {
            if (const QString d = difference(e.at(i), a.at(i), path + u'[' + QString::number(i) + u']'); !d.isEmpty())
                return d;
        }
        return {};
    }
    return expected == actual ? QString() : difference(QJsonValue(QJsonValue::Undefined), actual, path) + u" (values differ)"_s;
}

QJsonObject decodedObject(const DecodedPayload &d)
{
    QJsonParseError e;
    const QJsonDocument doc = QJsonDocument::fromJson(d.json, &e);
    if (e.error != QJsonParseError::NoError)
        qWarning("display JSON does not parse: %s", qPrintable(e.errorString()));
    return doc.object();
}

using SchemaFixtures::compile;
using SchemaFixtures::kPaymentRecord;
using SchemaFixtures::kProtoPayment;
using SchemaFixtures::Registry;
} // namespace

class TestPayloadCodec : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QString why;
        QVERIFY2(ReferenceEncoder::available(&why), qPrintable(why));
    }

    void avroDecodesFieldByField()
    {
        QString error;
        QJsonObject second = jsonObject(kPaymentRecord);
        second.insert(u"customer"_s, jsonObject(R"({"id":"c-7","email":null,"tier":"gold"})"));
        second.insert(u"card"_s, QJsonValue::Null);
        second.insert(u"sequence"_s, 42);
        second.insert(u"amount"_s, u"0.05"_s);
        second.insert(u"note"_s, u"r\u00e9sum\u00e9 \u2192 \"quoted\"\n"_s);
        const QJsonArray records{jsonObject(kPaymentRecord), second};
        const QList<QByteArray> encoded = ReferenceEncoder::avro(fixturePath(u"payment.avsc"_s), 7, records, &error);
        QVERIFY2(encoded.size() == 2, qPrintable(error));

        Registry registry;
        registry.catalog.insert(7, compile(SchemaRef::Format::Avro, ReferenceEncoder::fixture(u"payment.avsc"_s), 7, u"payments-value"_s));
        for (qsizetype i = 0; i < records.size(); ++i) {
            const DecodedPayload d = PayloadDecoder::decode(encoded[i], false, u"payments"_s, &registry.catalog);
            QCOMPARE(d.kind, DecodedPayload::Kind::Schema);
            QVERIFY2(d.error.isEmpty(), qPrintable(d.error));
            QCOMPARE(d.schema.subject, u"payments-value"_s);
            QCOMPARE(d.schema.version, 3);
            QCOMPARE(d.schema.id, 7);
            QJsonObject expected = records[i].toObject();
            // 2^53 + 1 is no exact double: it shows as a string; smaller longs stay numbers.
            if (i == 0)
                expected.insert(u"sequence"_s, u"9007199254740993"_s);
            const QString diff = difference(expected, decodedObject(d));
            QVERIFY2(diff.isEmpty(), qPrintable(diff));
        }
        QVERIFY(registry.asked.isEmpty()); // cached: the registry was not asked
    }

    void protobufDecodesFieldByField()
    {
        QString error;
        QJsonObject bare = jsonObject(R"({"payment_id":"p-2","iban":"DE00"})");
        const QJsonArray records{jsonObject(kProtoPayment), bare};
        const QList<QByteArray> encoded =
            ReferenceEncoder::protobuf(fixturePath(u"payment.proto"_s), u"shop.payments.Payment"_s, 9, {1}, records, &error);
        QVERIFY2(encoded.size() == 2, qPrintable(error));
        Registry registry;
        registry.catalog.insert(9, compile(SchemaRef::Format::Protobuf, ReferenceEncoder::fixture(u"payment.proto"_s), 9, u"payments-value"_s));

        const DecodedPayload d = PayloadDecoder::decode(encoded[0], false, u"payments"_s, &registry.catalog);
        QVERIFY2(d.kind == DecodedPayload::Kind::Schema, qPrintable(d.error));
        QCOMPARE(d.schema.messageName, u"shop.payments.Payment"_s);
        QJsonObject expected = records[0].toObject();
        // Outside ±2^53 stays a string; the .proto names are the keys; a 64-bit value that fits is a number.
        expected.insert(u"amount_minor"_s, u"-9007199254740993"_s);
        QString diff = difference(expected, decodedObject(d));
        QVERIFY2(diff.isEmpty(), qPrintable(diff));

        // proto3 scalars show their defaults; unset message, optional and oneof fields do not show.
        const DecodedPayload d2 = PayloadDecoder::decode(encoded[1], false, u"payments"_s, &registry.catalog);
        const QJsonObject expected2 = jsonObject(R"({"payment_id":"p-2","amount_minor":0,"sequence_no":0,"status":"PENDING",
            "lines":[],"tags":{},"signature":"","approved":false,"iban":"DE00"})");
        diff = difference(expected2, decodedObject(d2));
        QVERIFY2(diff.isEmpty(), qPrintable(diff));
    }

    void protobufHonoursNestedMessageIndexes()
    {
        QString error;
        const QJsonArray records{jsonObject(R"({"sku":"Z-9","quantity":7,"price":2.25})")};
        // [1, 0]: the first message nested in the file's second message (Payment.Line).
        const QList<QByteArray> encoded = ReferenceEncoder::protobuf(
            fixturePath(u"payment.proto"_s), u"shop.payments.Payment.Line"_s, 9, {1, 0}, records, &error);
        QVERIFY2(encoded.size() == 1, qPrintable(error));
        Registry registry;
        registry.catalog.insert(9, compile(SchemaRef::Format::Protobuf, ReferenceEncoder::fixture(u"payment.proto"_s), 9, u"p"_s));
        const DecodedPayload d = PayloadDecoder::decode(encoded[0], false, u"t"_s, &registry.catalog);
        QVERIFY2(d.kind == DecodedPayload::Kind::Schema, qPrintable(d.error));
        QCOMPARE(d.schema.messageName, u"shop.payments.Payment.Line"_s);
        QCOMPARE(decodedObject(d), records[0].toObject());

        // An index past the schema's messages names no message: said so, not guessed.
        QByteArray wrong = encoded[0];
        wrong[5] = 0x04; // count 2 → ...
        wrong[6] = 0x0a; // first index 5: the file has two messages
        const DecodedPayload w = PayloadDecoder::decode(wrong, false, u"t"_s, &registry.catalog);
        QCOMPARE(w.kind, DecodedPayload::Kind::Binary);
        QVERIFY2(w.error.contains(u"message index 5"_s), qPrintable(w.error));
    }

    void protobufUnknownFieldsAreNotes()
    {
        QString error;
        // A newer version of the schema, with fields 13 and 14 the decoding schema does not know.
        QTemporaryDir dir;
        QFile newer(dir.filePath(u"payment.proto"_s));
        QVERIFY(newer.open(QIODevice::WriteOnly));
        QByteArray text = ReferenceEncoder::fixture(u"payment.proto"_s);
        text.insert(text.lastIndexOf('}'), "  string risk_score = 13;\n  int32 attempts = 14;\n");
        newer.write(text);
        newer.close();
        const QJsonArray records{jsonObject(R"({"payment_id":"p-3","risk_score":"high","attempts":4})")};
        const QList<QByteArray> encoded = ReferenceEncoder::protobuf(
            newer.fileName(), u"shop.payments.Payment"_s, 9, {1}, records, &error);
        QVERIFY2(encoded.size() == 1, qPrintable(error));
        Registry registry;
        registry.catalog.insert(9, compile(SchemaRef::Format::Protobuf, ReferenceEncoder::fixture(u"payment.proto"_s), 9, u"p"_s));
        const DecodedPayload d = PayloadDecoder::decode(encoded[0], false, u"t"_s, &registry.catalog);
        QVERIFY2(d.kind == DecodedPayload::Kind::Schema, qPrintable(d.error));
        QCOMPARE(decodedObject(d).value(u"payment_id"_s).toString(), u"p-3"_s);
        QVERIFY(!decodedObject(d).contains(u"risk_score"_s));
        QCOMPARE(d.notes.size(), 1);
        QVERIFY2(d.notes[0].contains(u"13, 14"_s), qPrintable(d.notes[0]));
    }

    void failuresSayWhy()
    {
        QString error;
        const QList<QByteArray> encoded =
            ReferenceEncoder::avro(fixturePath(u"payment.avsc"_s), 7, QJsonArray{jsonObject(kPaymentRecord)}, &error);
        QVERIFY2(encoded.size() == 1, qPrintable(error));
        Registry registry;
        // Not fetched yet: pending, and the registry is asked once.
        DecodedPayload d = PayloadDecoder::decode(encoded[0], false, u"t"_s, &registry.catalog);
        QVERIFY(d.pending);
        QVERIFY2(d.error.contains(u"schema id 7"_s), qPrintable(d.error));
        QCOMPARE(registry.asked, QList<int>{7});
        PayloadDecoder::decode(encoded[0], false, u"t"_s, &registry.catalog);
        QCOMPARE(registry.asked, QList<int>{7});

        // The registry does not know the id.
        registry.catalog.fail(7, u"unknown schema id (the registry answered 404)"_s, false);
        d = PayloadDecoder::decode(encoded[0], false, u"t"_s, &registry.catalog);
        QVERIFY(!d.pending);
        QCOMPARE(d.schema.id, 7);
        QVERIFY2(d.error.contains(u"unknown schema id"_s), qPrintable(d.error));
        QCOMPARE(d.kind, DecodedPayload::Kind::Binary); // the bytes are still shown

        // The registry is down: said so, and asked again after the retry interval.
        registry.catalog.fail(8, u"the schema registry is unreachable: Connection refused"_s, true, 0);
        QByteArray id8 = encoded[0];
        id8[4] = 8;
        d = PayloadDecoder::decode(id8, false, u"t"_s, &registry.catalog);
        QVERIFY(d.pending); // retry interval 0: asked again
        QCOMPARE(registry.asked, (QList<int>{7, 8}));
        registry.catalog.fail(8, u"the schema registry is unreachable: Connection refused"_s, true, 60000);
        d = PayloadDecoder::decode(id8, false, u"t"_s, &registry.catalog);
        QVERIFY2(d.error.contains(u"unreachable"_s), qPrintable(d.error));

        // Truncated body: the reason, where, and which field.
        registry.catalog.insert(7, compile(SchemaRef::Format::Avro, ReferenceEncoder::fixture(u"payment.avsc"_s), 7, u"p"_s));
        d = PayloadDecoder::decode(encoded[0].first(60), false, u"t"_s, &registry.catalog);
        QCOMPARE(d.kind, DecodedPayload::Kind::Binary);
        QVERIFY2(d.error.contains(u"truncated"_s), qPrintable(d.error));
        QVERIFY2(d.error.contains(u"$."_s), qPrintable(d.error));
        QVERIFY(d.errorOffset >= 5 && d.errorOffset <= 60);
        QCOMPARE(d.schema.id, 7);

        // Bytes left over: the body is not what the schema says.
        d = PayloadDecoder::decode(QByteArray(encoded[0] + "xyz"), false, u"t"_s, &registry.catalog);
        QVERIFY2(d.error.contains(u"3 bytes left over"_s), qPrintable(d.error));

        // Wrong magic byte on a binary value while a registry is in use.
        QByteArray magic = encoded[0];
        magic[0] = 1;
        d = PayloadDecoder::decode(magic, false, u"t"_s, &registry.catalog);
        QVERIFY2(d.error.contains(u"wrong magic byte 0x01"_s), qPrintable(d.error));

        // Too short for a header.
        d = PayloadDecoder::decode(QByteArray("\x00\x00\x01", 3), false, u"t"_s, &registry.catalog);
        QVERIFY2(d.error.contains(u"truncated"_s), qPrintable(d.error));
    }

    void badSchemasAreRefusedWithTheReason()
    {
        QString error;
        SchemaRef avro;
        QVERIFY(!PayloadSchema::compile(avro, "{\"type\": \"record\"", {}, &error));
        QVERIFY2(error.contains(u"not JSON"_s), qPrintable(error));
        QVERIFY(!PayloadSchema::compile(avro, R"({"type":"record","name":"A","fields":[{"name":"x","type":"Nope"}]})", {}, &error));
        QVERIFY2(error.contains(u"unknown type Nope"_s), qPrintable(error));
        // Avro C, the reference, refuses what Berth's own compiler would let through.
        QVERIFY(!PayloadSchema::compile(avro, R"({"type":"record","name":"1-bad name","fields":[]})", {}, &error));
        QVERIFY2(error.contains(u"Avro C refuses"_s), qPrintable(error));

        SchemaRef proto;
        proto.format = SchemaRef::Format::Protobuf;
        QVERIFY(!PayloadSchema::compile(proto, "syntax = \"proto3\"; message A { int32 x = ; }", {}, &error));
        QVERIFY2(error.contains(u"does not parse"_s) && error.contains(u"1:"_s), qPrintable(error));
        QVERIFY(!PayloadSchema::compile(proto, "syntax = \"proto3\"; import \"other.proto\"; message A { Other o = 1; }", {}, &error));
        QVERIFY2(error.contains(u"other.proto"_s), qPrintable(error));
        // A registry reference makes the same import work.
        const QHash<QString, QByteArray> refs{{u"other.proto"_s, "syntax = \"proto3\"; message Other { string s = 1; }"}};
        QVERIFY2(PayloadSchema::compile(proto, "syntax = \"proto3\"; import \"other.proto\"; message A { Other o = 1; }", refs, &error),
                 qPrintable(error));
    }

    void deepAndRecursiveInputEnds()
    {
        QString error;
        SchemaRef ref;
        // A recursive Avro schema and a body that nests 200,000 levels: refused at the depth limit.
        auto list = PayloadSchema::compile(ref, R"({"type":"record","name":"Node","fields":[{"name":"value","type":"int"},
            {"name":"next","type":["null","Node"]}]})", {}, &error);
        QVERIFY2(list, qPrintable(error));
        QByteArray deep;
        for (int i = 0; i < 200000; ++i)
            deep += QByteArray("\x02\x02", 2); // value 1, branch "Node"
        deep += QByteArray("\x02\x00", 2);
        QByteArray json;
        SchemaRef used;
        BodyDecode r = list->decodeBody(deep, false, json, &used);
        QVERIFY(!r.ok);
        QVERIFY2(r.error.contains(u"deeper than"_s), qPrintable(r.error));
        // A short chain of the same schema decodes.
        json.clear();
        r = list->decodeBody(QByteArray("\x02\x02\x04\x02\x06\x00", 6), false, json, &used);
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(json, QByteArray(R"({"value":1,"next":{"value":2,"next":{"value":3,"next":null}}})"));

        // A schema nested 5,000 levels deep does not parse, and says why.
        QByteArray nested;
        for (int i = 0; i < 5000; ++i)
            nested += R"({"type":"array","items":)";
        nested += "\"int\"" + QByteArray(5000, '}');
        QVERIFY(!PayloadSchema::compile(ref, nested, {}, &error));

        // Protobuf: a recursive message nested 10,000 deep stops at protobuf's recursion limit.
        SchemaRef proto;
        proto.format = SchemaRef::Format::Protobuf;
        auto node = PayloadSchema::compile(proto, "syntax = \"proto3\"; message Node { Node child = 1; int32 v = 2; }", {}, &error);
        QVERIFY2(node, qPrintable(error));
        QByteArray body;
        for (int i = 0; i < 10000; ++i) {
            QByteArray len;
            quint64 n = quint64(body.size());
            while (n >= 0x80) {
                len += char((n & 0x7f) | 0x80);
                n >>= 7;
            }
            len += char(n);
            body = '\x0a' + len + body;
        }
        json.clear();
        r = node->decodeBody(body, false, json, &used);
        QVERIFY(!r.ok);
        QVERIFY2(r.error.contains(u"nested too deep"_s), qPrintable(r.error));
        // .proto text nested too deep is refused before protoc's parser recurses into it.
        QByteArray deepProto = "syntax = \"proto3\"; ";
        for (int i = 0; i < 2000; ++i)
            deepProto += "message M" + QByteArray::number(i) + " { ";
        deepProto += QByteArray(2000, '}');
        QVERIFY(!PayloadSchema::compile(proto, deepProto, {}, &error));
        QVERIFY2(error.contains(u"deeper than"_s), qPrintable(error));
    }

    void hugeRecordsAndImpossibleCounts()
    {
        QString error;
        SchemaRef ref;
        auto text = PayloadSchema::compile(ref, R"("string")", {}, &error);
        QVERIFY2(text, qPrintable(error));
        // 16 MB of text in one Avro string: decoded whole.
        const qsizetype size = 16 << 20;
        QByteArray body;
        quint64 raw = quint64(size) << 1;
        while (raw >= 0x80) {
            body += char((raw & 0x7f) | 0x80);
            raw >>= 7;
        }
        body += char(raw);
        body += QByteArray(size, 'a');
        QByteArray json;
        SchemaRef used;
        QElapsedTimer timer;
        timer.start();
        BodyDecode r = text->decodeBody(body, false, json, &used);
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(json.size(), size + 2);

        // An array of nulls claiming 2^40 items in three bytes: refused, not looped over.
        auto nulls = PayloadSchema::compile(ref, R"({"type":"array","items":"null"})", {}, &error);
        QVERIFY2(nulls, qPrintable(error));
        QByteArray count;
        raw = quint64(1) << 41;
        while (raw >= 0x80) {
            count += char((raw & 0x7f) | 0x80);
            raw >>= 7;
        }
        count += char(raw);
        json.clear();
        r = nulls->decodeBody(QByteArray(count + QByteArray(1, 0)), false, json, &used);
        QVERIFY(!r.ok);
        QVERIFY2(r.error.contains(u"more than the body can hold"_s), qPrintable(r.error));

        // 16 MB of garbage behind a valid header: a reason, quickly.
        Registry registry;
        registry.catalog.insert(7, compile(SchemaRef::Format::Avro, ReferenceEncoder::fixture(u"payment.avsc"_s), 7, u"p"_s));
        QByteArray garbage = ConfluentWireFormat::frame(7, QByteArray(size, '\xff'));
        const DecodedPayload d = PayloadDecoder::decode(garbage, false, u"t"_s, &registry.catalog);
        QVERIFY(!d.error.isEmpty());
        QVERIFY2(timer.elapsed() < 20000, "decoding 16 MB took far too long");
    }

    void displayJsonIsValidForAnyText()
    {
        QString error;
        SchemaRef ref;
        auto text = PayloadSchema::compile(ref, R"({"type":"map","values":"string"})", {}, &error);
        QVERIFY2(text, qPrintable(error));
        // One entry whose key and value are invalid UTF-8 with control characters and quotes.
        const QByteArray bad("\xff\"\x01\\", 4);
        QByteArray body = QByteArray("\x02", 1) + QByteArray("\x08", 1) + bad + QByteArray("\x08", 1) + bad + QByteArray("\x00", 1);
        QByteArray json;
        SchemaRef used;
        const BodyDecode r = text->decodeBody(body, false, json, &used);
        QVERIFY2(r.ok, qPrintable(r.error));
        QJsonParseError e;
        const QJsonObject o = QJsonDocument::fromJson(json, &e).object();
        QVERIFY2(e.error == QJsonParseError::NoError, json.constData());
        QCOMPARE(o.value(u"\ufffd\"\u0001\\"_s).toString(), u"\ufffd\"\u0001\\"_s);
    }

    void logicalTypesReadable()
    {
        QCOMPARE(PayloadTime::dateText(0), QByteArray("1970-01-01"));
        QCOMPARE(PayloadTime::dateText(-1), QByteArray("1969-12-31"));
        QCOMPARE(PayloadTime::dateText(19782), QByteArray("2024-02-29"));
        QCOMPARE(PayloadTime::timestampText(-1, 1000, true), QByteArray("1969-12-31T23:59:59.999Z"));
        QCOMPARE(PayloadTime::timestampText(1709214300123456, 1000000, false), QByteArray("2024-02-29T13:45:00.123456"));
        QCOMPARE(PayloadTime::timeOfDayText(49500123, 1000), QByteArray("13:45:00.123"));
        // Found by fuzz_avro: the smallest long once overflowed on the way (UBSan).
        QVERIFY(PayloadTime::timestampText(std::numeric_limits<qint64>::min(), 1000, true).endsWith(".192Z"));
        QCOMPARE(PayloadTime::decimalText(QByteArray("\xff", 1), 2), QByteArray("-0.01"));
        QCOMPARE(PayloadTime::decimalText(QByteArray("\x00\x80", 2), 0), QByteArray("128"));
        QCOMPARE(PayloadTime::decimalText(QByteArray("\x80\x00\x00\x00\x00\x00\x00\x00\x00", 9), 3),
                 QByteArray("-2361183241434822606.848"));
    }

    void jsonTextAndBinaryFallBacks()
    {
        SchemaCatalog none;
        QCOMPARE(PayloadDecoder::decode({}, true, u"t"_s, &none).kind, DecodedPayload::Kind::Null);
        DecodedPayload d = PayloadDecoder::decode(R"( {"a": [1, 2]} )", false, u"t"_s, &none);
        QCOMPARE(d.kind, DecodedPayload::Kind::Json);
        QVERIFY(!d.hasSchema);
        QCOMPARE(PayloadDecoder::decode("{\"a\": ", false, u"t"_s, &none).kind, DecodedPayload::Kind::Text);
        QCOMPARE(PayloadDecoder::decode("plain words", false, u"t"_s, &none).kind, DecodedPayload::Kind::Text);
        d = PayloadDecoder::decode(QByteArray("\x00\x00\x00\x00\x07\x02", 6), false, u"t"_s, &none);
        QCOMPARE(d.kind, DecodedPayload::Kind::Binary); // framed-looking, but no registry: not guessed at
        QVERIFY(d.error.isEmpty());

        // JSON Schema: the body after the header is JSON, named by its schema.
        Registry registry;
        registry.catalog.insert(11, compile(SchemaRef::Format::JsonSchema, R"({"type":"object"})", 11, u"events-value"_s));
        d = PayloadDecoder::decode(ConfluentWireFormat::frame(11, R"({"kind":"x","n":1})"), false, u"t"_s, &registry.catalog);
        QCOMPARE(d.kind, DecodedPayload::Kind::Schema);
        QCOMPARE(d.schema.format, SchemaRef::Format::JsonSchema);
        QCOMPARE(decodedObject(d), jsonObject(R"({"kind":"x","n":1})"));
        d = PayloadDecoder::decode(ConfluentWireFormat::frame(11, "{nope"), false, u"t"_s, &registry.catalog);
        QVERIFY2(d.error.contains(u"not JSON"_s), qPrintable(d.error));
    }

    void maskingRulesAndPaths()
    {
        const PolicyLoadResult loaded = loadPolicy(R"(deliverySemantics:
  topics:
    payments: {defaultGuarantee: at-least-once}
masking:
  - topic: payments
    fields: [$.customer.email, "$.lines[*].sku"]
    headers: x-customer-email
  - topic: payments-dlt
    key: true
  - topic: orders
    fields: [customer.email]
)", u"policy.yaml"_s);
        QCOMPARE(loaded.errors().size(), 1); // the path without "$"
        QVERIFY(loaded.errors()[0].message.contains(u"does not start with $"_s));
        const MaskRule rule = loaded.policy.maskFor(u"payments-dlt"_s, u"payments"_s);
        QCOMPARE(rule.fields, (QStringList{u"$.customer.email"_s, u"$.lines[*].sku"_s}));
        QCOMPARE(rule.headers, QStringList{u"x-customer-email"_s});
        QVERIFY(rule.key);
        QVERIFY(loaded.policy.maskFor(u"other"_s).fields.isEmpty());

        QCOMPARE(PayloadMask::pathSteps(u"$.a.b[0].c[*]"_s), (QStringList{u"a"_s, u"b"_s, u"[0]"_s, u"c"_s, u"[*]"_s}));
        QVERIFY(PayloadMask::pathSteps(u"a.b"_s).isEmpty());
        QVERIFY(PayloadMask::pathSteps(u"$.a[x]"_s).isEmpty());

        KafkaRecord record;
        record.value = "{}";
        DlqMetadata metadata;
        metadata.reason = u"SKU-SECRET-1 out of stock"_s;
        DecodedPayload payload;
        payload.kind = DecodedPayload::Kind::Json;
        payload.json = R"({"customer":{"email":"a@b.example"},"lines":[{"sku":"SKU-SECRET-1"},{"sku":"SKU-SECRET-2"}],"n":1})";
        const PayloadMask::Outcome out = PayloadMask::apply(rule, record, metadata, payload);
        QCOMPARE(out.fieldPaths.size(), 2);
        QVERIFY(out.rawHidden);
        QCOMPARE(QJsonDocument::fromJson(payload.json).object(),
                 jsonObject(R"x({"customer":{"email":"(masked)"},"lines":[{"sku":"(masked)"},{"sku":"(masked)"}],"n":1})x"));
        QCOMPARE(metadata.reason, u"(masked) out of stock"_s);
        QVERIFY(record.value.isEmpty() && !record.value.isNull());
    }

    void localSchemaFilesMappedToTopics()
    {
        QString error;
        // Avro without a registry: bare bodies on a topic mapped to payment.avsc.
        const QList<QByteArray> encoded =
            ReferenceEncoder::avro(fixturePath(u"payment.avsc"_s), -1, QJsonArray{jsonObject(kPaymentRecord)}, &error);
        QVERIFY2(encoded.size() == 1, qPrintable(error));
        SchemaCatalog catalog;
        auto avsc = PayloadSchema::fromFile(fixturePath(u"payment.avsc"_s), {}, &error);
        QVERIFY2(avsc, qPrintable(error));
        catalog.mapTopic(u"payments"_s, avsc);
        DecodedPayload d = PayloadDecoder::decode(encoded[0], false, u"payments"_s, &catalog);
        QVERIFY2(d.kind == DecodedPayload::Kind::Schema, qPrintable(d.error));
        QCOMPARE(d.schema.file, u"payment.avsc"_s);
        QCOMPARE(decodedObject(d).value(u"customer"_s).toObject().value(u"email"_s).toString(), u"ada@example.com"_s);
        // Another topic is not decoded with it.
        QVERIFY(PayloadDecoder::decode(encoded[0], false, u"orders"_s, &catalog).kind != DecodedPayload::Kind::Schema);

        // A descriptor set, the message named.
        QTemporaryDir dir;
        const QByteArray set = ReferenceEncoder::descriptorSet(fixturePath(u"payment.proto"_s), &error);
        QVERIFY2(!set.isEmpty(), qPrintable(error));
        QFile file(dir.filePath(u"payment.desc"_s));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(set);
        file.close();
        auto desc = PayloadSchema::fromFile(file.fileName(), u"shop.payments.Payment"_s, &error);
        QVERIFY2(desc, qPrintable(error));
        catalog.mapTopic(u"pb"_s, desc);
        const QList<QByteArray> pb = ReferenceEncoder::protobuf(fixturePath(u"payment.proto"_s), u"shop.payments.Payment"_s,
                                                                -1, {1}, QJsonArray{jsonObject(kProtoPayment)}, &error);
        QVERIFY2(pb.size() == 1, qPrintable(error));
        d = PayloadDecoder::decode(pb[0], false, u"pb"_s, &catalog);
        QVERIFY2(d.kind == DecodedPayload::Kind::Schema, qPrintable(d.error));
        QCOMPARE(decodedObject(d).value(u"sequence_no"_s).toString(), u"18446744073709551615"_s);
        QVERIFY(!PayloadSchema::fromFile(file.fileName(), u"shop.Nope"_s, &error));
        QVERIFY2(error.contains(u"shop.Nope"_s), qPrintable(error));
    }
};

QTEST_GUILESS_MAIN(TestPayloadCodec)
#include "tst_payloadcodec.moc"
