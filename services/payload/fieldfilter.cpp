#include "fieldfilter.h"

#include "services/payload/payloadmask.h"
#include "services/payload/payloadschema.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <charconv>
#include <optional>

using namespace Qt::StringLiterals;

struct FieldFilter::Node {
    enum class Kind { Or, And, Exists, Compare };
    enum class Op { Eq, Ne, Lt, Le, Gt, Ge, Contains };
    Kind kind = Kind::Compare;
    std::shared_ptr<const Node> left, right; // Or, And
    QString path;                            // Exists, Compare: as written
    QStringList steps;                       // PayloadMask::pathSteps(path)
    QList<QByteArray> utf8Steps;             // the same in UTF-8, for display JSON read as text
    int slot = -1;                           // Exists, Compare: the path's slot in the filter's PathSelection
    Op op = Op::Eq;
    QJsonValue literal;
};

namespace {
using Node = FieldFilter::Node;
using NodePtr = std::shared_ptr<const Node>;

// Nesting deeper than this is refused: no filter an operator types needs it, and parsing recurses.
constexpr int kMaxDepth = 64;

class Parser {
public:
    explicit Parser(const QString &text)
        : m_text(text)
    {
    }

    NodePtr parse(QString *error)
    {
        NodePtr root = orExpr(0);
        skipBlanks();
        if (root && m_at < m_text.size())
            fail(u"unexpected “%1”"_s.arg(m_text.mid(m_at, 12)));
        if (!m_error.isEmpty()) {
            *error = u"field filter, at character %1: %2"_s.arg(m_errorAt + 1).arg(m_error);
            return {};
        }
        return root;
    }
    // Every distinct path of the filter, in slot order.
    const QList<QStringList> &paths() const { return m_paths; }

private:
    void fail(const QString &why)
    {
        if (m_error.isEmpty()) {
            m_error = why;
            m_errorAt = m_at;
        }
    }
    void skipBlanks()
    {
        while (m_at < m_text.size() && m_text.at(m_at).isSpace())
            ++m_at;
    }
    // A keyword (case-insensitive) standing alone: not the start of a longer word.
    bool keyword(QLatin1StringView word)
    {
        skipBlanks();
        if (QStringView(m_text).mid(m_at, word.size()).compare(word, Qt::CaseInsensitive) != 0)
            return false;
        const qsizetype end = m_at + word.size();
        if (end < m_text.size() && (m_text.at(end).isLetterOrNumber() || m_text.at(end) == u'_'))
            return false;
        m_at = end;
        return true;
    }
    bool symbol(QLatin1StringView s)
    {
        skipBlanks();
        if (!QStringView(m_text).mid(m_at).startsWith(s))
            return false;
        m_at += s.size();
        return true;
    }

