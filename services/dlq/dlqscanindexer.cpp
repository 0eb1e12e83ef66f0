#include "dlqscanindexer.h"

#include "dlqblockring.h"
#include "largebuffer.h"

#include <pthread.h>

DlqScanIndexer::DlqScanIndexer(StringPool &strings, quint64 scanId, const DlqScanRun::Sink &sink)
    : m_scanId(scanId)
    , m_sink(sink)
    , m_interner(strings)
    , m_groups(strings)
{
    m_clock.start();
    m_batch.entries.reserve(4096);
    m_batch.groupIds.reserve(4096);
}

void DlqScanIndexer::run(DlqBlockRing &ring)
{
#ifdef __linux__
    pthread_setname_np(pthread_self(), "dlq-index");
#endif
    while (DlqScanBlock *b = ring.takeFull()) {
        if (!cancelled()) {
            const DlqDecodedBatch &batch = b->batch;
            m_interner.internAll(batch, [this](const DlqIndexEntry &entry) {
                const quint32 group = m_groups.add(entry);
                m_batch.entries.append(entry);
                m_batch.groupIds.append(group);
                if (m_sink.storeChunks)
                    place(entry, group);
                m_bytes += qint64(entry.valueSize) + entry.keySize;
            });
            m_records += qint64(batch.size());
            m_caughtUp = b->caughtUp;
            m_reportedProblem = b->problem;
            flush(b->flushNow);
        }
        ring.giveBack(b);
    }
}

void DlqScanIndexer::finish(bool caughtUp, const QString &problem, bool deliver)
{
    m_caughtUp = caughtUp;
    m_reportedProblem = problem;
    if (deliver)
        flush(true);
}

DlqScanProgress DlqScanIndexer::progress() const
{
    DlqScanProgress p;
    p.records = m_records;
    p.bytes = m_bytes;
    p.totalRecords = m_total;
    p.elapsedMs = m_clock.elapsed();
    const double seconds = qMax<qint64>(1, p.elapsedMs) / 1000.0;
    p.recordsPerSecond = double(m_records) / seconds;
    p.bytesPerSecond = double(m_bytes) / seconds;
    p.caughtUp = m_caughtUp;
    if (!p.caughtUp && p.recordsPerSecond > 0 && m_total > m_records)
        p.etaMs = qint64(double(m_total - m_records) / p.recordsPerSecond * 1000.0);
    else if (p.caughtUp)
        p.etaMs = 0;
    p.problem = m_reportedProblem;
    return p;
}

void DlqScanIndexer::place(const DlqIndexEntry &entry, quint32 group)
{
    // Where the store will keep the scan's m_stored-th entry (DlqEntryStore's layout): written here, on
    // this thread, so that adding a batch costs the interface thread no copy. The store only reads below
    // the entries it has been handed, and the batch's hand-over orders these writes before that.
    using namespace DlqIndexChunks;
    const quint64 i = quint64(m_stored++);
    const quint64 e = i & ((quint64(1) << EntryBits) - 1), g = i & ((quint64(1) << GroupBits) - 1);
    if (e == 0) {
        m_entryChunk = LargeBuffer::makeShared<DlqIndexEntry>(size_t(1) << EntryBits);
        m_batch.entryChunks.push_back(m_entryChunk);
    }
    if (g == 0) {
        m_groupChunk = LargeBuffer::makeShared<quint32>(size_t(1) << GroupBits);
        m_batch.groupChunks.push_back(m_groupChunk);
    }
    if (m_batch.inPlace.first < 0)
        m_batch.inPlace = {qint64(i), m_entryChunk.get(), m_groupChunk.get()};
    m_entryChunk.get()[e] = entry;
    m_groupChunk.get()[g] = group;
}

void DlqScanIndexer::flush(bool force)
{
    const qint64 now = m_clock.elapsed();
    const bool due =
        m_flushedOnce ? now - m_lastFlushMs >= m_sink.batchIntervalMs : !m_batch.entries.isEmpty();
    if (!force && !due)
        return;
    m_lastFlushMs = now;
    m_flushedOnce = m_flushedOnce || !m_batch.entries.isEmpty();
    m_batch.scanId = m_scanId;
    m_batch.changedGroups = m_groups.takeChangedGroups();
    m_batch.changedPoison = m_groups.takeChangedPoison();
    m_batch.progress = progress();
    // The next batch is likely as large as this one: room for that spares growing it step by step.
    const qsizetype room = qMax<qsizetype>(4096, m_batch.entries.size());
    if (m_sink.batch)
        m_sink.batch(std::move(m_batch));
    m_batch = DlqScanBatch{};
    m_batch.entries.reserve(room);
    m_batch.groupIds.reserve(room);
}
