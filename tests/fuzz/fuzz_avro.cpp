// The Avro reader: any schema text compiles or is refused with a reason; any body against a schema (fuzzed,
// or one of the fixed ones below: records, recursion, unions, arrays, maps, logical types) decodes to display
// JSON a strict parser reads, or fails with a reason and an offset inside the body; display JSON the encoder
// for edits accepts decodes back to itself. The field filter's selecting read (AvroSchema::select,
// FieldFilter::matchesBody) agrees with the decode: the same bodies decode, the same filters pass.
#include "fuzzinput.h"
#include "payloadfuzzcheck.h"
#include "services/payload/avroschema.h"
#include "services/payload/fieldfilter.h"
#include "services/payload/payloadschema.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QString>

namespace {
const char *const kSchemas[] = {
    R"({"type":"record","name":"P","namespace":"s","fields":[
        {"name":"id","type":{"type":"string","logicalType":"uuid"}},
        {"name":"amount","type":{"type":"bytes","logicalType":"decimal","precision":12,"scale":2}},
        {"name":"fee","type":{"type":"fixed","name":"F","size":4,"logicalType":"decimal","precision":8,"scale":3}},
        {"name":"at","type":{"type":"long","logicalType":"timestamp-millis"}},
        {"name":"on","type":{"type":"int","logicalType":"date"}},
        {"name":"t","type":{"type":"int","logicalType":"time-millis"}},
        {"name":"status","type":{"type":"enum","name":"S","symbols":["A","B"]}},
        {"name":"lines","type":{"type":"array","items":{"type":"record","name":"L","fields":[
            {"name":"q","type":"int"},{"name":"p","type":"double"},{"name":"f","type":"float"}]}}},
        {"name":"tags","type":{"type":"map","values":["null","string","long","boolean"]}}]})",
    R"({"type":"record","name":"Node","fields":[{"name":"v","type":"int"},{"name":"next","type":["null","Node"]},
        {"name":"kids","type":{"type":"array","items":"Node"}}]})",
    R"({"type":"array","items":"null"})",
    R"({"type":"map","values":{"type":"array","items":["null","bytes",{"type":"fixed","name":"F2","size":3}]}})",
    R"(["null",{"type":"fixed","name":"F2","size":3},{"type":"long","logicalType":"timestamp-micros"}])",
};
// Paths into the fixed schemas' values: fields, items, map keys, unions, recursion, a path under another.
const char *const kFilters[] = {
    "$.lines[0].q > 1 or $.tags.a exists",
    "$.tags.a == \"x\" and $.status != \"B\"",
    "$.next.next.v >= 3 or $.kids[1].v exists",
    "$.kids exists and $.kids[0].next.v < 0",
    "$[0] exists and $[1][0] contains \"QQ\"",
    "$.a[2] == null or $.amount > 1",
    "$ exists",
    "$.lines exists and $.lines[1].f <= 0.5",
};

// The filter's two ways on one body: the selecting read answers as the whole display JSON does, and
// never answers for a body that does not decode.
void checkSelection(const std::shared_ptr<const PayloadSchema> &schema, QByteArrayView body,
                    const BodyDecode &decoded, const QByteArray &json)
{
    static std::vector<FieldFilter> filters = [] {
        std::vector<FieldFilter> out;
        QString error;
        for (const char *text : kFilters)
            out.push_back(FieldFilter::parse(QString::fromLatin1(text), &error));
        return out;
    }();
    static const PathSelection selection(QList<QStringList>{
        {QStringLiteral("lines"), QStringLiteral("[0]")}, {QStringLiteral("tags")}, {QStringLiteral("[1]")}});
    PathSelection::Values values;
    if (schema->selectBody(body, selection, values).ok != decoded.ok)
        payloadFuzzFail("fuzz_avro", "the selecting read and the decoder disagree on whether a body decodes");
    DecodedPayload whole;
    whole.kind = DecodedPayload::Kind::Schema;
    whole.json = json;
    for (const FieldFilter &f : filters) {
        if (!f.isValid())
            payloadFuzzFail("fuzz_avro", "a fixed filter does not parse");
        const std::optional<bool> fast = f.matchesBody(*schema, body, values);
        if (fast && !decoded.ok)
            payloadFuzzFail("fuzz_avro", "the selecting read answers for a body the decoder refuses");
        if (fast && *fast != f.matches(whole))
            payloadFuzzFail("fuzz_avro", "the selecting read and the display JSON disagree on a filter");
    }
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FuzzInput in(data, size);
    const quint8 choice = in.byte();
    const QByteArrayView fuzzedSchema = in.bytes();
    constexpr size_t kFixed = sizeof(kSchemas) / sizeof(kSchemas[0]);
    QString error;
    std::unique_ptr<AvroSchema> schema =
        choice < kFixed ? AvroSchema::parse(QByteArrayView(kSchemas[choice], qstrlen(kSchemas[choice])), &error)
                        : AvroSchema::parse(fuzzedSchema, &error);
    if (!schema) {
        if (choice < kFixed)
            payloadFuzzFail("fuzz_avro", "a fixed schema does not compile");
        if (error.isEmpty())
            payloadFuzzFail("fuzz_avro", "a refused schema without a reason");
        return 0;
    }
    const QByteArrayView body = in.rest();
    QByteArray json;
    const BodyDecode r = schema->decode(body, json);
    if (choice < kFixed) {
        static std::shared_ptr<const PayloadSchema> compiled[kFixed];
        if (!compiled[choice]) {
            SchemaRef ref;
            ref.format = SchemaRef::Format::Avro;
            compiled[choice] = PayloadSchema::compile(
                ref, QByteArrayView(kSchemas[choice], qstrlen(kSchemas[choice])), {}, &error);
        }
        checkSelection(compiled[choice], body, r, json);
    }
    if (r.ok) {
        checkDisplayJson("fuzz_avro", json);
        // The encoder for edits (AvroSchema::encode): what it accepts of display JSON decodes to the same
        // display JSON (values at the edges of their display form may be refused, never mis-encoded).
        const QJsonDocument doc = QJsonDocument::fromJson('[' + json + ']');
        QByteArray encoded;
        const BodyDecode e = schema->encode(doc.array().at(0), encoded);
        if (e.ok) {
            QByteArray again;
            if (!schema->decode(encoded, again).ok || QJsonDocument::fromJson('[' + again + ']') != doc)
                payloadFuzzFail("fuzz_avro", "an encoded edit does not decode to what was encoded");
        } else if (e.error.isEmpty()) {
            payloadFuzzFail("fuzz_avro", "a refused edit without a reason");
        }
    } else if (r.error.isEmpty() || r.errorOffset < 0 || r.errorOffset > body.size()) {
        payloadFuzzFail("fuzz_avro", "a failed decode without a reason or with an offset outside the body");
    }
    return 0;
}