    NodePtr binary(Node::Kind kind, NodePtr left, NodePtr right)
    {
        auto n = std::make_shared<Node>();
        n->kind = kind;
        n->left = std::move(left);
        n->right = std::move(right);
        return n;
    }
    // "or" joins terms, "and" joins factors: and binds tighter.
    NodePtr orExpr(int depth) { return chain(depth, Node::Kind::Or); }
    NodePtr chain(int depth, Node::Kind kind)
    {
        const auto operand = [&] {
            return kind == Node::Kind::Or ? chain(depth, Node::Kind::And) : factor(depth);
        };
        NodePtr left = operand();
        while (left && keyword(kind == Node::Kind::Or ? "or"_L1 : "and"_L1)) {
            NodePtr right = operand();
            if (!right)
                return {};
            left = binary(kind, left, right);
        }
        return left;
    }
    NodePtr factor(int depth)
    {
        if (depth > kMaxDepth) {
            fail(u"parentheses nested too deep"_s);
            return {};
        }
        skipBlanks();
        if (symbol("("_L1)) {
            NodePtr inner = orExpr(depth + 1);
            if (!inner)
                return {};
            if (!symbol(")"_L1)) {
                fail(u"a “)” is missing"_s);
                return {};
            }
            return inner;
        }
        return comparison();
    }
    NodePtr comparison()
    {
        skipBlanks();
        if (m_at >= m_text.size()) {
            fail(u"a field path such as $.customer.id is missing"_s);
            return {};
        }
        if (m_text.at(m_at) != u'$') {
            fail(u"a field path starts with “$” (e.g. $.customer.id)"_s);
            return {};
        }
        const qsizetype start = m_at;
        while (m_at < m_text.size() && !m_text.at(m_at).isSpace()
               && !QStringView(u"=!<>()").contains(m_text.at(m_at)))
            ++m_at;
        auto n = std::make_shared<Node>();
        n->path = m_text.mid(start, m_at - start);
        n->steps = PayloadMask::pathSteps(n->path);
        for (const QString &step : std::as_const(n->steps))
            n->utf8Steps.append(step.toUtf8());
        if (n->steps.isEmpty() && n->path != u"$"_s) {
            m_at = start;
            fail(u"“%1” is not a field path (names after “.”, indexes in brackets: $.a.b[0].c)"_s.arg(
                n->path));
            return {};
        }
        if (n->steps.contains(u"[*]"_s)) {
            m_at = start;
            fail(u"“%1”: a filter names one item ([0]), not every item ([*])"_s.arg(n->path));
            return {};
        }
        n->slot = int(m_paths.indexOf(n->steps));
        if (n->slot < 0) {
            n->slot = int(m_paths.size());
            m_paths.append(n->steps);
        }
        if (keyword("exists"_L1)) {
            n->kind = Node::Kind::Exists;
            return n;
        }
        static const std::pair<QLatin1StringView, Node::Op> ops[] = {
            {"=="_L1, Node::Op::Eq}, {"!="_L1, Node::Op::Ne}, {"<="_L1, Node::Op::Le},
            {">="_L1, Node::Op::Ge}, {"<"_L1, Node::Op::Lt},  {">"_L1, Node::Op::Gt},
        };
        bool found = false;
        for (const auto &[text, op] : ops) {
            if (symbol(text)) {
                n->op = op;
                found = true;
                break;
            }
        }
        if (!found && keyword("contains"_L1)) {
            n->op = Node::Op::Contains;
            found = true;
        }
        if (!found) {
            fail(u"after %1 comes exists, ==, !=, <, <=, >, >= or contains"_s.arg(n->path));
            return {};
        }
        const std::optional<QJsonValue> value = literal();
        if (!value)
            return {};
        n->literal = *value;
        return n;
    }
    std::optional<QJsonValue> literal()
    {
        skipBlanks();
        if (m_at >= m_text.size()) {
            fail(u"a value is missing (\"text\", a number, true, false or null)"_s);
            return std::nullopt;
        }
        const QChar quote = m_text.at(m_at);
        if (quote == u'"' || quote == u'\'') {
            const qsizetype start = m_at++;
            QString out;
            while (m_at < m_text.size() && m_text.at(m_at) != quote) {
                if (m_text.at(m_at) == u'\\' && m_at + 1 < m_text.size())
                    ++m_at;
                out.append(m_text.at(m_at++));
            }
            if (m_at >= m_text.size()) {
                m_at = start;
                fail(u"the text has no closing %1"_s.arg(quote));
                return std::nullopt;
            }
            ++m_at;
            return QJsonValue(out);
        }
        if (keyword("true"_L1))
            return QJsonValue(true);
        if (keyword("false"_L1))
            return QJsonValue(false);
        if (keyword("null"_L1))
            return QJsonValue(QJsonValue::Null);
        const qsizetype start = m_at;
        while (m_at < m_text.size() && !m_text.at(m_at).isSpace() && m_text.at(m_at) != u')')
            ++m_at;
        bool ok = false;
        const double number = QStringView(m_text).mid(start, m_at - start).toDouble(&ok);
        if (!ok) {
            const QString word = m_text.mid(start, qMax<qsizetype>(1, m_at - start));
            m_at = start;
            fail(u"“%1” is not a value: write text in quotes"_s.arg(word));
            return std::nullopt;
        }
        return QJsonValue(number);
    }

