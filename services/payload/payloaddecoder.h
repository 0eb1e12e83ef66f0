#pragma once

#include "services/payload/decodedpayload.h"
#include "services/payload/schemacatalog.h"

#include <QByteArrayView>
#include <QString>

// The one decoder seam every consumer of payloads goes through (the inspector, exports, the CLI): bytes and
// the topic in, DecodedPayload out (ARCHITECTURE.md, Data flows: payload decoding). Order: a Confluent-framed
// value is decoded with the registry's schema for its id; a value of a topic mapped to a local schema file
// with that file; JSON as JSON; then text; then binary. Never waits: a schema not yet fetched makes a
// pending result. Any bytes give a result; nothing here throws or recurses without bound.
namespace PayloadDecoder {
// Which schema decode() reads a value's body with, and the body: the one place that order is written.
struct Route {
    std::shared_ptr<const PayloadSchema> schema; // none: decode() tries no schema, or it is missing
    QByteArrayView body;                         // what the schema reads (after the Confluent header)
    qsizetype bodyOffset = 0;
    bool framed = false;          // a Confluent-framed value (registry or a local file's schema)
    bool registry = false;        // a registry is in use
    int id = 0;                   // framed: the schema id
    SchemaCatalog::Lookup lookup; // framed, with a registry: what the catalog said of the id
    bool localInstead = false;    // the registry does not know the id: the topic's local file reads it
};
Route route(QByteArrayView value, bool isNull, const QString &topic, SchemaCatalog *catalog,
            const QString &originalTopic = {});

// originalTopic: for a dead letter, the topic it failed on: a local schema file mapped to either applies.
DecodedPayload decode(QByteArrayView value, bool isNull, const QString &topic, SchemaCatalog *catalog,
                      const QString &originalTopic = {});
} // namespace PayloadDecoder
