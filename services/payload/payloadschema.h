#pragma once

#include "services/payload/bodydecode.h"
#include "services/payload/pathselection.h"
#include "services/payload/schemaref.h"

#include <QByteArray>
#include <QHash>

#include <memory>
#include <vector>

class AvroSchema;
class ProtobufSchema;
namespace valijson {
class Schema;
}
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

    // The field filter's fast path (ARCHITECTURE.md, Field filters): the display JSON of the selected values
    // only, with decodeBody's answer on success or failure. Only a schema whose reader can select does it
    // (canSelect: Avro); for the others the caller decodes the whole body.
    bool canSelect() const { return bool(m_avro); }
    BodyDecode selectBody(QByteArrayView body, const PathSelection &selection,
                          PathSelection::Values &values) const;

    // The inverse, for an edited payload (ARCHITECTURE.md, Data flows: edit and replay of schema payloads):
    // display JSON in, the body appended to out. framed: the body goes behind a Confluent header, so a
    // Protobuf body starts with messageIndexes (the original's, naming the message to encode). A JSON
    // Schema body is validated against the schema. Errors name the offending field's path.
    BodyDecode encodeBody(QByteArrayView json, bool framed, const std::vector<int> &messageIndexes,
                          QByteArray &out) const;

private:
    PayloadSchema();
    void setJsonSchema(QByteArrayView text);
    // The Protobuf message of a body: named by the frame's message indexes, else the mapped file's message,
    // else the schema's first; null with the reason.
    const google::protobuf::Descriptor *protobufMessage(bool framed, const std::vector<int> &indexes,
                                                       QString *error) const;
    SchemaRef m_ref;
    std::unique_ptr<AvroSchema> m_avro;
    std::unique_ptr<ProtobufSchema> m_protobuf;
    const google::protobuf::Descriptor *m_message = nullptr; // unframed Protobuf values
    std::unique_ptr<valijson::Schema> m_jsonSchema;          // JSON Schema, for validating edits
    QString m_jsonSchemaProblem;                             // why it cannot validate (valijson refused it)
};
