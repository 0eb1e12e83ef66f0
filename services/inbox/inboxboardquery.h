#pragma once

#include "services/inbox/inboxboard.h"
#include "services/inbox/inboxmapping.h"
#include "services/payload/keymask.h"
#include "services/support/jobtracker.h"

#include <QObject>
#include <QStringList>

#include <memory>

class InboxBoardHelperSession;
class PgSession;
class PgStatementCanceller;

// An index the board's queries rely on. The board stays correct without it, only slower: the counts,
// stuck-row and top-error queries seek per (consumer, status) and read the oldest rows in index order,
// and the outbox backlog reads only the pending rows.
struct InboxIndexRequirement {
    QString table;              // schema.table as displayed
    QStringList leadingColumns; // key columns an index must start with, in order
    // Set: an index starting with these columns serves as well (the key look-ups of a mapping that filters
    // by consumer seek on (consumer, message id) just as on (message id)).
    QStringList alternativeLeadingColumns;
    // Alternative for the outbox: a partial index on these columns whose predicate names the pending status
    // (the demo's `CREATE INDEX ... (created_at) WHERE status = 'pending'`).
    QStringList partialLeadingColumns;
    // Set: only a partial index on leadingColumns whose predicate leaves out this status word serves (the
    // open-rows index of a huge table, `CREATE INDEX ... (consumer, status) WHERE status <> 'completed'`).
    QString excludedStatus;
    // Set: only a partial index on leadingColumns whose predicate leaves out a status word (`status <> ...`)
    // but none of these serves (the Parked tab's open-rows-by-time index, for the words it asks for).
    QStringList keptStatuses;
    // Set: the index must hold these columns too, as keys or INCLUDE columns (a covering index).
    QStringList includedColumns;
    // With excludedStatus: a whole (not partial) index on leadingColumns serves as well.
    bool wholeIndexServes = false;
    QString purpose;
};

// Reads an inbox board for one mapping. refresh() runs on the thread pool with its own short-lived
// connection (a PgSession), so the UI thread never waits; a newer refresh supersedes an older one, whose
// result is dropped. A huge table's second session (InboxBoardHelperSession) is this object's, kept
// connected across refreshes and closed with it. Every identifier from the mapping goes through PQescapeIdentifier on that connection,
// every value is a $n parameter, and PQexecParams refuses a second statement besides.
class InboxBoardQuery final : public QObject {
    Q_OBJECT
public:
    static constexpr int DefaultStatementTimeoutMs = 15'000;
    static constexpr int TopErrorLimit = 10;
    // From this many rows (the catalogue's estimate) the board seeks per state and estimates the dominant
    // state instead of counting every row (ARCHITECTURE.md, Performance notes).
    static constexpr qint64 LargeTableRows = 500'000;
    // On such a table the top errors come from each (consumer, state)'s latest rows only: about this many
    // rows in all (each one a visit to the table), at least ErrorSampleMinPerState of each.
    static constexpr int ErrorSampleRows = 1000;
    static constexpr int ErrorSampleMinPerState = 5;
    // On such a table without the ([consumer,] status, attempts) index, exhausted rows are estimated from each
    // (consumer, failed-retryable word)'s latest rows: about this many in all, at least ErrorSampleMinPerState
    // of each; a range no longer than its share is counted whole, so exactly.
    static constexpr int ExhaustedSampleRows = 2000;

    explicit InboxBoardQuery(QObject *parent = nullptr);
    ~InboxBoardQuery() override;

    // libpq conninfo or URI of the inbox database; used from the next refresh on.
    void setConninfo(const QString &conninfo);
    QString conninfo() const { return m_conninfo; }
    void setStatementTimeoutMs(int ms) { m_statementTimeoutMs = ms; }

    // Asynchronous; the board (or its error) arrives as boardReady on this object's thread.
    void refresh(const InboxMapping &mapping);
    void cancel() { m_jobs.cancel(); }
    bool isRunning() const { return m_jobs.isRunning(); }

    // Blocking, for worker threads, the CLI and tests: connects, reads one consistent board, disconnects.
    // canceller (optional): armed on the connection, so cancel() stops a statement in flight.
    // helper (optional): the board owner's second session of a huge table, kept connected across its
    // refreshes; without one, a huge table's second session is connected for this board and closed after.
    // mask: the policy's masking. The board is returned as anything may show it (ARCHITECTURE.md, Masking):
    // the errors of rows whose message ids it masks (KeyMask::idMaskedConsumersOf) are counted with the id
    // taken out, and the oldest stuck row's id is shown masked (InboxBoard::masked).
    static InboxBoard
    collect(const QString &conninfo, const InboxMapping &mapping, const JobControl &control = JobControl(),
            int statementTimeoutMs = DefaultStatementTimeoutMs, PgStatementCanceller *canceller = nullptr,
            InboxBoardHelperSession *helper = nullptr, const KeyMask &mask = KeyMask());
    // The same on an open session (left open, outside any transaction).
    static InboxBoard collect(PgSession &session, const InboxMapping &mapping,
                              const JobControl &control = JobControl(),
                              int statementTimeoutMs = DefaultStatementTimeoutMs,
                              InboxBoardHelperSession *helper = nullptr, const KeyMask &mask = KeyMask());

    // The indexes the board documents and checks for this mapping; with the dominant status word of a table
    // of LargeTableRows or more, also the open-rows partial index that leaves it out, the covering index
    // on the message id for the key look-ups and, with retry.maxAttempts, the open-rows index on
    // ([consumer,] status, attempts) that counts exhausted rows exactly (estimated without it).
    static QList<InboxIndexRequirement> indexRequirements(const InboxMapping &mapping,
                                                          const QString &dominantStatus = QString());
    // The covering index on the message id among them: what makes every key look-up of a table of
    // LargeTableRows or more index-only (the accounting's inbox join names it when it is missing).
    static InboxIndexRequirement keyIndexRequirement(const InboxMapping &mapping);

    // The board's index check on an open session, for the key look-ups and the Parked tab on a huge table:
    // *missing gets a line per requirement no valid index serves, ending in the CREATE INDEX that does.
    // False (and *error) when the catalogue query fails. A reading of the table's indexes the board (or an
    // earlier check) made within the board's interval serves when it satisfies every requirement: a batch
    // of look-ups costs no catalogue query (ARCHITECTURE.md, Inbox mapping).
    static bool missingIndexes(PgSession &session, const InboxMapping &mapping,
                               const QList<InboxIndexRequirement> &requirements, QStringList *missing,
                               QString *error);

Q_SIGNALS:
    void boardReady(const InboxBoard &board);

private:
    JobTracker m_jobs;
    std::shared_ptr<InboxBoardHelperSession> m_helper; // shared with a refresh still running
    QString m_conninfo;
    int m_statementTimeoutMs = DefaultStatementTimeoutMs;
};
