#pragma once

#include "services/accounting/accountingtypes.h"
#include "services/accounting/inboxkeystates.h"
#include "services/inbox/inboxmapping.h"

#include <QHash>
#include <QSet>

// What the classifier joins each record against, read by the accountant (or arranged by a test).
struct AccountingEvidence {
    bool hasInbox = false;                   // the consumer has an inbox mapping
    InboxKeyStates inbox;                    // idempotency key id -> its row's state; absent: no row
    QSet<quint32> inboxUnanswered;           // keys the inbox could not be asked about (unreachable)
    QSet<quint32> inboxUncastable;           // keys the inbox's id column cannot hold: no row has them
    QHash<int, QSet<qint64>> deadLetteredAt; // source partition -> offsets a dead letter names
    QSet<quint32> deadLetteredKeys;          // idempotency key ids dead letters carry
    QHash<int, qint64> committed;            // partition -> the group's committed offset
    // Offsets whose records a read_committed consumer never receives (aborted transactions): those read
    // under read_uncommitted but not under read_committed (TransactionWindow::abortedOffsets).
    QHash<int, QSet<qint64>> aborted;
    bool readCommitted = false;
};

// One class per record, in this order (ARCHITECTURE.md, Contracts: Delivery accounting): aborted (a
// read_committed consumer never saw it); the inbox row for its key (completed → processed, or duplicate
// for any record of the key but the first: by offset within a partition, by timestamp across partitions;
// parked or failedTerminal → parked; skipped → skipped; inProgress or failedRetryable → inFlight); a dead
// letter for its coordinates or key → deadLettered; below the committed offset → unaccounted (processed
// and marked unverified when the consumer has no inbox or the inbox could not answer); else notConsumed.
// Fills counts, noteCounts and notes of the result.
namespace AccountingClassifier {
void classify(AccountingResult &result, const AccountingEvidence &evidence);
// Whether record a was delivered before record b of the same key (offset order within a partition,
// timestamp order across partitions, then partition and offset so the order is total).
bool deliveredBefore(const AccountedRecord &a, const AccountedRecord &b);
} // namespace AccountingClassifier

// Transactions (ARCHITECTURE.md, Contracts: Delivery accounting). A transactional producer's records are
// followed by a control record (commit or abort marker) that takes an offset but is never handed to an
// application; a read_committed consumer is also never handed the records of an aborted transaction.
// librdkafka does not expose producer ids or control records, so the window is read as both consumers
// read it: what read_uncommitted sees and read_committed does not is aborted; an offset neither sees is a
// marker (or a record compaction removed).
namespace TransactionWindow {
// Offsets seen under read_uncommitted but not under read_committed.
QSet<qint64> abortedOffsets(const QList<qint64> &uncommitted, const QSet<qint64> &committed);
// True when a consumer committed at `committed` with the log ending at `high` has nothing left to read:
// every offset in [committed, high) is a marker or an aborted record it will skip (`lastRecord` is the
// last offset a consumer of its isolation level receives, -1 when none).
bool caughtUpBehindMarkers(qint64 committed, qint64 high, qint64 lastRecord);
} // namespace TransactionWindow
