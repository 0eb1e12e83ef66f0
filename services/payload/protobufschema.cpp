#include "protobufschema.h"

#include "services/payload/displayjsonwriter.h"
#include "services/payload/payloadtime.h"

#include <google/protobuf/arena.h>
#include <google/protobuf/compiler/parser.h>
#include <google/protobuf/descriptor.h>
#include <google/protobuf/descriptor.pb.h>
#include <google/protobuf/dynamic_message.h>
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/message.h>
#include <google/protobuf/unknown_field_set.h>
#include <google/protobuf/util/json_util.h>

#include <QSet>

#include <mutex>

using namespace Qt::StringLiterals;
namespace pb = google::protobuf;

namespace {
// Keeps the first few of protoc's complaints, with line:column.
class ProtoErrors final : public pb::io::ErrorCollector, public pb::DescriptorPool::ErrorCollector {
public:
    void AddError(int line, pb::io::ColumnNumber column, const std::string &message) override
    {
        add(u"%1:%2: %3"_s.arg(line + 1).arg(column + 1).arg(QString::fromStdString(message)));
    }
    void AddError(const std::string &filename, const std::string &element, const pb::Message *,
                  ErrorLocation, const std::string &message) override
    {
        add(QString::fromStdString(element) + u": "_s + QString::fromStdString(message));
    }
    QString text() const { return m_errors.join(u"; "_s); }

private:
    void add(const QString &e)
    {
        if (m_errors.size() < 5)
            m_errors.append(e);
    }
    QStringList m_errors;
};

// Deepest brace nesting of the source, comments and strings included (an over-estimate is harmless).
int braceDepth(QByteArrayView text)
{
    int depth = 0, deepest = 0;
    for (const char c : text) {
        if (c == '{')
            deepest = qMax(deepest, ++depth);
        else if (c == '}')
            --depth;
    }
    return deepest;
}

// Builds one file and, first, what it imports: well-known types from the generated pool, the rest from
// the registry's references. Errors say which file.
class ProtoFileBuilder final {
public:
    ProtoFileBuilder(pb::DescriptorPool &pool, const QHash<QString, QByteArray> &imports)
        : m_pool(pool)
        , m_imports(imports)
    {
    }

    const pb::FileDescriptor *buildSource(QByteArrayView text, const QString &name, int depth, QString *error)
    {
        if (braceDepth(text) > ProtobufSchema::kMaxSourceNesting) {
            *error = u"%1 nests deeper than %2 levels"_s.arg(name).arg(ProtobufSchema::kMaxSourceNesting);
            return nullptr;
        }
        pb::io::ArrayInputStream input(text.data(), int(text.size()));
        ProtoErrors errors;
        pb::io::Tokenizer tokenizer(&input, &errors);
        pb::compiler::Parser parser;
        parser.RecordErrorsTo(&errors);
        pb::FileDescriptorProto proto;
        if (!parser.Parse(&tokenizer, &proto)) {
            *error = u"%1 does not parse: %2"_s.arg(name, errors.text());
            return nullptr;
        }
        proto.set_name(name.toStdString());
        return buildProto(proto, depth, error);
    }

