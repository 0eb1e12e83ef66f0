#pragma once

#include <QByteArrayView>
#include <QString>

#include <vector>

// Confluent's wire format (ARCHITECTURE.md, Contracts: Confluent wire format): magic byte 0, the schema id as
// a 4-byte big-endian integer, then for Protobuf a list of message indexes (zig-zag varints: a count,
// then that many indexes; a single 0 byte stands for [0]), then the serialised body.
namespace ConfluentWireFormat {
constexpr char kMagic = 0;
constexpr qsizetype kHeaderSize = 5;
// Deeper nesting than this in a message-index path is refused (a real schema has a few levels).
constexpr int kMaxMessageIndexes = 64;

struct Header {
    bool ok = false;
    quint32 schemaId = 0;
    QByteArrayView body; // what follows the 5-byte header
    QString problem;     // why ok is false: too short, wrong magic
};
// Reads the magic byte and schema id.
Header readHeader(QByteArrayView bytes);
// True when the bytes start like a framed record: magic 0 and a complete header.
inline bool looksFramed(QByteArrayView bytes) { return bytes.size() >= kHeaderSize && bytes[0] == kMagic; }

struct MessageIndexes {
    bool ok = false;
    std::vector<int> indexes; // never empty when ok: [0] is the first message of the file
    QByteArrayView body;      // the Protobuf message itself
    QString problem;
};
// Reads the Protobuf message-index list at the start of what follows the header.
MessageIndexes readMessageIndexes(QByteArrayView afterHeader);

// Writes the header (and, for Protobuf, the index list) in front of a body: the tests and a replay's
// re-encoding frame what they produce this way.
QByteArray frame(quint32 schemaId, QByteArrayView body);
QByteArray frameProtobuf(quint32 schemaId, const std::vector<int> &indexes, QByteArrayView body);
} // namespace ConfluentWireFormat
