#include "stringpool.h"

#include "largebuffer.h"

#include <QStringEncoder>
#include <QtEndian>

#include <cstring>

using namespace Qt::StringLiterals;

namespace {
// Where a cut string may end: never inside a UTF-8 sequence.
qsizetype utf8Boundary(QByteArrayView bytes, qsizetype at)
{
    while (at > 0 && (quint8(bytes[at]) & 0xc0) == 0x80)
        --at;
    return at;
}
constexpr char kEllipsis[] = "\xe2\x80\xa6";
constexpr quint32 kFirstTableSize = 4096;
constexpr qint64 kReserveAtMost = 2 << 20; // a table of 32 MB
} // namespace

StringPool::StringPool()
{
    grow(kFirstTableSize);
    // Id 0: the empty string, so that "unset" needs no special case in readers.
    append({});
}

StringPool::~StringPool()
{
    for (quint32 c = 0; c < m_chunkCount; ++c)
        LargeBuffer::release(m_chunks[c], ChunkSize);
    for (Slot *slots : m_slotChunks)
        LargeBuffer::release(slots, SlotChunkBytes);
    LargeBuffer::release(m_table, m_tableSize * sizeof(TableEntry));
}

quint32 StringPool::hashBytes(QByteArrayView bytes)
{
    // Eight bytes a step, multiply-xorshift mixing (wyhash's idea): the scan interns a few strings a
    // record, and Qt's seeded qHashBits is SipHash, several times slower on short strings.
    constexpr quint64 kM = 0x9e3779b97f4a7c15ull;
    const char *p = bytes.data();
    qsizetype n = bytes.size();
    quint64 h = quint64(n) * kM;
    auto mix = [](quint64 a, quint64 b) {
        const unsigned __int128 r =
            (unsigned __int128)(a ^ 0xa0761d6478bd642full) * (b ^ 0xe7037ed1a0b428dbull);
        return quint64(r) ^ quint64(r >> 64);
    };
    while (n >= 8) {
        quint64 w;
        std::memcpy(&w, p, 8);
        h = mix(h ^ w, kM);
        p += 8;
        n -= 8;
    }
    if (n > 0) {
        quint64 w = 0;
        std::memcpy(&w, p, size_t(n));
        h = mix(h ^ w, kM + quint64(n));
    }
    h = mix(h, kM);
    return quint32(h ^ (h >> 32));
}

bool StringPool::equals(quint32 id, QByteArrayView bytes) const
{
    const Slot &s = slot(id);
    return s.length == quint32(bytes.size()) && std::memcmp(at(s), bytes.data(), size_t(bytes.size())) == 0;
}

bool StringPool::isRecent(const TableEntry &recent, quint32 hash, QByteArrayView bytes) const
{
    return recent.hash == hash && recent.id != 0 && equals(recent.id, bytes);
}

quint32 StringPool::intern(QByteArrayView bytes)
{
    if (bytes.isEmpty())
        return 0;
    QByteArray cut;
    if (bytes.size() > MaxLength) {
        cut = bytes.first(utf8Boundary(bytes, MaxLength - 3)).toByteArray() + kEllipsis;
        bytes = cut;
    }
    return intern(bytes, hashBytes(bytes));
}

quint32 StringPool::intern(QByteArrayView bytes, quint32 h)
{
    if (bytes.size() > MaxLength)
        return intern(bytes); // cut first: the hash of the whole string is not the one stored
    if (bytes.isEmpty())
        return 0;
    TableEntry &recent = m_recent[h & (RecentSize - 1)];
    if (isRecent(recent, h, bytes))
        return recent.id;
    if (!m_table)
        rebuildLookup();
    const quint32 mask = m_tableSize - 1;
    quint32 i = h & mask;
    for (;; i = (i + 1) & mask) {
        const TableEntry t = m_table[i];
        if (t.id == 0)
            break;
        // Most probes end at the hash, without touching the string.
        if (t.hash == h && equals(t.id, bytes)) {
            recent = t;
            return t.id;
        }
    }
    const quint32 id = append(bytes);
    m_table[i] = TableEntry{h, id};
    recent = m_table[i];
    // At most half full: most look-ups are of new strings, and those probe until a free place.
    if (++m_interned * 2 > m_tableSize)
        grow(m_tableSize * 2);
    return id;
}

void StringPool::prefetch(quint32 hash) const
{
#if defined(__GNUC__)
    if (m_table)
        __builtin_prefetch(m_table + (hash & (m_tableSize - 1)));
#else
    Q_UNUSED(hash);
#endif
}

void StringPool::reserve(qint64 more)
{
    if (!m_table)
        rebuildLookup();
    // At most half full, as intern() keeps it; capped so that a huge topic's estimate cannot claim
    // hundreds of megabytes up front (past it, the table grows as it fills).
    const qint64 wanted = qMin<qint64>(qint64(m_interned) + qMax<qint64>(0, more), kReserveAtMost) * 2;
    quint32 size = m_tableSize;
    while (qint64(size) < wanted)
        size *= 2;
    if (size != m_tableSize)
        grow(size);
}

quint32 StringPool::add(QByteArrayView bytes)
{
    if (bytes.isEmpty())
        return 0;
    if (bytes.size() > MaxLength)
        return intern(bytes); // cuts it
    return append(bytes);
}

