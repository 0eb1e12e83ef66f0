#include "fieldfilter.h"

#include "services/payload/payloadmask.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

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

    // The value at steps: nullopt when the text cannot be read in place (an escaped member name), an
    // Undefined value when the path leads nowhere.
    std::optional<QJsonValue> resolve(const QList<QByteArray> &steps)
    {
        skipSpace();
        for (const QByteArray &step : steps) {
            if (step.startsWith('[')) {
                if (!at('['))
                    return QJsonValue(QJsonValue::Undefined);
                bool ok = false;
                const qint64 index = QByteArrayView(step).sliced(1, step.size() - 2).toLongLong(&ok);
                if (!ok || index < 0)
                    return QJsonValue(QJsonValue::Undefined);
                ++m_p;
                skipSpace();
                if (at(']'))
                    return QJsonValue(QJsonValue::Undefined);
                for (qint64 i = 0; i < index; ++i) {
                    if (!skipValue())
                        return std::nullopt;
                    skipSpace();
                    if (!at(','))
                        return QJsonValue(QJsonValue::Undefined);
                    ++m_p;
                    skipSpace();
                }
            } else {
                if (!at('{'))
                    return QJsonValue(QJsonValue::Undefined);
                ++m_p;
                // The last member of that name counts, as when the document is parsed whole.
                const char *found = nullptr;
                skipSpace();
                while (at('"')) {
                    const char *nameStart = m_p + 1;
                    if (!skipString())
                        return std::nullopt;
                    const QByteArrayView name(nameStart, m_p - 1 - nameStart);
                    if (name.contains('\\'))
                        return std::nullopt;
                    skipSpace();
                    if (!at(':'))
                        return std::nullopt;
                    ++m_p;
                    skipSpace();
                    if (name == QByteArrayView(step))
                        found = m_p;
                    if (!skipValue())
                        return std::nullopt;
                    skipSpace();
                    if (!at(','))
                        break;
                    ++m_p;
                    skipSpace();
                }
                if (!found)
                    return QJsonValue(QJsonValue::Undefined);
                m_p = found;
            }
        }
        return value();
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
    // The value at m_p: plain text and literals directly, anything else parsed from its span alone.
    std::optional<QJsonValue> value()
    {
        const char *start = m_p;
        if (!skipValue())
            return std::nullopt;
        const QByteArrayView span(start, m_p - start);
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

std::optional<QJsonValue> resolveInText(QByteArrayView json, const QList<QByteArray> &steps)
{
    return JsonText(json).resolve(steps);
}

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

void comparisons(const Node &n, QList<const Node *> &out)
{
    if (n.kind == Node::Kind::Compare)
        out.append(&n);
    if (n.left)
        comparisons(*n.left, out);
    if (n.right)
        comparisons(*n.right, out);
}

// Whether two paths overlap: one is the other or lies under it, a rule's [*] standing for any index.
bool overlaps(const QStringList &compared, const QStringList &masked)
{
    const qsizetype n = qMin(compared.size(), masked.size());
    for (qsizetype i = 0; i < n; ++i) {
        if (masked[i] == u"[*]"_s && compared[i].startsWith(u'['))
            continue;
        if (masked[i] != compared[i])
            return false;
    }
    return true;
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
    if (f.m_root)
        f.m_text = text.trimmed();
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
                if (overlaps(n->steps, PayloadMask::pathSteps(field)))
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
        const bool matched = evaluate(*m_root, [&](const Node &n) {
            const std::optional<QJsonValue> v = resolveInText(payload.json, n.utf8Steps);
            if (!v)
                unsure = true;
            return v.value_or(QJsonValue(QJsonValue::Undefined));
        });
        if (!unsure)
            return matched;
    }
    return matches(QJsonDocument::fromJson('[' + payload.json + ']').array().at(0));
}
