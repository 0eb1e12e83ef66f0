#pragma once

#include <QByteArray>
#include <QByteArrayView>

#include <charconv>
#include <cmath>
#include <cstdint>

// Writes the compact display JSON the schema decoders produce (ARCHITECTURE.md, Contracts: payload
// display JSON). Text is escaped so that any bytes give valid JSON: invalid UTF-8 becomes U+FFFD, control
// characters are escaped. 64-bit integers are numbers when a double holds them exactly, else strings.
class DisplayJsonWriter final {
public:
    explicit DisplayJsonWriter(QByteArray &out)
        : m_out(out)
    {
    }

    // Largest integer a JSON reader with doubles (JavaScript, QJsonValue) reads back exactly.
    static constexpr int64_t kExactIntegerLimit = int64_t(1) << 53;

    void beginObject() { comma(); m_out += '{'; m_first = true; }
    void endObject() { m_out += '}'; m_first = false; }
    void beginArray() { comma(); m_out += '['; m_first = true; }
    void endArray() { m_out += ']'; m_first = false; }
    // An object member's name; the value written next is its value.
    // A member name already rendered by renderKey (quotes, escapes and colon): schemas keep theirs.
    void renderedKey(QByteArrayView rendered)
    {
        comma();
        m_out += rendered;
        m_first = true;
    }
    static QByteArray renderKey(QByteArrayView name)
    {
        QByteArray out;
        DisplayJsonWriter w(out);
        w.key(name);
        return out;
    }
    void key(QByteArrayView name)
    {
        comma();
        string(name);
        m_out += ':';
        m_first = true; // the value follows without a comma
    }
    void null() { comma(); m_out += "null"; }
    void boolean(bool b) { comma(); m_out += b ? "true" : "false"; }
    void integer(int64_t v) { wholeNumber(v > -kExactIntegerLimit && v < kExactIntegerLimit, qlonglong(v)); }
    void unsignedInteger(uint64_t v) { wholeNumber(v < uint64_t(kExactIntegerLimit), qulonglong(v)); }
    // NaN and the infinities have no JSON number: they are written as the strings "NaN", "Infinity".
    // The shortest text that reads back as the same value (9.99, not 9.9900000000000002).
    void number(double v) { floating(v); }
    void number(float v) { floating(double(v), true); }
    void text(QByteArrayView utf8) { comma(); string(utf8); }
    // Raw bytes as base64 text.
    void base64(QByteArrayView bytes)
    {
        comma();
        m_out += '"';
        m_out += bytes.toByteArray().toBase64();
        m_out += '"';
    }
    // Already valid JSON (e.g. a nested document), written as it is.
    void raw(QByteArrayView json) { comma(); m_out += json; }

private:
    template <typename Integer> void wholeNumber(bool exact, Integer v)
    {
        comma();
        char buffer[24];
        const auto end = std::to_chars(buffer, buffer + sizeof buffer, v).ptr;
        if (!exact)
            m_out += '"';
        m_out.append(buffer, end - buffer);
        if (!exact)
            m_out += '"';
    }
    void floating(double v, bool isFloat = false)
    {
        comma();
        if (std::isnan(v)) {
            m_out += "\"NaN\"";
        } else if (std::isinf(v)) {
            m_out += v > 0 ? "\"Infinity\"" : "\"-Infinity\"";
        } else {
            char buffer[32];
            const auto end = isFloat ? std::to_chars(buffer, buffer + sizeof buffer, float(v)).ptr
                                     : std::to_chars(buffer, buffer + sizeof buffer, v).ptr;
            m_out.append(buffer, end - buffer);
        }
    }
    void comma()
    {
        if (!m_first)
            m_out += ',';
        m_first = false;
    }
    void string(QByteArrayView s)
    {
        static constexpr char kHex[] = "0123456789abcdef";
        m_out += '"';
        const auto *p = reinterpret_cast<const unsigned char *>(s.data());
        const qsizetype n = s.size();
        qsizetype i = 0;
        while (i < n) {
            const unsigned char c = p[i];
            if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
                qsizetype j = i + 1;
                while (j < n && p[j] >= 0x20 && p[j] < 0x80 && p[j] != '"' && p[j] != '\\')
                    ++j;
                m_out.append(reinterpret_cast<const char *>(p + i), j - i);
                i = j;
                continue;
            }
            if (c < 0x80) {
                m_out += '\\';
                switch (c) {
                case '"': m_out += '"'; break;
                case '\\': m_out += '\\'; break;
                case '\n': m_out += 'n'; break;
                case '\t': m_out += 't'; break;
                case '\r': m_out += 'r'; break;
                default:
                    m_out += "u00";
                    m_out += kHex[c >> 4];
                    m_out += kHex[c & 15];
                }
                ++i;
                continue;
            }
            const qsizetype len = utf8SequenceLength(p + i, n - i);
            if (len == 0) {
                m_out += "\xef\xbf\xbd"; // U+FFFD for a byte that starts no valid sequence
                ++i;
            } else {
                m_out.append(reinterpret_cast<const char *>(p + i), len);
                i += len;
            }
        }
        m_out += '"';
    }
    // Length of the well-formed UTF-8 sequence at p (RFC 3629: no overlongs, no surrogates), else 0.
    static qsizetype utf8SequenceLength(const unsigned char *p, qsizetype avail)
    {
        const unsigned char c = p[0];
        auto cont = [&](qsizetype k) { return k < avail && (p[k] & 0xc0) == 0x80; };
        if (c >= 0xc2 && c <= 0xdf)
            return cont(1) ? 2 : 0;
        if (c >= 0xe0 && c <= 0xef) {
            if (!cont(1) || !cont(2))
                return 0;
            if ((c == 0xe0 && p[1] < 0xa0) || (c == 0xed && p[1] >= 0xa0))
                return 0;
            return 3;
        }
        if (c >= 0xf0 && c <= 0xf4) {
            if (!cont(1) || !cont(2) || !cont(3))
                return 0;
            if ((c == 0xf0 && p[1] < 0x90) || (c == 0xf4 && p[1] >= 0x90))
                return 0;
            return 4;
        }
        return 0;
    }

    QByteArray &m_out;
    bool m_first = true;
};
