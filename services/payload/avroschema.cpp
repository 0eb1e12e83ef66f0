#include "avroschema.h"

#include "services/payload/displayjsonwriter.h"
#include "services/payload/payloadtime.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QUuid>

#include <avro.h>

#include <algorithm>
#include <charconv>
#include <climits>
#include <cmath>
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
// With a PathSelection it reads the datum the same way (every check, every byte) but writes the display JSON
// of the selected values only, each into the selection's buffer: what the full decode would write there,
// as the same code writes it (ARCHITECTURE.md, Field filters).
class AvroBodyReader final {
public:
    AvroBodyReader(const AvroSchema &schema, QByteArrayView body, QByteArray &json)
        : m_nodes(schema.m_nodes)
        , m_begin(reinterpret_cast<const unsigned char *>(body.data()))
        , m_p(m_begin)
        , m_end(m_begin + body.size())
        , m_own(json)
        , m_w(&m_own)
        // Items of a type that takes no bytes (null, an empty record) cost nothing to encode: bound them.
        , m_itemBudget(qMax<qint64>(1 << 20, body.size() * 4))
    {
    }
    AvroBodyReader(const AvroSchema &schema, QByteArrayView body, const PathSelection &selection,
                   PathSelection::Values &values)
        : AvroBodyReader(schema, body, values.json)
    {
        m_selection = &selection;
        m_values = &values;
        m_writing = false;
    }

