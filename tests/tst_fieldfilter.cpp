// The field filter's grammar and meaning (ARCHITECTURE.md, Contracts: field filters): parsed with a clear
// error where it is wrong, evaluated on decoded values of payloads encoded by an independent Avro
// implementation, and never by value on a masked field.
#include "services/payload/confluentwireformat.h"
#include "services/payload/fieldfilter.h"
#include "services/payload/payloaddecoder.h"
#include "services/payload/schemacatalog.h"
#include "support/referenceencoder.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {
const char *const kPayment = R"({"id":"6f1c2a52-8f4e-4b59-9d3a-0c5e1f2a3b4c","amount":"19.99","fee":"0.250",
  "createdAt":"2024-02-29T13:45:00.123Z","bookedOn":"2024-02-29","sequence":12,"status":"DECLINED",
  "customer":{"id":"c-42","email":"ada@example.com","tier":null},"card":{"number":"4111111111111111","expiry":"12/29"},
  "lines":[{"sku":"A-1","quantity":2,"price":5.5},{"sku":"B-2","quantity":1,"price":8.99}],
  "tags":{"channel":"web"},"approved":false,"ratio":1.25,"note":null})";
} // namespace

class TestFieldFilter final : public QObject {
    Q_OBJECT

    DecodedPayload m_payment; // decoded by Berth from python3-avro's bytes
    std::shared_ptr<const PayloadSchema> m_schema; // payment.avsc

    // Payments of every shape the schema allows (nulls, union branches, arrays of 0 to 3 lines, map keys
    // that need escapes), encoded by python3-avro.
    static QJsonArray variedPayments(int count)
    {
        QRandomGenerator random(28);
        const QJsonValue tiers[] = {QJsonValue::Null, 2, 7, u"gold"_s};
        const QString keys[] = {u"channel"_s, u"plain"_s, u"q\"k"_s, u"gr\u00fc\u00df"_s, u"tab\tkey"_s};
        QJsonArray out;
        for (int i = 0; i < count; ++i) {
            QJsonObject r = jsonObject(kPayment);
            QJsonObject customer = r.value(u"customer"_s).toObject();
            customer.insert(u"id"_s, u"c-%1"_s.arg(random.bounded(6)));
            customer.insert(u"email"_s, random.bounded(4) == 0
                                            ? QJsonValue(QJsonValue::Null)
                                            : QJsonValue(u"a\"d\\a+%1@ex\u00e4mple.com"_s.arg(i)));
            customer.insert(u"tier"_s, tiers[random.bounded(4)]);
            r.insert(u"customer"_s, customer);
            if (random.bounded(3) == 0)
                r.insert(u"card"_s, QJsonValue::Null);
            else
                r.insert(
                    u"card"_s,
                    QJsonObject{{u"number"_s, u"4111%1"_s.arg(i)},
                                {u"expiry"_s, u"%1/2%2"_s.arg(1 + random.bounded(12), 2, 10, QLatin1Char('0'))
                                                  .arg(random.bounded(10))}});
            QJsonArray lines;
            for (int l = random.bounded(4); l > 0; --l)
                lines.append(QJsonObject{{u"sku"_s, u"S-%1"_s.arg(random.bounded(3))},
                                         {u"quantity"_s, random.bounded(4)},
                                         {u"price"_s, double(random.bounded(1000)) / 100}});
            r.insert(u"lines"_s, lines);
            QJsonObject tags;
            for (const QString &key : keys) {
                if (random.bounded(2))
                    tags.insert(key, u"v%1"_s.arg(random.bounded(3)));
            }
            r.insert(u"tags"_s, tags);
            r.insert(u"amount"_s,
                     u"%1.%2"_s.arg(random.bounded(100)).arg(random.bounded(100), 2, 10, QLatin1Char('0')));
            r.insert(u"fee"_s, u"0.%1"_s.arg(random.bounded(1000), 3, 10, QLatin1Char('0')));
            r.insert(u"sequence"_s, random.bounded(20));
            r.insert(u"approved"_s, random.bounded(2) == 1);
            r.insert(u"ratio"_s, double(random.bounded(8)) / 4);
            r.insert(u"note"_s,
                     random.bounded(2) ? QJsonValue(QJsonValue::Null) : QJsonValue(u"caf\u00e9 %1"_s.arg(i)));
            out.append(r);
        }
        return out;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QString error;
        QVERIFY2(ReferenceEncoder::available(&error), qPrintable(error));
        const QByteArray framed = ReferenceEncoder::avro(ReferenceEncoder::fixturePath(u"payment.avsc"_s), 7,
                                                         QJsonArray{jsonObject(kPayment)}, &error)
                                      .value(0);
        QVERIFY2(!framed.isEmpty(), qPrintable(error));
        SchemaCatalog catalog;
        catalog.setFetcher([](int) {});
        SchemaRef ref;
        ref.id = 7;
        catalog.insert(7,
                       PayloadSchema::compile(ref, ReferenceEncoder::fixture(u"payment.avsc"_s), {}, &error));
        m_payment = PayloadDecoder::decode(framed, false, u"payments"_s, &catalog);
        QCOMPARE(m_payment.kind, DecodedPayload::Kind::Schema);
        m_schema = catalog.byId(7).schema;
        QVERIFY(m_schema);
    }

