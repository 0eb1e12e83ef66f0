#include "dlqscanrun.h"

#include "dlqblockring.h"
#include "dlqentrybuilder.h"
#include "dlqlookupkeys.h"
#include "dlqscanindexer.h"
#include "services/kafka/clusterinspector.h"
#include "services/kafka/fetchwaker.h"

#include <QElapsedTimer>

#include <algorithm>
#include <map>
#include <set>
#include <thread>
#include <utility>

#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <vector>

using namespace Qt::StringLiterals;

namespace {

struct TopicDeleter {
    void operator()(rd_kafka_topic_t *t) const { rd_kafka_topic_destroy(t); }
};
struct QueueDeleter {
    void operator()(rd_kafka_queue_t *q) const { rd_kafka_queue_destroy(q); }
};
using TopicHandle = std::unique_ptr<rd_kafka_topic_t, TopicDeleter>;
using QueueHandle = std::unique_ptr<rd_kafka_queue_t, QueueDeleter>;

constexpr int kMaxPartitions = 65536; // DlqIndexEntry::partition is 16 bits
// Prefetch budget. Every partition's fetch queue forwards to the scan's one queue, and librdkafka checks
// its limits against the queue it forwards to: so this bounds the whole scan, however many partitions. A
// broker thread that finds the queue over it stops fetching until something wakes it (FetchWaker), and
// the cluster sits idle meanwhile. So a fetch response is capped at half of it (readerOptions): it
// takes two responses the reader has not started on to stop a broker. The reader outpaces the brokers,
// so the queue is rarely that full and memory stays small. With a smaller queue nearly every response
// fills it and the scan falls behind kcat; a larger one is no faster (FIGURE dlq_scan_ratio_vs_kcat,
// tests/bench/bench_dlq.cpp).
constexpr int kQueueKbytes = 16 * 1024;
constexpr int kQueueMessages = 1000000;
// How long a wake-up round waits for its answers. They are not needed: queueing the request woke each
// broker thread. But the scan's end waits for a round in flight, and an answer can queue behind a fetch
// the broker holds for fetch.wait.max.ms: a long wait here would end every scan that much later.
constexpr int kWakeTimeoutMs = 25;
// Decoded records are handed to the indexing thread in blocks of up to this many (or bytes of strings).
constexpr size_t kBlockRecords = 2048;
constexpr size_t kBlockBytes = 1024 * 1024;

// The scan's reader: throughput first. A prefetch queue of kQueueKbytes for the whole scan, which the
// brokers keep filling (FetchWaker), so the decoder stays fed.
KafkaConfig::ReaderOptions readerOptions()
{
    return {
        .clientId = u"berth-dlq-scan"_s,
        // Records deleted by retention while we read: go on from the log start, never jump to the end.
        .autoOffsetReset = u"earliest"_s,
        .fetchWaitMs = 100,
        // A megabyte per partition and fetch (librdkafka's default): with hundreds of partitions a broker
        // answers that faster than larger ones, and the broker's CPU is what bounds a scan there, for Berth
        // as for kcat (FIGURE dlq_scan_ratio_vs_kcat, tests/bench/bench_dlq.cpp).
        .fetchPartitionBytes = qMin(1024, kQueueKbytes) * 1024,
        // Set, or librdkafka caps a response at the whole queue. Too small a cap costs the brokers: the
        // partitions past it still get looked up, answered empty and asked again.
        .fetchResponseBytes = qMax(1024, kQueueKbytes / 2) * 1024,
        // A partition whose fetch failed waits this long before it is fetched again (500 ms by default),
        // and the scan waits with it. Real fetch errors are retried as soon, which a scan of minutes can
        // afford.
        .fetchErrorBackoffMs = 20,
        .queueMinMessages = kQueueMessages,
        .queueMaxKbytes = kQueueKbytes,
    };
}

bool isFatal(rd_kafka_resp_err_t err)
{
    return err == RD_KAFKA_RESP_ERR__UNKNOWN_TOPIC || err == RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART
           || err == RD_KAFKA_RESP_ERR__UNKNOWN_PARTITION
           || err == RD_KAFKA_RESP_ERR_TOPIC_AUTHORIZATION_FAILED || err == RD_KAFKA_RESP_ERR__FATAL;
}

struct PartitionState {
    int partition = -1;
    qint64 from = 0;
    qint64 to = 0;
    bool started = false;
    bool done = false;    // bounded scan: reached `to`
    bool reached = false; // reached `to` at least once (live tail: caught up)
};

class Scan final {
public:
    Scan(const DlqScanRequest &request, quint64 scanId, const std::shared_ptr<StringPool> &strings,
         const DlqScanRun::Sink &sink)
        : m_request(request)
        , m_scanId(scanId)
        , m_strings(strings)
        , m_sink(sink)
        , m_indexer(*strings, scanId, sink)
    {
        if (!request.masking.isEmpty()) {
            m_lookupKeys = std::make_shared<DlqLookupKeys>();
            m_decoder.setMasking(request.topic, request.masking, request.schemas, m_lookupKeys);
        }
    }

