#pragma once

#include "services/payload/bodydecode.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QHash>
#include <QString>

#include <memory>
#include <vector>

namespace google::protobuf {
class Descriptor;
class DescriptorPool;
class DynamicMessageFactory;
class FileDescriptor;
} // namespace google::protobuf

// A Protobuf schema for decoding messages into display JSON (ARCHITECTURE.md, Contracts: payload display
// JSON): the registry's .proto text parsed by protoc's own parser into a descriptor pool, or a descriptor
// set (protoc --descriptor_set_out); messages are dynamic (DynamicMessageFactory). Fields show under their
// .proto names; enums as their value names; bytes as base64; unknown fields are notes. Immutable after
// parse (the factory is thread-safe): one instance serves many threads.
class ProtobufSchema final {
public:
    // Brace nesting deeper than this in .proto text is refused before protoc's parser sees it.
    static constexpr int kMaxSourceNesting = 48;

    // imports: file name → .proto text for the imports the registry lists as references; Google's
    // well-known types (google/protobuf/*.proto) are always available.
    static std::unique_ptr<ProtobufSchema> parseProto(QByteArrayView text, const QString &fileName,
                                                      const QHash<QString, QByteArray> &imports, QString *error);
    static std::unique_ptr<ProtobufSchema> parseDescriptorSet(QByteArrayView bytes, QString *error);
    ~ProtobufSchema();

    // The message Confluent's message indexes name in the main file ([0] the first top-level message,
    // [1, 0] the first nested message of the second), or null with the reason.
    const google::protobuf::Descriptor *messageByIndexes(const std::vector<int> &indexes, QString *error) const;
    // By full name ("shop.Order"), anywhere in the pool; null when absent.
    const google::protobuf::Descriptor *messageByName(const QString &fullName) const;
    // The first message of the main file (what a topic without indexes is taken to carry).
    const google::protobuf::Descriptor *firstMessage() const;

    BodyDecode decode(const google::protobuf::Descriptor *message, QByteArrayView body, QByteArray &json) const;
    // Parses display JSON (fields under their .proto or JSON names, enums by name, 64-bit integers as
    // numbers or strings, Timestamp as ISO 8601) into a message and appends its binary encoding to out.
    // Unknown fields and values of the wrong type are errors naming the field.
    BodyDecode encode(const google::protobuf::Descriptor *message, QByteArrayView json, QByteArray &out) const;

private:
    ProtobufSchema();
    std::unique_ptr<google::protobuf::DescriptorPool> m_pool;
    std::unique_ptr<google::protobuf::DynamicMessageFactory> m_factory;
    const google::protobuf::FileDescriptor *m_file = nullptr;
};
