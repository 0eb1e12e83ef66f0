#pragma once

#include "services/dlq/dlqindexentry.h"

#include <QList>

#include <memory>

// The browser's entries, append-only, in chunks that never move: a snapshot for a background job is a
// list of chunk pointers and a count (no copy of a million entries), and the job reads below that count
// while the UI thread appends above it.
class DlqEntryStore final {
public:
    static constexpr int ChunkBits = 16;
    static constexpr quint32 ChunkSize = 1u << ChunkBits;

    struct Chunk {
        // Raw storage: a chunk is not initialised up front (entries are copied in as they arrive).
        alignas(DlqIndexEntry) unsigned char bytes[ChunkSize * sizeof(DlqIndexEntry)];
        quint32 groups[ChunkSize];
        const DlqIndexEntry *entries() const { return reinterpret_cast<const DlqIndexEntry *>(bytes); }
        DlqIndexEntry *entries() { return reinterpret_cast<DlqIndexEntry *>(bytes); }
    };

    class Snapshot {
    public:
        quint32 size() const { return m_size; }
        const DlqIndexEntry &at(quint32 i) const { return m_chunks[i >> ChunkBits]->entries()[i & (ChunkSize - 1)]; }
        quint32 groupOf(quint32 i) const { return m_chunks[i >> ChunkBits]->groups[i & (ChunkSize - 1)]; }

    private:
        friend class DlqEntryStore;
        QList<std::shared_ptr<const Chunk>> m_chunks;
        quint32 m_size = 0;
    };

    void clear();
    void append(const DlqIndexEntries &entries, const QList<quint32> &groupIds);
    quint32 size() const { return m_size; }
    const DlqIndexEntry &at(quint32 i) const { return m_chunks[i >> ChunkBits]->entries()[i & (ChunkSize - 1)]; }
    quint32 groupOf(quint32 i) const { return m_chunks[i >> ChunkBits]->groups[i & (ChunkSize - 1)]; }
    Snapshot snapshot() const;
    qint64 memoryBytes() const { return qint64(m_chunks.size()) * qint64(sizeof(Chunk)); }

private:
    QList<std::shared_ptr<Chunk>> m_chunks;
    quint32 m_size = 0;
};
