#include "avroschema.h"

#include "services/payload/displayjsonwriter.h"
#include "services/payload/payloadtime.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>

#include <avro.h>

#include <climits>
#include <cstring>
#include <limits>

using namespace Qt::StringLiterals;

struct AvroSchema::Node {
    enum class Kind { Null, Boolean, Int, Long, Float, Double, Bytes, String, Record, Enum, Array, Map, Union, Fixed };
    enum class Logical { None, Decimal, Uuid, Date, TimeMillis, TimeMicros, TimestampMillis, TimestampMicros,
                         LocalTimestampMillis, LocalTimestampMicros };
    Kind kind = Kind::Null;
    Logical logical = Logical::None;
    int scale = 0;
    QByteArray fullName;
    std::vector<std::pair<QByteArray, int>> fields; // record: name and node
    std::vector<QByteArray> renderedKeys;           // record: each field's name as a JSON member name
    std::vector<QByteArray> symbols;                // enum
    std::vector<int> branches;                      // union
    int items = -1;                                 // array items, map values
    qint64 size = 0;                                // fixed
    qint64 minBytes = 0;                            // the fewest bytes a value of this type takes
};

// Builds the node tree from the schema's JSON: names resolved against the enclosing namespace, a named
// type usable (recursively) from the moment its name is read.
class AvroSchemaCompiler final {
public:
    explicit AvroSchemaCompiler(AvroSchema &schema)
        : m_schema(schema)
    {
    }

    int compile(const QJsonValue &v, const QString &ns, int depth)
    {
        if (!m_error.isEmpty())
            return -1;
        if (depth > AvroSchema::kMaxDepth)
            return fail(u"the schema nests deeper than %1 levels"_s.arg(AvroSchema::kMaxDepth));
        if (v.isString())
            return named(v.toString(), ns);
        if (v.isArray()) {
            const int at = add(Node::Kind::Union);
            std::vector<int> branches;
            for (const QJsonValue &b : v.toArray())
                branches.push_back(compile(b, ns, depth + 1));
            if (branches.empty())
                return fail(u"an empty union"_s);
            m_schema.m_nodes[at].branches = std::move(branches);
            return at;
        }
        if (!v.isObject())
            return fail(u"a schema must be a name, an object or a union array"_s);
        const QJsonObject o = v.toObject();
        const QJsonValue typeValue = o.value("type"_L1);
        if (typeValue.isObject() || typeValue.isArray())
            return compile(typeValue, ns, depth + 1);
        const QString type = typeValue.toString();
        if (type == u"record"_s || type == u"error"_s) {
            const QString full = fullName(o, ns);
            if (full.isEmpty())
                return fail(u"a record without a name"_s);
            const int at = add(Node::Kind::Record);
            if (!define(full, at))
                return -1;
            const QString innerNs = full.contains(u'.') ? full.section(u'.', 0, -2) : QString();
            std::vector<std::pair<QByteArray, int>> fields;
            for (const QJsonValue &f : o.value("fields"_L1).toArray()) {
                const QJsonObject fo = f.toObject();
                const QString name = fo.value("name"_L1).toString();
                if (name.isEmpty())
                    return fail(u"a field without a name in %1"_s.arg(full));
                fields.emplace_back(name.toUtf8(), compile(fo.value("type"_L1), innerNs, depth + 1));
            }
            if (!o.value("fields"_L1).isArray())
                return fail(u"record %1 has no fields array"_s.arg(full));
            for (const auto &f : fields)
                m_schema.m_nodes[at].renderedKeys.push_back(DisplayJsonWriter::renderKey(f.first));
            m_schema.m_nodes[at].fields = std::move(fields);
            return at;
        }
        if (type == u"enum"_s) {
            const QString full = fullName(o, ns);
            const int at = add(Node::Kind::Enum);
            if (full.isEmpty() || !define(full, at))
                return fail(u"an enum without a usable name"_s);
            for (const QJsonValue &s : o.value("symbols"_L1).toArray())
                m_schema.m_nodes[at].symbols.push_back(s.toString().toUtf8());
            return at;
        }
        if (type == u"fixed"_s) {
            const QString full = fullName(o, ns);
            const int at = add(Node::Kind::Fixed);
            if (full.isEmpty() || !define(full, at))
                return fail(u"a fixed without a usable name"_s);
            const qint64 size = o.value("size"_L1).toInteger(-1);
            if (size < 0)
                return fail(u"fixed %1 has no size"_s.arg(full));
            m_schema.m_nodes[at].size = size;
            logical(at, o);
            return at;
        }
        if (type == u"array"_s || type == u"map"_s) {
            const bool isArray = type == u"array"_s;
            const int at = add(isArray ? Node::Kind::Array : Node::Kind::Map);
            const int inner = compile(o.value(isArray ? "items"_L1 : "values"_L1), ns, depth + 1);
            if (inner >= 0)
                m_schema.m_nodes[at].items = inner;
            return at;
        }
        const int at = primitive(type);
        if (at < 0)
            return named(type, ns);
        logical(at, o);
        return at;
    }

