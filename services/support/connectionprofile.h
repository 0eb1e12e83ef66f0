#pragma once

#include "services/kafka/kafkaconfig.h"
#include "services/payload/schemaregistryconfig.h"

#include <QStringList>

// What the console connects to: one cluster and the consumer's inbox database.
struct ConnectionProfile {
    QString name;
    KafkaProperties cluster;
    QStringList namedGroups;   // groups to watch when the brokers cannot list them
    QStringList dlqTopics;     // dead-letter topics whose arrival rate is charted and alerted on
    QStringList duplicateTopics; // topics tailed (without committing) to count duplicate idempotency keys
    QString databaseConninfo;  // libpq conninfo or URI; empty: no inbox database
    QString databaseLabel;     // shown instead of the conninfo (which may hold a password)
    QString policyPath;        // delivery policy (YAML): lag SLOs per consumer group
    SchemaRegistryConfig schemaRegistry; // where schema payloads' schemas come from (password: keychain)
    QStringList schemaFiles;   // local schema files mapped to topics: "FILE=TOPIC" or "FILE#Message=TOPIC"
    int sampleIntervalMs = 5000;
};
