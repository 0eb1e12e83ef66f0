#include "dlqentrystore.h"

#include <cstring>

void DlqEntryStore::clear()
{
    m_chunks.clear();
    m_size = 0;
}

void DlqEntryStore::append(const DlqIndexEntries &entries, const QList<quint32> &groupIds)
{
    Q_ASSERT(entries.size() == groupIds.size());
    qsizetype done = 0;
    while (done < entries.size()) {
        const quint32 inChunk = m_size & (ChunkSize - 1);
        if (inChunk == 0 && (m_size >> ChunkBits) == quint32(m_chunks.size()))
            m_chunks.append(std::make_shared_for_overwrite<Chunk>());
        Chunk &chunk = *m_chunks.last();
        const qsizetype n = qMin<qsizetype>(entries.size() - done, ChunkSize - inChunk);
        // Trivially copyable: copying the bytes creates the entries.
        std::memcpy(chunk.entries() + inChunk, entries.constData() + done, size_t(n) * sizeof(DlqIndexEntry));
        std::memcpy(chunk.groups + inChunk, groupIds.constData() + done, size_t(n) * sizeof(quint32));
        done += n;
        m_size += quint32(n);
    }
}

DlqEntryStore::Snapshot DlqEntryStore::snapshot() const
{
    Snapshot s;
    s.m_chunks.reserve(m_chunks.size());
    for (const auto &c : m_chunks)
        s.m_chunks.append(c);
    s.m_size = m_size;
    return s;
}