    void matchesDecodedValues_data()
    {
        QTest::addColumn<QString>("filter");
        QTest::addColumn<bool>("expected");
        QTest::newRow("string ==") << u"$.customer.id == \"c-42\""_s << true;
        QTest::newRow("string == other") << u"$.customer.id == 'c-43'"_s << false;
        QTest::newRow("string !=") << u"$.customer.id != \"c-43\""_s << true;
        QTest::newRow("long") << u"$.sequence >= 12"_s << true;
        QTest::newRow("long <") << u"$.sequence < 12"_s << false;
        QTest::newRow("decimal as number") << u"$.amount > 19.5"_s << true;
        QTest::newRow("decimal exact") << u"$.amount == 19.99"_s << true;
        QTest::newRow("fixed decimal") << u"$.fee <= 0.25"_s << true;
        QTest::newRow("timestamp as time") << u"$.createdAt > \"2024-02-29T13:00:00Z\""_s << true;
        QTest::newRow("timestamp before") << u"$.createdAt < \"2024-01-01\""_s << false;
        QTest::newRow("enum") << u"$.status == \"DECLINED\""_s << true;
        QTest::newRow("array index") << u"$.lines[1].sku == \"B-2\""_s << true;
        QTest::newRow("array index past end") << u"$.lines[5].sku == \"B-2\""_s << false;
        QTest::newRow("double") << u"$.lines[0].price < 6"_s << true;
        QTest::newRow("bool") << u"$.approved == false"_s << true;
        QTest::newRow("contains text") << u"$.customer.email contains \"@example\""_s << true;
        QTest::newRow("map value") << u"$.tags.channel == \"web\""_s << true;
        QTest::newRow("exists") << u"$.card.number exists"_s << true;
        QTest::newRow("null union does not exist") << u"$.note exists"_s << false;
        QTest::newRow("null equals null") << u"$.customer.tier == null"_s << true;
        QTest::newRow("missing field is false") << u"$.nope == 1"_s << false;
        QTest::newRow("missing field != is false") << u"$.nope != 1"_s << false;
        QTest::newRow("and before or")
            << u"$.sequence == 1 and $.approved == true or $.status == \"DECLINED\""_s << true;
        QTest::newRow("parentheses")
            << u"$.sequence == 1 and ($.approved == true or $.status == \"DECLINED\")"_s << false;
        QTest::newRow("keywords any case")
            << u"($.sequence == 12 AND $.customer.id == \"c-42\") Or $.x exists"_s << true;
        QTest::newRow("escaped quote") << u"$.customer.id != \"c-\\\"42\""_s << true;
    }
    void matchesDecodedValues()
    {
        QFETCH(QString, filter);
        QFETCH(bool, expected);
        QString error;
        const FieldFilter f = FieldFilter::parse(filter, &error);
        QVERIFY2(f.isValid(), qPrintable(error));
        QCOMPARE(f.matches(m_payment), expected);
    }

