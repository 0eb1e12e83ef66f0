#include "wireheaders.h"

#include <cstring>

namespace {
using Byte = unsigned char;

// librdkafka refuses a record announcing more headers than this (rd_kafka_message_headers: bad message).
constexpr qint64 kMaxHeaderCount = 100000;

// A zigzag varint (the v2 record format's numbers) read forwards from `at`, never at or past `end`.
bool readVarint(const Byte *&at, const Byte *end, qint64 &value)
{
    quint64 u = 0;
    for (int shift = 0; shift < 64 && at < end; shift += 7) {
        const Byte b = *at++;
        u |= quint64(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            value = qint64(u >> 1) ^ -qint64(u & 1);
            return true;
        }
    }
    return false;
}

int varintSize(qint64 v)
{
    quint64 u = (quint64(v) << 1) ^ quint64(v >> 63);
    int n = 1;
    for (; u >= 0x80; u >>= 7)
        ++n;
    return n;
}

// Are the bytes just before `end` the varint of `expected`, and nothing more? Its start, or nullptr.
const Byte *varintOfBefore(const Byte *end, qint64 expected)
{
    const Byte *start = end - varintSize(expected);
    const Byte *at = start;
    qint64 value = 0;
    return readVarint(at, end, value) && at == end && value == expected ? start : nullptr;
}

// The start of the varint that ends just before `end`, whose byte before it ends another field (no
// continuation bit); nullptr when the bytes do not read so within maxBytes.
const Byte *varintStartBefore(const Byte *end, int maxBytes)
{
    const Byte *at = end - 1;
    if (*at & 0x80)
        return nullptr;
    for (int n = 1; at[-1] & 0x80; ++n) {
        if (n == maxBytes)
            return nullptr;
        --at;
    }
    return at;
}

// Whether the bytes hold a NUL, eight at a time: names are short, and a call to memchr for each header of
// each record cost the scan about as much as the rest of reading them.
bool hasNul(const Byte *p, qint64 n)
{
    constexpr quint64 kOnes = 0x0101010101010101ull;
    constexpr quint64 kHighs = 0x8080808080808080ull;
    for (; n >= 8; p += 8, n -= 8) {
        quint64 v = 0;
        std::memcpy(&v, p, 8);
        if ((v - kOnes) & ~v & kHighs)
            return true;
    }
    for (; n > 0; ++p, --n) {
        if (!*p)
            return true;
    }
    return false;
}

// The header section [at, end): true when it holds exactly the headers it announces.
bool parse(const Byte *at, const Byte *end, std::vector<WireHeaders::Header> &out)
{
    qint64 count = 0;
    if (!readVarint(at, end, count) || count > kMaxHeaderCount)
        return false;
    // Each header takes two bytes at least: a count the section cannot hold reserves nothing it would not.
    out.reserve(size_t(qBound(qint64(0), count, qint64((end - at) / 2))));
    for (qint64 i = 0; i < count; ++i) {
        qint64 nameSize = 0, valueSize = 0;
        if (!readVarint(at, end, nameSize) || nameSize < 0 || nameSize > end - at)
            return false;
        const Byte *name = at;
        // librdkafka hands names out as C strings: one holding a NUL byte would read shorter there.
        if (hasNul(name, nameSize))
            return false;
        at += nameSize;
        if (!readVarint(at, end, valueSize) || valueSize < -1 || valueSize > end - at)
            return false;
        WireHeaders::Header h;
        h.name = QByteArrayView(reinterpret_cast<const char *>(name), qsizetype(nameSize));
        if (valueSize >= 0) {
            h.value = reinterpret_cast<const char *>(at);
            h.size = qsizetype(valueSize);
            at += valueSize;
        }
        out.push_back(h);
    }
    return at == end;
}
} // namespace

namespace WireHeaders {
bool read(const rd_kafka_message_t *m, std::vector<Header> &out)
{
    out.clear();
    if (m->err)
        return false; // an event, not a record
    // Where the value's size field sits. librdkafka hands an empty or null value (and an empty key) out
    // as a pointer of its own, not into the buffer: then the key's end places it, or nothing does.
    const auto *key = static_cast<const Byte *>(m->key);
    const Byte *valueSizeAt = nullptr;
    const Byte *headers = nullptr;
    if (m->len > 0 && m->payload) {
        const auto *value = static_cast<const Byte *>(m->payload);
        valueSizeAt = varintOfBefore(value, qint64(m->len));
        headers = value + m->len;
    } else if (key && m->key_len > 0 && key[m->key_len] == (m->payload ? 0x00 : 0x01)) { // 0 or -1
        valueSizeAt = key + m->key_len;
        headers = valueSizeAt + 1;
    }
    if (!valueSizeAt)
        return false;
    const Byte *keySizeAt = nullptr;
    if (!key)
        keySizeAt = valueSizeAt[-1] == 0x01 ? valueSizeAt - 1 : nullptr; // -1, zigzagged
    else if (m->key_len == 0)
        keySizeAt = valueSizeAt[-1] == 0x00 ? valueSizeAt - 1 : nullptr;
    else if (key + m->key_len == valueSizeAt)
        keySizeAt = varintOfBefore(key, qint64(m->key_len));
    if (!keySizeAt)
        return false;
    // Before the key: Length, attributes (one byte), timestamp delta, offset delta. Each delta ends in a
    // byte without the continuation bit, so stepping back over them is exact up to the attributes byte,
    // which the format leaves unused: zero. Any other value is declined, and that also catches a step back
    // that went too far (past attributes with the continuation bit, onto the last byte of Length, which is
    // never zero): so everything read lies within the record.
    const Byte *offsetDeltaAt = varintStartBefore(keySizeAt, 5);
    const Byte *timestampDeltaAt = offsetDeltaAt ? varintStartBefore(offsetDeltaAt, 10) : nullptr;
    if (!timestampDeltaAt || timestampDeltaAt[-1] != 0)
        return false;
    const Byte *attributes = timestampDeltaAt - 1;
    // Length counts from the attributes byte to the record's end, which librdkafka checked lies at or past
    // the value's end (else it would not have delivered the record). Read backwards, where Length starts is
    // ambiguous: the byte before it belongs to the previous record. A shorter reading gives a far smaller
    // length (a varint's first byte holds its lowest bits), so the first reading that reaches the value's
    // end decides: it is never longer than the real one, so nothing before the record's start or past its
    // end is read. (A record whose headers outweigh the rest a hundredfold can have a shorter reading
    // decide: it is declined. So is one whose Length ends at the value, with no header count at all.)
    if (attributes[-1] & 0x80)
        return false;
    for (int k = 1; k <= 5; ++k) {
        const Byte *lengthAt = attributes - k;
        if (k > 1 && !(*lengthAt & 0x80))
            return false;
        const Byte *at = lengthAt;
        qint64 length = 0;
        if (!readVarint(at, attributes, length) || at != attributes)
            return false;
        if (length >= headers - attributes) {
            if (length > headers - attributes && parse(headers, attributes + length, out))
                return true;
            out.clear();
            return false;
        }
    }
    return false;
}
} // namespace WireHeaders
