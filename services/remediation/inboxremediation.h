#pragma once

#include "services/inbox/inboxmapping.h"

#include <QJsonObject>
#include <QList>
#include <QString>

class PgSession;

// Skip and delete on a consumer's inbox row named by a request item's inbox_ref
// ({"mapping", "messageId", "consumer"?}). Table and column names come from the mapping and only reach SQL
// through PQescapeIdentifier; every value is a parameter. Blocking.
namespace InboxRemediation {
// The mapping the ref names (by name), or nullptr.
const InboxMapping *mappingFor(const QJsonObject &ref, const QList<InboxMapping> &mappings);
// The row as JSON (to_jsonb), or an empty object when there is none.
// Whether Berth may skip (remove false) or delete in the mapping's relation: a table it has the privilege
// for, never a view. *error says why not.
bool checkWritable(PgSession &db, const InboxMapping &mapping, bool remove, QString *error);
bool readRow(PgSession &db, const InboxMapping &mapping, const QJsonObject &ref, QJsonObject *row,
             QString *error);
// Writes the mapping's skippedStatus (and the updated column) so a late duplicate is ignored too. Refused
// when the mapping has no skipped status. *rows: how many rows changed (0: no such row).
bool markSkipped(PgSession &db, const InboxMapping &mapping, const QJsonObject &ref, int *rows,
                 QString *error);
// Deletes the row if it is parked (a status mapped to Parked). *rows: how many were deleted.
bool deleteParked(PgSession &db, const InboxMapping &mapping, const QJsonObject &ref, int *rows,
                  QString *error);
} // namespace InboxRemediation
