#pragma once

#include "services/inbox/inboxmapping.h"

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

class PgSession;

// What the mapping editor learns from a database before the operator maps a table: its schemas and
// tables with the catalogue's row estimates (never count(*)), column suggestions from names and types,
// and the status vocabulary actually in the table. Blocking, on a worker thread; every statement under the
// statement timeout.
namespace InboxDiscovery {
inline constexpr int StatementTimeoutMs = 5'000;

struct TableEntry {
    QString schema;
    QString table;
    QString kind;               // "table", "view", "partitioned table"...
    qint64 estimatedRows = -1;  // pg_class.reltuples; -1 when never analysed
};
// Tables and views the session's role can see, outside the system schemas, largest first.
QList<TableEntry> tables(PgSession &session, QString *error);

// Columns guessed for a table from their names and types (a timestamp column for updated, an integer for
// attempts...). Empty strings where nothing fits; the editor lets the operator change each.
InboxMapping suggestColumns(const QHash<QString, QString> &types);

struct StatusWords {
    QStringList words;          // sorted; "NULL" for rows without a status
    QHash<QString, qint64> rows; // exact counts where the walk could afford them (-1: not counted)
    bool complete = false;      // every word found (an index walk); false: a sample, rare words may be missing
    QString method;             // one sentence: how they were found
};
// The distinct status words: a walk over an index that leads with the status column (or the consumer
// column, then status), one index probe per distinct value, so even a rare word in a huge table is found;
// without such an index, a sample of the table's pages (and the result says it may miss rare words).
StatusWords statusWords(PgSession &session, const QString &schema, const QString &table, const QString &statusColumn,
                        const QString &consumerColumn, QString *error);

// A guessed Berth state for a raw status word ("done", "COMPLETED", "sent" → completed; "dead" → failed
// terminal...); Unknown when nothing fits: the operator decides, and an unmapped word stays Unknown.
InboxState guessState(const QString &word);
} // namespace InboxDiscovery
