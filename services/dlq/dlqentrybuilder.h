#pragma once

#include "services/dlq/dlqdecodedbatch.h"
#include "services/dlq/dlqfastdecode.h"
#include "services/dlq/dlqindexentry.h"
#include "services/dlq/dlqrecord.h"
#include "services/kafka/kafkarecord.h"
#include "services/policy/deliverypolicy.h"

#include <librdkafka/rdkafka.h>

#include <memory>
#include <vector>

class DlqLookupKeys;
class SchemaCatalog;

// Turns consumed records into index entries, in two steps that may run on two threads: DlqRecordDecoder
// decodes a record's DLQ headers and copies out the strings the index keeps, DlqEntryInterner interns
// them. The scanner runs them a million times, so decoding reads the key, value and headers where
// librdkafka hands them out, takes the allocation-free path for well-formed headers
// (decodeDlqHeadersFast) and decodeDlqHeaders for everything else; stack traces are not decoded (the index
// only notes that there is one, the inspector shows it).
class DlqRecordDecoder final {
public:
    DlqRecordDecoder();

    void decode(const rd_kafka_message_t *message, DlqDecodedBatch &out);
    void decode(const KafkaRecord &record, DlqDecodedBatch &out);

    // Records of `topic` (or whose original topic) a rule names are masked before their strings are copied
    // out (PayloadMask::apply; ARCHITECTURE.md, Contracts: masking): the key, the reason, the consumer and
    // the idempotency key as masking leaves them. When the rule names payload fields that cannot be found
    // (no schema at hand yet), the reason is withheld whole: it may repeat them. The real keys masking hid go
    // to lookupKeys (when given), for the inbox look-ups only.
    void setMasking(const QString &topic, const QList<MaskRule> &rules,
                    std::shared_ptr<SchemaCatalog> schemas, std::shared_ptr<DlqLookupKeys> lookupKeys = {});

    // Tests build the same records both ways and compare.
    void setFastPath(bool enabled) { m_fastPath = enabled; }
    qint64 fastDecoded() const { return m_fastDecoded; }
    qint64 slowDecoded() const { return m_slowDecoded; }

    // Interned text is cut to this many characters (and ends in "…"); the idempotency key is kept whole.
    static constexpr qsizetype MaxReason = 1000;
    static constexpr qsizetype MaxName = 500;

private:
    struct Raw {
        int partition = 0;
        qint64 offset = -1;
        qint64 timestampMs = -1;
        QByteArrayView key;
        bool keyIsNull = true;
        QByteArrayView value;
        bool valueIsNull = true;
    };
    // Adds a header to m_views; returns the flags the header implies.
    quint8 addHeader(QByteArrayView name, const void *value, size_t size);
    void finish(const Raw &raw, quint8 headerFlags, DlqDecodedBatch &out);
    bool decodeFast(DlqDecodedBatch::Record &r, DlqDecodedBatch &out);
    void decodeSlow(DlqDecodedBatch::Record &r, DlqDecodedBatch &out);
    DlqDecodedBatch::Text putText(const QString &text, qsizetype max, DlqDecodedBatch &out);
    void putKey(QByteArrayView key, DlqDecodedBatch::Record &r, DlqDecodedBatch &out);
    void putTexts(const DlqMetadata &m, DlqDecodedBatch::Record &r, DlqDecodedBatch &out);
    void mask(const Raw &raw, DlqDecodedBatch::Record &r, DlqDecodedBatch &out);

    std::vector<DlqHeaderView> m_views; // into the record being decoded; reused
    RecordHeaders m_headers;            // the same for decodeDlqHeaders; reused
    QByteArray m_utf8;                  // conversion buffer
    bool m_fastPath = true;
    // Masking: the rules, and the rule of the last original topic seen (a DLQ's records nearly all share it).
    QString m_topic;
    DeliveryPolicy m_masking;
    std::shared_ptr<SchemaCatalog> m_schemas;
    std::shared_ptr<DlqLookupKeys> m_lookupKeys;
    QByteArray m_ruleTopic;
    MaskRule m_rule;
    bool m_ruleKnown = false;
    qint64 m_fastDecoded = 0;
    qint64 m_slowDecoded = 0;
};

// Interns what DlqRecordDecoder decoded: on the pool's one writer thread.
class DlqEntryInterner final {
public:
    explicit DlqEntryInterner(StringPool &pool)
        : m_pool(pool)
    {
    }
    DlqIndexEntry intern(const DlqDecodedBatch &batch, const DlqDecodedBatch::Record &record);
    // A whole batch, in order: nearly every idempotency key is new, and a scan's look-up table outgrows
    // the processor's caches, so each key's place in it is fetched a few records ahead.
    template <typename Each> void internAll(const DlqDecodedBatch &batch, Each &&each)
    {
        const std::vector<DlqDecodedBatch::Record> &records = batch.records();
        const size_t n = records.size();
        m_keyHashes.resize(n);
        for (size_t i = 0; i < n; ++i)
            m_keyHashes[i] = StringPool::hashBytes(keyOf(batch, records[i]));
        for (size_t i = 0; i < n; ++i) {
            if (i + kLookAhead < n)
                m_pool.prefetch(m_keyHashes[i + kLookAhead]);
            each(internWith(batch, records[i], m_keyHashes[i]));
        }
    }
    // Room for a scan of this many records (StringPool::reserve).
    void reserve(qint64 records) { m_pool.reserve(records); }

private:
    static constexpr size_t kLookAhead = 8;
    static QByteArrayView keyOf(const DlqDecodedBatch &batch, const DlqDecodedBatch::Record &record)
    {
        return StringPool::significant(batch.view(record.text[DlqDecodedBatch::IdempotencyKey]));
    }
    DlqIndexEntry internWith(const DlqDecodedBatch &batch, const DlqDecodedBatch::Record &record,
                             quint32 keyHash);
    quint32 route(QByteArrayView topic, QByteArrayView consumer);

    StringPool &m_pool;
    std::vector<quint32> m_keyHashes; // internAll()'s
    // The last record's original topic and consumer, as bytes, and the route they made.
    QByteArray m_routeTopic, m_routeConsumer;
    quint32 m_route = 0;
    bool m_routeKnown = false;
};

// Both steps on one thread, a record at a time.
class DlqEntryBuilder final {
public:
    explicit DlqEntryBuilder(StringPool &pool)
        : m_interner(pool)
    {
    }
    DlqIndexEntry build(const rd_kafka_message_t *message) { return buildFrom(message); }
    DlqIndexEntry build(const KafkaRecord &record) { return buildFrom(record); }

    void setFastPath(bool enabled) { m_decoder.setFastPath(enabled); }
    void setMasking(const QString &topic, const QList<MaskRule> &rules,
                    std::shared_ptr<SchemaCatalog> schemas, std::shared_ptr<DlqLookupKeys> lookupKeys = {})
    {
        m_decoder.setMasking(topic, rules, std::move(schemas), std::move(lookupKeys));
    }
    qint64 fastDecoded() const { return m_decoder.fastDecoded(); }
    qint64 slowDecoded() const { return m_decoder.slowDecoded(); }
    static constexpr qsizetype MaxReason = DlqRecordDecoder::MaxReason;
    static constexpr qsizetype MaxName = DlqRecordDecoder::MaxName;

private:
    template <typename Record> DlqIndexEntry buildFrom(const Record &record)
    {
        m_one.clear();
        m_decoder.decode(record, m_one);
        return m_interner.intern(m_one, m_one.records().front());
    }

    DlqRecordDecoder m_decoder;
    DlqEntryInterner m_interner;
    DlqDecodedBatch m_one;
};
