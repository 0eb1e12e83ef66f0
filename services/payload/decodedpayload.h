#pragma once

#include "services/payload/schemaref.h"

#include <QByteArray>
#include <QMetaType>
#include <QString>
#include <QStringList>

// One payload (a record's value or key) as Berth shows it (ARCHITECTURE.md, Contracts: payload display
// JSON): display JSON when it is JSON or a schema decoded it; else text or binary, with the reason a schema
// decode failed. The bytes themselves stay with the record: a view shows them beside the reason.
struct DecodedPayload {
    enum class Kind {
        Null,   // no value (a tombstone)
        Json,   // the value is JSON text; json holds it as it is
        Schema, // a schema decoded it; json is the display JSON
        Text,   // UTF-8 text that is not JSON
        Binary, // anything else
    };
    Kind kind = Kind::Null;
    QByteArray json;     // Json, Schema: compact display JSON
    bool hasSchema = false;
    SchemaRef schema;    // the schema that decoded it, or that was meant to when error is set
    QString error;       // why a schema decode failed (unknown id, registry down, truncated body, wrong magic)
    qsizetype errorOffset = -1; // byte of the value where it failed, when known
    bool pending = false; // the schema is being fetched: decode again when it arrives
    QStringList notes;   // decoded, with something to say (unknown Protobuf fields, ...)

    bool isJson() const { return kind == Kind::Json || kind == Kind::Schema; }
};

Q_DECLARE_METATYPE(DecodedPayload)