    const pb::FileDescriptor *buildProto(const pb::FileDescriptorProto &proto, int depth, QString *error)
    {
        if (const pb::FileDescriptor *done = m_pool.FindFileByName(proto.name()))
            return done;
        if (depth > 16) {
            *error = u"imports nest deeper than 16 files"_s;
            return nullptr;
        }
        for (const std::string &dep : proto.dependency()) {
            if (m_pool.FindFileByName(dep))
                continue;
            const QString depName = QString::fromStdString(dep);
            if (m_visiting.contains(depName)) {
                *error = u"%1 imports itself in a cycle"_s.arg(depName);
                return nullptr;
            }
            m_visiting.insert(depName);
            const pb::FileDescriptor *built = nullptr;
            if (const auto it = m_imports.constFind(depName); it != m_imports.cend()) {
                built = buildSource(*it, depName, depth + 1, error);
            } else if (const pb::FileDescriptor *known = pb::DescriptorPool::generated_pool()->FindFileByName(dep)) {
                pb::FileDescriptorProto wellKnown;
                known->CopyTo(&wellKnown);
                built = buildProto(wellKnown, depth + 1, error);
            } else {
                *error = u"imports %1, which neither the registry's references nor the well-known types hold"_s.arg(
                    depName);
            }
            m_visiting.remove(depName);
            if (!built)
                return nullptr;
        }
        ProtoErrors errors;
        const pb::FileDescriptor *file = m_pool.BuildFileCollectingErrors(proto, &errors);
        if (!file)
            *error = u"%1 is not a valid schema: %2"_s.arg(QString::fromStdString(proto.name()), errors.text());
        return file;
    }

private:
    pb::DescriptorPool &m_pool;
    const QHash<QString, QByteArray> &m_imports;
    QSet<QString> m_visiting;
};

// Where a nested message is, built into text only for a note: most decodes never need it.
struct PathStep {
    const PathStep *up = nullptr;
    const std::string *field = nullptr;
    int index = -1; // repeated and map entries
};

QString pathText(const PathStep *step)
{
    QString out;
    for (; step; step = step->up) {
        if (step->index >= 0)
            out.prepend(u'[' + QString::number(step->index) + u']');
        if (step->field)
            out.prepend(u'.' + QString::fromStdString(*step->field));
    }
    return out;
}

// Writes one message's fields under their .proto names.
class ProtoJsonWriter final {
public:
    ProtoJsonWriter(QByteArray &json, QStringList &notes)
        : m_w(json)
        , m_notes(notes)
    {
    }