    // Stops the indexing thread if a path out of consume() left it running.
    ~Scan() { stopIndexing(); }

    DlqScanResult run();

private:
    bool open(QString *error);
    bool resolve(DlqScanPlan &plan, QString *error);
    qint64 lastTimestamp(int partition, qint64 end);
    void consume();
    bool startPartition(PartitionState &p);
    static void onError(rd_kafka_t *, int err, const char *reason, void *opaque);
    void handle(const rd_kafka_message_t *message);
    bool takeQueued(int timeoutMs);
    void reach(PartitionState &p, qint64 offset);
    void handOver();
    void watchQueue();
    void stopIndexing();
    bool cancelled() const { return m_sink.cancelled && m_sink.cancelled(); }

    const DlqScanRequest &m_request;
    const quint64 m_scanId;
    std::shared_ptr<StringPool> m_strings;
    std::shared_ptr<DlqLookupKeys> m_lookupKeys; // with masking
    const DlqScanRun::Sink &m_sink;

    // Two threads: the scan's own reads and decodes (the members below), the indexing thread runs
    // m_indexer, which the scan's thread uses only before that starts and after it has ended.
    DlqRecordDecoder m_decoder;
    DlqBlockRing m_ring;
    DlqScanBlock *m_block = nullptr; // being filled
    bool m_flushNow = false;         // for the next hand-over
    DlqScanIndexer m_indexer;

    KafkaHandle m_rk;
    TopicHandle m_topic;
    QueueHandle m_queue;
    std::vector<int> m_slotOf; // partition -> index in m_partitions, or -1
    std::vector<PartitionState> m_partitions;
    int m_open = 0;     // bounded scan: partitions not done yet
    int m_reaching = 0; // partitions that have not reached `to` yet
    qint64 m_total = 0;
    bool m_stop = false;
    QString m_fatal;
    QString m_problem;

