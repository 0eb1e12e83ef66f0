#include "dlqpayloadreader.h"

#include "services/dlq/dlqheadercodec.h"
#include "services/payload/payloaddecoder.h"
#include "services/payload/schemacatalog.h"
#include "services/remediation/topicrangereader.h"

#include <QMap>
#include <QSet>

std::unique_ptr<DlqPayloadReader> DlqPayloadReader::create(const KafkaProperties &cluster, const QString &topic,
                                                           std::shared_ptr<SchemaCatalog> catalog, int waitMs,
                                                           const DeliveryPolicy &masking, QString *error)
{
    std::unique_ptr<DlqPayloadReader> r(new DlqPayloadReader);
    if (!(r->m_reader = TopicRangeReader::create(cluster, error)))
        return nullptr;
    r->m_topic = topic;
    r->m_catalog = std::move(catalog);
    r->m_waitMs = waitMs;
    r->m_masking = masking;
    return r;
}

DlqPayloadReader::~DlqPayloadReader() = default;

QHash<DlqPayloadReader::Coordinates, DlqPayloadReader::Payload>
DlqPayloadReader::read(const QList<Coordinates> &records, QString *error)
{
    QHash<Coordinates, Payload> out;
    visit(records, [&](const Coordinates &at, Payload &p) { out.insert(at, std::move(p)); }, error);
    return out;
}

qint64 DlqPayloadReader::visit(const QList<Coordinates> &records,
                               const std::function<void(const Coordinates &, Payload &)> &each, QString *error)
{
    QMap<int, QPair<qint64, qint64>> span; // partition → [first, last]
    QSet<Coordinates> wanted;
    for (const Coordinates &c : records) {
        wanted.insert(c);
        auto it = span.find(c.first);
        if (it == span.end())
            span.insert(c.first, {c.second, c.second});
        else
            *it = {qMin(it->first, c.second), qMax(it->second, c.second)};
    }
    QList<TopicRangeReader::Range> ranges;
    for (auto it = span.cbegin(); it != span.cend(); ++it)
        ranges.append({m_topic, it.key(), it->first, it->second + 1});
    qint64 handed = 0;
    const bool ok = m_reader->read(
        ranges,
        [&](const rd_kafka_message_t *m) {
            const Coordinates at{int(m->partition), qint64(m->offset)};
            if (!wanted.contains(at))
                return true;
            KafkaRecord record = KafkaRecord::fromMessage(m);
            Payload p;
            p.metadata = decodeDlqHeaders(record.headers);
            const QString original = p.metadata.originalTopic;
            p.isNull = record.value.isNull();
            p.decoded = PayloadDecoder::decode(record.value, p.isNull, m_topic, m_catalog.get(), original);
            if (p.decoded.pending && m_catalog->waitForAnswer(p.decoded.schema.id, m_waitMs))
                p.decoded = PayloadDecoder::decode(record.value, p.isNull, m_topic, m_catalog.get(), original);
            QStringList verbatim;
            p.mask = PayloadMask::apply(m_masking.maskFor(m_topic, original), record, p.metadata, p.decoded, &verbatim);
            for (const QString &v : verbatim) {
                if (!m_maskedSeen.contains(v)) {
                    m_maskedSeen.insert(v);
                    m_maskedValues.append(v);
                }
            }
            p.value = record.value;
            p.key = record.key;
            p.keyIsNull = record.keyIsNull;
            each(at, p);
            return ++handed < wanted.size();
        },
        10000, error);
    Q_UNUSED(ok); // *error says why a read stopped short; what was read was handed over
    return handed;
}