    void message(const pb::Message &m, const PathStep *path)
    {
        const pb::Descriptor *d = m.GetDescriptor();
        const pb::Reflection *r = m.GetReflection();
        if (wellKnown(m, d, r))
            return;
        m_w.beginObject();
        for (int i = 0; i < d->field_count(); ++i) {
            const pb::FieldDescriptor *f = d->field(i);
            if (f->is_repeated()) {
                m_w.key(f->name());
                if (f->is_map())
                    map(m, r, f, path);
                else
                    repeated(m, r, f, path);
                continue;
            }
            // Fields with presence (messages, oneof members, proto2 and `optional` scalars) show when set;
            // proto3's plain scalars always show, their default included.
            if (f->has_presence() && !r->HasField(m, f))
                continue;
            m_w.key(f->name());
            single(m, r, f, path);
        }
        m_w.endObject();
        const pb::UnknownFieldSet &unknown = r->GetUnknownFields(m);
        if (!unknown.empty() && m_notes.size() < 20) {
            QStringList numbers;
            for (int i = 0; i < unknown.field_count() && i < 10; ++i)
                numbers.append(QString::number(unknown.field(i).number()));
            m_notes.append(u"unknown field%1 %2 at $%3 (not in the schema; not shown)"_s.arg(
                unknown.field_count() > 1 ? u"s"_s : QString(), numbers.join(u", "_s), pathText(path)));
        }
    }

private:
    void single(const pb::Message &m, const pb::Reflection *r, const pb::FieldDescriptor *f, const PathStep *path)
    {
        using T = pb::FieldDescriptor;
        switch (f->cpp_type()) {
        case T::CPPTYPE_INT32: m_w.integer(r->GetInt32(m, f)); break;
        case T::CPPTYPE_INT64: m_w.integer(r->GetInt64(m, f)); break;
        case T::CPPTYPE_UINT32: m_w.integer(r->GetUInt32(m, f)); break;
        case T::CPPTYPE_UINT64: m_w.unsignedInteger(r->GetUInt64(m, f)); break;
        case T::CPPTYPE_FLOAT: m_w.number(r->GetFloat(m, f)); break;
        case T::CPPTYPE_DOUBLE: m_w.number(r->GetDouble(m, f)); break;
        case T::CPPTYPE_BOOL: m_w.boolean(r->GetBool(m, f)); break;
        case T::CPPTYPE_ENUM: enumValue(f, r->GetEnumValue(m, f)); break;
        case T::CPPTYPE_STRING: {
            std::string scratch;
            const std::string &s = r->GetStringReference(m, f, &scratch);
            text(f, s);
            break;
        }
        case T::CPPTYPE_MESSAGE: {
            const PathStep step{path, &f->name(), -1};
            message(r->GetMessage(m, f), &step);
            break;
        }
        }
    }
    void repeated(const pb::Message &m, const pb::Reflection *r, const pb::FieldDescriptor *f, const PathStep *path)
    {
        using T = pb::FieldDescriptor;
        m_w.beginArray();
        const int n = r->FieldSize(m, f);
        for (int k = 0; k < n; ++k) {
            switch (f->cpp_type()) {
            case T::CPPTYPE_INT32: m_w.integer(r->GetRepeatedInt32(m, f, k)); break;
            case T::CPPTYPE_INT64: m_w.integer(r->GetRepeatedInt64(m, f, k)); break;
            case T::CPPTYPE_UINT32: m_w.integer(r->GetRepeatedUInt32(m, f, k)); break;
            case T::CPPTYPE_UINT64: m_w.unsignedInteger(r->GetRepeatedUInt64(m, f, k)); break;
            case T::CPPTYPE_FLOAT: m_w.number(r->GetRepeatedFloat(m, f, k)); break;
            case T::CPPTYPE_DOUBLE: m_w.number(r->GetRepeatedDouble(m, f, k)); break;
            case T::CPPTYPE_BOOL: m_w.boolean(r->GetRepeatedBool(m, f, k)); break;
            case T::CPPTYPE_ENUM: enumValue(f, r->GetRepeatedEnumValue(m, f, k)); break;
            case T::CPPTYPE_STRING: {
                std::string scratch;
                text(f, r->GetRepeatedStringReference(m, f, k, &scratch));
                break;
            }
            case T::CPPTYPE_MESSAGE: {
                const PathStep step{path, &f->name(), k};
                message(r->GetRepeatedMessage(m, f, k), &step);
                break;
            }
            }
        }
        m_w.endArray();
    }
    // A map shows as an object; keys of any type become their text.
    void map(const pb::Message &m, const pb::Reflection *r, const pb::FieldDescriptor *f, const PathStep *path)
    {
        using T = pb::FieldDescriptor;
        const pb::FieldDescriptor *keyField = f->message_type()->map_key();
        const pb::FieldDescriptor *valueField = f->message_type()->map_value();
        m_w.beginObject();
        const int n = r->FieldSize(m, f);
        for (int k = 0; k < n; ++k) {
            const pb::Message &entry = r->GetRepeatedMessage(m, f, k);
            const pb::Reflection *er = entry.GetReflection();
            QByteArray key;
            switch (keyField->cpp_type()) {
            case T::CPPTYPE_INT32: key = QByteArray::number(er->GetInt32(entry, keyField)); break;
            case T::CPPTYPE_INT64: key = QByteArray::number(qlonglong(er->GetInt64(entry, keyField))); break;
            case T::CPPTYPE_UINT32: key = QByteArray::number(er->GetUInt32(entry, keyField)); break;
            case T::CPPTYPE_UINT64: key = QByteArray::number(qulonglong(er->GetUInt64(entry, keyField))); break;
            case T::CPPTYPE_BOOL: key = er->GetBool(entry, keyField) ? "true" : "false"; break;
            default: {
                std::string scratch;
                const std::string &s = er->GetStringReference(entry, keyField, &scratch);
                key = QByteArray(s.data(), qsizetype(s.size()));
            }
            }
            m_w.key(key);
            const PathStep step{path, &f->name(), k};
            single(entry, er, valueField, &step);
        }
        m_w.endObject();
    }
    void text(const pb::FieldDescriptor *f, const std::string &s)
    {
        const QByteArrayView bytes(s.data(), qsizetype(s.size()));
        if (f->type() == pb::FieldDescriptor::TYPE_BYTES)
            m_w.base64(bytes);
        else
            m_w.text(bytes);
    }
    void enumValue(const pb::FieldDescriptor *f, int number)
    {
        if (const pb::EnumValueDescriptor *v = f->enum_type()->FindValueByNumber(number))
            m_w.text(v->name());
        else
            m_w.integer(number); // an open enum's value the schema does not name
    }
    // Timestamps as ISO 8601 and wrappers as their plain value: what the types mean, not their layout.
    bool wellKnown(const pb::Message &m, const pb::Descriptor *d, const pb::Reflection *r)
    {
        const std::string &name = d->full_name();
        if (name.rfind("google.protobuf.", 0) != 0)
            return false;
        if (name == "google.protobuf.Timestamp" && d->field_count() == 2) {
            const qint64 seconds = r->GetInt64(m, d->field(0));
            const qint64 nanos = r->GetInt32(m, d->field(1));
            if (seconds > -(qint64(1) << 42) && seconds < (qint64(1) << 42) && nanos % 1000000 == 0)
                m_w.text(PayloadTime::timestampText(seconds * 1000 + nanos / 1000000, 1000, true));
            else if (seconds > -(qint64(1) << 42) && seconds < (qint64(1) << 42))
                m_w.text(PayloadTime::timestampText(seconds * 1000000 + nanos / 1000, 1000000, true));
            else
                m_w.integer(seconds);
            return true;
        }
        static const char *const kWrappers[] = {
            "google.protobuf.DoubleValue", "google.protobuf.FloatValue",  "google.protobuf.Int64Value",
            "google.protobuf.UInt64Value", "google.protobuf.Int32Value",  "google.protobuf.UInt32Value",
            "google.protobuf.BoolValue",   "google.protobuf.StringValue", "google.protobuf.BytesValue",
        };
        for (const char *w : kWrappers) {
            if (name == w && d->field_count() == 1) {
                single(m, r, d->field(0), nullptr);
                return true;
            }
        }
        return false;
    }