    quint32 m_sinceCheck = 0;
    QList<TopicPartition> m_wakeProbes; // a partition of each leader
    std::unique_ptr<FetchWaker> m_waker;
    qint64 m_readRecords = 0;
    qint64 m_readValueBytes = 0;
    size_t m_held = 0; // records taken from the queue and not handled yet
    // Runs m_indexer over m_ring (ARCHITECTURE.md, Threads: an owned loop thread); joined by consume() or,
    // on any other way out, by the destructor before a member goes.
    std::thread m_indexing;
};

bool Scan::open(QString *error)
{
    rd_kafka_conf_t *conf =
        KafkaConfig::build(KafkaConfig::readerProperties(m_request.cluster, readerOptions()), error);
    if (!conf)
        return false;
    rd_kafka_conf_set_error_cb(conf, &Scan::onError);
    rd_kafka_conf_set_opaque(conf, this);
    char errstr[512];
    rd_kafka_t *rk = rd_kafka_new(RD_KAFKA_CONSUMER, conf, errstr, sizeof errstr);
    if (!rk) {
        rd_kafka_conf_destroy(conf);
        *error = QString::fromUtf8(errstr);
        return false;
    }
    m_rk.reset(rk);
    m_topic.reset(rd_kafka_topic_new(rk, m_request.topic.toUtf8().constData(), nullptr));
    if (!m_topic) {
        *error = u"Cannot open topic "_s + m_request.topic + u": "_s
                 + KafkaConfig::errorText(rd_kafka_last_error());
        return false;
    }
    m_queue.reset(rd_kafka_queue_new(rk));
    return true;
}

// The timestamp of a partition's last record, read with a one-record peek (-1 if none answers).
qint64 Scan::lastTimestamp(int partition, qint64 end)
{
    if (rd_kafka_consume_start(m_topic.get(), partition, end - 1) != 0)
        return -1;
    qint64 ts = -1;
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < m_request.requestTimeoutMs && !cancelled()) {
        rd_kafka_message_t *m = rd_kafka_consume(m_topic.get(), partition, 100);
        if (!m)
            continue;
        const bool got = !m->err;
        if (got)
            ts = rd_kafka_message_timestamp(m, nullptr);
        const bool eof = m->err == RD_KAFKA_RESP_ERR__PARTITION_EOF;
        rd_kafka_message_destroy(m);
        if (got || eof)
            break;
    }
    rd_kafka_consume_stop(m_topic.get(), partition);
    return ts;
}