    const QString &m_text;
    QList<QStringList> m_paths;
    qsizetype m_at = 0;
    QString m_error;
    qsizetype m_errorAt = 0;
};

QJsonValue resolve(const QJsonValue &root, const QStringList &steps)
{
    QJsonValue v = root;
    for (const QString &step : steps) {
        if (step.startsWith(u'[')) {
            if (!v.isArray())
                return QJsonValue(QJsonValue::Undefined);
            const QJsonArray a = v.toArray();
            const qsizetype i = QStringView(step).mid(1, step.size() - 2).toLongLong();
            if (i < 0 || i >= a.size())
                return QJsonValue(QJsonValue::Undefined);
            v = a.at(i);
        } else {
            if (!v.isObject())
                return QJsonValue(QJsonValue::Undefined);
            v = v.toObject().value(step);
        }
    }
    return v;
}

// Valid JSON text read in place: the span of the value a path leads to, without parsing the rest.
class JsonText {
public:
    explicit JsonText(QByteArrayView text)
        : m_p(text.data())
        , m_end(text.data() + text.size())
    {
    }

    // Where steps lead: the value's span, nowhere (Missing), or Unsure when the text cannot be read in place
    // (an escaped member name).
    struct Located {
        enum class State { Missing, Found, Unsure } state;
        QByteArrayView span;
    };
    static constexpr Located kMissing{Located::State::Missing, {}};
    static constexpr Located kUnsure{Located::State::Unsure, {}};

    Located locate(const QList<QByteArray> &steps)
    {
        skipSpace();
        for (const QByteArray &step : steps) {
            if (step.startsWith('[')) {
                if (!at('['))
                    return kMissing;
                bool ok = false;
                const qint64 index = QByteArrayView(step).sliced(1, step.size() - 2).toLongLong(&ok);
                if (!ok || index < 0)
                    return kMissing;
                ++m_p;
                skipSpace();
                if (at(']'))
                    return kMissing;
                for (qint64 i = 0; i < index; ++i) {
                    if (!skipValue())
                        return kUnsure;
                    skipSpace();
                    if (!at(','))
                        return kMissing;
                    ++m_p;
                    skipSpace();
                }
            } else {
                if (!at('{'))
                    return kMissing;
                ++m_p;
                // The last member of that name counts, as when the document is parsed whole.
                const char *found = nullptr;
                skipSpace();
                while (at('"')) {
                    const char *nameStart = m_p + 1;
                    if (!skipString())
                        return kUnsure;
                    const QByteArrayView name(nameStart, m_p - 1 - nameStart);
                    if (name.contains('\\'))
                        return kUnsure;
                    skipSpace();
                    if (!at(':'))
                        return kUnsure;
                    ++m_p;
                    skipSpace();
                    if (name == QByteArrayView(step))
                        found = m_p;
                    if (!skipValue())
                        return kUnsure;
                    skipSpace();
                    if (!at(','))
                        break;
                    ++m_p;
                    skipSpace();
                }
                if (!found)
                    return kMissing;
                m_p = found;
            }
        }
        const char *start = m_p;
        if (!skipValue())
            return kUnsure;
        return {Located::State::Found, QByteArrayView(start, m_p - start)};
    }

private:
    bool at(char c) const { return m_p < m_end && *m_p == c; }
    void skipSpace()
    {
        while (m_p < m_end && (*m_p == ' ' || *m_p == '\n' || *m_p == '\r' || *m_p == '\t'))
            ++m_p;
    }
    // Past a string's closing quote; m_p on its opening one.
    bool skipString()
    {
        for (++m_p; m_p < m_end; ++m_p) {
            if (*m_p == '\\')
                ++m_p;
            else if (*m_p == '"')
                return ++m_p, true;
        }
        return false;
    }
    bool skipValue()
    {
        if (at('"'))
            return skipString();
        if (at('{') || at('[')) {
            int depth = 0;
            while (m_p < m_end) {
                const char c = *m_p;
                if (c == '"') {
                    if (!skipString())
                        return false;
                    continue;
                }
                if (c == '{' || c == '[')
                    ++depth;
                else if ((c == '}' || c == ']') && --depth == 0)
                    return ++m_p, true;
                ++m_p;
            }
            return false;
        }
        const char *start = m_p;
        while (m_p < m_end && *m_p != ',' && *m_p != '}' && *m_p != ']' && *m_p != ' ' && *m_p != '\n'
               && *m_p != '\r' && *m_p != '\t')
            ++m_p;
        return m_p > start;
    }
public:
    // A located value: plain text and literals directly, anything else parsed from its span alone.
    static std::optional<QJsonValue> valueOf(QByteArrayView span)
    {
        if (span == "null")
            return QJsonValue(QJsonValue::Null);
        if (span == "true")
            return QJsonValue(true);
        if (span == "false")
            return QJsonValue(false);
        if (span.front() == '"' && !span.contains('\\'))
            return QJsonValue(QString::fromUtf8(span.sliced(1, span.size() - 2)));
        if (span.front() == '-' || (span.front() >= '0' && span.front() <= '9')) {
            // As the parser keeps them: whole numbers that fit as integers, the rest as doubles.
            const char *first = span.data(), *last = span.data() + span.size();
            qint64 whole = 0;
            if (auto r = std::from_chars(first, last, whole); r.ec == std::errc() && r.ptr == last)
                return QJsonValue(whole);
            double d = 0;
            if (auto r = std::from_chars(first, last, d); r.ec == std::errc() && r.ptr == last)
                return QJsonValue(d);
        }
        const QJsonArray parsed = QJsonDocument::fromJson('[' + span.toByteArray() + ']').array();
        if (parsed.size() != 1)
            return std::nullopt;
        return parsed.at(0);
    }

