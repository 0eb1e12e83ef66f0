#pragma once

#include <QList>
#include <QPair>
#include <QString>

#include <librdkafka/rdkafka.h>

#include <memory>

// Any librdkafka property (bootstrap.servers, security.protocol, sasl.*, ssl.*...). librdkafka itself
// validates them, so the operator sees librdkafka's own words when one is wrong.
using KafkaProperties = QList<QPair<QString, QString>>;

struct KafkaHandleDeleter {
    void operator()(rd_kafka_t *rk) const;
};
using KafkaHandle = std::unique_ptr<rd_kafka_t, KafkaHandleDeleter>;

namespace KafkaConfig {
// Builds a configuration; on a rejected property returns nullptr and says which and why.
rd_kafka_conf_t *build(const KafkaProperties &properties, QString *error);
// Creates a client of the given type with librdkafka's logs routed to the berth.kafka category.
KafkaHandle createClient(rd_kafka_type_t type, const KafkaProperties &properties, QString *error);

// What tells one reader of readerProperties() from another. A zero or empty setting keeps librdkafka's
// default.
struct ReaderOptions {
    QString clientId; // the cluster's own client.id wins
    // What a start offset that is no longer in the log becomes: "earliest", "latest" or "error".
    QString autoOffsetReset;
    // Only for a reader that polls with rd_kafka_consumer_poll(), which wants one: assign() never joins
    // the group, and nothing is committed.
    QString groupId;
    int fetchWaitMs = 0;         // fetch.wait.max.ms: how long a broker may hold a fetch with no news
    int fetchPartitionBytes = 0; // fetch.message.max.bytes: per partition and fetch
    int fetchResponseBytes = 0;  // fetch.max.bytes: per fetch response
    int fetchErrorBackoffMs = 0; // fetch.error.backoff.ms: a partition's pause after a failed fetch
    int queueMinMessages = 0;    // queued.min.messages: prefetch per partition
    int queueMaxKbytes = 0;      // queued.max.messages.kbytes: prefetch per queue
};

// A reader that never joins a group and never commits: client.id (the cluster's own wins), the cluster's
// settings without group.id, then the reader's own settings (they win: a reader counts on them), and
// always partition-EOF events, no auto-commit, no offset store, no topic auto-creation.
KafkaProperties readerProperties(const KafkaProperties &cluster, const ReaderOptions &options);
QString bootstrapOf(const KafkaProperties &properties);
QString errorText(rd_kafka_resp_err_t err);
// The last error librdkafka logged for this client (e.g. "Failed to resolve 'nosuchhost.invalid:9092'"),
// which says why where an API call says only "Broker transport failure"; empty when none.
QString lastLoggedError(const rd_kafka_t *rk);
} // namespace KafkaConfig
