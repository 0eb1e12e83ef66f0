#include "services/accounting/deliveryaccountant.h"

#include "services/accounting/accountingclassifier.h"
#include "services/accounting/inboxkeystage.h"
#include "services/accounting/keyinterner.h"
#include "services/accounting/recordfieldvalue.h"
#include "services/accounting/sequencecheck.h"
#include "services/dlq/dlqheadercodec.h"
#include "services/dlq/dlqscantypes.h"
#include "services/kafka/clusterinspector.h"
#include "services/payload/payloadmask.h"
#include "services/remediation/topicrangereader.h"
#include "services/support/handover.h"

#include <QDateTime>

using namespace Qt::StringLiterals;

AccountingRequest AccountingRequest::fromPolicy(const DeliveryPolicy &policy, const InboxMappingSet &inboxes,
                                                const QString &group, const QString &topic)
{
    AccountingRequest r;
    r.group = group;
    r.topic = topic;
    r.inboxes = inboxes;
    if (const InboxMapping *m = inboxes.find(group))
        r.inbox = *m;
    if (const ConsumerPolicy *c = policy.consumer(group)) {
        if (!c->dlqTopic.isEmpty())
            r.dlqTopics << c->dlqTopic;
        r.idempotencyKey = c->idempotencyKey;
        r.readCommitted = c->readsCommitted();
    }
    if (const TopicPolicy *t = policy.topic(topic))
        r.sequence = t->sequence;
    r.mask = policy.maskFor(topic);
    return r;
}

namespace {
class Run final {
public:
    Run(const AccountingRequest &request, const AccountingHooks &hooks)
        : m_request(request)
        , m_hooks(hooks)
        , m_result(std::make_shared<AccountingResult>())
    {
    }

    AccountingResultPtr go();

private:
    bool cancelled() const { return m_hooks.cancelled && m_hooks.cancelled(); }
    void progress(const QString &stage)
    {
        if (m_hooks.progress)
            m_hooks.progress({m_read, m_total, stage});
    }
    quint32 intern(QByteArrayView bytes) { return m_keyIds.intern(bytes); }
    bool resolveWindow(ClusterInspector &inspector, TopicRangeReader &reader);
    qint64 position(const DlqScanRequest &at, TopicRangeReader &reader, int partition, qint64 low,
                    qint64 high, qint64 timesAnswer, bool isEnd);
    qint64 firstAtOrAfter(TopicRangeReader &reader, int partition, qint64 low, qint64 high, qint64 timeMs);
    // The consumer's dead letters of the topic as read on a thread of their own while the window is read,
    // kept apart until then: their keys as bytes (the interner is the window's, used on the run's thread).
    struct DeadLetters {
        QStringList topics;
        QStringList messages;
        QString error;
        std::vector<AccountingDeadLetter> letters; // idempotencyKey: 1 + the key's index in `keys` (0: none)
        KeyTable keys;
        QHash<int, QSet<qint64>> at; // source partition -> offsets the letters name
    };
    DeadLetters readDeadLetters(TopicRangeReader &reader) const;
    // Joins the dead letters' read and adds them to the result and the evidence; false on its error.
    bool takeDeadLetters();
    bool readWindow(TopicRangeReader &reader);
    void readAborted();
    void addRecord(const rd_kafka_message_t *m);
    void placeRecord(const AccountedRecord &r);
    // Closes up the ends of the partitions' blocks the window did not fill; the records are then in
    // (partition, offset) order.
    void closeUpBlocks();
    void takeAnswers(InboxKeyStage::Answers answers);
    AccountingResultPtr stopped();
    // The message id as the policy says (default: header idempotency-key, else the record key); empty and
    // a note when the record has none. A view into the record or `fields`.
    QByteArrayView idempotencyKeyOf(const rd_kafka_message_t *m, quint16 *notes, RecordFieldValue &fields) const;