    QString error() const { return m_error; }

private:
    using Node = AvroSchema::Node;

    int fail(const QString &why)
    {
        if (m_error.isEmpty())
            m_error = why;
        return -1;
    }
    int add(Node::Kind kind)
    {
        m_schema.m_nodes.push_back({});
        m_schema.m_nodes.back().kind = kind;
        return int(m_schema.m_nodes.size() - 1);
    }
    int primitive(const QString &type)
    {
        static const QHash<QString, Node::Kind> kinds = {
            {u"null"_s, Node::Kind::Null},     {u"boolean"_s, Node::Kind::Boolean}, {u"int"_s, Node::Kind::Int},
            {u"long"_s, Node::Kind::Long},     {u"float"_s, Node::Kind::Float},     {u"double"_s, Node::Kind::Double},
            {u"bytes"_s, Node::Kind::Bytes},   {u"string"_s, Node::Kind::String},
        };
        const auto it = kinds.constFind(type);
        return it == kinds.cend() ? -1 : add(*it);
    }
    static QString fullName(const QJsonObject &o, const QString &ns)
    {
        const QString name = o.value("name"_L1).toString();
        if (name.isEmpty() || name.contains(u'.'))
            return name;
        const QString own = o.contains("namespace"_L1) ? o.value("namespace"_L1).toString() : ns;
        return own.isEmpty() ? name : own + u'.' + name;
    }
    bool define(const QString &full, int at)
    {
        if (m_names.contains(full)) {
            fail(u"type %1 is defined twice"_s.arg(full));
            return false;
        }
        m_names.insert(full, at);
        m_schema.m_nodes[at].fullName = full.toUtf8();
        return true;
    }
    int named(const QString &name, const QString &ns)
    {
        if (const int p = primitive(name); p >= 0)
            return p;
        if (!name.contains(u'.') && !ns.isEmpty()) {
            if (const auto it = m_names.constFind(ns + u'.' + name); it != m_names.cend())
                return *it;
        }
        if (const auto it = m_names.constFind(name); it != m_names.cend())
            return *it;
        return fail(u"unknown type %1"_s.arg(name));
    }
    // Logical types the spec defines on the type they annotate; any other is ignored, as the spec says.
    void logical(int at, const QJsonObject &o)
    {
        Node &n = m_schema.m_nodes[at];
        const QString l = o.value("logicalType"_L1).toString();
        if (l.isEmpty())
            return;
        using K = Node::Kind;
        using L = Node::Logical;
        if (l == u"decimal"_s && (n.kind == K::Bytes || n.kind == K::Fixed)) {
            n.logical = L::Decimal;
            n.scale = int(qBound<qint64>(qint64(0), o.value("scale"_L1).toInteger(0), qint64(1000)));
        } else if (l == u"uuid"_s && n.kind == K::String) {
            n.logical = L::Uuid;
        } else if (l == u"date"_s && n.kind == K::Int) {
            n.logical = L::Date;
        } else if (l == u"time-millis"_s && n.kind == K::Int) {
            n.logical = L::TimeMillis;
        } else if (l == u"time-micros"_s && n.kind == K::Long) {
            n.logical = L::TimeMicros;
        } else if (l == u"timestamp-millis"_s && n.kind == K::Long) {
            n.logical = L::TimestampMillis;
        } else if (l == u"timestamp-micros"_s && n.kind == K::Long) {
            n.logical = L::TimestampMicros;
        } else if (l == u"local-timestamp-millis"_s && n.kind == K::Long) {
            n.logical = L::LocalTimestampMillis;
        } else if (l == u"local-timestamp-micros"_s && n.kind == K::Long) {
            n.logical = L::LocalTimestampMicros;
        }
    }

