#pragma once

#include "services/dlq/dlqdecodedbatch.h"

#include <QString>

#include <array>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <vector>

// The DLQ scan's hand-over between its two threads (DlqScanRun): decoded records on their way from the
// reading thread to the indexing thread, with what the indexer reports beside them.
struct DlqScanBlock {
    DlqDecodedBatch batch;
    bool caughtUp = false;  // every partition had reached its end when this was handed over
    bool flushNow = false;  // news that should not wait for the next batch interval
    QString problem;        // the reader's latest non-fatal problem
};

// A few blocks going round between the two threads: the reader fills empty ones, the indexer empties full
// ones, each waiting when there is none (so the reader runs at most kBlocks ahead).
class DlqBlockRing final {
public:
    DlqBlockRing()
    {
        for (DlqScanBlock &b : m_blocks)
            m_empty.push_back(&b);
    }
    DlqScanBlock *takeEmpty()
    {
        std::unique_lock lock(m_mutex);
        m_changed.wait(lock, [this] { return !m_empty.empty(); });
        DlqScanBlock *b = m_empty.back();
        m_empty.pop_back();
        return b;
    }
    void handOver(DlqScanBlock *b)
    {
        {
            std::lock_guard lock(m_mutex);
            m_full.push_back(b);
        }
        m_changed.notify_all();
    }
    // nullptr once closed and every block handed over has been taken.
    DlqScanBlock *takeFull()
    {
        std::unique_lock lock(m_mutex);
        m_changed.wait(lock, [this] { return !m_full.empty() || m_closed; });
        if (m_full.empty())
            return nullptr;
        DlqScanBlock *b = m_full.front();
        m_full.pop_front();
        return b;
    }
    void giveBack(DlqScanBlock *b)
    {
        b->batch.clear();
        b->caughtUp = b->flushNow = false;
        b->problem.clear();
        {
            std::lock_guard lock(m_mutex);
            m_empty.push_back(b);
        }
        m_changed.notify_all();
    }
    void close()
    {
        {
            std::lock_guard lock(m_mutex);
            m_closed = true;
        }
        m_changed.notify_all();
    }

private:
    static constexpr int kBlocks = 4;
    std::array<DlqScanBlock, kBlocks> m_blocks;
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::vector<DlqScanBlock *> m_empty;
    std::deque<DlqScanBlock *> m_full;
    bool m_closed = false;
};
