#include "payloadschema.h"

#include "services/dlq/dlqrecordformat.h"
#include "services/payload/avroschema.h"
#include "services/payload/confluentwireformat.h"
#include "services/payload/protobufschema.h"

#include <google/protobuf/descriptor.h>

#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonParseError>

#include <valijson/adapters/qtjson_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

using namespace Qt::StringLiterals;

namespace {
// Schema texts and files larger than this are refused: real ones are kilobytes.
constexpr qint64 kMaxSchemaBytes = 4 << 20;
} // namespace

PayloadSchema::PayloadSchema() = default;
PayloadSchema::~PayloadSchema() = default;

std::shared_ptr<const PayloadSchema> PayloadSchema::compile(const SchemaRef &ref, QByteArrayView text,
                                                            const QHash<QString, QByteArray> &references,
                                                            QString *error)
{
    if (text.size() > kMaxSchemaBytes) {
        *error = u"the schema is %1 bytes, more than Berth reads"_s.arg(text.size());
        return nullptr;
    }
    std::shared_ptr<PayloadSchema> s(new PayloadSchema);
    s->m_ref = ref;
    switch (ref.format) {
    case SchemaRef::Format::Avro:
        if (!(s->m_avro = AvroSchema::parse(text, error)))
            return nullptr;
        break;
    case SchemaRef::Format::Protobuf: {
        const QString name = ref.subject.isEmpty() ? u"schema.proto"_s : ref.subject + u".proto"_s;
        if (!(s->m_protobuf = ProtobufSchema::parseProto(text, name, references, error)))
            return nullptr;
        break;
    }
    case SchemaRef::Format::JsonSchema: {
        QJsonParseError parseError;
        QJsonDocument::fromJson(text.toByteArray(), &parseError);
        if (parseError.error != QJsonParseError::NoError) {
            *error = u"the JSON Schema is not JSON: "_s + parseError.errorString();
            return nullptr;
        }
        s->setJsonSchema(text);
        break;
    }
    }
    return s;
}

std::shared_ptr<const PayloadSchema> PayloadSchema::fromFile(const QString &path, const QString &messageName,
                                                             QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = path + u": "_s + file.errorString();
        return nullptr;
    }
    if (file.size() > kMaxSchemaBytes) {
        *error = path + u": larger than a schema file can be"_s;
        return nullptr;
    }
    const QByteArray bytes = file.readAll();
    const QString suffix = QFileInfo(path).suffix().toLower();
    SchemaRef ref;
    ref.file = QFileInfo(path).fileName();
    std::shared_ptr<PayloadSchema> s(new PayloadSchema);
    QString why;
    if (suffix == u"avsc"_s) {
        ref.format = SchemaRef::Format::Avro;
        s->m_avro = AvroSchema::parse(bytes, &why);
    } else if (suffix == u"proto"_s) {
        ref.format = SchemaRef::Format::Protobuf;
        s->m_protobuf = ProtobufSchema::parseProto(bytes, QFileInfo(path).fileName(), {}, &why);
    } else if (suffix == u"desc"_s || suffix == u"pb"_s || suffix == u"protoset"_s || suffix == u"binpb"_s) {
        ref.format = SchemaRef::Format::Protobuf;
        s->m_protobuf = ProtobufSchema::parseDescriptorSet(bytes, &why);
    } else if (suffix == u"json"_s) {
        ref.format = SchemaRef::Format::JsonSchema;
        QJsonParseError parseError;
        QJsonDocument::fromJson(bytes, &parseError);
        if (parseError.error != QJsonParseError::NoError)
            why = u"not JSON: "_s + parseError.errorString();
        else
            s->setJsonSchema(bytes);
    } else {
        why = u"unknown kind of schema file (.avsc, .proto, .desc/.pb/.protoset, .json)"_s;
    }
    if (!why.isEmpty() || (ref.format != SchemaRef::Format::JsonSchema && !s->m_avro && !s->m_protobuf)) {
        *error = path + u": "_s + why;
        return nullptr;
    }
    if (s->m_protobuf) {
        s->m_message = messageName.isEmpty() ? s->m_protobuf->firstMessage() : s->m_protobuf->messageByName(messageName);
        if (!s->m_message) {
            *error = path + (messageName.isEmpty() ? u": defines no message"_s : u": has no message "_s + messageName);
            return nullptr;
        }
        ref.messageName = QString::fromStdString(s->m_message->full_name());
    }
    s->m_ref = ref;
    return s;
}