    // A schema's display JSON is read in place for the compared values only: the answers are those of the
    // whole document parsed, through escapes, brackets inside text, nesting and repeated names.
    void displayJsonReadInPlaceAsParsed_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("filter");
        QTest::addColumn<bool>("expected");
        const QByteArray tricky = "{\"s\":\"q\\\"],{[\",\"ab\":1,\"a\":2,"
                                  "\"esc\":\"a\\u0041\\n\",\"arr\":[1,[2,\"]\"],{\"z\":\"}\"},4],\"d\":-1.5e3,"
                                  "\"big\":9007199254740993,\"o\":{\"in\":{\"deep\":[{\"k\":\"v\"}]}},\"e\":[],"
                                  "\"t\":true,\"n\":null,\"dup\":1,\"dup\":2,\"u\":\"gr\u00fc\u00dfe\","
                                  "\"m\":\"19.99\",\"p\":\"+5\"}";
        QTest::newRow("escaped quote in text") << tricky << u"$.s == 'q\"],{['"_s << true;
        QTest::newRow("after escaped name") << QByteArray("{\"a\\\"b\":{\"x\":\"]}\"},\"a\":2}") << u"$.a == 2"_s << true;
        QTest::newRow("prefix name") << tricky << u"$.a == 2"_s << true;
        QTest::newRow("escaped text") << tricky << u"$.esc == 'aA\\n'"_s << false;
        QTest::newRow("escaped text contains") << tricky << u"$.esc contains 'aA'"_s << true;
        QTest::newRow("index past nested") << tricky << u"$.arr[3] == 4"_s << true;
        QTest::newRow("nested index") << tricky << u"$.arr[1][1] == ']'"_s << true;
        QTest::newRow("array contains") << tricky << u"$.arr contains 4"_s << true;
        QTest::newRow("object in array") << tricky << u"$.arr[2].z == '}'"_s << true;
        QTest::newRow("exponent") << tricky << u"$.d < -1000"_s << true;
        QTest::newRow("beyond doubles") << tricky << u"$.big > 9007199254740991"_s << true;
        QTest::newRow("deep") << tricky << u"$.o.in.deep[0].k == 'v'"_s << true;
        QTest::newRow("empty array") << tricky << u"$.e[0] exists"_s << false;
        QTest::newRow("index on object") << tricky << u"$.o[0] exists"_s << false;
        QTest::newRow("name on array") << tricky << u"$.arr.z exists"_s << false;
        QTest::newRow("bool") << tricky << u"$.t == true"_s << true;
        QTest::newRow("null") << tricky << u"$.n == null"_s << true;
        QTest::newRow("repeated name: the last") << tricky << u"$.dup == 2"_s << true;
        QTest::newRow("whole") << tricky << u"$ exists"_s << true;
        QTest::newRow("number as text") << tricky << u"$.a == '2'"_s << true;
        QTest::newRow("text order") << tricky << u"$.s > 'a'"_s << true;
        QTest::newRow("text is no number") << tricky << u"$.o.in.deep[0].k > 5"_s << false;
        QTest::newRow("text is no number !=") << tricky << u"$.o.in.deep[0].k != 5"_s << true;
        QTest::newRow("non-ASCII text") << tricky << u"$.u == 'gr\u00fc\u00dfe'"_s << true;
        QTest::newRow("non-ASCII contains") << tricky << u"$.u contains '\u00fc\u00df'"_s << true;
        QTest::newRow("null != number") << tricky << u"$.n != 1"_s << true;
        QTest::newRow("text == true") << tricky << u"$.s == true"_s << false;
        QTest::newRow("object contains") << tricky << u"$.o contains 'in'"_s << false;
        QTest::newRow("decimal text >") << tricky << u"$.m > 19.98"_s << true;
        QTest::newRow("decimal text ==") << tricky << u"$.m == 19.99"_s << true;
        QTest::newRow("signed text") << tricky << u"$.p == 5"_s << true;
        QTest::newRow("number <= text") << tricky << u"$.ab <= '1'"_s << true;
        QTest::newRow("number > itself") << tricky << u"$.ab > 1"_s << false;
        QTest::newRow("decimal text < itself") << tricky << u"$.m < 19.99"_s << false;
    }
    void displayJsonReadInPlaceAsParsed()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, filter);
        QFETCH(bool, expected);
        QString error;
        const FieldFilter f = FieldFilter::parse(filter, &error);
        QVERIFY2(f.isValid(), qPrintable(error));
        DecodedPayload p;
        p.kind = DecodedPayload::Kind::Schema;
        p.json = json;
        const QJsonValue parsed = QJsonDocument::fromJson('[' + json + ']').array().at(0);
        QVERIFY(parsed.isObject());
        QCOMPARE(f.matches(parsed), expected);
        QCOMPARE(f.matches(p), expected);
    }

    // The fast way (FieldFilter::matchesBody: the Avro reader writes only the values the filter names) gives
    // the answer of the whole display JSON (matches on PayloadDecoder::decode) on every payload it answers,
    // declines where the text reader would be unsure (a map key written with escapes), and agrees with the
    // full decoder on which bodies decode at all.
    void bodyReadAgreesWithWholeDecode()
    {
        QString error;
        const QList<QByteArray> framed = ReferenceEncoder::avro(
            ReferenceEncoder::fixturePath(u"payment.avsc"_s), 7, variedPayments(120), &error);
        QCOMPARE(framed.size(), 120);
        SchemaCatalog catalog;
        catalog.setFetcher([](int) {});
        catalog.insert(7, m_schema);
        const QString filters[] = {
            u"$.customer.id == \"c-3\""_s,
            u"$.customer.email contains \"+1\""_s,
            u"$.customer.tier == 2"_s,
            u"$.customer.tier exists"_s,
            u"$.customer.tier >= \"gold\""_s,
            u"$.card.number exists"_s,
            u"$.card exists and $.card.expiry > \"06/25\""_s,
            u"$.lines[0].sku == \"S-1\""_s,
            u"$.lines[2].quantity >= 2"_s,
            u"$.lines[1] exists and $.lines[1].price < 5"_s,
            u"$.lines contains 3"_s,
            u"$.tags.channel == \"v1\""_s,
            u"$.tags.plain exists or $.tags.nope exists"_s,
            u"$.amount > 50 and $.fee < 0.5"_s,
            u"$.sequence < 10 or $.ratio > 1.5"_s,
            u"$ exists"_s,
            u"$.customer exists and $.customer.id != \"c-1\""_s,
            u"$.customer == \"x\""_s,
            u"$.customer.id == \"c-2\" and $.customer exists"_s,
            u"$.note == null"_s,
            u"$.note contains \"\u00e9 1\""_s,
            u"$.status != \"DECLINED\" or $.approved == true"_s,
            u"$.createdAt > \"2024-02-29T13:00:00Z\""_s,
            u"$.bookedOn == \"2024-02-29\""_s,
            u"$.id == \"6f1c2a52-8f4e-4b59-9d3a-0c5e1f2a3b4c\""_s,
            u"$.nope exists or $.customer.id.deeper exists"_s,
            u"$.lines[0].sku[0] exists"_s,
        };
        PathSelection::Values values;
        int answered = 0, declined = 0, passed = 0;
        for (const QString &text : filters) {
            const FieldFilter f = FieldFilter::parse(text, &error);
            QVERIFY2(f.isValid(), qPrintable(error));
            for (const QByteArray &value : framed) {
                const DecodedPayload whole = PayloadDecoder::decode(value, false, u"payments"_s, &catalog);
                QCOMPARE(whole.kind, DecodedPayload::Kind::Schema);
                const std::optional<bool> fast = f.matchesBody(
                    *m_schema, QByteArrayView(value).sliced(ConfluentWireFormat::kHeaderSize), values);
                if (!fast) {
                    ++declined;
                    QVERIFY2(text.startsWith(u"$.tags"_s),
                             qPrintable(text + u" declined on "_s + QString::fromUtf8(whole.json)));
                    continue;
                }
                ++answered;
                passed += *fast;
                QVERIFY2(*fast == f.matches(whole),
                         qPrintable(text + u" on "_s + QString::fromUtf8(whole.json)));
            }
        }
        // Most payloads are answered the fast way; some pass, some do not.
        QVERIFY2(answered > 10 * declined,
                 qPrintable(u"%1 answered, %2 declined"_s.arg(answered).arg(declined)));
        QVERIFY(declined > 0);
        QVERIFY(passed > 0 && passed < answered);

        // Bodies cut short or with bytes to spare: neither way decodes them.
        const FieldFilter any = FieldFilter::parse(u"$ exists"_s, &error);
        for (const QByteArray &value : framed.mid(0, 10)) {
            const QByteArrayView body = QByteArrayView(value).sliced(ConfluentWireFormat::kHeaderSize);
            const QByteArray bads[] = {body.first(body.size() - 1).toByteArray(),
                                       body.first(body.size() / 2).toByteArray(), body.toByteArray() + '\0'};
            for (const QByteArray &bad : bads) {
                QByteArray json;
                SchemaRef used;
                QVERIFY(!m_schema->decodeBody(bad, true, json, &used).ok);
                QVERIFY(!m_schema
                             ->selectBody(
                                 bad, PathSelection(QList<QStringList>{QStringList{u"customer"_s, u"id"_s}}),
                                 values)
                             .ok);
                QVERIFY(!any.matchesBody(*m_schema, bad, values));
            }
        }
    }

    void notDecodedNeverMatches()
    {
        QString error;
        const FieldFilter f = FieldFilter::parse(u"$ exists"_s, &error);
        QVERIFY2(f.isValid(), qPrintable(error));
        DecodedPayload text;
        text.kind = DecodedPayload::Kind::Text;
        QVERIFY(!f.matches(text));
        QVERIFY(f.matches(m_payment));
    }

    void badFiltersSayWhereAndWhy_data()
    {
        QTest::addColumn<QString>("filter");
        QTest::addColumn<QString>("message");
        QTest::newRow("empty") << u"  "_s << u"empty"_s;
        QTest::newRow("no $") << u"customer.id == 1"_s << u"character 1: a field path starts with “$”"_s;
        QTest::newRow("no value") << u"$.a =="_s << u"character 7: a value is missing"_s;
        QTest::newRow("bare word") << u"$.a == c42"_s << u"character 8: “c42” is not a value"_s;
        QTest::newRow("no operator") << u"$.a 12"_s << u"after $.a comes exists"_s;
        QTest::newRow("dangling and")
            << u"$.a == 1 and"_s << u"a field path such as $.customer.id is missing"_s;
        QTest::newRow("open paren") << u"($.a == 1"_s << u"a “)” is missing"_s;
        QTest::newRow("extra") << u"$.a == 1 )"_s << u"unexpected “)”"_s;
        QTest::newRow("star") << u"$.a[*].b == 1"_s << u"not every item"_s;
        QTest::newRow("bad path") << u"$..a == 1"_s << u"is not a field path"_s;
        QTest::newRow("open quote") << u"$.a == \"x"_s << u"no closing"_s;
        QTest::newRow("deep") << QString(100, u'(') + u"$.a exists"_s + QString(100, u')') << u"too deep"_s;
    }
    void badFiltersSayWhereAndWhy()
    {
        QFETCH(QString, filter);
        QFETCH(QString, message);
        QString error;
        const FieldFilter f = FieldFilter::parse(filter, &error);
        QVERIFY(!f.isValid());
        QVERIFY2(error.contains(message), qPrintable(error));
    }

    // A masked field cannot be searched by value: refused, naming the rule; `exists` is still allowed.
    void maskedFieldsAreNotSearchedByValue()
    {
        MaskRule rule;
        rule.topic = u"payments"_s;
        rule.fields = {u"$.customer.email"_s, u"$.lines[*].sku"_s};
        QString error;
        for (const QString &text :
             {u"$.customer.email == \"ada@example.com\""_s, u"$.lines[1].sku contains \"B\""_s,
              u"$.customer == \"x\" or $.sequence > 1"_s}) {
            const FieldFilter f = FieldFilter::parse(text, &error);
            QVERIFY2(f.isValid(), qPrintable(error));
            QVERIFY2(f.maskedComparison({rule}).contains(u"cannot be searched by value"_s), qPrintable(text));
        }
        for (const QString &text :
             {u"$.customer.email exists"_s, u"$.customer.id == \"c-42\""_s, u"$.lines[0].price > 1"_s}) {
            const FieldFilter f = FieldFilter::parse(text, &error);
            QVERIFY2(f.isValid(), qPrintable(error));
            QCOMPARE(f.maskedComparison({rule}), QString());
        }
    }
};

QTEST_MAIN(TestFieldFilter)
#include "tst_fieldfilter.moc"
