#include "dlqpayloadreader.h"

#include "services/dlq/dlqheadercodec.h"
#include "services/kafka/kafkarecord.h"
#include "services/payload/fieldfilter.h"
#include "services/payload/pathselection.h"
#include "services/payload/payloaddecoder.h"
#include "services/payload/schemacatalog.h"
#include "services/remediation/topicrangereader.h"

#include <QMap>
#include <QSet>

std::unique_ptr<DlqPayloadReader> DlqPayloadReader::create(const KafkaProperties &cluster,
                                                           const QString &topic,
                                                           std::shared_ptr<SchemaCatalog> catalog, int waitMs,
                                                           const DeliveryPolicy &masking, QString *error,
                                                           TopicRangeReader::Use use)
{
    std::unique_ptr<DlqPayloadReader> r(new DlqPayloadReader);
    if (!(r->m_reader = TopicRangeReader::create(cluster, error, use)))
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
            Payload p = payloadOf(m, true);
            each(at, p);
            return ++handed < wanted.size();
        },
        10000, error);
    Q_UNUSED(ok); // *error says why a read stopped short; what was read was handed over
    return handed;
}

DlqPayloadReader::Payload DlqPayloadReader::payloadOf(const rd_kafka_message_t *m, bool collectMasked)
{
    KafkaRecord record = KafkaRecord::fromMessage(m);
    Payload p;
    p.metadata = decodeDlqHeaders(record.headers);
    const QString original = p.metadata.originalTopic;
    p.isNull = record.value.isNull();
    p.decoded = PayloadDecoder::decode(record.value, p.isNull, m_topic, m_catalog.get(), original);
    if (p.decoded.pending && m_catalog->waitForAnswer(p.decoded.schema.id, m_waitMs))
        p.decoded = PayloadDecoder::decode(record.value, p.isNull, m_topic, m_catalog.get(), original);
    QStringList verbatim;
    p.mask =
        PayloadMask::apply(m_masking.maskFor(m_topic, original), record, p.metadata, p.decoded, &verbatim);
    if (collectMasked) {
        for (const QString &v : verbatim) {
            if (!m_maskedSeen.contains(v)) {
                m_maskedSeen.insert(v);
                m_maskedValues.append(v);
            }
        }
    }
    p.value = record.value;
    p.key = record.key;
    p.keyIsNull = record.keyIsNull;
    return p;
}

QString DlqPayloadReader::originalTopicOf(const rd_kafka_message_t *m, RecordHeaders &scratch)
{
    scratch.clear();
    forEachHeader(m, [&](QByteArrayView name, const void *value, size_t size) {
        RecordHeader h;
        h.name = QByteArray::fromRawData(name.data(), name.size());
        h.isNull = !value;
        if (value)
            h.value = QByteArray::fromRawData(static_cast<const char *>(value), qsizetype(size));
        scratch.append(std::move(h));
    });
    const QString topic = decodeDlqHeaders(scratch).originalTopic;
    scratch.clear(); // no views left behind once the message goes
    return topic;
}

DlqPayloadReader::FilterCount
DlqPayloadReader::filter(const std::vector<Coordinates> &records, const FieldFilter &filter,
                         const std::function<void(size_t)> &matched, qint64 step,
                         const std::function<bool(qint64)> &keepGoing, QString *error)
{
    FilterCount count;
    if (records.empty())
        return count;
    // Each partition's records are a run of `records`, consumed front to back as its offsets arrive.
    struct Run {
        size_t next = 0;
        size_t end = 0;
    };
    std::vector<Run> runs;
    QList<TopicRangeReader::Range> ranges;
    for (size_t i = 0; i < records.size();) {
        const int partition = records[i].first;
        size_t j = i;
        while (j < records.size() && records[j].first == partition)
            ++j;
        if (partition >= 0) {
            if (size_t(partition) >= runs.size())
                runs.resize(size_t(partition) + 1);
            runs[size_t(partition)] = {i, j};
            ranges.append({m_topic, partition, records[i].second, records[j - 1].second + 1});
        }
        i = j;
    }
    // Which records the masking rules or the local schema files tell apart by their original topic: only then
    // are the headers decoded before the payload.
    bool originalMatters = m_catalog && !m_catalog->forTopic(m_topic) && m_catalog->hasTopicSchemas();
    for (const MaskRule &rule : std::as_const(m_masking.masking))
        originalMatters = originalMatters || rule.topic != m_topic;
    const MaskRule topicRule = m_masking.maskFor(m_topic, {});
    const auto unmasked = [](const MaskRule &r) {
        return r.fields.isEmpty() && r.headers.isEmpty() && !r.key;
    };
    QString lastOriginal;
    bool lastUnmasked = unmasked(topicRule);
    RecordHeaders headers;
    PathSelection::Values values;
    const qint64 total = qint64(records.size());
    bool stopped = false;
    m_reader->read(
        ranges,
        [&](const rd_kafka_message_t *m) {
            if (m->partition < 0 || size_t(m->partition) >= runs.size())
                return true;
            Run &run = runs[size_t(m->partition)];
            const qint64 offset = m->offset;
            while (run.next < run.end && records[run.next].second < offset)
                ++run.next;
            if (run.next == run.end || records[run.next].second != offset)
                return true;
            const size_t at = run.next++;
            QString original;
            if (originalMatters) {
                original = originalTopicOf(m, headers);
                if (original != lastOriginal) {
                    lastOriginal = original;
                    lastUnmasked = unmasked(m_masking.maskFor(m_topic, original));
                }
            }
            std::optional<bool> passed;
            if (lastUnmasked) {
                const QByteArrayView value(static_cast<const char *>(m->payload), qsizetype(m->len));
                const PayloadDecoder::Route route =
                    PayloadDecoder::route(value, !m->payload, m_topic, m_catalog.get(), original);
                if (route.schema)
                    passed = filter.matchesBody(*route.schema, route.body, values);
            }
            if (!passed) {
                const Payload p = payloadOf(m, false);
                if (!p.decoded.isJson())
                    ++count.undecoded;
                else
                    passed = filter.matches(p.decoded);
            }
            if (passed.value_or(false))
                matched(at);
            ++count.read;
            if (count.read % step == 0 && !keepGoing(count.read)) {
                stopped = true;
                return false;
            }
            return count.read < total;
        },
        10000, error);
    Q_UNUSED(stopped); // the caller knows it asked to stop; *error says why a read stopped short
    return count;
}
