#pragma once

#include "services/inbox/inboxmapping.h"

#include <QHash>
#include <QString>
#include <QStringList>

class PgSession;

// How a timestamp column is stored; the mapping's timestamps may be any of the first three
// (ARCHITECTURE.md, Contracts: Inbox mapping), told apart by the column's type.
enum class InboxTimeKind { TimestampTz, Timestamp, EpochMillis, Unsupported };

// What the catalogue says about a mapped relation: whether it is there and readable, a table or a view,
// its columns' types and the planner's row estimate. One query, no scan of the relation.
struct InboxTableInfo {
    bool exists = false;
    bool isView = false;    // a view (or materialized view, foreign table): read-only for Berth
    bool canSelect = false;
    bool canUpdate = false;
    bool canDelete = false;
    qint64 estimatedRows = -1;      // pg_class.reltuples; -1 when never analysed
    QHash<QString, QString> types;  // column -> format_type text ("timestamp with time zone", "bigint")
    QString relkindName;            // "table", "view", "materialized view", "foreign table", "partitioned table"
    QString schemaName;             // where the search_path found it
    QString relationName;

    // Reads the catalogue for "schema"."table" (schema empty: the search_path). On failure *error is set.
    static InboxTableInfo read(PgSession &session, const QString &schema, const QString &table, QString *error);

    static InboxTimeKind timeKindOf(const QString &type);
    // pg_class.relkind as words ("r" -> "table", "v" -> "view"...).
    static QString relkindText(const QString &relkind);
    InboxTimeKind timeKind(const QString &column) const { return timeKindOf(types.value(column)); }
    // Empty when the mapping's columns are present with usable types; otherwise one readable line
    // naming each problem (missing column, a timestamp stored as text...).
    QString checkColumns(const InboxMapping &mapping) const;
};

// SQL fragments for one timestamp column (escaped column expression in, SQL out), so every query reads
// timestamptz, timestamp and epoch-millisecond columns alike and still compares the raw column (an
// index on it keeps serving the comparison).
struct InboxTimeSql {
    InboxTimeKind kind = InboxTimeKind::TimestampTz;
    // The column as timestamptz (for display and ages).
    QString asTimestamptz(const QString &column) const;
    // A timestamptz expression converted to the column's own type, for `column < threshold`.
    QString fromTimestamptz(const QString &expression) const;
};
