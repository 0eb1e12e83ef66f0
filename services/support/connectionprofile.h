#pragma once

#include "services/inbox/inboxmapping.h"
#include "services/kafka/kafkaconfig.h"
#include "services/payload/schemaregistryconfig.h"

#include <QMap>

#include <QStringList>

// What the console connects to: one cluster, the default inbox database, and the services' own databases.
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
    // Inbox mappings saved by the mapping editor; a mapping the policy states for the same consumer wins
    // (ARCHITECTURE.md, Contracts: Inbox mapping).
    QList<InboxMapping> inboxMappings;
    // Named inbox databases a mapping's `database` may name (one database per service): name -> conninfo.
    // Their passwords live in the keychain ("db/<name>/password"), never here once saved.
    QMap<QString, QString> databases;
    int sampleIntervalMs = 5000;
};