    AvroSchema &m_schema;
    QHash<QString, int> m_names;
    QString m_error;
};

// Reads one datum, writing display JSON as it goes. On failure the path is built while unwinding.
class AvroBodyReader final {
public:
    AvroBodyReader(const AvroSchema &schema, QByteArrayView body, QByteArray &json)
        : m_nodes(schema.m_nodes)
        , m_begin(reinterpret_cast<const unsigned char *>(body.data()))
        , m_p(m_begin)
        , m_end(m_begin + body.size())
        , m_w(json)
        // Items of a type that takes no bytes (null, an empty record) cost nothing to encode: bound them.
        , m_itemBudget(qMax<qint64>(1 << 20, body.size() * 4))
    {
    }

    BodyDecode run(int root)
    {
        BodyDecode r;
        if (!value(root, 0)) {
            r.ok = false;
            r.error = m_error + (m_path.isEmpty() ? QString() : u" at $"_s + m_path);
            r.errorOffset = m_errorAt;
        } else if (m_p != m_end) {
            r.ok = false;
            r.error = u"%1 bytes left over after the value: the body does not match the schema"_s.arg(m_end - m_p);
            r.errorOffset = m_p - m_begin;
        }
        return r;
    }

private:
    using Node = AvroSchema::Node;
    using K = Node::Kind;
    using L = Node::Logical;