bool Scan::resolve(DlqScanPlan &plan, QString *error)
{
    const int timeout = m_request.requestTimeoutMs;
    const rd_kafka_metadata_t *md = nullptr;
    rd_kafka_resp_err_t err = rd_kafka_metadata(m_rk.get(), 0, m_topic.get(), &md, timeout);
    if (err) {
        *error = u"Cannot read the metadata of "_s + m_request.topic + u": "_s + KafkaConfig::errorText(err);
        return false;
    }
    int partitionCount = 0;
    std::map<int, int> leaderOf; // partition -> leader broker
    if (md->topic_cnt == 1) {
        err = md->topics[0].err;
        partitionCount = md->topics[0].partition_cnt;
        for (int i = 0; i < partitionCount; ++i)
            leaderOf[md->topics[0].partitions[i].id] = md->topics[0].partitions[i].leader;
    }
    rd_kafka_metadata_destroy(md);
    if (err || partitionCount == 0) {
        *error = u"Topic "_s + m_request.topic + u" cannot be read: "_s
                 + (err ? KafkaConfig::errorText(err) : u"it has no partitions"_s);
        return false;
    }
    if (partitionCount > kMaxPartitions) {
        *error = u"Topic "_s + m_request.topic + u" has "_s + QString::number(partitionCount)
                 + u" partitions; the DLQ index handles up to 65,536."_s;
        return false;
    }
    QList<int> chosen = m_request.partitions;
    if (chosen.isEmpty()) {
        for (int p = 0; p < partitionCount; ++p)
            chosen.append(p);
    }
    std::sort(chosen.begin(), chosen.end());
    chosen.erase(std::unique(chosen.begin(), chosen.end()), chosen.end());
    for (const int p : std::as_const(chosen)) {
        if (p < 0 || p >= partitionCount) {
            *error = u"Topic "_s + m_request.topic + u" has no partition "_s + QString::number(p)
                     + u" (it has "_s + QString::number(partitionCount) + u")"_s;
            return false;
        }
    }

    QList<TopicPartition> tps;
    std::set<int> probed; // leaders
    for (const int p : std::as_const(chosen)) {
        tps.append({m_request.topic, p});
        const auto leader = leaderOf.find(p);
        if (leader != leaderOf.end() && leader->second >= 0 && probed.insert(leader->second).second)
            m_wakeProbes.append({m_request.topic, p});
    }
    // One ListOffsets request per leader for each end of the log (offsets_for_times with the sentinels).
    auto watermarks = [&](qint64 sentinel, PartitionOffsets &out) {
        PartitionList list(toPartitionList(tps, sentinel));
        const rd_kafka_resp_err_t e = rd_kafka_offsets_for_times(m_rk.get(), list.get(), timeout);
        if (e) {
            *error = u"Cannot list the offsets of "_s + m_request.topic + u": "_s + KafkaConfig::errorText(e);
            return false;
        }
        for (int i = 0; i < list->cnt; ++i) {
            const auto &el = list->elems[i];
            if (el.err) {
                *error = u"Cannot list the offsets of "_s + m_request.topic + u"["_s
                         + QString::number(el.partition) + u"]: "_s + KafkaConfig::errorText(el.err);
                return false;
            }
            out.insert({m_request.topic, int(el.partition)}, el.offset);
        }
        return true;
    };
    PartitionOffsets starts, ends;
    if (!watermarks(RD_KAFKA_OFFSET_BEGINNING, starts) || !watermarks(RD_KAFKA_OFFSET_END, ends))
        return false;

    PartitionOffsets byTime;
    bool timesWork = true;
    if (m_request.start == DlqScanRequest::Start::Timestamp) {
        PartitionList list(toPartitionList(tps, m_request.startValue));
        const rd_kafka_resp_err_t e = rd_kafka_offsets_for_times(m_rk.get(), list.get(), timeout);
        for (int i = 0; i < list->cnt && !e; ++i) {
            const auto &el = list->elems[i];
            timesWork &= el.err == RD_KAFKA_RESP_ERR_NO_ERROR;
            byTime.insert({m_request.topic, int(el.partition)}, el.offset);
        }
        timesWork &= e == RD_KAFKA_RESP_ERR_NO_ERROR;
        // "No offset" is a real answer when every record is older; check one partition's last record to
        // tell that from a broker that cannot look times up (librdkafka's mock cluster answers -1 always).
        for (auto it = byTime.cbegin(); timesWork && it != byTime.cend(); ++it) {
            const qint64 end = ends.value(it.key());
            if (it.value() >= 0 || end <= starts.value(it.key()))
                continue;
            timesWork = lastTimestamp(it.key().partition, end) < m_request.startValue;
            break;
        }
        if (!timesWork)
            plan.notes.append(
                u"The brokers cannot look offsets up by time; scanning from the beginning instead."_s);
    }

    m_slotOf.assign(size_t(partitionCount), -1);
    for (const int p : std::as_const(chosen)) {
        const TopicPartition tp{m_request.topic, p};
        const qint64 start = starts.value(tp), end = ends.value(tp);
        qint64 from = start;
        switch (m_request.start) {
        case DlqScanRequest::Start::Beginning:
            break;
        case DlqScanRequest::Start::End:
            from = end;
            break;
        case DlqScanRequest::Start::Offset:
            from = qBound(start, m_request.startValue, end);
            if (from != m_request.startValue)
                plan.notes.append(u"Partition "_s + QString::number(p) + u" holds offsets "_s
                                  + QString::number(start) + u" to "_s + QString::number(end)
                                  + u"; starting at "_s + QString::number(from));
            break;
        case DlqScanRequest::Start::Timestamp:
            if (timesWork)
                from = byTime.value(tp, -1) < 0 ? end : qBound(start, byTime.value(tp), end);
            break;
        case DlqScanRequest::Start::LastN:
            from = qMax(start, end - qMax<qint64>(0, m_request.startValue));
            break;
        }
        PartitionState s;
        s.partition = p;
        s.from = from;
        s.to = end;
        s.done = !m_request.liveTail && from >= end;
        s.reached = from >= end;
        m_slotOf[size_t(p)] = int(m_partitions.size());
        m_partitions.push_back(s);
        m_open += s.done ? 0 : 1;
        m_reaching += s.reached ? 0 : 1;
        m_total += qMax<qint64>(0, end - from);
        plan.ranges.append({p, from, end});
    }
    plan.totalRecords = m_total;
    return true;
}

void Scan::onError(rd_kafka_t *, int err, const char *reason, void *opaque)
{
    // Served by rd_kafka_poll() on the scan's own thread.
    auto *self = static_cast<Scan *>(opaque);
    self->m_problem = QString::fromUtf8(reason);
    if (err == RD_KAFKA_RESP_ERR__FATAL)
        self->m_fatal = self->m_problem;
}