    DisplayJsonWriter m_w;
    QStringList &m_notes;
};
} // namespace

// libprotobuf logs parse problems (a string field with invalid UTF-8) to stderr on its own: Berth reports
// them as the decode's reason instead, and a payload problem is no log line.
ProtobufSchema::ProtobufSchema()
{
    static std::once_flag quiet;
    std::call_once(quiet, [] { pb::SetLogHandler([](pb::LogLevel, const char *, int, const std::string &) {}); });
}
ProtobufSchema::~ProtobufSchema()
{
    m_factory.reset(); // messages' prototypes go before the descriptors they describe
    m_pool.reset();
}

std::unique_ptr<ProtobufSchema> ProtobufSchema::parseProto(QByteArrayView text, const QString &fileName,
                                                           const QHash<QString, QByteArray> &imports,
                                                           QString *error)
{
    std::unique_ptr<ProtobufSchema> schema(new ProtobufSchema);
    schema->m_pool = std::make_unique<pb::DescriptorPool>();
    ProtoFileBuilder builder(*schema->m_pool, imports);
    schema->m_file = builder.buildSource(text, fileName.isEmpty() ? u"schema.proto"_s : fileName, 0, error);
    if (!schema->m_file)
        return nullptr;
    schema->m_factory = std::make_unique<pb::DynamicMessageFactory>(schema->m_pool.get());
    return schema;
}

std::unique_ptr<ProtobufSchema> ProtobufSchema::parseDescriptorSet(QByteArrayView bytes, QString *error)
{
    pb::FileDescriptorSet set;
    if (bytes.size() > std::numeric_limits<int>::max() || !set.ParseFromArray(bytes.data(), int(bytes.size()))) {
        *error = u"not a Protobuf descriptor set (protoc --descriptor_set_out)"_s;
        return nullptr;
    }
    if (set.file_size() == 0) {
        *error = u"the descriptor set holds no files"_s;
        return nullptr;
    }
    std::unique_ptr<ProtobufSchema> schema(new ProtobufSchema);
    schema->m_pool = std::make_unique<pb::DescriptorPool>();
    // The set's own files serve as imports for each other, in whatever order it lists them.
    QHash<QString, const pb::FileDescriptorProto *> byName;
    for (const pb::FileDescriptorProto &f : set.file())
        byName.insert(QString::fromStdString(f.name()), &f);
    const QHash<QString, QByteArray> noSources;
    ProtoFileBuilder builder(*schema->m_pool, noSources);
    // Dependencies first: repeat passes until nothing more builds.
    QSet<QString> built;
    for (bool progress = true; progress && built.size() < byName.size();) {
        progress = false;
        for (const pb::FileDescriptorProto &f : set.file()) {
            const QString name = QString::fromStdString(f.name());
            if (built.contains(name))
                continue;
            bool ready = true;
            for (const std::string &dep : f.dependency())
                ready = ready && (!byName.contains(QString::fromStdString(dep)) || schema->m_pool->FindFileByName(dep));
            if (!ready)
                continue;
            if (!(schema->m_file = builder.buildProto(f, 0, error)))
                return nullptr;
            built.insert(name);
            progress = true;
        }
    }
    if (built.size() < byName.size()) {
        *error = u"the descriptor set's files import each other in a cycle"_s;
        return nullptr;
    }
    schema->m_factory = std::make_unique<pb::DynamicMessageFactory>(schema->m_pool.get());
    return schema;
}

