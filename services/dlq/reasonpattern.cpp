#include "reasonpattern.h"

#include <array>
#include <cstring>

namespace {
// Bytes of ASCII words; every byte of a non-ASCII character counts as a letter unless it is one of the
// spaces or quotes below.
constexpr auto kWord = [] {
    std::array<bool, 256> t{};
    for (int c = 0; c < 256; ++c)
        t[c] = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'
               || c >= 0x80;
    return t;
}();

constexpr bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

constexpr bool isHex(char c)
{
    return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

struct Special {
    enum Kind { None, Space, Quote } kind = None;
    int length = 0;
    QByteArrayView closing; // for an opening quote
};

// Non-ASCII spaces and quotes at `i` (NBSP, typographic spaces, line separators; “ ” ‘ ’ « »).
Special specialAt(QByteArrayView s, qsizetype i)
{
    const auto at = [&](qsizetype k) { return i + k < s.size() ? quint8(s[i + k]) : 0; };
    const quint8 b0 = at(0);
    if (b0 == 0xc2) {
        if (at(1) == 0xa0)
            return {Special::Space, 2, {}};
        if (at(1) == 0xab)
            return {Special::Quote, 2, "\xc2\xbb"};
        if (at(1) == 0xbb)
            return {Special::Quote, 2, {}};
    } else if (b0 == 0xe2 && at(1) == 0x80) {
        const quint8 b2 = at(2);
        if ((b2 >= 0x80 && b2 <= 0x8a) || b2 == 0xa8 || b2 == 0xa9 || b2 == 0xaf)
            return {Special::Space, 3, {}};
        if (b2 == 0x9c)
            return {Special::Quote, 3, "\xe2\x80\x9d"};
        if (b2 == 0x98)
            return {Special::Quote, 3, "\xe2\x80\x99"};
        if (b2 == 0x9d || b2 == 0x99)
            return {Special::Quote, 3, {}};
    } else if (b0 == 0xe3 && at(1) == 0x80 && at(2) == 0x80) {
        return {Special::Space, 3, {}};
    }
    return {};
}

bool isWordAt(QByteArrayView s, qsizetype i)
{
    if (i >= s.size())
        return false;
    const quint8 b = quint8(s[i]);
    return kWord[b] && (b < 0x80 || specialAt(s, i).kind == Special::None);
}

// What may follow the first word of an address: more of its local part, or the '@'.
bool isEmailJoin(char c)
{
    return c == '.' || c == '%' || c == '+' || c == '-' || c == '@';
}

// Where the word starting at `i` ends (i itself when none starts there).
qsizetype wordEnd(QByteArrayView s, qsizetype i)
{
    for (; i < s.size(); ++i) {
        const quint8 b = quint8(s[i]);
        if (b < 0x80 ? !kWord[b] : !isWordAt(s, i))
            break;
    }
    return i;
}

// Whether the character ending just before `i` is part of a word.
bool wordBefore(QByteArrayView s, qsizetype i)
{
    if (i == 0)
        return false;
    if (quint8(s[i - 1]) < 0x80)
        return kWord[quint8(s[i - 1])];
    for (const int len : {2, 3}) {
        if (i >= len && specialAt(s, i - len).length == len)
            return false;
    }
    return true;
}

qsizetype matchShape(QByteArrayView s, qsizetype at, QByteArrayView shape)
{
    if (at + shape.size() > s.size())
        return 0;
    for (qsizetype k = 0; k < shape.size(); ++k) {
        const char c = s[at + k];
        const char want = shape[k];
        if (!(want == 'h' ? isHex(c) : want == 'd' ? isDigit(c) : c == want))
            return 0;
    }
    return isWordAt(s, at + shape.size()) ? 0 : shape.size();
}

// ISO-8601 date, with optional time, fraction and zone.
qsizetype matchTime(QByteArrayView s, qsizetype at)
{
    const auto digits = [&](qsizetype p, int n) {
        if (p + n > s.size())
            return false;
        for (int k = 0; k < n; ++k) {
            if (!isDigit(s[p + k]))
                return false;
        }
        return true;
    };
    if (!digits(at, 4) || at + 10 > s.size() || s[at + 4] != '-' || !digits(at + 5, 2) || s[at + 7] != '-'
        || !digits(at + 8, 2))
        return 0;
    qsizetype p = at + 10;
    if (p + 6 <= s.size() && (s[p] == 'T' || s[p] == ' ') && digits(p + 1, 2) && s[p + 3] == ':'
        && digits(p + 4, 2)) {
        p += 6;
        if (p + 3 <= s.size() && s[p] == ':' && digits(p + 1, 2))
            p += 3;
        if (p + 1 < s.size() && (s[p] == '.' || s[p] == ',') && isDigit(s[p + 1])) {
            ++p;
            while (p < s.size() && isDigit(s[p]))
                ++p;
        }
        if (p < s.size() && s[p] == 'Z') {
            ++p;
        } else if (p + 3 <= s.size() && (s[p] == '+' || s[p] == '-') && digits(p + 1, 2)) {
            p += 3;
            if (p + 3 <= s.size() && s[p] == ':' && digits(p + 1, 2))
                p += 3;
            else if (digits(p, 2))
                p += 2;
        }
    }
    return isWordAt(s, p) ? 0 : p - at;
}

qsizetype matchEmail(QByteArrayView s, qsizetype at)
{
    const auto local = [&](qsizetype p) {
        const char c = s[p];
        return isWordAt(s, p) || c == '.' || c == '%' || c == '+' || c == '-';
    };
    qsizetype p = at;
    while (p < s.size() && local(p))
        ++p;
    if (p == at || p >= s.size() || s[p] != '@')
        return 0;
    const qsizetype domain = ++p;
    qsizetype lastDot = -1;
    while (p < s.size() && (isWordAt(s, p) || s[p] == '-' || s[p] == '.')) {
        if (s[p] == '.')
            lastDot = p;
        ++p;
    }
    while (p > domain && s[p - 1] == '.') // a sentence's full stop is not part of the address
        --p;
    return lastDot > domain && lastDot < p - 1 ? p - at : 0;
}

// A quoted value on one line: the opening quote starts a word, the closing one ends it.
qsizetype matchQuoted(QByteArrayView s, qsizetype at, QByteArrayView &open, QByteArrayView &close)
{
    const char c = s[at];
    if (c == '"' || c == '\'' || c == '`') {
        open = close = s.sliced(at, 1);
    } else {
        const Special sp = specialAt(s, at);
        if (sp.kind != Special::Quote || sp.closing.isEmpty())
            return 0;
        open = s.sliced(at, sp.length);
        close = sp.closing;
    }
    if (wordBefore(s, at))
        return 0;
    for (qsizetype p = at + open.size(); p < s.size(); ++p) {
        if (s[p] == '\n')
            return 0;
        if (s[p] == '\\' && p + 1 < s.size()) {
            ++p;
            continue;
        }
        if (s[p] == close.front() && s.sliced(p).startsWith(close) && !isWordAt(s, p + close.size()))
            return p + close.size() - at;
    }
    return 0;
}

// What classifyWord returns for a number, this very array: a pointer comparison tells.
constexpr char kNumber[] = "<num>";

QByteArrayView classifyWord(QByteArrayView w)
{
    bool digit = false, letter = false, allHex = true;
    for (const char c : w) {
        digit |= isDigit(c);
        letter |= !isDigit(c);
        allHex &= isHex(c);
    }
    if (!digit)
        return w;
    if (!letter)
        return kNumber;
    if (w.size() > 2 && w[0] == '0' && (w[1] == 'x' || w[1] == 'X')) {
        bool hex = true;
        for (const char c : w.sliced(2))
            hex &= isHex(c);
        if (hex)
            return "<hex>";
    }
    if (allHex && w.size() >= 8)
        return "<hex>";
    return "<id>";
}
} // namespace

QByteArray reasonPatternUtf8(QByteArrayView s, qsizetype maxBytes)
{
    QByteArray out;
    reasonPatternUtf8(s, maxBytes, out);
    return out;
}

namespace {
// The pattern being written: appends into the buffer's own storage, which keeps its capacity from one
// reason to the next (QByteArray's append checks sharing and growth for every piece).
class PatternWriter {
public:
    explicit PatternWriter(QByteArray &out)
        : m_out(out)
    {
        if (m_out.size() < 256)
            m_out.resize(256);
    }
    ~PatternWriter() { m_out.truncate(m_size); }
    qsizetype size() const { return m_size; }
    bool isEmpty() const { return m_size == 0; }
    char at(qsizetype i) const { return m_out.at(i); }
    void truncate(qsizetype n) { m_size = qMin(m_size, n); }
    PatternWriter &operator+=(QByteArrayView piece)
    {
        if (m_size + piece.size() > m_out.size())
            m_out.resize(qMax(m_out.size() * 2, m_size + piece.size()));
        std::memcpy(m_out.data() + m_size, piece.data(), size_t(piece.size()));
        m_size += piece.size();
        return *this;
    }
    PatternWriter &operator+=(char c) { return *this += QByteArrayView(&c, 1); }

private:
    QByteArray &m_out;
    qsizetype m_size = 0;
};
} // namespace

void reasonPatternUtf8(QByteArrayView s, qsizetype maxBytes, QByteArray &buffer)
{
    PatternWriter out(buffer);
    bool pendingSpace = false;
    const auto put = [&](QByteArrayView piece) {
        if (pendingSpace && !out.isEmpty())
            out += ' ';
        pendingSpace = false;
        out += piece;
    };
    qsizetype i = 0;
    while (i < s.size() && out.size() < maxBytes) {
        const char c = s[i];
        const quint8 b = quint8(c);
        if (c == ' ' || (b >= 9 && b <= 13)) {
            pendingSpace = true;
            ++i;
            continue;
        }
        if (b >= 0x80) {
            if (const Special sp = specialAt(s, i); sp.kind == Special::Space) {
                pendingSpace = true;
                i += sp.length;
                continue;
            }
        }
        QByteArrayView open, close;
        if (const qsizetype q = matchQuoted(s, i, open, close)) {
            put(open);
            out += "<str>";
            out += close;
            i += q;
            continue;
        }
        if (isWordAt(s, i) && !wordBefore(s, i)) {
            // The word first: each of the shapes below begins with a word that ends in a given character
            // (a UUID with eight hex digits and '-', a date with four digits and '-', an address's local
            // part with one of ".%+-@"), so a shape is tried only when its word does.
            qsizetype end = wordEnd(s, i);
            const char after = end < s.size() ? s[end] : '\0';
            qsizetype n = 0;
            if (end - i == 8 && after == '-'
                && (n = matchShape(s, i, "hhhhhhhh-hhhh-hhhh-hhhh-hhhhhhhhhhhh"))) {
                put("<uuid>");
            } else if (end - i == 4 && after == '-' && (n = matchTime(s, i))) {
                put("<time>");
            } else if (isEmailJoin(after) && (n = matchEmail(s, i))) {
                put("<email>");
            } else {
                const QByteArrayView word = classifyWord(s.sliced(i, end - i));
                // A decimal fraction belongs to its number: "1.5" is one <num>, not two.
                if (word.data() == kNumber && end + 1 < s.size() && (s[end] == '.' || s[end] == ',')
                    && isDigit(s[end + 1])) {
                    qsizetype frac = end + 1;
                    while (frac < s.size() && isDigit(s[frac]))
                        ++frac;
                    if (!isWordAt(s, frac))
                        end = frac;
                }
                put(word);
                n = end - i;
            }
            i += n;
            continue;
        }
        // One character as it is (all bytes of a non-ASCII one).
        qsizetype len = 1;
        while (i + len < s.size() && (quint8(s[i + len]) & 0xc0) == 0x80)
            ++len;
        put(s.sliced(i, len));
        i += len;
    }
    if (i < s.size()) { // cut: at the same length whatever the words, so cut patterns still match
        qsizetype at = qMin(out.size(), maxBytes);
        while (at > 0 && at < out.size() && (quint8(out.at(at)) & 0xc0) == 0x80)
            --at;
        out.truncate(at);
        out += "\xe2\x80\xa6";
    }
}
