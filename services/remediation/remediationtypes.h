#pragma once

#include "services/audit/audittypes.h"

#include <QByteArray>
#include <QList>
#include <QMetaType>
#include <QString>

#include <optional>

// Value types shared by the dry run, the request builder and the executor. Plain data, safe to copy
// across threads.

// One DLQ record picked in the browser (or on the command line): where it is, nothing more. The builder
// fetches it once to pin its payload's SHA-256 and key.
struct DlqSelection {
    QString topic;
    int partition = -1;
    qint64 offset = -1;
};

// A selected item as the dry run sees it: the pinned source plus what its dead-letter headers say
// (original topic/partition/offset, consumer group), decoded once when the builder fetched the record.
struct PinnedItem {
    QString sourceTopic; // the DLQ topic; empty: an inbox row only
    int sourcePartition = -1;
    qint64 sourceOffset = -1;
    QByteArray payloadSha256;
    std::optional<QByteArray> key;
    QString idempotencyKey;
    QString originalTopic; // from the dialect headers; empty: unknown
    int originalPartition = -1;
    qint64 originalOffset = -1;
    QString consumerGroup; // from the dialect headers; empty: unknown
    QJsonObject inboxRef;  // skip/delete of an inbox row: {"mapping", "messageId", "consumer"?}
};

namespace RemediationHeaders {
// Headers Berth adds to every replayed record (ARCHITECTURE.md, Contracts: Replay headers).
inline constexpr char ReplayId[] = "berth-replay-id";         // "<request id>-<item no>"
inline constexpr char RequestId[] = "berth-request-id";       // "<request id>"
inline constexpr char ReplayedFrom[] = "berth-replayed-from"; // "<topic>/<partition>/<offset>"
inline constexpr char ReplayCount[] = "berth-replay-count";   // 1 + the count on the source record
} // namespace RemediationHeaders

// "<request id>-<item no>": the value of berth-replay-id and berth.intents.replay_id.
QString replayIdFor(qint64 requestId, int itemNo);
// The inverse; false when `replayId` is not of that shape.
bool parseReplayId(QByteArrayView replayId, qint64 *requestId, int *itemNo);

// inbox_ref of a request item naming an inbox row: {"mapping": name, "messageId": id, "consumer": c}
// ("consumer" only when the mapping has a consumer column and the row names one).
QJsonObject inboxRefFor(const QString &mapping, const QString &messageId, const QString &consumer = {});
