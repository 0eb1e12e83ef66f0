#pragma once

#include "inboxboard.h"
#include "services/monitor/alertengine.h"

// Alert rules fed from each inbox board reading: a stuck IN_PROGRESS row, and an outbox backlog that keeps
// growing (compared with the previous reading of the same board).
namespace InboxAlerts {
inline const QString stuckRule = QStringLiteral("inbox-stuck");
inline const QString outboxRule = QStringLiteral("outbox-growing");
void observe(AlertEngine &engine, const InboxBoard &board, const InboxBoard &previous);
}
