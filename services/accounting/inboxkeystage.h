#pragma once

#include "services/accounting/inboxkeystates.h"
#include "services/accounting/keyinterner.h"
#include "services/accounting/keytable.h"
#include "services/inbox/inboxmappingset.h"

#include <QHash>
#include <QSet>
#include <QStringList>

#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

class InboxSessions;
class PgSession;
class PgStatementCanceller;

// The accounting's inbox join (ARCHITECTURE.md, Threads: owned thread; Data flows: Delivery accounting):
// batches of idempotency keys are looked up in the consumer's inbox on two threads of their own, each with
// its connection, while the window is still being read. The query asks only what the classifier needs:
// the status word of each key's rows. How a batch is joined depends on how large the window is beside the
// inbox (the catalogue's row estimate), decided once when the stage opens:
// - Probe: a window small beside its inbox is looked up a few thousand keys at a time, one index seek per
//   key (`unnest ... WITH ORDINALITY` with the probe a subquery the planner cannot flatten), so a batch
//   never turns into a read of the whole table.
// - Scan: a window that names a good part of its inbox, keyed by text (a deterministic collation: equal
//   means the same bytes) or by uuid (compared in its canonical text), is joined here: the table's keys and
//   status words are read once (`COPY ... TO STDOUT (FORMAT binary)`, the table read from end to end on one
//   connection) while the window is still being read, and each batch is answered from that copy (a uuid
//   key in its canonical form first). The copy holds about twice the window's keys at most (the window is
//   at least half the table by the estimate); past ScanMaxRowsPerKey rows per key the scan gives up and the
//   batches are probed.
// - Merge: such a window keyed by another type (a number, say) comes in a few large batches, each one
//   merge join of the batch's keys (sorted by the server) with the table's key index, read once from end
//   to end, so the server compares the keys as the column's type does. The batch goes as binary arrays
//   (keys and their ids) and the answer comes back as one array of ids per status word.
// A key the id column's type cannot hold (a uuid column and the key "not-a-uuid") can have no row: it is
// left out of its batch before the batch is sent (uuid keys are checked here by the server's own syntax),
// and a batch the server still refuses for a key it cannot cast (SQLSTATE class 22) is probed again in
// halves until each such key is alone; the answers name those keys, and the rest of the batch is answered
// as any other. A batch the database cannot answer (unreachable, timed out) leaves its keys unanswered and
// says so once; the run goes on. cancel() cancels the statements in flight on the server (PQcancel) and
// drops the queued batches, so a cancelled run never waits for a merge.
class InboxKeyStage final {
public:
    InboxKeyStage(const InboxMappingSet &set, const InboxMapping &mapping);
    ~InboxKeyStage(); // stops and joins the thread

    enum class Join { Probe, Scan, Merge };
    // A window of at least this share of its inbox's rows is joined by reading the table (Scan) or its key
    // index (Merge), in this many batches for a Merge.
    static constexpr int WholeTableMinShareOfRows = 2; // a window of at least rows / 2 keys
    static constexpr int MergeBatches = 4;
    // A scan gives up past this many rows per key of the window (and at least ScanMinCap rows).
    static constexpr int ScanMaxRowsPerKey = 4;
    static constexpr qint64 ScanMinCap = 100'000;

    // Connects, checks that the mapped table is there and chooses how to join a window of at most
    // `expectedKeys` keys (probeBatch: the keys of one Probe batch); the threads start on success.
    bool open(qint64 expectedKeys, int probeBatch, QString *error);
    // The keys the caller should hand over per enqueue().
    int batchSize() const { return m_batchSize; }
    Join join() const { return m_join; }
    // What the run should know about the inbox before it starts, in words: a large table without the
    // covering key index (InboxBoardQuery::keyIndexRequirement), with the statement that creates it.
    QStringList notes() const { return m_notes; }
    // Queues the keys with these ids (bytes from `keys`); returns at once.
    void enqueue(std::vector<quint32> ids, const KeyTable &keys);

