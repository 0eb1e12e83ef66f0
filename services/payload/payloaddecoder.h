#pragma once

#include "services/payload/decodedpayload.h"

#include <QByteArrayView>
#include <QString>

class SchemaCatalog;

// The one decoder seam every consumer of payloads goes through (the inspector, exports, the CLI): bytes and
// the topic in, DecodedPayload out (ARCHITECTURE.md, Data flows: payload decoding). Order: a Confluent-framed
// value is decoded with the registry's schema for its id; a value of a topic mapped to a local schema file
// with that file; JSON as JSON; then text; then binary. Never waits: a schema not yet fetched makes a
// pending result. Any bytes give a result; nothing here throws or recurses without bound.
namespace PayloadDecoder {
// originalTopic: for a dead letter, the topic it failed on: a local schema file mapped to either applies.
DecodedPayload decode(QByteArrayView value, bool isNull, const QString &topic, SchemaCatalog *catalog,
                      const QString &originalTopic = {});
} // namespace PayloadDecoder