void Scan::reach(PartitionState &p, qint64 offset)
{
    if (offset < p.to)
        return;
    if (!p.reached) {
        p.reached = true;
        if (--m_reaching == 0)
            m_flushNow = true; // "caught up" is news in live tail
    }
    if (!m_request.liveTail && !p.done) {
        p.done = true;
        if (--m_open == 0) {
            m_stop = true;
            rd_kafka_yield(m_rk.get());
        }
    }
}

void Scan::handle(const rd_kafka_message_t *m)
{
    const int slot =
        m->partition >= 0 && size_t(m->partition) < m_slotOf.size() ? m_slotOf[m->partition] : -1;
    if (m->err) {
        if (m->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
            if (slot >= 0)
                reach(m_partitions[slot], m->offset);
            return;
        }
        const QString text = QString::fromUtf8(rd_kafka_message_errstr(m));
        if (isFatal(m->err)) {
            m_fatal = text;
            m_stop = true;
            rd_kafka_yield(m_rk.get());
        } else {
            m_problem = text;
        }
        return;
    }
    if (slot < 0)
        return;
    PartitionState &p = m_partitions[slot];
    if (p.done || (!m_request.liveTail && m->offset >= p.to))
        return; // appended after the scan started: a bounded scan stops at the end it saw
    if (!m_block)
        m_block = m_ring.takeEmpty();
    m_decoder.decode(m, m_block->batch);
    ++m_readRecords;
    m_readValueBytes += qint64(m->len);
    if ((m_readRecords & 255) == 0)
        watchQueue();
    reach(p, m->offset + 1);
    if (m_block->batch.size() >= kBlockRecords || m_block->batch.byteCount() >= kBlockBytes)
        handOver();
    if ((++m_sinceCheck & 255) == 0 && cancelled()) {
        m_stop = true;
        rd_kafka_yield(m_rk.get());
    }
}

void Scan::handOver()
{
    if (!m_block)
        m_block = m_ring.takeEmpty();
    m_block->caughtUp = m_reaching == 0;
    m_block->flushNow = m_flushNow;
    m_block->problem = m_problem;
    m_flushNow = false;
    m_ring.handOver(std::exchange(m_block, nullptr));
}

void Scan::watchQueue()
{
    if (!m_waker || m_readRecords == 0)
        return;
    // librdkafka counts the queue's bytes by record value, and stops at either limit.
    const qint64 averageValue = qMax<qint64>(1, m_readValueBytes / m_readRecords);
    const qint64 capacity = qMin<qint64>(kQueueMessages, qint64(kQueueKbytes) * 1024 / averageValue);
    m_waker->observe(rd_kafka_queue_length(m_queue.get()), size_t(capacity), m_held);
}

bool Scan::startPartition(PartitionState &p)
{
    if (rd_kafka_consume_start_queue(m_topic.get(), p.partition, p.from, m_queue.get()) != 0) {
        m_fatal = u"Cannot start reading partition "_s + QString::number(p.partition) + u": "_s
                  + KafkaConfig::errorText(rd_kafka_last_error());
        return false;
    }
    p.started = true;
    return true;
}

// Has the processor fetch the start of a record's value: up to 4 KB (a large one streams by itself), never
// past what librdkafka hands out. Events (a partition's end) have no payload.
void prefetchValue(const rd_kafka_message_t *m)
{
    if (!m->payload)
        return;
    const char *from = static_cast<const char *>(m->payload);
    const size_t size = std::min<size_t>(m->len, 4096);
    for (size_t at = 0; at < size; at += 64)
        __builtin_prefetch(from + at);
}

