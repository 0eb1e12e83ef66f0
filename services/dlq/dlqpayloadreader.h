#pragma once

#include "services/kafka/kafkaconfig.h"
#include "services/payload/decodedpayload.h"
#include "services/payload/payloadmask.h"
#include "services/policy/deliverypolicy.h"
#include "services/remediation/topicrangereader.h"

#include <QHash>
#include <QList>
#include <QPair>
#include <QSet>
#include <QString>

#include <functional>
#include <memory>

class FieldFilter;
class SchemaCatalog;

// Reads dead letters' values back by coordinates and decodes them (PayloadDecoder), for the command line's
// `dlq scan --payloads` and the field filter: the scan's index keeps no payloads. Each partition's offsets
// are read as one range. A schema still being fetched is waited for (up to waitMs): the command line has no
// view that could decode again later. Blocking; one thread at a time; never on a UI thread.
class DlqPayloadReader final {
public:
    // After the policy's masking: value, key and metadata as they may be shown.
    struct Payload {
        QByteArray value;
        bool isNull = false;
        DecodedPayload decoded;
        QByteArray key;
        bool keyIsNull = true;
        DlqMetadata metadata;
        PayloadMask::Outcome mask;
    };
    using Coordinates = QPair<int, qint64>; // partition, offset

    // use: Bulk for a reader of whole windows (the field filter), as TopicRangeReader says.
    static std::unique_ptr<DlqPayloadReader>
    create(const KafkaProperties &cluster, const QString &topic, std::shared_ptr<SchemaCatalog> catalog,
           int waitMs, const DeliveryPolicy &masking, QString *error,
           TopicRangeReader::Use use = TopicRangeReader::Use::Ranges);
    ~DlqPayloadReader();

    QHash<Coordinates, Payload> read(const QList<Coordinates> &records, QString *error);
    // The same, each payload handed to `each` as it is read (in offset order per partition) rather than kept:
    // for a reader of many (the field filter). Returns the number handed over.
    qint64 visit(const QList<Coordinates> &records, const std::function<void(const Coordinates &, Payload &)> &each,
                 QString *error);
    // The field filter over the records at `records` (sorted by partition, then offset), in one pass over
    // the partitions' ranges, nothing kept (ARCHITECTURE.md, Field filters). A record no masking rule
    // applies to whose schema can select fields is evaluated on its body (FieldFilter::matchesBody); any
    // other is decoded and masked as visit() hands it out, and evaluated on that. matched(i) for each record
    // that passes (i: its place in `records`); every `step` records keepGoing(read so far) is asked whether
    // to go on. Returns how many were read, and of those how many no schema decoded nor were JSON.
    struct FilterCount {
        qint64 read = 0;
        qint64 undecoded = 0;
    };
    FilterCount filter(const std::vector<Coordinates> &records, const FieldFilter &filter,
                       const std::function<void(size_t)> &matched, qint64 step,
                       const std::function<bool(qint64)> &keepGoing, QString *error);

    // Every value masked so far (to scrub what the scan built from the same records); never shown.
    const QStringList &maskedValues() const { return m_maskedValues; }

private:
    DlqPayloadReader() = default;
    // One record as visit() hands it out: decoded (waiting for a pending schema) and masked.
    Payload payloadOf(const rd_kafka_message_t *m, bool collectMasked);
    // The record's original topic (its dialect headers), for the masking rules and the local schema files
    // that name it.
    static QString originalTopicOf(const rd_kafka_message_t *m, RecordHeaders &scratch);
    std::unique_ptr<TopicRangeReader> m_reader;
    QString m_topic;
    std::shared_ptr<SchemaCatalog> m_catalog;
    int m_waitMs = 0;
    DeliveryPolicy m_masking;
    QStringList m_maskedValues;
    QSet<QString> m_maskedSeen; // m_maskedValues, for look-ups
};
