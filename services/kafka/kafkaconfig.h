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
// A reader that never joins a group and never commits: client.id (the cluster's own wins), the cluster's
// settings without group.id, partition-EOF events, no auto-commit, no topic auto-creation.
KafkaProperties readerProperties(const KafkaProperties &cluster, const QString &clientId);
QString bootstrapOf(const KafkaProperties &properties);
QString errorText(rd_kafka_resp_err_t err);
}