BodyDecode PayloadSchema::decodeBody(QByteArrayView body, bool framed, QByteArray &json, SchemaRef *used) const
{
    *used = m_ref;
    BodyDecode r;
    if (m_avro)
        return m_avro->decode(body, json);
    if (m_protobuf) {
        QByteArrayView messageBody = body;
        std::vector<int> indexes;
        if (framed) {
            const ConfluentWireFormat::MessageIndexes read = ConfluentWireFormat::readMessageIndexes(body);
            if (!read.ok) {
                r.ok = false;
                r.error = read.problem;
                r.errorOffset = 0;
                return r;
            }
            indexes = read.indexes;
            messageBody = read.body;
        }
        const google::protobuf::Descriptor *message = protobufMessage(framed, indexes, &r.error);
        if (!message) {
            r.ok = false;
            r.errorOffset = 0;
            return r;
        }
        used->messageName = QString::fromStdString(message->full_name());
        return m_protobuf->decode(message, messageBody, json);
    }
    // JSON Schema: the body is JSON text, shown as it is once a strict parser accepts it.
    if (const QString problem = DlqRecordFormat::jsonProblem(body); !problem.isEmpty()) {
        r.ok = false;
        r.error = u"the body is not JSON: "_s + problem;
        r.errorOffset = 0;
        return r;
    }
    json += body;
    return r;
}

BodyDecode PayloadSchema::selectBody(QByteArrayView body, const PathSelection &selection,
                                     PathSelection::Values &values) const
{
    if (!m_avro) {
        BodyDecode r;
        r.ok = false;
        r.error = u"this schema's reader cannot select fields"_s;
        return r;
    }
    return m_avro->select(body, selection, values);
}

void PayloadSchema::setJsonSchema(QByteArrayView text)
{
    // Decoding needs none of this; a schema valijson cannot use (a remote $ref, a draft it does not know)
    // still decodes, and only an edit is refused, with the reason.
    const QJsonDocument doc = QJsonDocument::fromJson(text.toByteArray());
    const QJsonValue root = doc.isObject() ? QJsonValue(doc.object()) : QJsonValue(doc.array());
    try {
        auto schema = std::make_unique<valijson::Schema>();
        valijson::SchemaParser parser;
        valijson::adapters::QtJsonAdapter adapter(root);
        parser.populateSchema(adapter, *schema);
        m_jsonSchema = std::move(schema);
    } catch (const std::exception &e) {
        m_jsonSchemaProblem = u"the JSON Schema cannot validate an edit: "_s + QString::fromUtf8(e.what());
    }
}

BodyDecode PayloadSchema::encodeBody(QByteArrayView json, bool framed, const std::vector<int> &messageIndexes,
                                     QByteArray &out) const
{
    BodyDecode r;
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json.toByteArray(), &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        r.ok = false;
        r.error = u"the edit is not JSON: "_s + parseError.errorString();
        r.errorOffset = parseError.offset;
        return r;
    }
    const QJsonValue value = doc.isObject() ? QJsonValue(doc.object()) : QJsonValue(doc.array());
    if (m_avro)
        return m_avro->encode(value, out);
    if (m_protobuf) {
        const google::protobuf::Descriptor *message = protobufMessage(framed, messageIndexes, &r.error);
        if (!message) {
            r.ok = false;
            return r;
        }
        return m_protobuf->encode(message, json, out);
    }
    if (!m_jsonSchema) {
        r.ok = false;
        r.error = m_jsonSchemaProblem;
        return r;
    }
    valijson::Validator validator;
    valijson::ValidationResults results;
    if (!validator.validate(*m_jsonSchema, valijson::adapters::QtJsonAdapter(value), &results)) {
        r.ok = false;
        QStringList errors;
        valijson::ValidationResults::Error e;
        while (errors.size() < 5 && results.popError(e)) {
            // valijson's context is "<root>", "[customer]", "[0]"...: written as a path, $.customer[0].
            QString path = u"$"_s;
            for (size_t i = 1; i < e.context.size(); ++i) {
                QString step = QString::fromStdString(e.context[i]);
                if (step.startsWith(u'[') && step.endsWith(u']')) {
                    step = step.mid(1, step.size() - 2);
                    bool number = false;
                    step.toInt(&number);
                    path += number ? QString(u'[' + step + u']') : QString(u'.' + step.remove(u'"'));
                } else {
                    path += u'.' + step;
                }
            }
            errors << path + u": "_s + QString::fromStdString(e.description);
        }
        r.error = u"the edit does not satisfy the JSON Schema: "_s + errors.join(u"; "_s);
        return r;
    }
    out += json; // the operator's text as written: a reformat could round long numbers
    return r;
}

const google::protobuf::Descriptor *PayloadSchema::protobufMessage(bool framed, const std::vector<int> &indexes,
                                                                   QString *error) const
{
    const google::protobuf::Descriptor *message = m_message;
    if (framed && !(message = m_protobuf->messageByIndexes(indexes, error)))
        return nullptr;
    if (!message)
        message = m_protobuf->firstMessage();
    if (!message)
        *error = u"the schema defines no message"_s;
    return message;
}
