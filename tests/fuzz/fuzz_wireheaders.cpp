// WireHeaders::read on any record librdkafka would deliver: the input is one v2 record, laid out in a heap
// block of exactly its size (as the first record of a decompressed batch is), so AddressSanitizer stops
// any read before the record's start or past its end. The message handed to read() points where
// librdkafka's reader points (an empty key or value at a string of its own, a null one at nothing). When
// read() accepts, its headers must be what librdkafka's own header parser makes of the same bytes.
#include "services/kafka/wireheaders.h"

#include <QByteArray>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <vector>

namespace {
[[noreturn]] void fail(const char *what)
{
    std::fprintf(stderr, "fuzz_wireheaders: %s\n", what);
    std::abort();
}

struct Reader {
    const uint8_t *at;
    const uint8_t *end;
    bool varint(int64_t &v)
    {
        uint64_t u = 0;
        for (int shift = 0; shift < 70 && at < end; shift += 7) {
            const uint8_t b = *at++;
            if (shift < 64)
                u |= uint64_t(b & 0x7f) << shift;
            if (!(b & 0x80)) {
                v = int64_t(u >> 1) ^ -int64_t(u & 1);
                return true;
            }
        }
        return false;
    }
    // A length-prefixed field as librdkafka reads one: -1 null, 0 empty, else bytes within the buffer.
    bool bytes(const uint8_t *&data, int64_t &len)
    {
        if (!varint(len) || len < -1 || len > end - at)
            return false;
        data = len > 0 ? at : nullptr;
        at += len > 0 ? len : 0;
        return true;
    }
};

struct Header {
    QByteArray name;
    std::optional<QByteArray> value;
};

// The reading of rd_kafka_msg_headers_parse: nullopt where it reports a bad message.
std::optional<std::vector<Header>> librdkafkaHeaders(const uint8_t *from, const uint8_t *to)
{
    std::vector<Header> out;
    Reader r{from, to};
    int64_t count = 0;
    if (from == to)
        return out;
    if (!r.varint(count))
        return std::nullopt;
    if (count <= 0)
        return out;
    if (count > 100000)
        return std::nullopt;
    for (int64_t i = 0; i < count; ++i) {
        int64_t nameLen = 0, valueLen = 0;
        if (!r.varint(nameLen) || nameLen < 0 || nameLen > r.end - r.at)
            return std::nullopt;
        // Handed out as a C string: it ends at the first NUL.
        const QByteArray name(reinterpret_cast<const char *>(r.at), qsizetype(nameLen));
        r.at += nameLen;
        Header h{name.left(name.indexOf('\0') < 0 ? name.size() : name.indexOf('\0')), std::nullopt};
        if (!r.varint(valueLen) || valueLen < -1 || valueLen > r.end - r.at)
            return std::nullopt;
        if (valueLen >= 0) {
            h.value = QByteArray(reinterpret_cast<const char *>(r.at), qsizetype(valueLen));
            r.at += valueLen;
        }
        out.push_back(std::move(h));
    }
    return out;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    // librdkafka's rd_kafka_msgset_reader_msg_v2, for a record it delivers.
    Reader r{data, data + size};
    int64_t length = 0, delta = 0;
    if (!r.varint(length) || length <= 0 || length > r.end - r.at)
        return 0;
    const size_t recordSize = size_t(r.at - data) + size_t(length);
    r.end = data + recordSize;
    if (r.at == r.end)
        return 0;
    ++r.at; // attributes
    const uint8_t *key = nullptr, *value = nullptr;
    int64_t keyLen = 0, valueLen = 0;
    if (!r.varint(delta) || !r.varint(delta) || !r.bytes(key, keyLen) || !r.bytes(value, valueLen))
        return 0;
    const size_t valueEnd = size_t(r.at - data);

    // The record alone, in a block of its own size.
    std::unique_ptr<uint8_t[]> block(new uint8_t[recordSize]);
    std::memcpy(block.get(), data, recordSize);
    const auto moved = [&](const uint8_t *p) { return block.get() + (p - data); };
    static const char kEmpty[] = ""; // librdkafka's for an empty key or value
    rd_kafka_message_t m{};
    m.err = RD_KAFKA_RESP_ERR_NO_ERROR;
    m.key = keyLen < 0 ? nullptr : keyLen == 0 ? const_cast<char *>(kEmpty) : static_cast<void *>(moved(key));
    m.key_len = size_t(keyLen < 0 ? 0 : keyLen);
    m.payload = valueLen < 0    ? nullptr
                : valueLen == 0 ? const_cast<char *>(kEmpty)
                                : static_cast<void *>(moved(value));
    m.len = size_t(valueLen < 0 ? 0 : valueLen);

    std::vector<WireHeaders::Header> read;
    if (!WireHeaders::read(&m, read))
        return 0;
    const auto theirs = librdkafkaHeaders(block.get() + valueEnd, block.get() + recordSize);
    if (!theirs)
        fail("accepted a header section librdkafka refuses");
    if (theirs->size() != read.size())
        fail("a different number of headers");
    for (size_t i = 0; i < read.size(); ++i) {
        const WireHeaders::Header &a = read[i];
        const Header &b = (*theirs)[i];
        if (a.name != QByteArrayView(b.name))
            fail("a different name");
        if ((a.value == nullptr) != !b.value.has_value())
            fail("null where librdkafka has a value, or the other way round");
        if (a.value && QByteArrayView(a.value, a.size) != QByteArrayView(*b.value))
            fail("a different value");
        if (a.value
            && (reinterpret_cast<const uint8_t *>(a.value) < block.get()
                || reinterpret_cast<const uint8_t *>(a.value) + a.size > block.get() + recordSize))
            fail("a value outside the record");
    }
    return 0;
}
