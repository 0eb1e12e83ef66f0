#include "payloaddecoder.h"

#include "services/dlq/dlqrecordformat.h"
#include "services/payload/confluentwireformat.h"
#include "services/payload/schemacatalog.h"

using namespace Qt::StringLiterals;

namespace {
bool startsLikeJson(QByteArrayView value)
{
    for (const char c : value) {
        if (c == ' ' || c == '\n' || c == '\r' || c == '\t')
            continue;
        return c == '{' || c == '[';
    }
    return false;
}

void withSchema(DecodedPayload &out, const PayloadSchema &schema, QByteArrayView body, bool framed,
                qsizetype bodyOffset)
{
    QByteArray json;
    const BodyDecode r = schema.decodeBody(body, framed, json, &out.schema);
    out.hasSchema = true;
    out.notes += r.notes;
    if (r.ok) {
        out.kind = DecodedPayload::Kind::Schema;
        out.json = std::move(json);
    } else {
        out.error = r.error;
        out.errorOffset = r.errorOffset >= 0 ? bodyOffset + r.errorOffset : -1;
    }
}

bool isText(QByteArrayView value)
{
    for (const char c : value) {
        if (quint8(c) < 0x20 && c != '\n' && c != '\r' && c != '\t')
            return false;
    }
    return value.isValidUtf8();
}

// What a value is when no schema decoded it.
void plain(DecodedPayload &out, QByteArrayView value)
{
    if (startsLikeJson(value) && value.isValidUtf8() && DlqRecordFormat::jsonProblem(value).isEmpty()) {
        out.kind = DecodedPayload::Kind::Json;
        out.json = value.toByteArray();
    } else if (isText(value)) {
        out.kind = DecodedPayload::Kind::Text;
    } else {
        out.kind = DecodedPayload::Kind::Binary;
    }
}
} // namespace

namespace PayloadDecoder {
Route route(QByteArrayView value, bool isNull, const QString &topic, SchemaCatalog *catalog,
            const QString &originalTopic)
{
    Route r;
    if (isNull || !catalog)
        return r;
    std::shared_ptr<const PayloadSchema> local = catalog->forTopic(topic);
    if (!local && !originalTopic.isEmpty())
        local = catalog->forTopic(originalTopic);
    const bool registry = catalog->hasRegistry();
    if (ConfluentWireFormat::looksFramed(value) && (registry || local)) {
        const ConfluentWireFormat::Header header = ConfluentWireFormat::readHeader(value);
        r.framed = true;
        r.registry = registry;
        r.id = int(header.schemaId);
        r.body = header.body;
        r.bodyOffset = ConfluentWireFormat::kHeaderSize;
        if (registry)
            r.lookup = catalog->byId(r.id);
        if (r.lookup.state == SchemaCatalog::Lookup::State::Ready) {
            r.schema = r.lookup.schema;
        } else if (local && r.lookup.state != SchemaCatalog::Lookup::State::Pending) {
            // The registry does not know it (or there is none): the file mapped to the topic decodes it.
            r.schema = local;
            r.localInstead = registry;
        }
        return r;
    }
    if (local && !startsLikeJson(value)) {
        r.schema = local;
        r.body = value;
    }
    return r;
}

DecodedPayload decode(QByteArrayView value, bool isNull, const QString &topic, SchemaCatalog *catalog,
                      const QString &originalTopic)
{
    DecodedPayload out;
    if (isNull)
        return out;
    const Route r = route(value, isNull, topic, catalog, originalTopic);
    if (r.framed) {
        if (r.schema) {
            withSchema(out, *r.schema, r.body, true, r.bodyOffset);
            out.schema.id = r.id;
            if (r.localInstead)
                out.notes.append(u"schema id %1: %2; decoded with %3"_s.arg(r.id).arg(r.lookup.reason,
                                                                                      r.schema->ref().file));
        } else {
            out.hasSchema = true;
            out.schema.id = r.id;
            out.pending = r.lookup.state == SchemaCatalog::Lookup::State::Pending;
            out.error = out.pending ? u"schema id %1 is being fetched from the schema registry"_s.arg(r.id)
                                    : u"schema id %1: %2"_s.arg(r.id).arg(r.lookup.reason);
            out.errorOffset = 1;
        }
        if (out.kind == DecodedPayload::Kind::Schema)
            return out;
        plain(out, value);
        if (out.kind == DecodedPayload::Kind::Json)
            out.kind = DecodedPayload::Kind::Text; // framing bytes are not JSON text
        return out;
    }
    if (r.schema) {
        withSchema(out, *r.schema, r.body, false, 0);
        if (out.kind == DecodedPayload::Kind::Schema)
            return out;
        plain(out, value);
        return out;
    }
    plain(out, value);
    if (out.kind == DecodedPayload::Kind::Binary && catalog && catalog->hasRegistry() && !value.isEmpty()) {
        // A registry is in use and the value is neither JSON nor text: most likely a framing problem.
        const ConfluentWireFormat::Header header = ConfluentWireFormat::readHeader(value);
        out.error = u"not in the schema registry's wire format: "_s + header.problem;
        out.errorOffset = 0;
    }
    return out;
}
} // namespace PayloadDecoder
