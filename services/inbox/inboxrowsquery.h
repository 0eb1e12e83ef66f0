#pragma once

#include "services/inbox/inboxmapping.h"
#include "services/inbox/inboxmappingset.h"
#include "services/payload/keymask.h"
#include "services/support/jobtracker.h"

#include <QDateTime>
#include <QList>
#include <QMetaType>
#include <QObject>

class PgSession;

// One row of an inbox table, as plain values. Text comes from the table (operator data): show it as
// plain text only.
struct InboxRow {
    QString consumer;  // empty without a consumer column
    QString messageId; // the message id / idempotency key
    QString status;    // raw word
    InboxState state = InboxState::Unknown;
    int attempts = -1; // -1 without an attempts column
    QDateTime firstSeen;
    QDateTime updated;
    QString error; // last error / error code
    QString topic;
};

struct InboxRowsPage {
    QString mappingName;
    QString table;                  // schema.table as displayed
    QList<InboxState> states;       // what was asked for
    QList<InboxRow> rows;           // oldest update first
    bool more = false;              // more rows match than the limit
    QString error;                  // one readable line
    bool isView = false;            // read from a view: skip and delete are refused
    QDateTime readAt;               // when the table was read (UTC)
    QString text;                   // the filter text asked for (empty: none)
    // The consumers whose message ids the delivery policy masks (KeyMask::masksIdempotencyKeysOf): the
    // filter text is matched against neither their ids nor their errors, which may quote the id.
    QStringList maskedIdConsumers;
};
Q_DECLARE_METATYPE(InboxRowsPage)

// The rows an operator triages in an inbox: parked, failed terminal, failed retryable, stuck in progress.
// Oldest update first, because the longest-waiting row is the one to look at. Reads run on the thread
// pool with their own short connection; identifiers are escaped, statuses are parameters.
class InboxRowsQuery final : public QObject {
    Q_OBJECT
public:
    static constexpr int DefaultLimit = 1000;
    static constexpr int StatementTimeoutMs = 15'000;
    // From this many rows (the catalogue's estimate) a page is merged from one index range per consumer
    // and status word, up to this many ranges (ARCHITECTURE.md, Performance notes).
    static constexpr qint64 LargeTableRows = 500'000;
    static constexpr int MaxMergedRanges = 2'000;

    explicit InboxRowsQuery(QObject *parent = nullptr);

    void setConninfo(const QString &conninfo) { m_conninfo = conninfo; }
    // Each mapping's rows are read from its own database; mappings not in the set use the conninfo above.
    void setMappingSet(const InboxMappingSet &set) { m_set = set; }
    // The delivery policy's masking: masked message ids are never searched by value (ARCHITECTURE.md,
    // Masking).
    void setKeyMask(const KeyMask &mask) { m_mask = mask; }
    // Asynchronous; a newer fetch supersedes an older one. text: a case-insensitive part of the message id
    // or error (empty: any), not of the rows whose ids are masked.
    void fetch(const InboxMapping &mapping, const QList<InboxState> &states, const QString &text = {},
               int limit = DefaultLimit);

    // Blocking, for worker threads, the command line and tests.
    static InboxRowsPage read(PgSession &session, const InboxMapping &mapping,
                              const QList<InboxState> &states, const QString &text = {},
                              int limit = DefaultLimit, const KeyMask &mask = {});

Q_SIGNALS:
    void pageReady(const InboxRowsPage &page);

private:
    QString m_conninfo;
    InboxMappingSet m_set;
    KeyMask m_mask;
    JobTracker m_jobs{this};
};
