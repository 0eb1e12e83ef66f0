#include "confluentwireformat.h"

#include <limits>

using namespace Qt::StringLiterals;

namespace {
// A zig-zag varint of at most 5 bytes (a Java int), as Confluent's serialiser writes it.
bool readZigZag(QByteArrayView bytes, qsizetype *at, qint64 *value)
{
    quint64 raw = 0;
    for (int shift = 0; shift < 35; shift += 7) {
        if (*at >= bytes.size())
            return false;
        const quint8 b = quint8(bytes[(*at)++]);
        raw |= quint64(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *value = qint64(raw >> 1) ^ -qint64(raw & 1);
            return true;
        }
    }
    return false;
}

void writeZigZag(QByteArray &out, qint64 v)
{
    quint64 raw = (quint64(v) << 1) ^ quint64(v >> 63);
    while (raw >= 0x80) {
        out += char(quint8(raw) | 0x80);
        raw >>= 7;
    }
    out += char(raw);
}
} // namespace

namespace ConfluentWireFormat {
Header readHeader(QByteArrayView bytes)
{
    Header h;
    if (bytes.size() < kHeaderSize) {
        h.problem = u"truncated: %1 bytes, a schema-registry header needs 5 (magic byte and schema id)"_s.arg(
            bytes.size());
        return h;
    }
    if (bytes[0] != kMagic) {
        h.problem = u"wrong magic byte 0x%1 (the Confluent wire format starts with 0x00)"_s.arg(
            quint8(bytes[0]), 2, 16, QLatin1Char('0'));
        return h;
    }
    h.schemaId = (quint32(quint8(bytes[1])) << 24) | (quint32(quint8(bytes[2])) << 16)
                 | (quint32(quint8(bytes[3])) << 8) | quint32(quint8(bytes[4]));
    h.body = bytes.sliced(kHeaderSize);
    h.ok = true;
    return h;
}

MessageIndexes readMessageIndexes(QByteArrayView afterHeader)
{
    MessageIndexes m;
    qsizetype at = 0;
    qint64 count = 0;
    if (!readZigZag(afterHeader, &at, &count)) {
        m.problem = u"truncated: the Protobuf message-index list ends early"_s;
        return m;
    }
    if (count < 0 || count > kMaxMessageIndexes) {
        m.problem = u"bad Protobuf message-index count %1"_s.arg(count);
        return m;
    }
    if (count == 0) {
        m.indexes.push_back(0);
    } else {
        for (qint64 k = 0; k < count; ++k) {
            qint64 index = 0;
            if (!readZigZag(afterHeader, &at, &index)) {
                m.problem = u"truncated: the Protobuf message-index list ends early"_s;
                return m;
            }
            if (index < 0 || index > std::numeric_limits<int>::max()) {
                m.problem = u"bad Protobuf message index %1"_s.arg(index);
                return m;
            }
            m.indexes.push_back(int(index));
        }
    }
    m.body = afterHeader.sliced(at);
    m.ok = true;
    return m;
}

QByteArray frame(quint32 schemaId, QByteArrayView body)
{
    QByteArray out;
    out.reserve(kHeaderSize + body.size());
    out += kMagic;
    out += char(schemaId >> 24);
    out += char(schemaId >> 16);
    out += char(schemaId >> 8);
    out += char(schemaId);
    out += body;
    return out;
}

QByteArray frameProtobuf(quint32 schemaId, const std::vector<int> &indexes, QByteArrayView body)
{
    QByteArray list;
    if (indexes.size() == 1 && indexes.front() == 0) {
        list += char(0);
    } else {
        writeZigZag(list, qint64(indexes.size()));
        for (const int i : indexes)
            writeZigZag(list, i);
    }
    list += body;
    return frame(schemaId, list);
}
} // namespace ConfluentWireFormat
