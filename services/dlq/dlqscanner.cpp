#include "dlqscanner.h"

#include "dlqpayloadreader.h"
#include "dlqrecordfetcher.h"
#include "dlqscanrun.h"
#include "services/dlq/dlqheadercodec.h"
#include "services/payload/fieldfilter.h"
#include "services/payload/payloaddecoder.h"
#include "services/payload/schemacatalog.h"
#include "services/support/digest.h"
#include "services/support/threadpriority.h"
#include "services/support/logging.h"


using namespace Qt::StringLiterals;

namespace {
qint64 recordBytes(const KafkaRecord &r)
{
    qint64 n = r.key.size() + r.value.size();
    for (const RecordHeader &h : r.headers)
        n += h.name.size() + h.value.size();
    return n;
}
} // namespace

DlqScanner::FetcherSlot::~FetcherSlot() = default;

DlqScanner::DlqScanner(QObject *parent)
    : QObject(parent)
{
    qRegisterMetaType<DlqScanPlan>();
    qRegisterMetaType<DlqScanBatch>();
    qRegisterMetaType<DlqScanResult>();
    qRegisterMetaType<DlqFetchedRecord>();
    qRegisterMetaType<DlqFieldFilterResult>();
    for (QThreadPool *pool : {&m_scanThread, &m_fetchThread}) {
        pool->setMaxThreadCount(1);
        pool->setExpiryTimeout(-1);
    }
    m_scanThread.setObjectName(u"dlq-scan"_s);
    m_fetchThread.setObjectName(u"dlq-fetch"_s);
}

DlqScanner::~DlqScanner()
{
    // Jobs post to this object: let them see the cancel and end before any member goes.
    m_scans.cancel();
    m_fetches.cancel();
    m_fieldFilters.cancel();
    m_scanThread.waitForDone();
    m_fetchThread.waitForDone();
}

quint64 DlqScanner::start(const DlqScanRequest &request)
{
    const quint64 id = ++m_scanId;
    m_request = request;
    m_running = true;
    m_lastProgress = {};
    m_scanHeld = !m_maskingKnown;
    if (!m_scanHeld)
        launchScan();
    return id;
}

void DlqScanner::setMasking(const QList<MaskRule> &rules)
{
    const bool changed = m_maskingKnown && rules != m_masking.masking;
    m_masking.masking = rules;
    m_maskingKnown = true;
    if (m_scanHeld) {
        m_scanHeld = false;
        launchScan();
    }
    if (m_fetchHeld) {
        const HeldFetch f = *std::exchange(m_fetchHeld, std::nullopt);
        launchFetch(f.id, f.cluster, f.topic, f.partition, f.offset, f.reveal);
    }
    if (changed)
        Q_EMIT maskingChanged();
}

void DlqScanner::launchScan()
{
    DlqScanRequest request = m_request;
    request.masking = m_masking.masking;
    request.schemas = m_catalog;
    const quint64 id = m_scanId;
    auto strings = std::make_shared<StringPool>();
    DlqScanner *self = this; // jobs end before this object does (see the destructor)
    m_scans.start(
        [request, id, strings, self](const JobControl &control) {
            // The scan (and its librdkafka threads, created below) must never starve the interface.
            ThreadPriority::yieldToInterface();
            DlqScanRun::Sink sink;
            sink.cancelled = [&control] { return control.isCancelled(); };
            sink.storeChunks = true; // the browser keeps every entry (DlqBrowserModel::appendBatch)
            sink.planned = [self](const DlqScanPlan &plan) {
                QMetaObject::invokeMethod(
                    self, [self, plan] { self->deliverPlan(plan); }, Qt::QueuedConnection);
            };
            sink.batch = [self](DlqScanBatch &&batch) {
                QMetaObject::invokeMethod(
                    self, [self, batch = std::move(batch)] { self->deliverBatch(batch); },
                    Qt::QueuedConnection);
            };
            return DlqScanRun::run(request, id, strings, sink);
        },
        [this](const DlqScanResult &result) { finish(result); });
}

