#pragma once

#include <QList>
#include <QtGlobal>

// The demo's faults, on a fixed schedule by message sequence number, so that a short warm-up is sure to
// contain each kind and tests can predict them. The producer and the consumers read the same schedule.
namespace DemoFaults {
// Producer side
inline bool duplicateOrder(qint64 seq) { return seq % 17 == 2; }       // producer retry: sent twice, same key
inline bool malformedOrder(qint64 seq) { return seq % 37 == 5; }       // poison: not JSON
inline bool unknownOrderType(qint64 seq) { return seq % 53 == 7; }     // OrderTeleported: no handler until the fix
inline bool invalidOrderAmount(qint64 seq) { return seq % 61 == 9; }   // fails validation
inline bool duplicatePayment(qint64 seq) { return seq % 19 == 3; }
inline bool invalidPayment(qint64 seq) { return seq % 43 == 6; }
inline bool invalidRecipient(qint64 seq) { return seq % 29 == 4; }
// Consumer side
// The projection database's timeouts: records that exhaust the retry budget while the incident lasts
// (DemoIncident); once it is over they go through like any other.
inline bool databaseIncident(qint64 seq) { return seq % 97 == 11; }
// Failed attempts before success; 3 or more exhausts the retry budget.
inline int transientFailures(qint64 seq, bool incidentOver = false)
{
    if (databaseIncident(seq) && !incidentOver)
        return 3;
    return seq % 23 == 1 ? 1 : 0;
}
inline bool crashBeforeCommit(qint64 seq) { return seq % 71 == 20; } // side effect done, offset not committed
inline bool crashWhileInProgress(qint64 seq) { return seq % 113 == 13; } // leaves a stuck IN_PROGRESS row
// email-sender's offset was committed before the mail went out and the process died in between: the
// message is lost (an at-most-once loss, seed 003) and a delivery accounting finds it unaccounted.
inline bool commitBeforeSideEffect(qint64 seq) { return seq % 89 == 30; }
// Events of one order after its OrderPlaced (version 1), sent right after it with the order's key, so
// they share its partition; each carries the order's `version`, the orders topic's sequence field in the
// demo policy. A delivery accounting of order-projection finds each of these per key.
inline bool amendedOutOfOrder(qint64 seq) { return seq % 41 == 15; } // seed 000 §21: versions 3 then 2
inline bool amendedWithGap(qint64 seq) { return seq % 47 == 16; }    // seed 000 §21: version 3, 2 never sent
// Seed 000 §23: amendments 2 to 5 arrive as one batch; 3 fails validation and is dead-lettered while 4
// and 5 go through (a DLQ-and-continue break).
inline bool batchFailsPartWay(qint64 seq) { return seq % 59 == 18; }
inline constexpr int failingBatchVersion = 3;
// The versions sent after version 1, in sending order.
inline QList<int> amendmentVersions(qint64 seq)
{
    if (amendedOutOfOrder(seq))
        return {3, 2};
    if (amendedWithGap(seq))
        return {3};
    if (batchFailsPartWay(seq))
        return {2, 3, 4, 5};
    return {};
}
constexpr int maxAttempts = 3;
}
