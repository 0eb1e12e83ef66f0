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
DecodedPayload decode(QByteArrayView value, bool isNull, const QString &topic, SchemaCatalog *catalog,
                      const QString &originalTopic)
{
    DecodedPayload out;
    if (isNull)
        return out;
    std::shared_ptr<const PayloadSchema> local = catalog ? catalog->forTopic(topic) : nullptr;
    if (!local && catalog && !originalTopic.isEmpty())
        local = catalog->forTopic(originalTopic);
    const bool registry = catalog && catalog->hasRegistry();
    if (ConfluentWireFormat::looksFramed(value) && (registry || local)) {
        const ConfluentWireFormat::Header header = ConfluentWireFormat::readHeader(value);
        const int id = int(header.schemaId);
        SchemaCatalog::Lookup found;
        if (registry)
            found = catalog->byId(id);
        if (found.state == SchemaCatalog::Lookup::State::Ready) {
            withSchema(out, *found.schema, header.body, true, ConfluentWireFormat::kHeaderSize);
            out.schema.id = id;
        } else if (local && found.state != SchemaCatalog::Lookup::State::Pending) {
            // The registry does not know it (or there is none): the file mapped to the topic decodes it.
            withSchema(out, *local, header.body, true, ConfluentWireFormat::kHeaderSize);
            out.schema.id = id;
            if (registry)
                out.notes.append(u"schema id %1: %2; decoded with %3"_s.arg(id).arg(found.reason, local->ref().file));
        } else {
            out.hasSchema = true;
            out.schema.id = id;
            out.pending = found.state == SchemaCatalog::Lookup::State::Pending;
            out.error = out.pending ? u"schema id %1 is being fetched from the schema registry"_s.arg(id)
                                    : u"schema id %1: %2"_s.arg(id).arg(found.reason);
            out.errorOffset = 1;
        }
        if (out.kind == DecodedPayload::Kind::Schema)
            return out;
        plain(out, value);
        if (out.kind == DecodedPayload::Kind::Json)
            out.kind = DecodedPayload::Kind::Text; // framing bytes are not JSON text
        return out;
    }
    if (local && !startsLikeJson(value)) {
        withSchema(out, *local, value, false, 0);
        if (out.kind == DecodedPayload::Kind::Schema)
            return out;
        plain(out, value);
        return out;
    }
    plain(out, value);
    if (out.kind == DecodedPayload::Kind::Binary && registry && !value.isEmpty()) {
        // A registry is in use and the value is neither JSON nor text: most likely a framing problem.
        const ConfluentWireFormat::Header header = ConfluentWireFormat::readHeader(value);
        out.error = u"not in the schema registry's wire format: "_s + header.problem;
        out.errorOffset = 0;
    }
    return out;
}
} // namespace PayloadDecoder