void DlqScanner::cancel()
{
    if (!m_running)
        return;
    m_scanHeld = false;
    m_scans.cancel();
    m_running = false;
    DlqScanResult result;
    result.scanId = m_scanId;
    result.cancelled = true;
    result.progress = m_lastProgress;
    Q_EMIT scanFinished(result);
}

void DlqScanner::deliverPlan(const DlqScanPlan &plan)
{
    if (m_running && plan.scanId == m_scanId)
        Q_EMIT scanStarted(plan);
}

void DlqScanner::deliverBatch(const DlqScanBatch &batch)
{
    if (!m_running || batch.scanId != m_scanId)
        return; // a superseded or cancelled scan
    m_lastProgress = batch.progress;
    Q_EMIT batchReady(batch);
}

void DlqScanner::finish(const DlqScanResult &result)
{
    if (result.scanId != m_scanId)
        return;
    m_running = false;
    if (!result.error.isEmpty())
        qCWarning(lcDlq).noquote() << "DLQ scan of" << m_request.topic << "failed:" << result.error;
    Q_EMIT scanFinished(result);
}

quint64 DlqScanner::fetchRecord(int partition, qint64 offset, bool reveal)
{
    return fetchRecord(m_request.cluster, m_request.topic, partition, offset, reveal);
}

quint64 DlqScanner::fetchRecord(const KafkaProperties &cluster, const QString &topic, int partition,
                                qint64 offset, bool reveal)
{
    const quint64 id = ++m_fetchId;
    if (!m_maskingKnown)
        m_fetchHeld = HeldFetch{id, cluster, topic, partition, offset, reveal};
    else
        launchFetch(id, cluster, topic, partition, offset, reveal);
    return id;
}

void DlqScanner::launchFetch(quint64 id, const KafkaProperties &cluster, const QString &topic, int partition,
                             qint64 offset, bool reveal)
{
    if (!m_fetcher || m_fetcher->cluster != cluster) {
        m_fetcher = std::make_shared<FetcherSlot>();
        m_fetcher->cluster = cluster;
        m_cache.clear();
    }
    DlqFetchedRecord answer;
    answer.requestId = id;
    answer.topic = topic;
    answer.partition = partition;
    answer.offset = offset;
    // A cached record is decoded again (its schema may have arrived since), on the fetch thread too.
    if (const KafkaRecord *cached = m_cache.object({topic, partition, offset})) {
        answer.record = *cached;
        answer.fromCache = true;
    }
    // The cache keeps the record as fetched (masking is applied to each answer, a reveal skips it); what
    // leaves the scanner is the masked answer.
    struct Fetched {
        DlqFetchedRecord answer;
        KafkaRecord raw;
    };
    m_fetches.start(
        [slot = m_fetcher, catalog = m_catalog, masking = m_masking, reveal, answer](const JobControl &control) mutable {
            QString error;
            if (!answer.fromCache) {
                if (!slot->fetcher)
                    slot->fetcher = DlqRecordFetcher::create(slot->cluster, &error);
                if (slot->fetcher)
                    answer.record = slot->fetcher->fetch(
                        answer.topic, answer.partition, answer.offset, FetchTimeoutMs,
                        [&control] { return control.isCancelled(); }, &error);
                answer.error = error;
            }
            Fetched out{answer, answer.record};
            if (out.answer.ok()) {
                DlqMetadata metadata = decodeDlqHeaders(out.answer.record.headers);
                out.answer.valueSha256 = Digest::sha256(out.raw.value);
                out.answer.payload = PayloadDecoder::decode(out.raw.value, out.raw.value.isNull(), answer.topic,
                                                            catalog.get(), metadata.originalTopic);
                if (!reveal)
                    out.answer.mask = PayloadMask::apply(masking.maskFor(answer.topic, metadata.originalTopic),
                                                         out.answer.record, metadata, out.answer.payload);
                out.answer.revealed = reveal;
            }
            return out;
        },
        [this](const Fetched &fetched) {
            if (fetched.answer.ok() && !fetched.answer.fromCache) {
                const qint64 kib = qMax<qint64>(1, recordBytes(fetched.raw) / 1024);
                if (kib <= m_cache.maxCost())
                    m_cache.insert({fetched.answer.topic, fetched.answer.partition, fetched.answer.offset},
                                   new KafkaRecord(fetched.raw), kib);
            }
            Q_EMIT recordFetched(fetched.answer);
        });
}

