#pragma once

#include "models/dlqexport.h"
#include "services/audit/audittypes.h"
#include "services/payload/keymask.h"
#include "services/support/jobtracker.h"

class PgSession;

// Writes every audit event a filter selects (not just the rows loaded in the view) to a file, streamed
// page by page from the database inside one read-only snapshot, on a worker thread. CSV (formula-safe,
// as the DLQ export) or JSON lines, chosen by the file name the same way.
namespace AuditTrailExport {
using Format = DlqExport::Format;

struct Outcome {
    qint64 rows = 0;
    QString error; // empty: written
};

// mask: the policy's; the items a request lists are exported masked as the trail shows them
// (RequestMask), their hashes those of the stored rows.
Outcome write(PgSession &session, const EventFilter &filter, const QString &path, Format format,
              const JobControl &control = JobControl(), const KeyMask &mask = {});
// The same on a connection of its own; afterwards the export itself is recorded as a `trail.exported` event.
Outcome writeAndRecord(const QString &conninfo, const EventFilter &filter, const QString &path,
                       const JobControl &control = JobControl(), const KeyMask &mask = {});
} // namespace AuditTrailExport
