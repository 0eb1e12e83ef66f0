#pragma once

#include "services/payload/bodydecode.h"
#include "services/payload/pathselection.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QJsonValue>
#include <QString>

#include <memory>
#include <vector>

// An Avro schema compiled for decoding Avro binary into display JSON (ARCHITECTURE.md, Contracts: payload
// display JSON). Avro C (avro_schema_from_json) is the reference that accepts or refuses a schema; Berth
// decodes with a tree of its own built from the same JSON, because Avro C 1.11 drops logical types and its
// generic reader recurses as deep as a recursive schema and the bytes lead it. Decoding is bounded: nesting
// depth, item counts the body could not hold, lengths past the end are errors with the byte offset and
// the field path, never a crash or a hang. Immutable after parse: one instance serves many threads.
class AvroSchema final {
public:
    // Nesting deeper than this (in the schema or in a value of a recursive schema) is refused.
    static constexpr int kMaxDepth = 96;

    static std::unique_ptr<AvroSchema> parse(QByteArrayView json, QString *error);
    ~AvroSchema();

    // Appends the display JSON of one binary-encoded datum; the whole body must be consumed.
    BodyDecode decode(QByteArrayView body, QByteArray &json) const;
    // Reads the datum as decode() does, with the same checks and the same answer on success or failure,
    // but writes the display JSON of the selected values only (each as decode() would write it), into
    // values: what a field filter needs without the whole document (ARCHITECTURE.md, Field filters).
    BodyDecode select(QByteArrayView body, const PathSelection &selection,
                      PathSelection::Values &values) const;
    // Encodes one datum from its display JSON (as decode writes it: unions as their plain value, logical
    // types in their readable form, bytes as base64, longs as numbers or strings) into Avro binary,
    // appended to out. Bounded like decode; a value that does not fit the schema is an error naming the
    // field path ("$.customer.tier: ...").
    BodyDecode encode(const QJsonValue &value, QByteArray &out) const;

    // The full name of the top-level type ("shop.Order"), empty for an unnamed one.
    QString rootName() const;

    struct Node;

private:
    AvroSchema();
    std::vector<Node> m_nodes;
    int m_root = -1;
    friend class AvroSchemaCompiler;
    friend class AvroBodyReader;
    friend class AvroBodyWriter;
};