    const char *m_p;
    const char *m_end;
};

// A number, or text that is one (a decimal shown as exact text).
std::optional<double> numberOf(const QJsonValue &v)
{
    if (v.isDouble())
        return v.toDouble();
    if (v.isString()) {
        bool ok = false;
        const double d = v.toString().toDouble(&ok);
        if (ok)
            return d;
    }
    return std::nullopt;
}

QString textOf(const QJsonValue &v)
{
    if (v.isString())
        return v.toString();
    return QString::fromUtf8(QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact)).mid(1).chopped(1);
}

// -1, 0, 1; nullopt when the two cannot be ordered (text against a number that is not one, objects).
std::optional<int> order(const QJsonValue &value, const QJsonValue &literal)
{
    if (literal.isDouble()) {
        const std::optional<double> n = numberOf(value);
        if (!n)
            return std::nullopt;
        return *n < literal.toDouble() ? -1 : *n > literal.toDouble() ? 1 : 0;
    }
    if (literal.isString() && (value.isString() || value.isDouble())) {
        const int c = textOf(value).compare(literal.toString());
        return c < 0 ? -1 : c > 0 ? 1 : 0;
    }
    return std::nullopt;
}

bool equal(const QJsonValue &value, const QJsonValue &literal)
{
    if (literal.isBool() || literal.isNull())
        return value == literal;
    const std::optional<int> o = order(value, literal);
    return o && *o == 0;
}

template <typename Resolve> bool compare(const Node &n, const Resolve &resolveAt)
{
    const QJsonValue v = resolveAt(n);
    if (v.isUndefined())
        return false;
    switch (n.op) {
    case Node::Op::Eq:
        return equal(v, n.literal);
    case Node::Op::Ne:
        return !equal(v, n.literal);
    case Node::Op::Contains:
        if (v.isString())
            return n.literal.isString() && v.toString().contains(n.literal.toString());
        if (v.isArray()) {
            const QJsonArray a = v.toArray();
            return std::any_of(a.begin(), a.end(),
                               [&](const QJsonValue &item) { return equal(item, n.literal); });
        }
        return false;
    default:
        break;
    }
    const std::optional<int> o = order(v, n.literal);
    if (!o)
        return false;
    switch (n.op) {
    case Node::Op::Lt:
        return *o < 0;
    case Node::Op::Le:
        return *o <= 0;
    case Node::Op::Gt:
        return *o > 0;
    case Node::Op::Ge:
        return *o >= 0;
    default:
        return false;
    }
}

template <typename Resolve> bool evaluate(const Node &n, const Resolve &resolveAt)
{
    switch (n.kind) {
    case Node::Kind::Or:
        return evaluate(*n.left, resolveAt) || evaluate(*n.right, resolveAt);
    case Node::Kind::And:
        return evaluate(*n.left, resolveAt) && evaluate(*n.right, resolveAt);
    case Node::Kind::Exists: {
        const QJsonValue v = resolveAt(n);
        return !v.isUndefined() && !v.isNull();
    }
    case Node::Kind::Compare:
        return compare(n, resolveAt);
    }
    return false;
}

bool isAscii(QByteArrayView text)
{
    return std::all_of(text.begin(), text.end(), [](char c) { return uchar(c) < 0x80; });
}

