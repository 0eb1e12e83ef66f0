#include "dlqentrystore.h"

#include "services/dlq/largebuffer.h"

#include <cstring>

void DlqEntryStore::clear()
{
    m_entries.clear();
    m_groups.clear();
    m_size = 0;
}

void DlqEntryStore::append(const DlqIndexEntries &entries, const QList<quint32> &groupIds)
{
    append(entries, groupIds, {}, {});
}

void DlqEntryStore::append(const DlqIndexEntries &entries, const QList<quint32> &groupIds,
                           const std::vector<EntryChunk> &spareEntryChunks,
                           const std::vector<GroupChunk> &spareGroupChunks, const DlqScanBatch::InPlace &inPlace)
{
    Q_ASSERT(entries.size() == groupIds.size());
    // The chunk position m_size falls in: one this store holds, or the first spare one it would take.
    const auto chunkAt = [this](const auto &held, const auto &spare, int bits) -> const void * {
        const qsizetype index = qsizetype(m_size >> bits);
        if (index < held.size())
            return held[index].get();
        return spare.empty() ? nullptr : spare.front().get();
    };
    // And the spare chunks must cover every chunk the batch reaches into (those are the writer's too).
    const auto chunksFor = [](qint64 n, int bits) { return (n + (qint64(1) << bits) - 1) >> bits; };
    const qint64 end = qint64(m_size) + entries.size();
    const bool written = inPlace.first >= 0 && inPlace.first == qint64(m_size)
                         && chunkAt(m_entries, spareEntryChunks, ChunkBits) == inPlace.entryChunk
                         && chunkAt(m_groups, spareGroupChunks, GroupChunkBits) == inPlace.groupChunk
                         && chunksFor(end, ChunkBits) - m_entries.size() <= qint64(spareEntryChunks.size())
                         && chunksFor(end, GroupChunkBits) - m_groups.size() <= qint64(spareGroupChunks.size());
    size_t spareEntries = 0, spareGroups = 0;
    for (qsizetype done = 0; done < entries.size();) {
        const quint32 at = m_size & (ChunkSize - 1);
        if (at == 0 && (m_size >> ChunkBits) == quint32(m_entries.size()))
            m_entries.append(spareEntries < spareEntryChunks.size() ? spareEntryChunks[spareEntries++]
                                                                    : LargeBuffer::makeShared<DlqIndexEntry>(ChunkSize));
        const qsizetype n = qMin<qsizetype>(entries.size() - done, ChunkSize - at);
        // Trivially copyable: copying the bytes creates the entries.
        if (!written)
            std::memcpy(static_cast<void *>(m_entries.last().get() + at), entries.constData() + done,
                        size_t(n) * sizeof(DlqIndexEntry));
        done += n;
        m_size += quint32(n);
    }
    quint32 g = m_size - quint32(groupIds.size());
    for (qsizetype done = 0; done < groupIds.size();) {
        const quint32 at = g & (GroupChunkSize - 1);
        if (at == 0 && (g >> GroupChunkBits) == quint32(m_groups.size()))
            m_groups.append(spareGroups < spareGroupChunks.size() ? spareGroupChunks[spareGroups++]
                                                                  : LargeBuffer::makeShared<quint32>(GroupChunkSize));
        const qsizetype n = qMin<qsizetype>(groupIds.size() - done, GroupChunkSize - at);
        if (!written)
            std::memcpy(m_groups.last().get() + at, groupIds.constData() + done, size_t(n) * sizeof(quint32));
        done += n;
        g += quint32(n);
    }
}

DlqEntryStore::Snapshot DlqEntryStore::snapshot() const
{
    Snapshot s;
    s.m_entries = m_entries;
    s.m_groups = m_groups;
    s.m_size = m_size;
    return s;
}