    bool fail(const QString &why)
    {
        m_error = why;
        m_errorAt = m_p - m_begin;
        return false;
    }
    bool truncated(const char *what)
    {
        return fail(u"truncated: the body ends inside %1 (byte %2 of %3)"_s.arg(QLatin1StringView(what))
                        .arg(m_p - m_begin)
                        .arg(m_end - m_begin));
    }
    bool readLong(qint64 *v, const char *what)
    {
        quint64 raw = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (m_p == m_end)
                return truncated(what);
            const unsigned char b = *m_p++;
            raw |= quint64(b & 0x7f) << shift;
            if (!(b & 0x80)) {
                *v = qint64(raw >> 1) ^ -qint64(raw & 1);
                return true;
            }
        }
        return fail(u"a varint longer than 10 bytes"_s);
    }
    bool readLength(qint64 *n, const char *what)
    {
        if (!readLong(n, what))
            return false;
        if (*n < 0)
            return fail(u"negative length %1"_s.arg(*n));
        if (*n > m_end - m_p)
            return fail(u"truncated: a length of %1 bytes, %2 left in the body"_s.arg(*n).arg(m_end - m_p));
        return true;
    }

    bool value(int at, int depth)
    {
        if (depth > AvroSchema::kMaxDepth)
            return fail(u"the value nests deeper than %1 levels"_s.arg(AvroSchema::kMaxDepth));
        const Node &n = m_nodes[size_t(at)];
        DisplayJsonWriter &w = m_w;
        switch (n.kind) {
        case K::Null:
            w.null();
            break;
        case K::Boolean:
            if (m_p == m_end)
                return truncated("a boolean");
            w.boolean(*m_p++ != 0);
            break;
        case K::Int:
        case K::Long: {
            qint64 v = 0;
            if (!readLong(&v, n.kind == K::Int ? "an int" : "a long"))
                return false;
            if (n.kind == K::Int && (v < INT_MIN || v > INT_MAX))
                return fail(u"int value %1 out of range"_s.arg(v));
            writeInteger(w, n.logical, v);
            break;
        }
        case K::Float: {
            if (m_end - m_p < 4)
                return truncated("a float");
            float f;
            std::memcpy(&f, m_p, 4); // little-endian on the wire, as on the hosts Berth builds for
            m_p += 4;
            w.number(f);
            break;
        }
        case K::Double: {
            if (m_end - m_p < 8)
                return truncated("a double");
            double d;
            std::memcpy(&d, m_p, 8);
            m_p += 8;
            w.number(d);
            break;
        }
        case K::Bytes:
        case K::String: {
            qint64 len = 0;
            if (!readLength(&len, n.kind == K::String ? "a string" : "bytes"))
                return false;
            const QByteArrayView bytes(reinterpret_cast<const char *>(m_p), len);
            m_p += len;
            if (n.kind == K::String)
                w.text(bytes);
            else if (n.logical == L::Decimal)
                w.text(PayloadTime::decimalText(bytes, n.scale));
            else
                w.base64(bytes);
            break;
        }
        case K::Fixed: {
            if (m_end - m_p < n.size)
                return truncated("a fixed");
            const QByteArrayView bytes(reinterpret_cast<const char *>(m_p), n.size);
            m_p += n.size;
            if (n.logical == L::Decimal)
                w.text(PayloadTime::decimalText(bytes, n.scale));
            else
                w.base64(bytes);
            break;
        }
        case K::Enum: {
            qint64 i = 0;
            if (!readLong(&i, "an enum"))
                return false;
            if (i < 0 || i >= qint64(n.symbols.size()))
                return fail(u"enum index %1 out of range (%2 symbols)"_s.arg(i).arg(n.symbols.size()));
            w.text(n.symbols[size_t(i)]);
            break;
        }
        case K::Union: {
            qint64 i = 0;
            if (!readLong(&i, "a union branch"))
                return false;
            if (i < 0 || i >= qint64(n.branches.size()))
                return fail(u"union branch %1 out of range (%2 branches)"_s.arg(i).arg(n.branches.size()));
            return value(n.branches[size_t(i)], depth + 1); // a union shows as its plain value
        }
        case K::Record: {
            w.beginObject();
            for (size_t f = 0; f < n.fields.size(); ++f) {
                w.renderedKey(n.renderedKeys[f]);
                if (!value(n.fields[f].second, depth + 1)) {
                    m_path.prepend(u'.' + QString::fromUtf8(n.fields[f].first));
                    return false;
                }
            }
            w.endObject();
            break;
        }
        case K::Array:
        case K::Map: {
            const bool isMap = n.kind == K::Map;
            isMap ? w.beginObject() : w.beginArray();
            qint64 index = 0;
            for (;;) {
                qint64 count = 0;
                if (!readLong(&count, "an item count"))
                    return false;
                if (count == 0)
                    break;
                if (count < 0) {
                    if (count == std::numeric_limits<qint64>::min())
                        return fail(u"bad block count"_s);
                    count = -count;
                    qint64 blockBytes = 0;
                    if (!readLong(&blockBytes, "a block size"))
                        return false;
                }
                const qint64 itemMin = m_nodes[size_t(n.items)].minBytes + (isMap ? 1 : 0);
                if ((itemMin > 0 && count > (m_end - m_p) / itemMin) || (m_itemBudget -= count) < 0)
                    return fail(u"%1 items declared, more than the body can hold"_s.arg(count));
                for (qint64 k = 0; k < count; ++k, ++index) {
                    if (isMap) {
                        qint64 len = 0;
                        if (!readLength(&len, "a map key"))
                            return false;
                        w.key(QByteArrayView(reinterpret_cast<const char *>(m_p), len));
                        m_p += len;
                    }
                    if (!value(n.items, depth + 1)) {
                        m_path.prepend(u'[' + QString::number(index) + u']');
                        return false;
                    }
                }
            }
            isMap ? w.endObject() : w.endArray();
            break;
        }
        }
        return true;
    }

    static void writeInteger(DisplayJsonWriter &w, L logical, qint64 v)
    {
        switch (logical) {
        case L::Date:
            w.text(PayloadTime::dateText(v));
            return;
        case L::TimeMillis:
            w.text(PayloadTime::timeOfDayText(v, 1000));
            return;
        case L::TimeMicros:
            w.text(PayloadTime::timeOfDayText(v, 1000000));
            return;
        case L::TimestampMillis:
            w.text(PayloadTime::timestampText(v, 1000, true));
            return;
        case L::TimestampMicros:
            w.text(PayloadTime::timestampText(v, 1000000, true));
            return;
        case L::LocalTimestampMillis:
            w.text(PayloadTime::timestampText(v, 1000, false));
            return;
        case L::LocalTimestampMicros:
            w.text(PayloadTime::timestampText(v, 1000000, false));
            return;
        default:
            w.integer(v);
        }
    }

    const std::vector<Node> &m_nodes;
    const unsigned char *m_begin;
    const unsigned char *m_p;
    const unsigned char *m_end;
    DisplayJsonWriter m_w;
    qint64 m_itemBudget;
    QString m_error;
    QString m_path;
    qsizetype m_errorAt = -1;
};