quint32 StringPool::addUnlessRecent(QByteArrayView bytes)
{
    if (bytes.isEmpty() || bytes.size() > MaxLength)
        return add(bytes);
    const quint32 h = hashBytes(bytes);
    TableEntry &recent = m_recentAdded[h & (RecentSize - 1)];
    if (isRecent(recent, h, bytes))
        return recent.id;
    recent = TableEntry{h, append(bytes)};
    return recent.id;
}

QByteArrayView StringPool::toUtf8(QStringView text, QByteArray &buffer)
{
    if (text.isEmpty())
        return {};
    QStringEncoder encoder(QStringConverter::Utf8, QStringConverter::Flag::Stateless);
    const qsizetype needed = encoder.requiredSpace(text.size());
    if (buffer.size() < needed)
        buffer.resize(needed);
    char *end = encoder.appendToBuffer(buffer.data(), text);
    return QByteArrayView(buffer.constData(), end - buffer.constData());
}

quint32 StringPool::intern(QStringView text)
{
    return intern(toUtf8(text, m_utf8));
}

quint32 StringPool::internPair(quint32 first, quint32 second)
{
    if (first == 0 && second == 0)
        return 0;
    char bytes[8];
    qToLittleEndian(first, bytes);
    qToLittleEndian(second, bytes + 4);
    return intern(QByteArrayView(bytes, 8));
}

quint32 StringPool::append(QByteArrayView bytes)
{
    const quint32 id = m_count.load(std::memory_order_relaxed);
    Q_ASSERT_X(id < quint32(MaxSlotChunks) << SlotBits, "StringPool", "too many strings");
    if (quint32(bytes.size()) > ChunkSize - m_chunkUsed) {
        Q_ASSERT_X(m_chunkCount < MaxChunks, "StringPool", "out of chunks");
        m_chunks[m_chunkCount++] = static_cast<char *>(LargeBuffer::allocate(ChunkSize));
        m_chunkUsed = 0;
    }
    const quint32 position = ((m_chunkCount - 1) << ChunkBits) | m_chunkUsed;
    if (!bytes.isEmpty())
        std::memcpy(m_chunks[m_chunkCount - 1] + m_chunkUsed, bytes.data(), size_t(bytes.size()));
    m_chunkUsed += quint32(bytes.size());
    Slot *&slots = m_slotChunks[id >> SlotBits];
    if (!slots)
        slots = static_cast<Slot *>(LargeBuffer::allocate(SlotChunkBytes));
    slots[id & ((1u << SlotBits) - 1)] = Slot{position, quint32(bytes.size())};
    // Release: a reader that sees the new count also sees the bytes and the slot.
    m_count.store(id + 1, std::memory_order_release);
    return id;
}

void StringPool::grow(quint32 size)
{
    auto *table =
        static_cast<TableEntry *>(LargeBuffer::allocateRandomAccess(size * sizeof(TableEntry))); // zeroed
    const quint32 mask = size - 1;
    for (quint32 k = 0; k < m_tableSize; ++k) {
        const TableEntry t = m_table[k];
        if (t.id == 0)
            continue;
        for (quint32 i = t.hash & mask;; i = (i + 1) & mask) {
            if (table[i].id == 0) {
                table[i] = t;
                break;
            }
        }
    }
    LargeBuffer::release(m_table, m_tableSize * sizeof(TableEntry));
    m_table = table;
    m_tableSize = size;
}

void StringPool::releaseLookup()
{
    LargeBuffer::release(m_table, m_tableSize * sizeof(TableEntry));
    m_table = nullptr;
    m_tableSize = 0;
    m_interned = 0;
    m_recent = {};
    m_recentAdded = {};
}

void StringPool::rebuildLookup()
{
    // Every stored string, added ones too: an equal string interned later may then get their id.
    const quint32 n = count();
    quint32 size = kFirstTableSize;
    while (size < n * 2 + 2)
        size *= 2;
    grow(size);
    const quint32 mask = size - 1;
    for (quint32 id = 1; id < n; ++id) {
        const quint32 h = hashBytes(bytes(id));
        quint32 i = h & mask;
        while (m_table[i].id != 0) {
            if (m_table[i].hash == h && equals(m_table[i].id, bytes(id)))
                break; // an equal string is in already: the first id keeps it
            i = (i + 1) & mask;
        }
        if (m_table[i].id == 0) {
            m_table[i] = TableEntry{h, id};
            ++m_interned;
        }
    }
}

QByteArrayView StringPool::bytes(quint32 id) const
{
    if (id == 0 || id >= count())
        return {};
    const Slot &s = slot(id);
    return QByteArrayView(at(s), qsizetype(s.length));
}

QString StringPool::text(quint32 id) const
{
    return QString::fromUtf8(bytes(id));
}

std::pair<quint32, quint32> StringPool::pair(quint32 id) const
{
    const QByteArrayView b = bytes(id);
    if (b.size() != 8)
        return {0, 0};
    return {qFromLittleEndian<quint32>(b.data()), qFromLittleEndian<quint32>(b.data() + 4)};
}

quint32 StringPool::hash(quint32 id) const
{
    return id < count() ? hashBytes(bytes(id)) : 0;
}

qint64 StringPool::memoryBytes() const
{
    const qint64 slotChunks = (qint64(count()) >> SlotBits) + 1;
    return qint64(m_chunkCount) * ChunkSize + slotChunks * qint64(SlotChunkBytes)
           + qint64(m_tableSize) * qint64(sizeof(TableEntry)) + qint64(sizeof(StringPool));
}