// compare() on a located value's text, for the cases whose answer the text gives without building a
// QJsonValue (ASCII text without escapes, literals); nullopt for the rest.
std::optional<bool> compareText(const Node &n, QByteArrayView span)
{
    const bool isString = span.size() >= 2 && span.front() == '"';
    if (isString && (span.contains('\\') || !isAscii(span)))
        return std::nullopt;
    const QLatin1StringView text = isString ? QLatin1StringView(span.sliced(1, span.size() - 2)) : QLatin1StringView();
    const bool isLiteral = span == "true" || span == "false" || span == "null";
    const bool isNumber = !isString && !isLiteral && !span.isEmpty() && span.front() != '{' && span.front() != '[';
    auto equalTo = [&]() -> std::optional<bool> {
        if (n.literal.isBool() || n.literal.isNull())
            return isLiteral && span == (n.literal.isNull() ? "null" : n.literal.toBool() ? "true" : "false");
        return std::nullopt;
    };
    auto orderTo = [&]() -> std::optional<std::optional<int>> {
        if (n.literal.isDouble()) {
            double v = 0;
            if (isString) {
                // Plain decimal text only; anything else is left to QString's reading of numbers.
                const char *first = text.data(), *last = text.data() + text.size();
                const bool plain = first != last && (*first == '-' ? last - first > 1 && first[1] >= '0' && first[1] <= '9'
                                                                   : *first >= '0' && *first <= '9');
                if (!plain)
                    return std::nullopt;
                if (auto r = std::from_chars(first, last, v); r.ec != std::errc() || r.ptr != last)
                    return std::nullopt;
            } else if (isNumber) {
                if (auto r = std::from_chars(span.data(), span.data() + span.size(), v);
                    r.ec != std::errc() || r.ptr != span.data() + span.size())
                    return std::nullopt;
            } else {
                return std::optional<int>();
            }
            const double l = n.literal.toDouble();
            return std::optional<int>(v < l ? -1 : v > l ? 1 : 0);
        }
        if (n.literal.isString() && isString) {
            const int c = QString::compare(text, n.literal.toString());
            return std::optional<int>(c < 0 ? -1 : c > 0 ? 1 : 0);
        }
        if (n.literal.isString() && isNumber)
            return std::nullopt; // text of a number as the JSON writer puts it
        return std::optional<int>();
    };
    auto isEqual = [&]() -> std::optional<bool> {
        if (n.literal.isBool() || n.literal.isNull())
            return equalTo();
        const auto o = orderTo();
        if (!o)
            return std::nullopt;
        return *o && **o == 0;
    };
    switch (n.op) {
    case Node::Op::Eq:
        return isEqual();
    case Node::Op::Ne: {
        const auto e = isEqual();
        return e ? std::optional<bool>(!*e) : std::nullopt;
    }
    case Node::Op::Contains:
        if (isString)
            return n.literal.isString() && text.contains(n.literal.toString());
        if (isLiteral || isNumber)
            return false;
        return std::nullopt;
    default:
        break;
    }
    const auto o = orderTo();
    if (!o)
        return std::nullopt;
    if (!*o)
        return false;
    switch (n.op) {
    case Node::Op::Lt:
        return **o < 0;
    case Node::Op::Le:
        return **o <= 0;
    case Node::Op::Gt:
        return **o > 0;
    case Node::Op::Ge:
        return **o >= 0;
    default:
        return false;
    }
}

// evaluate() on display JSON read in place: locate(node) says where the node's path leads; sets *unsure
// when it cannot say.
template <typename Locate> bool evaluateLocated(const Node &n, const Locate &locate, bool *unsure)
{
    switch (n.kind) {
    case Node::Kind::Or:
        return evaluateLocated(*n.left, locate, unsure) || evaluateLocated(*n.right, locate, unsure);
    case Node::Kind::And:
        return evaluateLocated(*n.left, locate, unsure) && evaluateLocated(*n.right, locate, unsure);
    case Node::Kind::Exists:
    case Node::Kind::Compare:
        break;
    }
    const JsonText::Located at = locate(n);
    if (at.state == JsonText::Located::State::Unsure) {
        *unsure = true;
        return false;
    }
    if (at.state == JsonText::Located::State::Missing)
        return false;
    if (n.kind == Node::Kind::Exists)
        return at.span != "null";
    if (const std::optional<bool> quick = compareText(n, at.span))
        return *quick;
    const std::optional<QJsonValue> v = JsonText::valueOf(at.span);
    if (!v) {
        *unsure = true;
        return false;
    }
    return compare(n, [&v](const Node &) { return *v; });
}

