// The Protobuf reader: any .proto text builds a schema or is refused with a reason; any body against a
// message (of the fuzzed schema, or of the fixed one below: nesting, recursion, maps, oneofs, enums,
// well-known types) decodes to display JSON a strict parser reads, or fails with a reason.
#include "fuzzinput.h"
#include "payloadfuzzcheck.h"
#include "services/payload/protobufschema.h"

#include <google/protobuf/descriptor.h>

#include <QString>

namespace {
const char kFixed[] = R"(syntax = "proto3";
package f;
import "google/protobuf/timestamp.proto";
import "google/protobuf/wrappers.proto";
message Node {
  enum Kind { A = 0; B = 1; }
  message Leaf { sint64 s = 1; fixed64 f = 2; sfixed32 g = 3; float h = 4; }
  Node child = 1;
  repeated Node kids = 2;
  map<int64, Leaf> leaves = 3;
  map<bool, string> flags = 4;
  Kind kind = 5;
  bytes raw = 6;
  google.protobuf.Timestamp at = 7;
  google.protobuf.Int64Value big = 8;
  oneof pick { string s = 9; uint64 u = 10; double d = 11; }
  optional int32 maybe = 12;
}
)";
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FuzzInput in(data, size);
    const quint8 choice = in.byte();
    const QByteArrayView fuzzedSchema = in.bytes();
    const quint8 messageChoice = in.byte();
    QString error;
    const bool fixed = choice < 200;
    std::unique_ptr<ProtobufSchema> schema =
        fixed ? ProtobufSchema::parseProto(QByteArrayView(kFixed, qstrlen(kFixed)), QStringLiteral("f.proto"), {}, &error)
              : ProtobufSchema::parseProto(fuzzedSchema, QStringLiteral("fuzzed.proto"), {}, &error);
    if (!schema) {
        if (fixed)
            payloadFuzzFail("fuzz_protobuf", "the fixed schema does not build");
        if (error.isEmpty())
            payloadFuzzFail("fuzz_protobuf", "a refused schema without a reason");
        return 0;
    }
    const google::protobuf::Descriptor *message = schema->firstMessage();
    if (message && messageChoice % 2 && message->nested_type_count() > 0)
        message = message->nested_type(messageChoice / 2 % message->nested_type_count());
    if (!message)
        return 0;
    QByteArray json;
    const BodyDecode r = schema->decode(message, in.rest(), json);
    if (r.ok)
        checkDisplayJson("fuzz_protobuf", json);
    else if (r.error.isEmpty())
        payloadFuzzFail("fuzz_protobuf", "a failed decode without a reason");
    return 0;
}
