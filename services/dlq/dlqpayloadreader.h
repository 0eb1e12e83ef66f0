#pragma once

#include "services/kafka/kafkaconfig.h"
#include "services/payload/decodedpayload.h"
#include "services/payload/payloadmask.h"
#include "services/policy/deliverypolicy.h"

#include <QHash>
#include <QList>
#include <QPair>
#include <QSet>
#include <QString>

#include <functional>
#include <memory>

class SchemaCatalog;
class TopicRangeReader;

// Reads dead letters' values back by coordinates and decodes them (PayloadDecoder), for the command line's
// `dlq scan --payloads`: the scan's index keeps no payloads. Each partition's offsets are read as one range.
// A schema still being fetched is waited for (up to waitMs): the command line has no view that could decode
// again later. Blocking; one thread at a time; never on a UI thread.
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

    static std::unique_ptr<DlqPayloadReader> create(const KafkaProperties &cluster, const QString &topic,
                                                    std::shared_ptr<SchemaCatalog> catalog, int waitMs,
                                                    const DeliveryPolicy &masking, QString *error);
    ~DlqPayloadReader();

    QHash<Coordinates, Payload> read(const QList<Coordinates> &records, QString *error);
    // The same, each payload handed to `each` as it is read (in offset order per partition) rather than kept:
    // for a reader of many (the field filter). Returns the number handed over.
    qint64 visit(const QList<Coordinates> &records, const std::function<void(const Coordinates &, Payload &)> &each,
                 QString *error);
    // Every value masked so far (to scrub what the scan built from the same records); never shown.
    const QStringList &maskedValues() const { return m_maskedValues; }

private:
    DlqPayloadReader() = default;
    std::unique_ptr<TopicRangeReader> m_reader;
    QString m_topic;
    std::shared_ptr<SchemaCatalog> m_catalog;
    int m_waitMs = 0;
    DeliveryPolicy m_masking;
    QStringList m_maskedValues;
    QSet<QString> m_maskedSeen; // m_maskedValues, for look-ups
};