// evaluate() on display JSON text.
bool evaluateText(const Node &n, QByteArrayView json, bool *unsure)
{
    return evaluateLocated(
        n, [json](const Node &node) { return JsonText(json).locate(node.utf8Steps); }, unsure);
}

void comparisons(const Node &n, QList<const Node *> &out)
{
    if (n.kind == Node::Kind::Compare)
        out.append(&n);
    if (n.left)
        comparisons(*n.left, out);
    if (n.right)
        comparisons(*n.right, out);
}

} // namespace

FieldFilter FieldFilter::parse(const QString &text, QString *error)
{
    FieldFilter f;
    if (text.trimmed().isEmpty()) {
        *error = u"field filter: empty (e.g. $.customer.id == \"c-42\")"_s;
        return f;
    }
    Parser parser(text);
    f.m_root = parser.parse(error);
    if (f.m_root) {
        f.m_text = text.trimmed();
        f.m_selection = std::make_shared<const PathSelection>(parser.paths());
    }
    return f;
}

QStringList FieldFilter::comparedPaths() const
{
    QList<const Node *> nodes;
    if (m_root)
        comparisons(*m_root, nodes);
    QStringList out;
    for (const Node *n : std::as_const(nodes))
        out.append(n->path);
    return out;
}

QString FieldFilter::maskedComparison(const QList<MaskRule> &rules) const
{
    QList<const Node *> nodes;
    if (m_root)
        comparisons(*m_root, nodes);
    for (const Node *n : std::as_const(nodes)) {
        for (const MaskRule &rule : rules) {
            for (const QString &field : rule.fields) {
                if (PayloadMask::pathsOverlap(n->steps, PayloadMask::pathSteps(field)))
                    return u"%1 is masked for topic %2 (%3): a masked field cannot be searched by value"_s
                        .arg(n->path, rule.topic, field);
            }
        }
    }
    return {};
}

bool FieldFilter::matches(const QJsonValue &root) const
{
    return m_root && evaluate(*m_root, [&root](const Node &n) { return resolve(root, n.steps); });
}

bool FieldFilter::matches(const DecodedPayload &payload) const
{
    if (!m_root || !payload.isJson())
        return false;
    // A schema's display JSON is valid by construction (ARCHITECTURE.md, Contracts: payload display JSON):
    // only the compared values are read out of its text, not the whole document parsed. A path through
    // an escaped member name falls back to parsing it all; both give the same answer.
    if (payload.kind == DecodedPayload::Kind::Schema) {
        bool unsure = false;
        const bool matched = evaluateText(*m_root, payload.json, &unsure);
        if (!unsure)
            return matched;
    }
    return matches(QJsonDocument::fromJson('[' + payload.json + ']').array().at(0));
}

std::optional<bool> FieldFilter::matchesBody(const PayloadSchema &schema, QByteArrayView body,
                                             PathSelection::Values &values) const
{
    if (!m_root || !schema.canSelect())
        return std::nullopt;
    if (!schema.selectBody(body, *m_selection, values).ok || values.unsure)
        return std::nullopt; // the full decode says why, and the payload is not JSON
    // Paths under a selected one: read from its display JSON, as the text reader would.
    for (const PathSelection::Derived &d : m_selection->derived()) {
        if (!values.found(d.ancestor))
            continue;
        const QByteArrayView ancestor = values.at(d.ancestor);
        const JsonText::Located at = JsonText(ancestor).locate(d.steps);
        if (at.state == JsonText::Located::State::Unsure)
            return std::nullopt;
        if (at.state == JsonText::Located::State::Found) {
            const qsizetype begin =
                values.spans[size_t(d.ancestor)].begin + (at.span.data() - ancestor.data());
            values.spans[size_t(d.slot)] = {begin, begin + at.span.size()};
        }
    }
    bool unsure = false;
    const bool matched = evaluateLocated(
        *m_root,
        [&values](const Node &n) -> JsonText::Located {
            if (!values.found(n.slot))
                return JsonText::kMissing;
            return {JsonText::Located::State::Found, values.at(n.slot)};
        },
        &unsure);
    if (unsure)
        return std::nullopt;
    return matched;
}
