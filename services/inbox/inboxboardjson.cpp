#include "services/inbox/inboxboardjson.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace {
QJsonObject countsToJson(const InboxStateCounts &counts)
{
    QJsonObject o;
    for (int s = 0; s < InboxStateCount; ++s) {
        const QString key = s == int(InboxState::Unknown) ? u"unknown"_s : InboxMapping::stateKey(InboxState(s));
        o.insert(key, counts[size_t(s)]);
    }
    return o;
}
} // namespace

QJsonObject inboxBoardToJson(const InboxBoard &board)
{
    QJsonObject o{{u"type"_s, u"inbox"_s},
                  {u"mapping"_s, board.mappingName},
                  {u"table"_s, board.table},
                  {u"database"_s, board.database}};
    if (!board.ok()) {
        o.insert(u"error"_s, board.error);
        return o;
    }
    o.insert(u"takenAt"_s, board.takenAt.toUTC().toString(Qt::ISODateWithMs));
    o.insert(u"view"_s, board.isView);
    o.insert(u"totals"_s, countsToJson(board.totals));
    // States whose counts are estimates ("about N" on the board): a huge table's dominant state.
    QJsonArray estimated;
    for (int s = 0; s < InboxStateCount; ++s) {
        if (board.estimated[size_t(s)])
            estimated.append(s == int(InboxState::Unknown) ? u"unknown"_s : InboxMapping::stateKey(InboxState(s)));
    }
    if (!estimated.isEmpty())
        o.insert(u"estimatedStates"_s, estimated);
    QJsonArray consumers;
    for (const InboxConsumerCounts &c : board.consumers) {
        QJsonObject consumer{{u"consumer"_s, c.consumer}, {u"counts"_s, countsToJson(c.counts)}};
        if (board.hasExhausted)
            consumer.insert(u"exhausted"_s, c.exhausted);
        consumers.append(consumer);
    }
    o.insert(u"consumers"_s, consumers);
    if (board.hasExhausted)
        o.insert(u"exhausted"_s, QJsonObject{{u"rows"_s, board.exhaustedRows()},
                                             {u"afterAttempts"_s, board.exhaustedAfterAttempts},
                                             {u"estimated"_s, board.exhaustedEstimated}});
    if (!board.helperError.isEmpty())
        o.insert(u"helperError"_s, board.helperError);
    o.insert(u"unmappedStatuses"_s, QJsonArray::fromStringList(board.unmappedStatuses));
    o.insert(u"stuckCount"_s, board.stuckCount);
    if (board.hasStuck)
        o.insert(u"oldestStuck"_s, QJsonObject{{u"consumer"_s, board.oldestStuck.consumer},
                                               {u"messageId"_s, board.oldestStuck.messageId},
                                               {u"status"_s, board.oldestStuck.status},
                                               {u"ageSeconds"_s, board.oldestStuck.ageSeconds}});
    if (board.hasOutbox) {
        QJsonObject outbox{{u"table"_s, board.outboxTable}, {u"pending"_s, board.outbox.pending},
                           {u"oldestPendingAgeSeconds"_s, board.outbox.oldestPendingAgeSeconds}};
        if (!board.outboxError.isEmpty())
            outbox.insert(u"error"_s, board.outboxError);
        o.insert(u"outbox"_s, outbox);
    }
    if (!board.missingIndexes.isEmpty())
        o.insert(u"missingIndexes"_s, QJsonArray::fromStringList(board.missingIndexes));
    return o;
}
