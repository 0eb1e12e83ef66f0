#pragma once

#include "services/dlq/dlqindexentry.h"
#include "services/dlq/dlqscantypes.h"

#include <QList>

#include <memory>
#include <vector>

// The browser's entries, append-only, in chunks that never move: a snapshot for a background job is a
// list of chunk pointers and a count (no copy of a million entries), and the job reads below that count
// while the UI thread appends above it.
class DlqEntryStore final {
public:
    static constexpr int ChunkBits = DlqIndexChunks::EntryBits;
    static constexpr quint32 ChunkSize = 1u << ChunkBits;
    static constexpr int GroupChunkBits = DlqIndexChunks::GroupBits;
    static constexpr quint32 GroupChunkSize = 1u << GroupChunkBits;

    // LargeBuffer memory, every page populated when the chunk is mapped (so appending never faults pages
    // in on the UI thread), shared with the snapshots of background jobs; entries are copied in as they
    // arrive.
    using EntryChunk = DlqIndexChunks::EntryChunk;
    using GroupChunk = DlqIndexChunks::GroupChunk;

    class Snapshot {
    public:
        quint32 size() const { return m_size; }
        const DlqIndexEntry &at(quint32 i) const
        {
            return m_entries[i >> ChunkBits].get()[i & (ChunkSize - 1)];
        }
        quint32 groupOf(quint32 i) const
        {
            return m_groups[i >> GroupChunkBits].get()[i & (GroupChunkSize - 1)];
        }

    private:
        friend class DlqEntryStore;
        QList<EntryChunk> m_entries;
        QList<GroupChunk> m_groups;
        quint32 m_size = 0;
    };

    void clear();
    void append(const DlqIndexEntries &entries, const QList<quint32> &groupIds);
    // The same, taking new chunks from spare ones (zero-filled, of the sizes above) before mapping any. When
    // inPlace names this store's position and chunks, the entries are already in them: nothing is copied.
    void append(const DlqIndexEntries &entries, const QList<quint32> &groupIds,
                const std::vector<EntryChunk> &spareEntryChunks,
                const std::vector<GroupChunk> &spareGroupChunks, const DlqScanBatch::InPlace &inPlace = {});
    quint32 size() const { return m_size; }
    const DlqIndexEntry &at(quint32 i) const { return m_entries[i >> ChunkBits].get()[i & (ChunkSize - 1)]; }
    quint32 groupOf(quint32 i) const { return m_groups[i >> GroupChunkBits].get()[i & (GroupChunkSize - 1)]; }
    Snapshot snapshot() const;
    qint64 memoryBytes() const
    {
        return qint64(m_entries.size()) * ChunkSize * qint64(sizeof(DlqIndexEntry))
               + qint64(m_groups.size()) * GroupChunkSize * qint64(sizeof(quint32));
    }

private:
    QList<EntryChunk> m_entries;
    QList<GroupChunk> m_groups;
    quint32 m_size = 0;
};
