#pragma once

#include <QByteArrayView>
#include <QString>

#include <array>
#include <atomic>
#include <memory>
#include <utility>
#include <vector>

// Interns byte strings (UTF-8 text, raw key bytes) as dense 32-bit ids; id 0 is the empty string.
//
// One writer thread interns (the DLQ scanner's). Any thread may read the ids it has been handed: stored
// bytes never move and are never freed while the pool lives, so a hand-over that synchronises (a queued
// signal) is all a reader needs, no lock. Bookkeeping is about 20 bytes per distinct string, which
// matters because exception messages often carry ids and are then all distinct.
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
    quint32 intern(QStringView text); // stored as UTF-8
    // Two ids as one (e.g. original topic + consumer): the pair's 8 bytes are interned like a string.
    quint32 internPair(quint32 first, quint32 second);
    // Stores without looking for an equal string: for strings that are nearly always new (record keys),
    // where the look-up would only cost. Equal strings may then have different ids.
    quint32 add(QByteArrayView bytes);

    // Any thread, for ids it was handed.
    QByteArrayView bytes(quint32 id) const;
    QString text(quint32 id) const; // invalid UTF-8 becomes U+FFFD
    std::pair<quint32, quint32> pair(quint32 id) const;
    quint32 hash(quint32 id) const; // of the stored bytes; equal strings have equal ids anyway

    quint32 count() const { return m_count.load(std::memory_order_acquire); }
    qint64 memoryBytes() const; // approximate, for benchmarks and the status line

    static quint32 hashBytes(QByteArrayView bytes);

private:
    struct Slot {
        quint32 position; // chunk index << ChunkBits | offset in chunk
        quint32 length;
        quint32 hash;
    };
    static constexpr int ChunkBits = 20; // 1 MiB byte chunks
    static constexpr quint32 ChunkSize = 1u << ChunkBits;
    static constexpr int MaxChunks = 4096;      // 4 GiB of distinct strings
    static constexpr int SlotBits = 14;         // 16384 slots per slot chunk
    static constexpr int MaxSlotChunks = 16384; // 268M distinct strings

    const Slot &slot(quint32 id) const { return m_slotChunks[id >> SlotBits][id & ((1u << SlotBits) - 1)]; }
    quint32 append(QByteArrayView bytes, quint32 hash);
    void grow(quint32 size);

    // Fixed-size pointer tables: they never reallocate, so readers never see them move.
    std::array<std::unique_ptr<char[]>, MaxChunks> m_chunks;
    std::array<std::unique_ptr<Slot[]>, MaxSlotChunks> m_slotChunks;
    quint32 m_chunkCount = 0;
    quint32 m_chunkUsed = ChunkSize; // forces the first chunk
    std::atomic<quint32> m_count = 0;
    // Writer-side open addressing table (id 0: an empty place; the empty string is never stored in it).
    struct TableEntry {
        quint32 hash;
        quint32 id;
    };
    std::unique_ptr<TableEntry[]> m_table;
    quint32 m_tableSize = 0; // a power of two
    QByteArray m_utf8;       // writer's conversion buffer
};