    struct Answers {
        InboxKeyStates states;             // keys with a row
        QSet<quint32> unanswered;          // keys the inbox could not be asked about (or cancelled before)
        QSet<quint32> uncastable;          // keys the id column's type cannot hold: no row has them
        QStringList problems;              // what went wrong, in words (each problem once)
    };
    // Waits until every queued batch is answered (or `cancelled` says stop) and hands the answers over.
    Answers finish(const std::function<bool()> &cancelled);
    // Stops: the queued batches are not asked (their keys are unanswered) and the statements in flight are
    // cancelled on the server; finish() then returns as soon as the threads are back. Any thread.
    void cancel();

private:
    struct Batch {
        std::vector<quint32> ids;
        KeyTable keys;              // keys[i] is the key of ids[i], copied out of the window's table
        std::vector<quint32> order; // the positions to send them in (empty: as they are)
        size_t size() const { return ids.size(); }
        size_t at(size_t i) const { return order.empty() ? i : order[i]; } // the i-th position to send
    };
    void loop(InboxSessions &sessions, PgStatementCanceller &canceller);
    // One batch's rows: the key id and state of each row (a key may have several; the answers keep a
    // completed one over the others).
    using Rows = std::vector<std::pair<quint32, InboxState>>;
    // How a statement over a batch ended: answered, refused for a key the column's type cannot take
    // (SQLSTATE class 22: the keys decide it), or failed otherwise.
    enum class Outcome { Answered, KeyDoesNotCast, Failed };
    Outcome probe(PgSession &db, const Batch &batch, Rows *found, QString *problem);
    Outcome mergeJoin(PgSession &db, const Batch &batch, Rows *found, QString *problem);
    // Scan: reads the table's keys and status words into m_scanned; false with the reason when it cannot.
    // A table far larger than the catalogue said (stale statistics) is given up on, its copy freed, and
    // the batches probed instead (m_answering), which the answers say once.
    bool scanTable(PgSession &db, QString *problem);
    void answerFromScan(const Batch &batch, Rows *found) const;
    // Probes the batch in chunks of the probe size; a chunk refused for a key that does not cast is split in
    // halves until that key is alone (it goes to `uncastable`), so the good keys are still one probe each.
    bool probeIsolating(PgSession &db, const Batch &batch, Rows *found, std::vector<quint32> *uncastable,
                        QString *problem);
    // The keys the column's type surely cannot take, moved out of the batch (checked on this side for the
    // types whose syntax is fixed: uuid).
    void dropUncastable(Batch &batch, std::vector<quint32> *uncastable) const;
    // Fills the batch's order with its keys' positions in byte order (memcmp, a shorter key first).
    static void sortByBytes(Batch &batch);

    InboxMapping m_mapping;
    QByteArray m_sql;      // the scan, the merge join or the probe, built once from the table's catalogue
    QByteArray m_probeSql; // the probe (also what a merge batch refused for a key falls back to)
    Join m_join = Join::Probe;
    bool m_uuidKeys = false;      // the id column is a uuid
    bool m_sortedByBytes = false; // merge batches are sent in byte order, the index's (text under C)
    int m_batchSize = 0;
    int m_probeBatch = 0;
    QStringList m_notes;
    // Scan: the table's keys (index 0 unused) and the state of each key's rows, used by the one thread
    // only; m_scanProblem says why the table could not be read.
    struct Scanned {
        KeyTable keys{{}};
        std::unique_ptr<KeyInterner> index;
        InboxKeyStates states;
    } m_scanned;
    QString m_scanProblem;
    qint64 m_scanRows = 0; // about how many rows the scan reads (the catalogue's estimate, bounded)
    size_t m_scanCap = 0;  // the rows a scan reads at most before it gives up on the table
    Join m_answering = Join::Probe; // how batches are answered: m_join, or Probe once a scan gave up
    static constexpr char ConsumerSetting[] = "berth.accounting_consumer"; // the scan's consumer value
    InboxMappingSet m_set;
    std::vector<std::unique_ptr<InboxSessions>> m_sessions; // one per thread
    std::vector<std::unique_ptr<PgStatementCanceller>> m_cancellers; // one per thread, armed on its session
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::condition_variable m_drained;
    std::deque<Batch> m_queue;
    int m_busy = 0; // threads answering a batch
    bool m_stop = false;
    bool m_cancelled = false;
    Answers m_answers;
    std::vector<std::thread> m_threads;
};