// Takes what is queued, a slice at a time, or waits up to timeoutMs for one record. True if anything came.
// A slice, not everything queued (as librdkafka's callback consumer takes it): the queue's depth then says
// how far behind the reader is, which FetchWaker goes by. While handling a record it has the processor
// fetch the message of one a few places on, and the value (checked as UTF-8) of one nearer.
bool Scan::takeQueued(int timeoutMs)
{
    constexpr ssize_t kSlice = 256;
    constexpr ssize_t kAhead = 6;
    rd_kafka_message_t *slice[kSlice];
    bool any = false;
    for (;;) {
        const ssize_t n =
            rd_kafka_consume_batch_queue(m_queue.get(), timeoutMs, slice, timeoutMs ? 1 : kSlice);
        if (n <= 0)
            return any;
        any = true;
        // Two steps ahead: a record's message first, its bytes once the message is in the cache.
        for (ssize_t i = 0; i < qMin(2 * kAhead, n); ++i)
            __builtin_prefetch(slice[i]);
        for (ssize_t i = 0; i < n; ++i) {
            if (i + 2 * kAhead < n)
                __builtin_prefetch(slice[i + 2 * kAhead]);
            if (i + kAhead < n)
                prefetchValue(slice[i + kAhead]);
            m_held = size_t(n - i);
            if (!m_stop)
                handle(slice[i]);
            rd_kafka_message_destroy(slice[i]);
        }
        m_held = 0;
        if (m_stop || timeoutMs || n < kSlice)
            return any;
    }
}

void Scan::consume()
{
    for (PartitionState &p : m_partitions) {
        if (!p.done && !startPartition(p))
            return;
    }
    m_indexer.setTotalRecords(m_total);
    m_indexing = std::thread([this] { m_indexer.run(m_ring); });
    m_waker = std::make_unique<FetchWaker>(m_rk.get(), m_wakeProbes,
                                           qMin(kWakeTimeoutMs, m_request.requestTimeoutMs));
    while (!m_stop && (m_open > 0 || m_request.liveTail)) {
        if (cancelled())
            break;
        watchQueue();
        if (!takeQueued(0) && takeQueued(100))
            takeQueued(0);
        rd_kafka_poll(m_rk.get(), 0); // error callbacks
        if (!m_fatal.isEmpty())
            break;
        handOver(); // what was read, or (when nothing came) a beat for the progress report
    }
    m_waker.reset();
    handOver();
    stopIndexing();
    for (PartitionState &p : m_partitions) {
        if (p.started)
            rd_kafka_consume_stop(m_topic.get(), p.partition);
    }
}

// Closing the ring ends the indexer's loop once it has taken what was handed over.
void Scan::stopIndexing()
{
    if (!m_indexing.joinable())
        return;
    m_ring.close();
    m_indexing.join();
}

DlqScanResult Scan::run()
{
    DlqScanResult result;
    result.scanId = m_scanId;
    DlqScanPlan plan;
    plan.scanId = m_scanId;
    plan.topic = m_request.topic;
    plan.bootstrap = KafkaConfig::bootstrapOf(m_request.cluster);
    plan.liveTail = m_request.liveTail;
    plan.strings = m_strings;
    plan.lookupKeys = m_lookupKeys;
    QString error;
    if (m_request.topic.isEmpty())
        error = u"No topic to scan"_s;
    else if (open(&error) && resolve(plan, &error)) {
        if (m_sink.planned)
            m_sink.planned(plan);
        consume();
        error = m_fatal;
    }
    result.cancelled = cancelled();
    m_indexer.finish(m_reaching == 0, m_problem, error.isEmpty() && !result.cancelled);
    result.error = error;
    result.notes = plan.notes;
    result.progress = m_indexer.progress();
    result.groups = m_indexer.groups().groups();
    result.poison = m_indexer.groups().poisonMessages();
    return result;
}

} // namespace

namespace DlqScanRun {
DlqScanResult run(const DlqScanRequest &request, quint64 scanId, const std::shared_ptr<StringPool> &strings,
                  const Sink &sink)
{
    DlqScanResult result;
    {
        Scan scan(request, scanId, strings, sink);
        result = scan.run();
    }
    // Nothing interns into this scan's strings any more: the look-up table goes, the strings stay.
    strings->releaseLookup();
#ifdef __GLIBC__
    // The reader's buffers (the prefetch queue: up to kQueueKbytes) were freed in librdkafka's threads'
    // malloc arenas, which keep them: give them back, the console lives on after the scan.
    malloc_trim(0);
#endif
    return result;
}
} // namespace DlqScanRun
