#pragma once

#include <QMetaType>
#include <QString>
#include <QStringList>

// RecordHeader / RecordHeaders live with the Kafka record so the consumer and the codec share one type.
#include "services/kafka/kafkarecord.h"

// Which producer's header vocabulary a dead-lettered record carries
// (ARCHITECTURE.md, Contracts: DLQ header dialects).
enum class DlqDialect {
    Unknown,
    SpringDlt,
    SpringRetry,
    SpringCloudStream,
    KafkaConnect,
    KafkaStreams,
    BerthCanonical,
};

// Human-readable name for lists and the inspector, e.g. "Spring Kafka DLT".
QString dialectName(DlqDialect dialect);

// What the DLQ headers say about a failure. Unset numbers are -1, unset strings empty.
struct DlqMetadata {
    DlqDialect dialect = DlqDialect::Unknown;
    QString originalTopic;
    int originalPartition = -1;
    qint64 originalOffset = -1;
    qint64 originalTimestampMs = -1;
    QString originalTimestampType; // "CreateTime" / "LogAppendTime" (Spring, Spring Cloud Stream)
    QString consumerGroup;
    QString exceptionClass;
    QString causeClass;
    QString reason;
    QString stackTrace;
    int attempts = -1;
    qint64 firstFailureMs = -1;
    qint64 lastFailureMs = -1;
    QString schemaVersion;
    QString correlationId;
    QString idempotencyKey;
    // Kafka Connect extras
    QString connectorName;
    QString connectorTask;
    QString connectorStage;
    QString connectorClass; // class of the failing stage (converter, transform...)
    // Decoding notes, e.g. "kafka_dlt-original-partition: 3 bytes, not a 4-byte int; shown raw: 0a0b0c".
    QStringList notes;

    friend bool operator==(const DlqMetadata &, const DlqMetadata &) = default;
};

Q_DECLARE_METATYPE(DlqMetadata)
