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
// The row as a delete's disposition keeps it in the audit log. A row named by its message id's digest (its
// consumer's key is masked: ARCHITECTURE.md, Masking: request items) keeps its id only as that digest
// ("messageIdSha256") and "(masked)" in its column; any other column holding the id has it masked, and the
// payload column (which may hold masked fields) is "(masked)". Status, attempts and times stay as they are.
QJsonObject rowForAudit(const InboxMapping &mapping, const QJsonObject &ref, const QJsonObject &row);
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
// Release of a replayed item's row (release and replay), named by an inbox_ref with "release" (the
// mapping's releaseTo: a status word, or "delete") and "pinnedStatus" (what the dry run saw). Conditional
// on the pinned status, so it happens once: on a resume, a row already at releaseTo (or gone, for delete)
// counts as released; a row in any other state changed since the dry run and is refused. A reclaim's ref
// also carries "idleForMs": the row is released only while its updated time is still that far back.
enum class ReleaseResult { Released, AlreadyReleased, Changed };
bool release(PgSession &db, const InboxMapping &mapping, const QJsonObject &ref, ReleaseResult *result,
             QString *currentStatus, QString *error);
} // namespace InboxRemediation
