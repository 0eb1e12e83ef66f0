#include "inboxalerts.h"

#include <QCoreApplication>

namespace {
class InboxAlertText {
    Q_DECLARE_TR_FUNCTIONS(InboxAlerts)
};
}

namespace InboxAlerts {
void observe(AlertEngine &engine, const InboxBoard &board, const InboxBoard &previous)
{
    if (!board.ok())
        return;
    const qint64 now = board.takenAt.toMSecsSinceEpoch();
    engine.observe(stuckRule, board.mappingName,
                   board.hasStuck ? AlertEngine::Observation::Breach : AlertEngine::Observation::Normal,
                   InboxAlertText::tr("%n row(s) stuck in progress; oldest %1 (%2) for %3 s.", nullptr, int(board.stuckCount))
                       .arg(board.oldestStuck.messageId, board.oldestStuck.consumer)
                       .arg(qint64(board.oldestStuck.ageSeconds)),
                   now);
    if (board.hasOutbox && previous.ok() && previous.hasOutbox && previous.mappingName == board.mappingName) {
        const bool growing = board.outbox.pending > previous.outbox.pending && board.outbox.pending > 0;
        engine.observe(outboxRule, board.outboxTable,
                       growing ? AlertEngine::Observation::Breach
                       : board.outbox.pending > 0 ? AlertEngine::Observation::Hold
                                                  : AlertEngine::Observation::Normal,
                       InboxAlertText::tr("Outbox backlog growing: %1 pending, oldest %2 s.")
                           .arg(board.outbox.pending)
                           .arg(qint64(board.outbox.oldestPendingAgeSeconds)),
                       now);
    }
}
}
