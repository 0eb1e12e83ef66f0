#pragma once

#include "services/audit/audittypes.h"
#include "services/payload/keymask.h"

#include <QString>

// A request as a markdown runbook (seed 002): what it does, its blast radius and expected no-op rate, who
// requested and approved it, and the exact commands that approve, execute, check and verify it. Plain text
// in, plain text out: values from the request are printed inside code spans or escaped, never as markup.
struct RunbookContext {
    QString bootstrap; // as the commands should name it; empty: a placeholder
    QString auditDb;   // conninfo of the audit database; empty: a placeholder
    QString berthCommand = QStringLiteral("berth");
    // The policy's masking: a runbook is pasted into tickets, so what it says of the items is masked
    // (RequestMask) like everything else Berth shows.
    KeyMask mask;
};

namespace ReplayRunbook {
QString markdown(const RequestDetail &detail, const RunbookContext &context);
}