    const AccountingRequest &m_request;
    const AccountingHooks &m_hooks;
    std::shared_ptr<AccountingResult> m_result;
    AccountingEvidence m_evidence;
    KeyInterner m_keyIds{m_result->keys};
    QHash<QString, int> m_partitionCounts; // every topic of the cluster
    // Per key id, grown as keys are interned: the value hash of the key's first record (as an idempotency
    // key), and whether that first record was seen and the inbox asked about the key.
    std::vector<quint32> m_firstPayload;
    std::vector<bool> m_seenKey;
    // Where the window's next record of each partition goes in the result (by partition number), and where
    // that partition's block ends; empty when the records are appended and sorted instead (placeRecord).
    std::vector<size_t> m_slot;
    std::vector<size_t> m_blockEnd;
    HandOver<DeadLetters> m_deadLetters;
    std::unique_ptr<InboxKeyStage> m_lookups;
    std::vector<quint32> m_pendingKeys;
    bool m_answered = false; // the stage's answers are in m_evidence
    size_t m_lookupBatch = 0; // keys per batch, as the stage asks
    RecordField m_keyField;
    qint64 m_read = 0;
    qint64 m_total = 0;
};

AccountingResultPtr Run::go()
{
    AccountingResult &res = *m_result;
    res.group = m_request.group;
    res.topic = m_request.topic;
    res.readCommitted = m_request.readCommitted;
    m_evidence.readCommitted = m_request.readCommitted;
    m_keyField = m_request.idempotencyKey.isStated()
                     ? m_request.idempotencyKey
                     : RecordField{RecordField::Kind::Header, u"idempotency-key"_s};
    res.keySource = m_request.idempotencyKey.isStated() ? m_request.idempotencyKey.describe()
                                                        : u"header idempotency-key, else the record key"_s;
    // The default idempotency key falls back to the record key: masked when either source is.
    res.recordKeyMasked = m_request.mask.key;
    res.idempotencyKeyMasked = PayloadMask::hides(m_request.mask, m_keyField)
                               || (!m_request.idempotencyKey.isStated() && m_request.mask.key);

    QString error;
    auto inspector = ClusterInspector::create(m_request.cluster, &error);
    auto reader = inspector ? TopicRangeReader::create(m_request.cluster, &error, TopicRangeReader::Use::Bulk)
                            : nullptr;
    if (!reader) {
        res.error = error;
        return m_result;
    }
    // Metadata for all topics: asking for one topic by name makes brokers with auto-creation create it.
    const KafkaResult<ClusterSnapshot> cluster = inspector->metadata(m_request.timeoutMs);
    if (!cluster.ok()) {
        res.error = u"Cannot read the cluster's metadata: "_s + cluster.error;
        return m_result;
    }
    for (const TopicInfo &t : cluster.value.topics)
        m_partitionCounts.insert(t.name, t.error.isEmpty() ? t.partitionCount() : 0);
    if (!resolveWindow(*inspector, *reader))
        return m_result;

    // The group's committed offsets (OffsetFetch through a consumer handle that never joins the group).
    QList<TopicPartition> tps;
    for (const AccountingPartition &p : std::as_const(res.partitions))
        tps.append({m_request.topic, p.partition});
    const QList<GroupOffsets> committed =
        inspector->committedOffsetsViaGroupHandles({m_request.group}, tps, m_request.timeoutMs);
    if (!committed.isEmpty() && !committed.front().error.isEmpty()) {
        res.error =
            u"Cannot read the committed offsets of "_s + m_request.group + u": "_s + committed.front().error;
        return m_result;
    }
    for (AccountingPartition &p : res.partitions) {
        p.committed =
            committed.isEmpty() ? -1 : committed.front().committed.value({m_request.topic, p.partition}, -1);
        m_evidence.committed.insert(p.partition, p.committed);
    }

    // The inbox, checked before anything is read: a mapping to a table that is not there would make every
    // record look lost.
    if (m_request.inbox) {
        m_lookups = std::make_unique<InboxKeyStage>(m_request.inboxes, *m_request.inbox);
        if (!m_lookups->open(std::min(m_total, m_request.maxRecords), m_request.lookupBatch, &error)) {
            res.error = error;
            return m_result;
        }
        m_lookupBatch = size_t(m_lookups->batchSize());
        res.messages += m_lookups->notes();
        m_evidence.hasInbox = true;
        res.inboxChecked = true;
    }

    // The dead letters on a reader of their own, while the window is read on this one.
    std::unique_ptr<TopicRangeReader> dlqReader =
        TopicRangeReader::create(m_request.cluster, &error, TopicRangeReader::Use::Bulk);
    if (!dlqReader) {
        res.error = error;
        return m_result;
    }
    m_deadLetters.handOver([this, dlq = dlqReader.get()] { return readDeadLetters(*dlq); });
    const bool read = readWindow(*reader);
    if (read && !cancelled() && m_request.readCommitted)
        readAborted();
    if (!takeDeadLetters() || (!read && !cancelled()))
        return m_result;
    if (cancelled())
        return stopped();

    if (m_lookups) {
        progress(u"Waiting for the inbox"_s);
        takeAnswers(m_lookups->finish([this] { return cancelled(); }));
    }
    if (cancelled())
        return stopped();
    AccountingClassifier::classify(res, m_evidence);
    res.sequence = SequenceCheck::run(res);
    progress(u"Done"_s);
    return m_result;
}

void Run::takeAnswers(InboxKeyStage::Answers answers)
{
    m_answered = true;
    m_evidence.inbox = std::move(answers.states);
    m_evidence.inboxUnanswered = std::move(answers.unanswered);
    m_evidence.inboxUncastable = std::move(answers.uncastable);
    m_result->messages += answers.problems;
}

AccountingResultPtr Run::stopped()
{
    // Cancelled once the window was being read: the inbox's statements in flight are cancelled (never
    // waited for), and what was read is classified with what the inbox answered, the keys it was not asked
    // about left unverified, so the counts still partition the records read.
    AccountingResult &res = *m_result;
    res.cancelled = true;
    if (m_lookups && !m_answered) {
        m_lookups->cancel();
        takeAnswers(m_lookups->finish({}));
        for (const quint32 id : m_pendingKeys)
            m_evidence.inboxUnanswered.insert(id);
        m_pendingKeys.clear();
    }
    AccountingClassifier::classify(res, m_evidence);
    return m_result;
}

bool Run::resolveWindow(ClusterInspector &inspector, TopicRangeReader &reader)
{
    AccountingResult &res = *m_result;
    QString error;
    const int count = m_partitionCounts.value(m_request.topic, -1);
    if (count <= 0) {
        res.error = count < 0 ? u"Topic "_s + m_request.topic + u" does not exist"_s
                              : u"Topic "_s + m_request.topic + u" has no readable partitions"_s;
        return false;
    }
    DlqScanRequest from, to;
    if (!from.parseStart(m_request.from, &error)) {
        res.error = u"--from: "_s + error;
        return false;
    }
    if (!m_request.to.isEmpty() && !to.parseStart(m_request.to, &error)) {
        res.error = u"--to: "_s + error;
        return false;
    }
    QList<TopicPartition> tps;
    for (int p = 0; p < count; ++p)
        tps.append({m_request.topic, p});
    const auto lows = inspector.startOffsets(tps, m_request.timeoutMs);
    const auto highs = inspector.endOffsets(tps, m_request.timeoutMs);
    if (!lows.ok() || !highs.ok()) {
        res.error = u"Cannot list the offsets of "_s + m_request.topic + u": "_s
                    + (lows.ok() ? highs.error : lows.error);
        return false;
    }
    // Brokers that look offsets up by time answer in one request per leader; librdkafka's mock cluster
    // answers -1, and then the offsets are found by reading timestamps.
    auto timesAnswer = [&](const DlqScanRequest &at) {
        QHash<int, qint64> out;
        if (at.start != DlqScanRequest::Start::Timestamp)
            return out;
        PartitionList list(toPartitionList(tps, at.startValue));
        if (rd_kafka_offsets_for_times(inspector.handle(), list.get(), m_request.timeoutMs)
            == RD_KAFKA_RESP_ERR_NO_ERROR) {
            for (int i = 0; i < list->cnt; ++i) {
                if (!list->elems[i].err && list->elems[i].offset >= 0)
                    out.insert(int(list->elems[i].partition), list->elems[i].offset);
            }
        }
        return out;
    };
    const QHash<int, qint64> fromTimes = timesAnswer(from);
    const QHash<int, qint64> toTimes = timesAnswer(to);
    for (int p = 0; p < count; ++p) {
        AccountingPartition ap;
        ap.partition = p;
        ap.low = lows.value.value({m_request.topic, p});
        ap.high = highs.value.value({m_request.topic, p});
        ap.from = position(from, reader, p, ap.low, ap.high, fromTimes.value(p, -1), false);
        ap.to = m_request.to.isEmpty() ? ap.high
                                       : position(to, reader, p, ap.low, ap.high, toTimes.value(p, -1), true);
        if (ap.from < 0 || ap.to < 0)
            return false;
        ap.to = std::max(ap.to, ap.from);
        m_total += ap.to - ap.from;
        res.partitions.append(ap);
    }
    return true;
}

qint64 Run::position(const DlqScanRequest &at, TopicRangeReader &reader, int partition, qint64 low,
                     qint64 high, qint64 timesAnswer, bool isEnd)
{
    const QString where = m_request.topic + u'/' + QString::number(partition);
    switch (at.start) {
    case DlqScanRequest::Start::Beginning:
        return low;
    case DlqScanRequest::Start::End:
        return high;
    case DlqScanRequest::Start::LastN:
        return std::max(low, high - at.startValue);
    case DlqScanRequest::Start::Offset:
        if (at.startValue < low && !isEnd)
            m_result->messages
                << u"%1: offsets %2 to %3 are past retention (the log starts at %3) and cannot be read"_s
                       .arg(where)
                       .arg(at.startValue)
                       .arg(low);
        return qBound(low, at.startValue, high);
    case DlqScanRequest::Start::Timestamp: {
        if (low >= high)
            return low;
        const qint64 found =
            timesAnswer >= 0 ? timesAnswer : firstAtOrAfter(reader, partition, low, high, at.startValue);
        if (found == low && !isEnd) {
            // Is the start older than what is left? Then the window's beginning is past retention.
            qint64 firstTime = -1;
            QString error;
            reader.read(
                {{m_request.topic, partition, low, high}},
                [&](const rd_kafka_message_t *m) {
                    firstTime = rd_kafka_message_timestamp(m, nullptr);
                    return false;
                },
                m_request.timeoutMs, &error);
            if (firstTime > at.startValue && low > 0)
                m_result->messages
                    << u"%1: the window starts at %2, before the oldest record left (offset %3, %4): "
                       u"what came before can no longer be read"_s
                           .arg(where, QDateTime::fromMSecsSinceEpoch(at.startValue, Qt::UTC)
                                           .toString(Qt::ISODateWithMs))
                           .arg(low)
                           .arg(QDateTime::fromMSecsSinceEpoch(firstTime, Qt::UTC)
                                    .toString(Qt::ISODateWithMs));
        }
        return found;
    }
    }
    return low;
}

qint64 Run::firstAtOrAfter(TopicRangeReader &reader, int partition, qint64 low, qint64 high, qint64 timeMs)
{
    // Binary search over the record timestamps, one record read per step: the first offset whose record
    // is at or after timeMs, assuming timestamps grow along the partition (they do for LogAppendTime and
    // for producers that stamp records as they send them).
    qint64 lo = low, hi = high;
    while (lo < hi && !cancelled()) {
        const qint64 mid = lo + (hi - lo) / 2;
        qint64 offset = -1, ts = -1;
        QString error;
        reader.read(
            {{m_request.topic, partition, mid, high}},
            [&](const rd_kafka_message_t *m) {
                offset = m->offset;
                ts = rd_kafka_message_timestamp(m, nullptr);
                return false;
            },
            m_request.timeoutMs, &error);
        if (offset < 0) // nothing left from mid on (compaction): the answer is before mid or the end
            hi = mid;
        else if (ts >= timeMs)
            hi = mid;
        else
            lo = offset + 1;
    }
    return lo;
}

Run::DeadLetters Run::readDeadLetters(TopicRangeReader &reader) const
{
    DeadLetters out;
    QStringList candidates = m_request.dlqTopics;
    const bool named = !candidates.isEmpty();
    if (!named)
        candidates = {m_request.topic + u"-dlt"_s, m_request.topic + u".DLT"_s,
                      u"error."_s + m_request.topic + u'.' + m_request.group};
    for (const QString &dlq : std::as_const(candidates)) {
        QString error;
        const int count = m_partitionCounts.value(dlq, -1);
        if (count <= 0) {
            if (named)
                out.messages << u"The DLQ topic %1 does not exist: its dead letters are not counted"_s.arg(
                    dlq);
            continue;
        }
        out.topics << dlq;
        QList<TopicRangeReader::Range> ranges;
        for (int p = 0; p < count; ++p) {
            qint64 low = 0, high = 0;
            if (!reader.watermarks(dlq, p, &low, &high, m_request.timeoutMs, &error)) {
                out.error = error;
                return out;
            }
            ranges.append({dlq, p, low, high});
        }
        const bool ok = reader.read(
            ranges,
            [&](const rd_kafka_message_t *m) {
                const KafkaRecord record = KafkaRecord::fromMessage(m);
                const DlqMetadata meta = decodeDlqHeaders(record.headers);
                // Another consumer's dead letter on a shared DLQ topic says nothing about this one.
                if (!meta.consumerGroup.isEmpty() && meta.consumerGroup != m_request.group)
                    return !cancelled();
                if (!meta.originalTopic.isEmpty() && meta.originalTopic != m_request.topic)
                    return !cancelled();
                AccountingDeadLetter letter;
                letter.dlqTopic = quint16(out.topics.size() - 1);
                letter.partition = int(m->partition);
                letter.offset = m->offset;
                if (meta.originalTopic == m_request.topic && meta.originalPartition >= 0
                    && meta.originalOffset >= 0) {
                    out.at[meta.originalPartition].insert(meta.originalOffset);
                    letter.originalPartition = meta.originalPartition;
                    letter.originalOffset = meta.originalOffset;
                }
                // A dead letter keeps the original key, headers and value: its message id is read the way the
                // source record's is (never by the record key alone when the policy names another source: a
                // record key names an entity, and all its messages are not dead-lettered).
                quint16 notes = 0;
                RecordFieldValue fields(m);
                if (const QByteArrayView key = idempotencyKeyOf(m, &notes, fields); !key.isEmpty()) {
                    out.keys.push_back(key);
                    letter.idempotencyKey = quint32(out.keys.size());
                }
                out.letters.push_back(letter);
                return !cancelled();
            },
            m_request.timeoutMs, &error);
        if (!ok) {
            out.error = u"Cannot read the DLQ topic "_s + dlq + u": "_s + error;
            return out;
        }
    }
    return out;
}

bool Run::takeDeadLetters()
{
    AccountingResult &res = *m_result;
    DeadLetters read = m_deadLetters.take();
    res.dlqTopics = read.topics;
    res.messages += read.messages;
    if (!read.error.isEmpty()) {
        if (res.error.isEmpty())
            res.error = read.error;
        return false;
    }
    for (AccountingDeadLetter &letter : read.letters) {
        if (letter.idempotencyKey) {
            letter.idempotencyKey = intern(read.keys[letter.idempotencyKey - 1]);
            m_evidence.deadLetteredKeys.insert(letter.idempotencyKey);
        }
        res.deadLetters.push_back(letter);
    }
    m_evidence.deadLetteredAt = std::move(read.at);
    return true;
}

QByteArrayView Run::idempotencyKeyOf(const rd_kafka_message_t *m, quint16 *notes, RecordFieldValue &fields) const
{
    QByteArrayView key;
    const RecordFieldValue::Outcome got = fields.view(m_keyField, &key);
    if (got == RecordFieldValue::Outcome::Found && !key.isEmpty())
        return key;
    if (!m_request.idempotencyKey.isStated() && m->key
        && m->key_len > 0) // the default: the header, else the record key
        return QByteArrayView(static_cast<const char *>(m->key), qsizetype(m->key_len));
    *notes |= got == RecordFieldValue::Outcome::NotJson ? AccountNote::NotJson | AccountNote::NoKey
                                                        : AccountNote::NoKey;
    return {};
}

void Run::addRecord(const rd_kafka_message_t *m)
{
    AccountedRecord r;
    r.partition = int(m->partition);
    r.offset = m->offset;
    r.timestampMs = rd_kafka_message_timestamp(m, nullptr);
    if (m->key)
        r.recordKey = intern(QByteArrayView(static_cast<const char *>(m->key), qsizetype(m->key_len)));
    if (!m->payload)
        r.notes |= AccountNote::Tombstone;
    r.valueHash =
        m->payload ? quint32(qHash(QByteArrayView(static_cast<const char *>(m->payload), qsizetype(m->len))))
                   : 0;
    RecordFieldValue fields(m);
    if (const QByteArrayView key = idempotencyKeyOf(m, &r.notes, fields); !key.isEmpty())
        r.idempotencyKey = intern(key);
    if (m_request.sequence.isStated()) {
        const RecordFieldValue::Outcome seq = fields.integer(m_request.sequence, &r.sequence);
        if (seq == RecordFieldValue::Outcome::NotJson)
            r.notes |= AccountNote::NotJson | AccountNote::NoSequence;
        else if (seq != RecordFieldValue::Outcome::Found)
            r.notes |= AccountNote::NoSequence;
    }
    if (r.idempotencyKey) {
        if (m_seenKey.size() <= r.idempotencyKey) {
            m_seenKey.resize(m_result->keys.size() + m_result->keys.size() / 2);
            m_firstPayload.resize(m_seenKey.size());
        }
        const bool first = !m_seenKey[r.idempotencyKey];
        if (first) {
            m_seenKey[r.idempotencyKey] = true;
            m_firstPayload[r.idempotencyKey] = r.valueHash;
        } else if (m_firstPayload[r.idempotencyKey] != r.valueHash) {
            r.notes |= AccountNote::KeyPayloadDiffers;
        }
        if (m_lookups && first) {
            m_pendingKeys.push_back(r.idempotencyKey);
            if (m_pendingKeys.size() >= m_lookupBatch) {
                m_lookups->enqueue(std::move(m_pendingKeys), m_result->keys);
                m_pendingKeys.clear();
            }
        }
    }
    placeRecord(r);
}

void Run::placeRecord(const AccountedRecord &r)
{
    std::vector<AccountedRecord> &records = m_result->records;
    if (size_t(r.partition) < m_slot.size() && m_slot[size_t(r.partition)] < m_blockEnd[size_t(r.partition)])
        records[m_slot[size_t(r.partition)]++] = r;
    else
        records.push_back(r); // past the blocks: sorted in after the read
}

void Run::closeUpBlocks()
{
    std::vector<AccountedRecord> &records = m_result->records;
    if (m_slot.empty())
        return;
    size_t blocksEnd = 0;
    size_t to = 0;
    for (const AccountingPartition &p : std::as_const(m_result->partitions)) {
        const size_t begin = m_blockEnd[size_t(p.partition)] - size_t(p.to - p.from);
        const size_t filled = m_slot[size_t(p.partition)] - begin;
        if (to != begin)
            std::move(records.begin() + qsizetype(begin), records.begin() + qsizetype(begin + filled),
                      records.begin() + qsizetype(to));
        to += filled;
        blocksEnd = std::max(blocksEnd, m_blockEnd[size_t(p.partition)]);
    }
    // Whatever went past the blocks follows the filled part.
    to = size_t(std::move(records.begin() + qsizetype(blocksEnd), records.end(), records.begin() + qsizetype(to))
                - records.begin());
    records.resize(to);
    m_slot.clear();
    m_blockEnd.clear();
}

bool Run::readWindow(TopicRangeReader &reader)
{
    AccountingResult &res = *m_result;
    QList<TopicRangeReader::Range> ranges;
    for (const AccountingPartition &p : std::as_const(res.partitions))
        ranges.append({m_request.topic, p.partition, p.from, p.to});
    // The reader interleaves partitions, each in offset order: each partition's records go straight to a
    // block as large as its window, in arrival order, and closing up the blocks' unfilled ends leaves the
    // records in (partition, offset) order, without a sort. A window larger than the bound is appended
    // (the run stops at the bound anyway).
    if (m_total <= m_request.maxRecords) {
        res.records.resize(size_t(m_total));
        size_t begin = 0;
        for (const AccountingPartition &p : std::as_const(res.partitions)) {
            if (m_slot.size() <= size_t(p.partition)) {
                m_slot.resize(size_t(p.partition) + 1, 0);
                m_blockEnd.resize(size_t(p.partition) + 1, 0);
            }
            m_slot[size_t(p.partition)] = begin;
            begin += size_t(p.to - p.from);
            m_blockEnd[size_t(p.partition)] = begin;
        }
    } else {
        res.records.reserve(size_t(m_request.maxRecords));
    }
    // About a key per record (an idempotency key is usually new): the key table grows without copies.
    const size_t expected = size_t(std::min(m_total, m_request.maxRecords));
    res.keys.reserve(res.keys.size() + expected, res.keys.byteCount() + expected * 16);
    progress(u"Reading "_s + m_request.topic);
    QString error;
    bool bounded = false;
    const bool ok = reader.read(
        ranges,
        [&](const rd_kafka_message_t *m) {
            if (m_read >= m_request.maxRecords) {
                bounded = true;
                return false;
            }
            addRecord(m);
            if (++m_read % 20'000 == 0)
                progress(u"Reading "_s + m_request.topic);
            return !cancelled();
        },
        m_request.timeoutMs, &error);
    closeUpBlocks();
    if (!ok) {
        res.error = u"Cannot read "_s + m_request.topic + u": "_s + error;
        return false;
    }
    if (bounded) {
        res.error = u"The window holds more than %1 records; narrow it with --from and --to"_s.arg(
            m_request.maxRecords);
        return false;
    }
    // The last keys go to the inbox now: their batch is answered while the records are put in order.
    if (m_lookups && !m_pendingKeys.empty() && !cancelled()) {
        m_lookups->enqueue(std::move(m_pendingKeys), m_result->keys);
        m_pendingKeys.clear();
    }
    // Records past the blocks (none, unless the window was larger than the bound) are sorted in. A
    // partition and offset name one record, so the order is total and the sort needs no stability (nor
    // the extra copy of the records a stable sort makes).
    const auto before = [](const AccountedRecord &a, const AccountedRecord &b) {
        return a.partition != b.partition ? a.partition < b.partition : a.offset < b.offset;
    };
    if (!std::is_sorted(res.records.begin(), res.records.end(), before))
        std::sort(res.records.begin(), res.records.end(), before);
    QHash<int, qint64> last;
    QHash<int, qint64> read;
    for (const AccountedRecord &r : res.records) {
        last[r.partition] = r.offset;
        ++read[r.partition];
    }
    for (AccountingPartition &p : res.partitions) {
        p.read = read.value(p.partition);
        if (!m_request.readCommitted && p.to == p.high
            && TransactionWindow::caughtUpBehindMarkers(p.committed, p.high,
                                                        last.value(p.partition, p.from - 1)))
            p.caughtUpBehindMarkers = true;
    }
    return true;
}

void Run::readAborted()
{
    // The window again as the read_committed consumer reads it: what it is not handed was aborted.
    AccountingResult &res = *m_result;
    KafkaProperties committedReader = m_request.cluster;
    committedReader.append({u"isolation.level"_s, u"read_committed"_s});
    QString error;
    auto reader = TopicRangeReader::create(committedReader, &error);
    QHash<int, QSet<qint64>> seen;
    QList<TopicRangeReader::Range> ranges;
    for (const AccountingPartition &p : std::as_const(res.partitions))
        ranges.append({m_request.topic, p.partition, p.from, p.to});
    progress(u"Reading "_s + m_request.topic + u" as a read_committed consumer"_s);
    if (!reader
        || !reader->read(
            ranges,
            [&](const rd_kafka_message_t *m) {
                seen[int(m->partition)].insert(m->offset);
                return !cancelled();
            },
            m_request.timeoutMs, &error)) {
        res.messages
            << u"Cannot read the window as a read_committed consumer (%1): no record is counted as aborted"_s
                   .arg(error);
        return;
    }
    if (cancelled())
        return; // a part of the window read twice says nothing of what was aborted
    QHash<int, QList<qint64>> uncommitted;
    for (const AccountedRecord &r : res.records)
        uncommitted[r.partition].append(r.offset);
    for (AccountingPartition &p : res.partitions) {
        const QSet<qint64> &got = seen[p.partition];
        m_evidence.aborted.insert(p.partition,
                                  TransactionWindow::abortedOffsets(uncommitted.value(p.partition), got));
        qint64 lastDelivered = p.from - 1;
        for (const qint64 o : got)
            lastDelivered = std::max(lastDelivered, o);
        if (p.to == p.high && TransactionWindow::caughtUpBehindMarkers(p.committed, p.high, lastDelivered))
            p.caughtUpBehindMarkers = true;
    }
}
} // namespace

AccountingResultPtr DeliveryAccountant::run(const AccountingRequest &request, const AccountingHooks &hooks)
{
    return Run(request, hooks).go();
}
