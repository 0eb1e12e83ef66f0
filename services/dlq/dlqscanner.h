#pragma once

#include "services/dlq/dlqscantypes.h"
#include "services/support/jobtracker.h"

#include <QCache>
#include <QObject>
#include <QThreadPool>

#include <optional>

class DlqRecordFetcher;
class FieldFilter;
class SchemaCatalog;

// Scans dead-letter topics into index entries, on threads of its own; the caller never waits.
//
// A scan reads from the chosen start to the end offsets read when it starts (or on, in live tail) and
// delivers entries in batches, at most one per DlqScanRun::Sink::batchIntervalMs, each one queued signal
// carrying entries, failure-group changes and progress. Starting a scan supersedes the running one; nothing
// of a superseded or cancelled scan arrives afterwards. fetchRecord() reads one whole record for the
// inspector from a separate consumer, through a bounded cache.
class DlqScanner final : public QObject {
    Q_OBJECT
public:
    explicit DlqScanner(QObject *parent = nullptr);
    ~DlqScanner() override;

    quint64 start(const DlqScanRequest &request); // returns the scan id carried by everything it sends
    void cancel();                                // emits scanFinished (cancelled) at once
    bool isRunning() const { return m_running; }
    quint64 scanId() const { return m_scanId; }
    const DlqScanRequest &request() const { return m_request; }

    // Answered by recordFetched (queued, also from the cache). A newer fetch supersedes an unanswered one.
    // Without a cluster and topic: those of the latest scan.
    // reveal: without the policy's masking, for one record whose reveal the audit database recorded.
    quint64 fetchRecord(int partition, qint64 offset, bool reveal = false);
    quint64 fetchRecord(const KafkaProperties &cluster, const QString &topic, int partition, qint64 offset,
                        bool reveal = false);

    // Runs a field filter (ARCHITECTURE.md, Contracts: field filters) over the payloads of the latest scan's
    // entries: read back from the brokers in one pass over their ranges (progress every FieldFilterSlice
    // records), decoded and masked as the inspector's are, on a background thread; progress and the answer
    // come queued. A newer call or cancelFieldFilter() supersedes a running one. A filter that compares a
    // masked field by value is answered with the reason, and nothing is read.
    quint64 filterFields(const FieldFilter &filter, std::vector<DlqFieldFilterItem> items);
    quint64 filterFields(const KafkaProperties &cluster, const QString &topic, const FieldFilter &filter,
                         std::vector<DlqFieldFilterItem> items);
    void cancelFieldFilter();
    bool isFilteringFields() const { return m_fieldFilters.isRunning(); }
    static constexpr int FieldFilterSlice = 20000;

    // Where fetched records' payloads find their schemas; decoding runs on the fetch thread.
    void setSchemaCatalog(std::shared_ptr<SchemaCatalog> catalog) { m_catalog = std::move(catalog); }
    // The policy's masking rules (ARCHITECTURE.md, Contracts: masking): a scan masks each entry as it reads
    // it, a fetch each record on the fetch thread, before anything is handed out. A change emits
    // maskingChanged, so whoever shows entries or records scanned under the old rules reads them again.
    void setMasking(const QList<MaskRule> &rules);
    // The rules are on their way (the profile names a policy): scans and fetches asked for until
    // setMasking() wait for them, rather than read unmasked.
    void awaitMasking() { m_maskingKnown = false; }
    bool maskingKnown() const { return m_maskingKnown; }

    static constexpr qint64 RecordCacheBytes = 64 * 1024 * 1024;
    static constexpr int FetchTimeoutMs = 15000;

Q_SIGNALS:
    void scanStarted(const DlqScanPlan &plan);
    void batchReady(const DlqScanBatch &batch);
    void scanFinished(const DlqScanResult &result);
    void recordFetched(const DlqFetchedRecord &record);
    void maskingChanged();
    void fieldFilterProgress(qint64 done, qint64 total);
    void fieldFilterFinished(const DlqFieldFilterResult &result);

private:
    void launchScan();
    void launchFetch(quint64 id, const KafkaProperties &cluster, const QString &topic, int partition,
                     qint64 offset, bool reveal);
    void deliverPlan(const DlqScanPlan &plan);
    void deliverBatch(const DlqScanBatch &batch);
    void finish(const DlqScanResult &result);

    struct RecordKey {
        QString topic;
        int partition;
        qint64 offset;
        friend bool operator==(const RecordKey &, const RecordKey &) = default;
        friend size_t qHash(const RecordKey &k, size_t seed = 0) noexcept
        {
            return qHashMulti(seed, k.topic, k.partition, k.offset);
        }
    };
    struct FetcherSlot {
        KafkaProperties cluster;
        std::unique_ptr<DlqRecordFetcher> fetcher; // created and used on the fetch thread only
        ~FetcherSlot();
    };

    // One thread each: a live tail must not starve the global pool, and a slow fetch must not wait
    // behind a scan.
    QThreadPool m_scanThread;
    QThreadPool m_fetchThread;
    JobTracker m_scans{this, &m_scanThread};
    JobTracker m_fetches{this, &m_fetchThread};
    JobTracker m_fieldFilters{this};
    quint64 m_fieldFilterId = 0;

    quint64 m_scanId = 0;
    bool m_running = false;
    DlqScanRequest m_request;
    DlqScanProgress m_lastProgress;

    std::shared_ptr<SchemaCatalog> m_catalog;
    DeliveryPolicy m_masking; // its masking rules only
    bool m_maskingKnown = true;
    bool m_scanHeld = false; // start() waits for the masking rules
    struct HeldFetch {
        quint64 id = 0;
        KafkaProperties cluster;
        QString topic;
        int partition = -1;
        qint64 offset = -1;
        bool reveal = false;
    };
    std::optional<HeldFetch> m_fetchHeld; // the latest fetchRecord() waiting for the masking rules
    quint64 m_fetchId = 0;
    std::shared_ptr<FetcherSlot> m_fetcher;
    QCache<RecordKey, KafkaRecord> m_cache{int(RecordCacheBytes / 1024)}; // cost: KiB
};
