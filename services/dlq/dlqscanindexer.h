#pragma once

#include "services/dlq/dlqentrybuilder.h"
#include "services/dlq/dlqscanrun.h"
#include "services/dlq/failuregroups.h"

#include <QElapsedTimer>

class DlqBlockRing;

// The DLQ scan's second stage (DlqScanRun), on its own thread: interns the records the reader decoded,
// groups them by failure, writes them where the browser's store will keep them (when the sink asks for
// chunks) and hands them to the sink in batches, with the progress. The reading thread touches it only
// before run() starts and after it has returned.
class DlqScanIndexer final {
public:
    DlqScanIndexer(StringPool &strings, quint64 scanId, const DlqScanRun::Sink &sink);

    // Before run(): what the scan expects to index.
    void setTotalRecords(qint64 total)
    {
        m_total = total;
        m_interner.reserve(total);
    }
    // Takes blocks until the ring is closed and empty.
    void run(DlqBlockRing &ring);
    // After run(): the final state, and (unless the scan failed or was cancelled) the last batch.
    void finish(bool caughtUp, const QString &problem, bool deliver);

    DlqScanProgress progress() const;
    const FailureGroups &groups() const { return m_groups; }

private:
    bool cancelled() const { return m_sink.cancelled && m_sink.cancelled(); }
    void flush(bool force);
    void place(const DlqIndexEntry &entry, quint32 group);

    const quint64 m_scanId;
    const DlqScanRun::Sink &m_sink;
    DlqEntryInterner m_interner;
    FailureGroups m_groups;
    QElapsedTimer m_clock; // from construction: the scan's start
    qint64 m_total = 0;
    qint64 m_lastFlushMs = -1;
    bool m_flushedOnce = false;
    qint64 m_records = 0;
    qint64 m_bytes = 0;
    qint64 m_stored = 0; // entries written into the store's chunks (Sink::storeChunks)
    DlqIndexChunks::EntryChunk m_entryChunk; // the ones being written
    DlqIndexChunks::GroupChunk m_groupChunk;
    bool m_caughtUp = false;
    QString m_reportedProblem;
    DlqScanBatch m_batch;
};
