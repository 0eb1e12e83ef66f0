#pragma once

#include "services/payload/bodydecode.h"
#include "services/payload/schemaref.h"

#include <QByteArray>
#include <QHash>

#include <memory>

class AvroSchema;
class ProtobufSchema;
namespace google::protobuf {
class Descriptor;
}

// One schema of any format, compiled once and shared by every decode (immutable, thread-safe). A schema from
// the registry decodes framed records (the body after the Confluent header); a local file mapped to a topic
// decodes whole values, or the body of a framed record when no registry knows its id.
class PayloadSchema final {
public:
    // text: Avro JSON, .proto source or a JSON Schema; references: import name → text (Protobuf).
    static std::shared_ptr<const PayloadSchema> compile(const SchemaRef &ref, QByteArrayView text,
                                                        const QHash<QString, QByteArray> &references,
                                                        QString *error);
    // A local file by its name: .avsc (Avro), .proto (Protobuf), .desc/.pb/.protoset (descriptor set),
    // .json (JSON Schema). messageName picks the Protobuf message (else the file's first).
    static std::shared_ptr<const PayloadSchema> fromFile(const QString &path, const QString &messageName,
                                                         QString *error);
    ~PayloadSchema();

    const SchemaRef &ref() const { return m_ref; }

    // Decodes a body into display JSON (appended to json). framed: the bytes follow a Confluent header, so a
    // Protobuf body starts with its message indexes. used: the schema as used (the Protobuf message).
    BodyDecode decodeBody(QByteArrayView body, bool framed, QByteArray &json, SchemaRef *used) const;

private:
    PayloadSchema();
    SchemaRef m_ref;
    std::unique_ptr<AvroSchema> m_avro;
    std::unique_ptr<ProtobufSchema> m_protobuf;
    const google::protobuf::Descriptor *m_message = nullptr; // unframed Protobuf values
};