AvroSchema::AvroSchema() = default;
AvroSchema::~AvroSchema() = default;

std::unique_ptr<AvroSchema> AvroSchema::parse(QByteArrayView json, QString *error)
{
    QJsonParseError parseError;
    const QByteArray text = json.toByteArray();
    QJsonDocument doc = QJsonDocument::fromJson(text, &parseError);
    QJsonValue root;
    if (parseError.error == QJsonParseError::NoError) {
        root = doc.isArray() ? QJsonValue(doc.array()) : QJsonValue(doc.object());
    } else {
        // A bare name ("string") is a schema too: not a JSON document for Qt's parser.
        const QJsonDocument wrapped = QJsonDocument::fromJson('[' + text + ']');
        if (wrapped.isNull() || wrapped.array().size() != 1 || !wrapped.array().at(0).isString()) {
            *error = u"the schema is not JSON: "_s + parseError.errorString();
            return nullptr;
        }
        root = wrapped.array().at(0);
    }
    std::unique_ptr<AvroSchema> schema(new AvroSchema);
    AvroSchemaCompiler compiler(*schema);
    schema->m_root = compiler.compile(root, QString(), 0);
    if (!compiler.error().isEmpty() || schema->m_root < 0) {
        *error = u"not a valid Avro schema: "_s + compiler.error();
        return nullptr;
    }
    for (const Node &n : schema->m_nodes) {
        if ((n.kind == Node::Kind::Array || n.kind == Node::Kind::Map) && n.items < 0) {
            *error = u"not a valid Avro schema: an array or map without its item type"_s;
            return nullptr;
        }
    }
    // The reference parser must accept it too (only now: its parser recurses without a depth limit).
    avro_schema_t reference = nullptr;
    if (avro_schema_from_json_length(text.constData(), size_t(text.size()), &reference) != 0) {
        *error = u"Avro C refuses the schema: "_s + QString::fromUtf8(avro_strerror()).trimmed();
        return nullptr;
    }
    avro_schema_decref(reference);
    // The fewest bytes each type takes, to the fixed point (a recursive record counts its cycle as free).
    using K = Node::Kind;
    // Each pass only raises the counts, so whatever the passes reach is a lower bound.
    bool changed = true;
    for (int pass = 0; changed && pass < 64; ++pass) {
        changed = false;
        for (Node &n : schema->m_nodes) {
            qint64 m = 0;
            switch (n.kind) {
            case K::Null:
                m = 0;
                break;
            case K::Float:
                m = 4;
                break;
            case K::Double:
                m = 8;
                break;
            case K::Fixed:
                m = n.size;
                break;
            case K::Record:
                for (const auto &f : n.fields)
                    m = qMin<qint64>(m + schema->m_nodes[size_t(f.second)].minBytes, 1 << 30);
                break;
            default:
                m = 1;
            }
            if (m != n.minBytes) {
                n.minBytes = m;
                changed = true;
            }
        }
    }
    return schema;
}

BodyDecode AvroSchema::decode(QByteArrayView body, QByteArray &json) const
{
    json.reserve(json.size() + body.size() * 2 + 64);
    return AvroBodyReader(*this, body, json).run(m_root);
}

QString AvroSchema::rootName() const
{
    return QString::fromUtf8(m_nodes[size_t(m_root)].fullName);
}
