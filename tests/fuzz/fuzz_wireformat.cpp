// The Confluent wire-format reader and the decoder seam behind it: the header and message-index list read
// back what frame()/frameProtobuf() wrote; any value through PayloadDecoder (a registry that knows ids 1-3,
// Avro, Protobuf and JSON Schema, and a local file on topic "local") gives a result whose display JSON a
// strict parser reads, and a schema error always says why.
#include "fuzzinput.h"
#include "payloadfuzzcheck.h"
#include "services/payload/confluentwireformat.h"
#include "services/payload/payloaddecoder.h"
#include "services/payload/schemacatalog.h"

using namespace Qt::StringLiterals;

namespace {
SchemaCatalog &catalog()
{
    static SchemaCatalog *c = [] {
        auto *catalog = new SchemaCatalog;
        catalog->setFetcher([](int) {});
        QString error;
        SchemaRef avro;
        avro.id = 1;
        catalog->insert(1, PayloadSchema::compile(avro, R"({"type":"record","name":"R","fields":[
            {"name":"a","type":["null","string"]},{"name":"b","type":{"type":"array","items":"long"}}]})", {}, &error));
        SchemaRef proto;
        proto.format = SchemaRef::Format::Protobuf;
        proto.id = 2;
        catalog->insert(2, PayloadSchema::compile(proto, R"(syntax = "proto3";
            message A { string s = 1; message B { repeated int64 v = 1; A a = 2; } B b = 2; }
            message C { map<string, A> m = 1; })", {}, &error));
        SchemaRef json;
        json.format = SchemaRef::Format::JsonSchema;
        json.id = 3;
        catalog->insert(3, PayloadSchema::compile(json, R"({"type":"object"})", {}, &error));
        catalog->fail(4, u"unknown schema id"_s, false);
        catalog->mapTopic(u"local"_s, PayloadSchema::compile(avro, R"({"type":"map","values":"int"})", {}, &error));
        return catalog;
    }();
    return *c;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FuzzInput in(data, size);
    const quint8 mode = in.byte();
    const QByteArrayView value = in.rest();

    const ConfluentWireFormat::Header header = ConfluentWireFormat::readHeader(value);
    if (header.ok != ConfluentWireFormat::looksFramed(value) || (!header.ok && header.problem.isEmpty()))
        payloadFuzzFail("fuzz_wireformat", "readHeader and looksFramed disagree, or no reason");
    if (header.ok) {
        if (ConfluentWireFormat::frame(header.schemaId, header.body) != value)
            payloadFuzzFail("fuzz_wireformat", "the header does not frame back to the value");
        const ConfluentWireFormat::MessageIndexes m = ConfluentWireFormat::readMessageIndexes(header.body);
        if (m.ok) {
            const QByteArray again = ConfluentWireFormat::frameProtobuf(header.schemaId, m.indexes, m.body);
            const ConfluentWireFormat::MessageIndexes back =
                ConfluentWireFormat::readMessageIndexes(ConfluentWireFormat::readHeader(again).body);
            if (!back.ok || back.indexes != m.indexes || back.body != m.body)
                payloadFuzzFail("fuzz_wireformat", "message indexes do not read back");
        } else if (m.problem.isEmpty()) {
            payloadFuzzFail("fuzz_wireformat", "bad message indexes without a reason");
        }
    }

    const DecodedPayload d = PayloadDecoder::decode(value, mode == 0xff, mode & 1 ? u"local"_s : u"t"_s, &catalog());
    if (d.isJson())
        checkDisplayJson("fuzz_wireformat", d.json);
    if (d.hasSchema && d.kind != DecodedPayload::Kind::Schema && d.error.isEmpty())
        payloadFuzzFail("fuzz_wireformat", "a schema that did not decode, without a reason");
    if (d.errorOffset > value.size())
        payloadFuzzFail("fuzz_wireformat", "an error offset past the value");
    return 0;
}