quint64 DlqScanner::filterFields(const FieldFilter &filter, std::vector<DlqFieldFilterItem> items)
{
    return filterFields(m_request.cluster, m_request.topic, filter, std::move(items));
}

quint64 DlqScanner::filterFields(const KafkaProperties &cluster, const QString &topic, const FieldFilter &filter,
                                 std::vector<DlqFieldFilterItem> items)
{
    const quint64 id = ++m_fieldFilterId;
    DlqFieldFilterResult refused;
    refused.requestId = id;
    refused.matched = std::make_shared<const std::vector<quint32>>();
    if (!m_maskingKnown)
        refused.error = tr("the delivery policy is still being read: its masking applies to the filter");
    else if (!filter.isValid())
        refused.error = tr("no field filter");
    else
        refused.error = filter.maskedComparison(m_masking.masking);
    if (!refused.error.isEmpty()) {
        m_fieldFilters.cancel();
        QMetaObject::invokeMethod(
            this, [this, refused] { Q_EMIT fieldFilterFinished(refused); }, Qt::QueuedConnection);
        return id;
    }
    // Read in offset order, so each slice is a few ranges the brokers serve front to back.
    std::sort(items.begin(), items.end(), [](const DlqFieldFilterItem &a, const DlqFieldFilterItem &b) {
        return std::tie(a.partition, a.offset) < std::tie(b.partition, b.offset);
    });
    m_fieldFilters.start(
        [id, filter, items = std::move(items), cluster, topic,
         catalog = m_catalog ? m_catalog : std::make_shared<SchemaCatalog>(),
         masking = m_masking](const JobControl &control) {
            DlqFieldFilterResult r;
            r.requestId = id;
            auto matched = std::make_shared<std::vector<quint32>>();
            QString error;
            // A schema still being fetched is waited for a little: the registry answers on another thread.
            // One bulk read over every partition's range, as the scan reads.
            const auto reader = DlqPayloadReader::create(cluster, topic, catalog, 5000, masking, &error,
                                                         TopicRangeReader::Use::Bulk);
            const qint64 total = qint64(items.size());
            if (reader) {
                std::vector<DlqPayloadReader::Coordinates> records;
                records.reserve(items.size());
                for (const DlqFieldFilterItem &item : items)
                    records.push_back({item.partition, item.offset});
                const DlqPayloadReader::FilterCount count = reader->filter(
                    records, filter, [&](size_t at) { matched->push_back(items[at].entry); },
                    FieldFilterSlice,
                    [&](qint64 read) {
                        control.reportProgress(read, total);
                        return !control.isCancelled();
                    },
                    &error);
                r.read = count.read;
                r.undecoded = count.undecoded;
                if (!control.isCancelled() && error.isEmpty())
                    control.reportProgress(count.read, total);
            }
            std::sort(matched->begin(), matched->end());
            r.matched = std::move(matched);
            r.cancelled = control.isCancelled();
            r.error = error;
            return r;
        },
        [this](const DlqFieldFilterResult &r) { Q_EMIT fieldFilterFinished(r); },
        [this](qint64 done, qint64 total) { Q_EMIT fieldFilterProgress(done, total); });
    return id;
}

void DlqScanner::cancelFieldFilter()
{
    m_fieldFilters.cancel();
}
