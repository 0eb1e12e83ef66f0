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
        const google::protobuf::Descriptor *message = m_message;
        QByteArrayView messageBody = body;
        if (framed) {
            const ConfluentWireFormat::MessageIndexes indexes = ConfluentWireFormat::readMessageIndexes(body);
            if (!indexes.ok) {
                r.ok = false;
                r.error = indexes.problem;
                r.errorOffset = 0;
                return r;
            }
            if (!(message = m_protobuf->messageByIndexes(indexes.indexes, &r.error))) {
                r.ok = false;
                r.errorOffset = 0;
                return r;
            }
            messageBody = indexes.body;
        }
        if (!message)
            message = m_protobuf->firstMessage();
        if (!message) {
            r.ok = false;
            r.error = u"the schema defines no message"_s;
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
