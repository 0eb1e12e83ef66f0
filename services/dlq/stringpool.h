#pragma once

#include <QByteArrayView>
#include <QString>

#include <array>
#include <atomic>
#include <utility>

// Interns byte strings (UTF-8 text, raw key bytes) as dense 32-bit ids; id 0 is the empty string.
//
// One writer thread interns (the DLQ scanner's). Any thread may read the ids it has been handed: stored
// bytes never move and are never freed while the pool lives, so a hand-over that synchronises (a queued
// signal) is all a reader needs, no lock. Bookkeeping is 8 bytes per string, plus the writer's look-up
// table (8 to 16 bytes per distinct interned string) until the writer is done: exception messages often
// carry ids and are then all distinct, so a million dead letters make a million strings.
class StringPool final {
public:
    // Longer strings are cut at a UTF-8 boundary and end in "…": the index shows summaries, the
    // inspector shows the record itself.
    static constexpr qsizetype MaxLength = 64 * 1024;

    StringPool();
    ~StringPool();
    StringPool(const StringPool &) = delete;
    StringPool &operator=(const StringPool &) = delete;

    // Writer thread only.
    quint32 intern(QByteArrayView bytes);
    // The same with hashBytes(bytes) known (see prefetch()); a string longer than MaxLength is hashed
    // again once cut.
    quint32 intern(QByteArrayView bytes, quint32 hash);
    // Loads the look-up table's place for a hash ahead of intern(bytes, hash): a writer that knows its
    // next strings spares itself the wait on memory, as the table of a large scan outgrows the caches.
    void prefetch(quint32 hash) const;
    // Room in the look-up table for this many more interned strings (up to a few million), so that a scan
    // that knows its size does not rehash the table as it goes.
    void reserve(qint64 more);
    quint32 intern(QStringView text); // stored as UTF-8
    // Two ids as one (e.g. original topic + consumer): the pair's 8 bytes are interned like a string.
    quint32 internPair(quint32 first, quint32 second);
    // Stores without looking for an equal string: for strings that are nearly always new (record keys),
    // where the look-up would only cost. Equal strings may then have different ids.
    quint32 add(QByteArrayView bytes);
    // Between the two: reuses the id of an equal string among the recently added ones (a small cache, not
    // the look-up table), else stores it. For strings that repeat in runs or not at all (failure reasons,
    // which mostly carry ids): repeats share their bytes, and the rest cost no look-up. Its ids are never
    // handed out by intern(), so interned ids stay one per string.
    quint32 addUnlessRecent(QByteArrayView bytes);
    // The writer is done for now (a scan ended): frees the look-up table. A later intern() builds it
    // again, from every stored string.
    void releaseLookup();

    // Any thread, for ids it was handed.
    QByteArrayView bytes(quint32 id) const;
    QString text(quint32 id) const; // invalid UTF-8 becomes U+FFFD
    std::pair<quint32, quint32> pair(quint32 id) const;
    quint32 hash(quint32 id) const; // hashBytes() of the stored bytes

    quint32 count() const { return m_count.load(std::memory_order_acquire); }
    qint64 memoryBytes() const; // approximate, for benchmarks and the status line

    static quint32 hashBytes(QByteArrayView bytes);
    // text in UTF-8, as intern(QStringView) stores it; buffer holds the bytes.
    static QByteArrayView toUtf8(QStringView text, QByteArray &buffer);
    // The bytes of a string interning depends on: a longer one is cut within them (so a copy of these
    // is interned exactly as the whole string).
    static QByteArrayView significant(QByteArrayView bytes) { return bytes.first(qMin(bytes.size(), MaxLength + 1)); }

private:
    struct Slot {
        quint32 position; // chunk index << ChunkBits | offset in chunk
        quint32 length;
    };
    static constexpr int ChunkBits = 20; // 1 MiB byte chunks
    static constexpr quint32 ChunkSize = 1u << ChunkBits;
    static constexpr int MaxChunks = 4096;     // 4 GiB of strings
    static constexpr int SlotBits = 16;        // 65536 slots (512 KiB) per slot chunk
    static constexpr int MaxSlotChunks = 4096; // 268M strings
    static constexpr size_t SlotChunkBytes = sizeof(Slot) << SlotBits;

    const Slot &slot(quint32 id) const { return m_slotChunks[id >> SlotBits][id & ((1u << SlotBits) - 1)]; }
    const char *at(const Slot &s) const { return m_chunks[s.position >> ChunkBits] + (s.position & (ChunkSize - 1)); }
    bool equals(quint32 id, QByteArrayView bytes) const;
    quint32 append(QByteArrayView bytes);
    void grow(quint32 size);
    void rebuildLookup();

    // Fixed-size pointer tables: they never reallocate, so readers never see them move. The blocks are
    // LargeBuffer memory: a scan fills them at once.
    std::array<char *, MaxChunks> m_chunks{};
    std::array<Slot *, MaxSlotChunks> m_slotChunks{};
    quint32 m_chunkCount = 0;
    quint32 m_chunkUsed = ChunkSize; // forces the first chunk
    std::atomic<quint32> m_count = 0;

    // Writer side. An open addressing table of the interned strings (id 0: a free place; the empty
    // string is never in it), and in front of it a small direct-mapped cache of recent hits: the
    // strings that repeat (exception classes, topics, consumers) are found without touching the table,
    // which outgrows the processor's caches.
    struct TableEntry {
        quint32 hash;
        quint32 id;
    };
    static constexpr quint32 RecentSize = 256;
    bool isRecent(const TableEntry &recent, quint32 hash, QByteArrayView bytes) const;
    TableEntry *m_table = nullptr;
    quint32 m_tableSize = 0; // a power of two
    quint32 m_interned = 0;  // entries in m_table
    std::array<TableEntry, RecentSize> m_recent{};
    std::array<TableEntry, RecentSize> m_recentAdded{}; // addUnlessRecent()'s own
    QByteArray m_utf8; // conversion buffer
};
