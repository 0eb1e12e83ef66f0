#include "payloadencoder.h"

#include "services/payload/confluentwireformat.h"
#include "services/payload/payloaddecoder.h"
#include "services/payload/payloadschema.h"
#include "services/payload/schemacatalog.h"

#include <QJsonDocument>

using namespace Qt::StringLiterals;

namespace {
bool sameJson(QByteArrayView a, QByteArrayView b)
{
    const QJsonDocument da = QJsonDocument::fromJson(a.toByteArray());
    return !da.isNull() && da == QJsonDocument::fromJson(b.toByteArray());
}

// Encodes with schema, framed with id (and the original's Protobuf message indexes) when the original was.
EncodedPayload encode(QByteArrayView original, QByteArrayView editedJson, const PayloadSchema &schema, int id,
                      bool framed)
{
    EncodedPayload out;
    out.schema = schema.ref();
    std::vector<int> indexes;
    if (framed && schema.ref().format == SchemaRef::Format::Protobuf) {
        const ConfluentWireFormat::MessageIndexes read =
            ConfluentWireFormat::readMessageIndexes(original.sliced(ConfluentWireFormat::kHeaderSize));
        if (!read.ok) {
            out.error = read.problem;
            return out;
        }
        indexes = read.indexes;
    }
    QByteArray body;
    const BodyDecode r = schema.encodeBody(editedJson, framed, indexes, body);
    if (!r.ok) {
        out.error = r.error;
        out.editInvalid = true;
        return out;
    }
    if (!framed)
        out.bytes = body;
    else if (schema.ref().format == SchemaRef::Format::Protobuf)
        out.bytes = ConfluentWireFormat::frameProtobuf(quint32(id), indexes, body);
    else
        out.bytes = ConfluentWireFormat::frame(quint32(id), body);
    out.schema.id = framed ? id : out.schema.id;
    out.reencoded = true;
    out.ok = true;
    return out;
}
} // namespace

namespace PayloadEncoder {
EncodedPayload encodeLike(QByteArrayView original, QByteArrayView editedJson, const QString &topic,
                          SchemaCatalog *catalog, const QString &originalTopic)
{
    EncodedPayload out;
    const DecodedPayload decoded = PayloadDecoder::decode(original, false, topic, catalog, originalTopic);
    if (decoded.kind != DecodedPayload::Kind::Schema) {
        if (decoded.pending) {
            out.error = decoded.error + u": try again in a moment"_s;
            return out;
        }
        if (decoded.hasSchema) {
            // Framed for a schema Berth cannot use: writing the edit as JSON would break every consumer.
            out.error = u"the original cannot be decoded (%1), so an edit cannot be encoded like it"_s.arg(decoded.error);
            return out;
        }
        out.ok = true;
        out.bytes = editedJson.toByteArray();
        return out;
    }
    if (sameJson(editedJson, decoded.json)) {
        out.ok = out.unchanged = true;
        out.bytes = original.toByteArray();
        out.schema = decoded.schema;
        return out;
    }
    const bool framed = ConfluentWireFormat::looksFramed(original);
    std::shared_ptr<const PayloadSchema> schema;
    if (framed && catalog && catalog->hasRegistry()) {
        const SchemaCatalog::Lookup found = catalog->byId(decoded.schema.id);
        if (found.state == SchemaCatalog::Lookup::State::Ready)
            schema = found.schema;
    }
    if (!schema && catalog)
        schema = catalog->forTopic(topic);
    if (!schema && catalog && !originalTopic.isEmpty())
        schema = catalog->forTopic(originalTopic);
    if (!schema) {
        out.error = u"the schema that decoded the original is no longer at hand"_s;
        return out;
    }
    return encode(original, editedJson, *schema, decoded.schema.id, framed);
}

EncodedPayload encodeWith(QByteArrayView original, QByteArrayView editedJson, const PayloadSchema &target,
                          int targetId)
{
    return encode(original, editedJson, target, targetId, ConfluentWireFormat::looksFramed(original));
}
} // namespace PayloadEncoder
