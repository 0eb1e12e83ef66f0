#pragma once

#include "services/inbox/inboxmapping.h"

#include <QDateTime>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <array>

class KeyMask;

using InboxStateCounts = std::array<qint64, InboxStateCount>;

struct InboxConsumerCounts {
    QString consumer; // the whole table's row when the mapping has no consumer column
    InboxStateCounts counts{};
    qint64 exhausted = 0; // of its failed-retryable rows, those at the retry limit (InboxMapping::isExhausted)

    qint64 count(InboxState state) const { return counts[size_t(state)]; }
    qint64 total() const
    {
        qint64 sum = 0;
        for (qint64 c : counts)
            sum += c;
        return sum;
    }
};

// The in-progress row that has waited longest past "stuck after".
struct InboxStuckRow {
    QString consumer;
    QString messageId;
    QString status;        // raw status text
    QDateTime updatedAt;   // UTC
    QDateTime firstSeenAt; // invalid when the mapping has no first-seen column
    double ageSeconds = 0; // now() - updated, on the database's clock
};

struct InboxErrorCount {
    QString error;
    qint64 count = 0;
};

struct OutboxBacklog {
    qint64 pending = 0;
    double oldestPendingAgeSeconds = -1; // -1: nothing pending
};

// One consistent reading of an inbox (all queries in one read-only snapshot transaction).
struct InboxBoard {
    // Buckets of the attempts histogram: 1, 2, 3, 4-5, 6+ (0 and negative count as 1).
    static constexpr int AttemptBuckets = 5;
    static QString attemptBucketLabel(int bucket)
    {
        static const char16_t *const labels[AttemptBuckets] = {u"1", u"2", u"3", u"4\u20135", u"6+"};
        return bucket >= 0 && bucket < AttemptBuckets ? QString::fromUtf16(labels[bucket]) : QString();
    }

    QString mappingName;
    QString table;        // schema.table as displayed
    QString database;     // which database it lives in, as displayed (never a password)
    QDateTime takenAt;    // database clock (transaction start), UTC
    qint64 elapsedMs = 0; // how long the queries took, client-side
    QString error;        // one readable line; the rest of the board is empty when set
    bool isView = false;      // a view: read-only (skip, delete and release are refused)
    qint64 estimatedRows = -1; // the catalogue's estimate of the table's rows, -1 when unknown

    QList<InboxConsumerCounts> consumers; // sorted by consumer
    InboxStateCounts totals{};
    // States whose counts are the catalogue's estimate (shown as "about"): on a huge table the dominant
    // state (most often completed) is estimated; every other state is counted exactly.
    std::array<bool, InboxStateCount> estimated{};
    QStringList unmappedStatuses; // raw words seen that the vocabulary does not map (counted as Unknown)
    // Sessions the exact counts ran on, in one snapshot: 2 on a huge table when a second connection to its
    // database could be made (ARCHITECTURE.md, Performance notes), else 1.
    int countSessions = 1;
    // Why the second session could not count (it could not connect, or the server ended it mid-statement):
    // the board is still whole, its counts made on the first session. Empty when it counted or was not needed.
    QString helperError;

    int stuckAfterSeconds = 0;
    qint64 stuckCount = 0;
    bool hasStuck = false;
    InboxStuckRow oldestStuck;

    bool hasAttempts = false;
    bool attemptsSampled = false; // a huge table: the histogram is scaled from a sample of its pages
    std::array<qint64, AttemptBuckets> attemptsHistogram{};

    // Failed-retryable rows whose attempts reached the consumer's retry.maxAttempts (InboxMapping::isExhausted),
    // per consumer in InboxConsumerCounts::exhausted; counted when the mapping has attempts and the limit.
    bool hasExhausted = false;
    int exhaustedAfterAttempts = 0;
    // A huge table without the ([consumer,] status, attempts) index: the exhausted rows are estimated from each
    // consumer's latest failed rows (InboxBoardQuery::ExhaustedSampleRows), shown as "about N".
    bool exhaustedEstimated = false;
    qint64 exhaustedRows() const
    {
        qint64 sum = 0;
        for (const InboxConsumerCounts &c : consumers)
            sum += c.exhausted;
        return sum;
    }

    bool hasErrors = false;           // the mapping has an error column
    QList<InboxErrorCount> topErrors; // at most 10, most frequent first, rows not completed
    bool errorsSampled = false;       // a huge table: from each consumer and state's latest rows

    bool hasOutbox = false;
    QString outboxTable;
    OutboxBacklog outbox;
    QString outboxError; // the outbox could not be read; the inbox part of the board is still valid

    // Each entry: the index a board query relies on, and a CREATE INDEX statement that provides it.
    QStringList missingIndexes;

    bool ok() const { return error.isEmpty(); }
    // Rows delivered more than once (attempts > 1): the redeliveries that reached the inbox. 0 without
    // an attempts column.
    qint64 redeliveredRows() const
    {
        qint64 sum = 0;
        for (int b = 1; b < AttemptBuckets; ++b)
            sum += attemptsHistogram[size_t(b)];
        return sum;
    }
    // Rows the consumer gave up on for now or for good: failed (either kind) or parked.
    static qint64 failedRows(const InboxStateCounts &counts)
    {
        return counts[size_t(InboxState::FailedRetryable)] + counts[size_t(InboxState::FailedTerminal)]
             + counts[size_t(InboxState::Parked)];
    }
    qint64 total(InboxState state) const { return totals[size_t(state)]; }
    qint64 grandTotal() const
    {
        qint64 sum = 0;
        for (qint64 c : totals)
            sum += c;
        return sum;
    }

    // The board as it may be shown, alerted on and printed where the delivery policy masks the message ids
    // of the oldest stuck row's consumer (RequestItemDigests::shownMessageId, as the Parked view shows an
    // id; ARCHITECTURE.md, Masking): its id "(masked)" and taken out of the top errors quoting it.
    InboxBoard masked(const KeyMask &mask) const;
};
Q_DECLARE_METATYPE(InboxBoard)
