#pragma once

#include "services/payload/schemaref.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

class PayloadSchema;
class SchemaCatalog;

// What an edited payload becomes on the wire (ARCHITECTURE.md, Data flows: edit and replay of schema
// payloads).
struct EncodedPayload {
    bool ok = false;
    QByteArray bytes;      // ok: what to produce
    bool reencoded = false; // a schema encoded it (else the edit is plain JSON, taken as it is)
    bool unchanged = false; // the edit equals the original's display JSON: bytes are the original's
    SchemaRef schema;      // reencoded: the schema used (its id is the one in the frame)
    QString error;         // !ok: why, with the field path where there is one
    bool editInvalid = false; // !ok because of the edit itself (it does not fit the schema), not the original
};

// The inverse of PayloadDecoder for edit and replay: the operator edits the display JSON of a record's
// value, and the edit is encoded as the original was: the same framing, the same schema id (or the schema
// given as `target`, a newer version of the subject, with its own id), the original's Protobuf message
// indexes. A value no schema decoded is taken as it is (plain JSON or text). An edit that equals the
// original's display JSON keeps the original's bytes exactly. Never waits: a schema not yet fetched is an
// error saying so.
namespace PayloadEncoder {
EncodedPayload encodeLike(QByteArrayView original, QByteArrayView editedJson, const QString &topic,
                          SchemaCatalog *catalog, const QString &originalTopic = {});
// With a chosen schema (a newer version of the original's subject): its id goes into the frame.
EncodedPayload encodeWith(QByteArrayView original, QByteArrayView editedJson, const PayloadSchema &target,
                          int targetId);
} // namespace PayloadEncoder