const pb::Descriptor *ProtobufSchema::messageByIndexes(const std::vector<int> &indexes, QString *error) const
{
    const pb::Descriptor *d = nullptr;
    for (size_t k = 0; k < indexes.size(); ++k) {
        const int i = indexes[k];
        const int available = k == 0 ? m_file->message_type_count() : d->nested_type_count();
        if (i < 0 || i >= available) {
            *error = u"message index %1 names no message (the schema has %2 there)"_s.arg(i).arg(available);
            return nullptr;
        }
        d = k == 0 ? m_file->message_type(i) : d->nested_type(i);
    }
    if (!d)
        *error = u"no message index"_s;
    return d;
}

const pb::Descriptor *ProtobufSchema::messageByName(const QString &fullName) const
{
    return m_pool->FindMessageTypeByName(fullName.toStdString());
}

const pb::Descriptor *ProtobufSchema::firstMessage() const
{
    return m_file->message_type_count() > 0 ? m_file->message_type(0) : nullptr;
}

BodyDecode ProtobufSchema::decode(const pb::Descriptor *message, QByteArrayView body, QByteArray &json) const
{
    BodyDecode r;
    const pb::Message *prototype = m_factory->GetPrototype(message);
    // The arena starts in a block of this thread's that the next decode reuses: a message of a few KB
    // is parsed without a malloc (the arena grows into the heap beyond it).
    alignas(std::max_align_t) static thread_local char firstBlock[64 * 1024];
    pb::ArenaOptions options;
    options.initial_block = firstBlock;
    options.initial_block_size = sizeof firstBlock;
    pb::Arena arena(options);
    pb::Message *m = prototype->New(&arena);
    // Parsing stops at protobuf's default recursion limit (100): a recursive message cannot run it deep.
    if (body.size() > std::numeric_limits<int>::max() || !m->ParsePartialFromArray(body.data(), int(body.size()))) {
        r.ok = false;
        r.error = u"the body is not a valid %1 message (truncated, malformed, text that is not UTF-8, or nested too deep)"_s.arg(
            QString::fromStdString(message->full_name()));
        r.errorOffset = 0;
        return r;
    }
    if (!m->IsInitialized())
        r.notes.append(u"required fields missing: "_s + QString::fromStdString(m->InitializationErrorString()));
    json.reserve(json.size() + body.size() * 2 + 64);
    ProtoJsonWriter(json, r.notes).message(*m, nullptr);
    return r;
}

BodyDecode ProtobufSchema::encode(const pb::Descriptor *message, QByteArrayView json, QByteArray &out) const
{
    BodyDecode r;
    pb::Arena arena;
    pb::Message *m = m_factory->GetPrototype(message)->New(&arena);
    pb::util::JsonParseOptions options;
    options.ignore_unknown_fields = false;
    const pb::util::Status status =
        pb::util::JsonStringToMessage(pb::StringPiece(json.data(), size_t(json.size())), m, options);
    if (!status.ok()) {
        r.ok = false;
        r.error = u"not a valid %1: "_s.arg(QString::fromStdString(message->full_name()))
                  + QString::fromStdString(std::string(status.message()));
        return r;
    }
    std::string bytes;
    if (!m->SerializeToString(&bytes)) {
        r.ok = false;
        r.error = u"%1 cannot be serialised: "_s.arg(QString::fromStdString(message->full_name()))
                  + QString::fromStdString(m->InitializationErrorString());
        return r;
    }
    out.append(bytes.data(), qsizetype(bytes.size()));
    return r;
}