    BodyDecode run(int root)
    {
        BodyDecode r;
        if (!child(root, 0, m_selection ? PathSelection::kRoot : -1)) {
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

    // A value at a step of the selection (sel: its node, -1 off every path): a selected one is written
    // whole into the selection's buffer.
    bool child(int at, int depth, int sel)
    {
        if (m_writing || sel < 0 || m_selection->node(sel).slot < 0)
            return value(at, depth, sel);
        DisplayJsonWriter capture(m_values->json);
        const qsizetype begin = m_values->json.size();
        m_w = &capture;
        m_writing = true;
        const bool ok = value(at, depth, -1);
        m_writing = false;
        m_w = &m_own;
        if (ok)
            m_values->spans[size_t(m_selection->node(sel).slot)] = {begin, m_values->json.size()};
        return ok;
    }
    // The member `name` (as the display JSON writes it, between the quotes) of an object on a path: the
    // selection's node for it, as a reader of that JSON text would find it.
    int member(int sel, QByteArrayView name)
    {
        if (sel < 0)
            return -1;
        const PathSelection::Node &node = m_selection->node(sel);
        if (node.names.empty())
            return -1;
        if (name.contains('\\'))
            m_values->unsure = true;
        const int next = node.childByName(name);
        if (next >= 0) {
            // The last member of a name counts, as when the JSON text is read: what an earlier one left goes.
            for (const int slot : m_selection->node(next).under)
                m_values->spans[size_t(slot)] = {};
        }
        return next;
    }
    int item(int sel, qint64 index) const
    {
        return sel < 0 ? -1 : m_selection->node(sel).childByIndex(index);
    }

    bool value(int at, int depth, int sel)
    {
        if (depth > AvroSchema::kMaxDepth)
            return fail(u"the value nests deeper than %1 levels"_s.arg(AvroSchema::kMaxDepth));
        const Node &n = m_nodes[size_t(at)];
        DisplayJsonWriter &w = *m_w;
        const bool write = m_writing;
        switch (n.kind) {
        case K::Null:
            if (write)
                w.null();
            break;
        case K::Boolean:
            if (m_p == m_end)
                return truncated("a boolean");
            if (write)
                w.boolean(*m_p != 0);
            ++m_p;
            break;
        case K::Int:
        case K::Long: {
            qint64 v = 0;
            if (!readLong(&v, n.kind == K::Int ? "an int" : "a long"))
                return false;
            if (n.kind == K::Int && (v < INT_MIN || v > INT_MAX))
                return fail(u"int value %1 out of range"_s.arg(v));
            if (write)
                writeInteger(w, n.logical, v);
            break;
        }
        case K::Float: {
            if (m_end - m_p < 4)
                return truncated("a float");
            float f;
            std::memcpy(&f, m_p, 4); // little-endian on the wire, as on the hosts Berth builds for
            m_p += 4;
            if (write)
                w.number(f);
            break;
        }
        case K::Double: {
            if (m_end - m_p < 8)
                return truncated("a double");
            double d;
            std::memcpy(&d, m_p, 8);
            m_p += 8;
            if (write)
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
            if (!write)
                break;
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
            if (!write)
                break;
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
            if (write)
                w.text(n.symbols[size_t(i)]);
            break;
        }
        case K::Union: {
            qint64 i = 0;
            if (!readLong(&i, "a union branch"))
                return false;
            if (i < 0 || i >= qint64(n.branches.size()))
                return fail(u"union branch %1 out of range (%2 branches)"_s.arg(i).arg(n.branches.size()));
            return child(n.branches[size_t(i)], depth + 1, sel); // a union shows as its plain value
        }
        case K::Record: {
            if (write)
                w.beginObject();
            for (size_t f = 0; f < n.fields.size(); ++f) {
                int next = -1;
                if (write) {
                    w.renderedKey(n.renderedKeys[f]);
                } else if (sel >= 0) {
                    const QByteArray &rendered = n.renderedKeys[f]; // "name":
                    next = member(sel, QByteArrayView(rendered).sliced(1, rendered.size() - 3));
                }
                if (!child(n.fields[f].second, depth + 1, next)) {
                    m_path.prepend(u'.' + QString::fromUtf8(n.fields[f].first));
                    return false;
                }
            }
            if (write)
                w.endObject();
            break;
        }
        case K::Array:
        case K::Map: {
            const bool isMap = n.kind == K::Map;
            if (write)
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
                    int next = -1;
                    if (isMap) {
                        qint64 len = 0;
                        if (!readLength(&len, "a map key"))
                            return false;
                        const QByteArrayView key(reinterpret_cast<const char *>(m_p), len);
                        if (write) {
                            w.key(key);
                        } else if (sel >= 0 && !m_selection->node(sel).names.empty()) {
                            m_keyText.truncate(0);
                            DisplayJsonWriter(m_keyText).key(key); // "key":
                            next = member(sel, QByteArrayView(m_keyText).sliced(1, m_keyText.size() - 3));
                        }
                        m_p += len;
                    } else if (!write) {
                        next = item(sel, index);
                    }
                    if (!child(n.items, depth + 1, next)) {
                        m_path.prepend(u'[' + QString::number(index) + u']');
                        return false;
                    }
                }
            }
            if (write)
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
    DisplayJsonWriter m_own;
    DisplayJsonWriter *m_w;
    const PathSelection *m_selection = nullptr;
    PathSelection::Values *m_values = nullptr;
    bool m_writing = true;
    QByteArray m_keyText; // a map key as the display JSON writes it, to compare with a path's step
    qint64 m_itemBudget;
    QString m_error;
    QString m_path;
    qsizetype m_errorAt = -1;
};

// Writes one datum from display JSON into Avro binary (the inverse of AvroBodyReader). On failure the
// path is built while unwinding, as the reader does.
class AvroBodyWriter final {
public:
    AvroBodyWriter(const AvroSchema &schema, QByteArray &out)
        : m_nodes(schema.m_nodes)
        , m_out(out)
    {
    }

    BodyDecode run(int root, const QJsonValue &v)
    {
        BodyDecode r;
        const qsizetype start = m_out.size();
        if (!value(root, v, 0)) {
            m_out.truncate(start);
            r.ok = false;
            r.error = u"$"_s + m_path + u": "_s + m_error;
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
        return false;
    }
    static QString shown(const QJsonValue &v)
    {
        QByteArray text = QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact);
        text = text.mid(1, text.size() - 2);
        return QString::fromUtf8(text.size() > 40 ? text.left(37) + "..." : text);
    }
    bool expected(const char *what, const QJsonValue &v)
    {
        return fail(u"expected %1, found %2"_s.arg(QLatin1StringView(what), shown(v)));
    }
    void writeLong(qint64 v)
    {
        quint64 raw = (quint64(v) << 1) ^ quint64(v >> 63);
        while (raw >= 0x80) {
            m_out += char((raw & 0x7f) | 0x80);
            raw >>= 7;
        }
        m_out += char(raw);
    }
    void writeBytes(QByteArrayView b)
    {
        writeLong(b.size());
        m_out += b;
    }
    // A long as display JSON writes it: a number when a double holds it exactly, else a string.
    bool integer(const QJsonValue &v, qint64 *out)
    {
        if (v.isDouble()) {
            const double d = v.toDouble();
            if (d != std::floor(d) || d < -9223372036854775808.0 || d >= 9223372036854775808.0)
                return false;
            *out = v.toInteger(qint64(d));
            return true;
        }
        if (v.isString()) {
            const QByteArray text = v.toString().toLatin1();
            const auto r = std::from_chars(text.constData(), text.constData() + text.size(), *out);
            return r.ec == std::errc() && r.ptr == text.constData() + text.size() && !text.isEmpty();
        }
        return false;
    }
    bool floating(const QJsonValue &v, double *out)
    {
        if (v.isDouble()) {
            *out = v.toDouble();
            return true;
        }
        const QString s = v.toString();
        if (s == u"NaN"_s)
            *out = std::numeric_limits<double>::quiet_NaN();
        else if (s == u"Infinity"_s)
            *out = std::numeric_limits<double>::infinity();
        else if (s == u"-Infinity"_s)
            *out = -std::numeric_limits<double>::infinity();
        else
            return false;
        return true;
    }
    bool base64(const QJsonValue &v, QByteArray *out)
    {
        if (!v.isString())
            return false;
        const auto r = QByteArray::fromBase64Encoding(v.toString().toLatin1(),
                                                      QByteArray::AbortOnBase64DecodingErrors);
        if (!r)
            return false;
        *out = r.decoded;
        return true;
    }
    bool decimal(const Node &n, const QJsonValue &v, QByteArray *unscaled)
    {
        QString why;
        QByteArray text;
        if (v.isString())
            text = v.toString().toLatin1();
        else if (v.isDouble() && v.toDouble() == std::floor(v.toDouble()) && std::abs(v.toDouble()) < 9007199254740992.0)
            text = QByteArray::number(v.toInteger());
        else
            return expected("a decimal as text (\"-1234.50\")", v);
        if (!PayloadTime::decimalBytes(text, n.scale, unscaled, &why))
            return fail(u"%1 is no decimal of scale %2: %3"_s.arg(shown(v)).arg(n.scale).arg(why));
        return true;
    }

    bool value(int at, const QJsonValue &v, int depth)
    {
        if (depth > AvroSchema::kMaxDepth)
            return fail(u"the value nests deeper than %1 levels"_s.arg(AvroSchema::kMaxDepth));
        const Node &n = m_nodes[size_t(at)];
        switch (n.kind) {
        case K::Null:
            if (!v.isNull())
                return expected("null", v);
            return true;
        case K::Boolean:
            if (!v.isBool())
                return expected("true or false", v);
            m_out += char(v.toBool() ? 1 : 0);
            return true;
        case K::Int:
        case K::Long:
            return integral(n, v);
        case K::Float:
        case K::Double: {
            double d = 0;
            if (!floating(v, &d))
                return expected("a number", v);
            if (n.kind == K::Float) {
                const float f = float(d);
                char b[4];
                std::memcpy(b, &f, 4); // little-endian on the wire, as on the hosts Berth builds for
                m_out.append(b, 4);
            } else {
                char b[8];
                std::memcpy(b, &d, 8);
                m_out.append(b, 8);
            }
            return true;
        }
        case K::String:
            if (!v.isString())
                return expected("text", v);
            if (n.logical == L::Uuid && (v.toString().size() != 36 || QUuid::fromString(v.toString()).isNull()))
                return fail(u"%1 is no UUID"_s.arg(shown(v)));
            writeBytes(v.toString().toUtf8());
            return true;
        case K::Bytes: {
            QByteArray bytes;
            if (n.logical == L::Decimal) {
                if (!decimal(n, v, &bytes))
                    return false;
            } else if (!base64(v, &bytes)) {
                return expected("bytes as base64 text", v);
            }
            writeBytes(bytes);
            return true;
        }
        case K::Fixed: {
            QByteArray bytes;
            if (n.logical == L::Decimal) {
                if (!decimal(n, v, &bytes))
                    return false;
                if (bytes.size() > n.size)
                    return fail(u"%1 does not fit %2 bytes"_s.arg(shown(v)).arg(n.size));
                // Sign-extended to the fixed size.
                bytes.prepend(QByteArray(n.size - bytes.size(), (bytes[0] & 0x80) ? char(0xff) : char(0)));
            } else if (!base64(v, &bytes)) {
                return expected("bytes as base64 text", v);
            } else if (bytes.size() != n.size) {
                return fail(u"%1 bytes where the fixed type holds %2"_s.arg(bytes.size()).arg(n.size));
            }
            m_out += bytes;
            return true;
        }
        case K::Enum: {
            const QByteArray symbol = v.toString().toUtf8();
            for (size_t i = 0; v.isString() && i < n.symbols.size(); ++i) {
                if (n.symbols[i] == symbol) {
                    writeLong(qint64(i));
                    return true;
                }
            }
            QStringList symbols;
            for (const QByteArray &s : n.symbols)
                symbols << QString::fromUtf8(s);
            return fail(u"%1 is none of the symbols %2"_s.arg(shown(v), symbols.join(u", "_s)));
        }
        case K::Union:
            return unionValue(n, v, depth);
        case K::Record: {
            if (!v.isObject())
                return expected("an object", v);
            const QJsonObject o = v.toObject();
            for (auto it = o.begin(); it != o.end(); ++it) {
                const QByteArray key = it.key().toUtf8();
                if (std::none_of(n.fields.begin(), n.fields.end(), [&](const auto &f) { return f.first == key; })) {
                    m_path.prepend(u'.' + it.key());
                    return fail(u"no such field in %1"_s.arg(QString::fromUtf8(n.fullName)));
                }
            }
            for (const auto &[name, type] : n.fields) {
                const QString key = QString::fromUtf8(name);
                if (!o.contains(key)) {
                    m_path.prepend(u'.' + key);
                    return fail(u"missing"_s);
                }
                if (!value(type, o.value(key), depth + 1)) {
                    m_path.prepend(u'.' + key);
                    return false;
                }
            }
            return true;
        }
        case K::Array: {
            if (!v.isArray())
                return expected("an array", v);
            const QJsonArray a = v.toArray();
            if (!a.isEmpty())
                writeLong(a.size());
            for (qsizetype i = 0; i < a.size(); ++i) {
                if (!value(n.items, a.at(i), depth + 1)) {
                    m_path.prepend(u'[' + QString::number(i) + u']');
                    return false;
                }
            }
            writeLong(0);
            return true;
        }
        case K::Map: {
            if (!v.isObject())
                return expected("an object", v);
            const QJsonObject o = v.toObject();
            if (!o.isEmpty())
                writeLong(o.size());
            for (auto it = o.begin(); it != o.end(); ++it) {
                writeBytes(it.key().toUtf8());
                if (!value(n.items, it.value(), depth + 1)) {
                    m_path.prepend(u'.' + it.key());
                    return false;
                }
            }
            writeLong(0);
            return true;
        }
        }
        return fail(u"unknown type"_s);
    }

    bool integral(const Node &n, const QJsonValue &v)
    {
        qint64 x = 0;
        bool ok = false;
        switch (n.logical) {
        case L::Date:
            ok = v.isString() && PayloadTime::parseDate(v.toString().toLatin1(), &x);
            if (!ok)
                return expected("a date (\"2024-02-29\")", v);
            break;
        case L::TimeMillis:
        case L::TimeMicros:
            ok = v.isString()
                 && PayloadTime::parseTimeOfDay(v.toString().toLatin1(), n.logical == L::TimeMillis ? 1000 : 1000000, &x);
            if (!ok)
                return expected("a time of day (\"13:45:00.123\")", v);
            break;
        case L::TimestampMillis:
        case L::TimestampMicros:
        case L::LocalTimestampMillis:
        case L::LocalTimestampMicros: {
            const bool utc = n.logical == L::TimestampMillis || n.logical == L::TimestampMicros;
            const qint64 per = n.logical == L::TimestampMillis || n.logical == L::LocalTimestampMillis ? 1000 : 1000000;
            ok = v.isString() && PayloadTime::parseTimestamp(v.toString().toLatin1(), per, utc, &x);
            if (!ok)
                return expected(utc ? "a UTC time (\"2024-02-29T13:45:00.123Z\")" : "a local time (\"2024-02-29T13:45:00.123\")", v);
            break;
        }
        default:
            if (!integer(v, &x))
                return expected(n.kind == K::Int ? "an int" : "a long", v);
        }
        if (n.kind == K::Int && (x < INT_MIN || x > INT_MAX))
            return fail(u"%1 is out of an int's range"_s.arg(x));
        writeLong(x);
        return true;
    }

    // A union shows as its plain value: the first branch that takes the value as it is written (a number
    // for a number type, text for text) wins; then the first that takes it at all (a long written as text).
    bool unionValue(const Node &n, const QJsonValue &v, int depth)
    {
        for (const bool strict : {true, false}) {
            for (size_t b = 0; b < n.branches.size(); ++b) {
                const Node &branch = m_nodes[size_t(n.branches[b])];
                if (strict && !natural(branch, v))
                    continue;
                const qsizetype mark = m_out.size();
                writeLong(qint64(b));
                const QString path = m_path;
                if (value(n.branches[b], v, depth + 1))
                    return true;
                m_out.truncate(mark);
                m_path = path;
            }
        }
        QStringList kinds;
        for (const int b : n.branches)
            kinds << kindName(m_nodes[size_t(b)]);
        return fail(u"%1 fits no branch of the union [%2]"_s.arg(shown(v), kinds.join(u", "_s)));
    }
    static bool natural(const Node &n, const QJsonValue &v)
    {
        switch (n.kind) {
        case K::Null:
            return v.isNull();
        case K::Boolean:
            return v.isBool();
        case K::Int:
        case K::Long:
            return n.logical == L::None ? v.isDouble() : v.isString();
        case K::Float:
        case K::Double:
            return v.isDouble();
        case K::String:
        case K::Bytes:
        case K::Fixed:
        case K::Enum:
            return v.isString();
        case K::Record:
        case K::Map:
            return v.isObject();
        case K::Array:
            return v.isArray();
        case K::Union:
            return false;
        }
        return false;
    }
    static QString kindName(const Node &n)
    {
        if (!n.fullName.isEmpty())
            return QString::fromUtf8(n.fullName);
        static const char *const names[] = {"null", "boolean", "int",  "long", "float", "double", "bytes",
                                            "string", "record", "enum", "array", "map", "union", "fixed"};
        return QString::fromLatin1(names[int(n.kind)]);
    }

    const std::vector<Node> &m_nodes;
    QByteArray &m_out;
    QString m_error;
    QString m_path;
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

BodyDecode AvroSchema::select(QByteArrayView body, const PathSelection &selection,
                              PathSelection::Values &values) const
{
    values.clear(selection.slotCount());
    return AvroBodyReader(*this, body, selection, values).run(m_root);
}

BodyDecode AvroSchema::encode(const QJsonValue &value, QByteArray &out) const
{
    return AvroBodyWriter(*this, out).run(m_root, value);
}

QString AvroSchema::rootName() const
{
    return QString::fromUtf8(m_nodes[size_t(m_root)].fullName);
}
