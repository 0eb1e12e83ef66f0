#pragma once

#include "services/dlq/dlqindexentry.h"
#include "services/dlq/failuregroups.h"
#include "services/kafka/kafkaconfig.h"
#include "services/kafka/kafkarecord.h"
#include "services/payload/decodedpayload.h"
#include "services/payload/payloadmask.h"

#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <memory>
#include <vector>

class DlqLookupKeys;
class SchemaCatalog;

// Value snapshots of a DLQ scan, handed from the scanner's thread to the UI (or the command line).

struct DlqScanRequest {
    enum class Start {
        Beginning, // the log start
        End,       // nothing old: live tail only
        Offset,    // startValue: an offset (clamped to what the partition holds)
        Timestamp, // startValue: epoch ms; falls back to the beginning where brokers cannot look times up
        LastN,     // startValue: the last N records of each partition
    };
    KafkaProperties cluster;
    QString topic;
    QList<int> partitions; // empty: all
    Start start = Start::Beginning;
    qint64 startValue = 0;
    bool liveTail = false; // keep reading after the end offsets read at start
    int requestTimeoutMs = 10000;
    // The policy's masking rules (ARCHITECTURE.md, Contracts: masking): an entry's key, reason and idempotency
    // key are masked as the scan reads it, before the index keeps them. Payload fields the rules name are
    // found through `schemas` (which the scan never waits on).
    QList<MaskRule> masking;
    std::shared_ptr<SchemaCatalog> schemas;

    // "beginning", "end", "end-N" (last N per partition), "offset:N", "time:<ISO-8601 or epoch ms>".
    bool parseStart(QStringView text, QString *error);
    QString startText() const;
    // Sets partitions from a list such as "0, 2, 5-7": numbers and ranges "a-b" (a <= b) separated by
    // commas, blanks allowed; the result is sorted, each partition once, and empty text means all.
    // Negative numbers, reversed ranges and anything else leave partitions as they were; *error then
    // quotes the part that is wrong, and says why where it can.
    bool parsePartitions(QStringView text, QString *error);
};

struct DlqPartitionRange {
    int partition = -1;
    qint64 from = 0; // first offset read
    qint64 to = 0;   // end offset read at start (exclusive): a bounded scan stops there
};

struct DlqScanPlan {
    quint64 scanId = 0;
    QString topic;
    QString bootstrap;
    QList<DlqPartitionRange> ranges;
    qint64 totalRecords = 0; // sum of to - from: an upper bound (compaction and transactions leave gaps)
    bool liveTail = false;
    QStringList notes; // e.g. why the scan starts at the beginning after all
    // The scan's strings; entries of this scan resolve against it, from any thread.
    std::shared_ptr<const StringPool> strings;
    // The real keys of the entries whose keys masking hid, for the inbox look-ups only (null: no masking).
    std::shared_ptr<const DlqLookupKeys> lookupKeys;
};

struct DlqScanProgress {
    qint64 records = 0;
    qint64 bytes = 0;        // keys + values
    qint64 totalRecords = 0; // 0: unknown
    qint64 elapsedMs = 0;
    double recordsPerSecond = 0;
    double bytesPerSecond = 0;
    qint64 etaMs = -1;     // -1: unknown (or live)
    bool caughtUp = false; // every partition reached the end offset read at start
    QString problem;       // the latest transient problem (a broker down...), empty when none
};

// The browser keeps a scan's entries and their group ids in chunks of these sizes (DlqEntryStore).
namespace DlqIndexChunks {
constexpr int EntryBits = 16; // 65536 entries: 4 MiB
constexpr int GroupBits = 19; // 524288 group ids: 2 MiB
using EntryChunk = std::shared_ptr<DlqIndexEntry>;
using GroupChunk = std::shared_ptr<quint32>;
} // namespace DlqIndexChunks

struct DlqScanBatch {
    quint64 scanId = 0;
    DlqIndexEntries entries;
    QList<quint32> groupIds; // failure group of each entry, parallel to entries
    // The chunks the browser's store needs next to hold this batch after the ones before it, mapped on the
    // scan's thread (when asked for, see DlqScanRun::Sink): mapping them on the interface thread waits for
    // the process's memory map lock, which the scan's threads keep busy.
    std::vector<DlqIndexChunks::EntryChunk> entryChunks;
    std::vector<DlqIndexChunks::GroupChunk> groupChunks;
    // With the chunks, the scan has also written this batch's entries and group ids into them, as the
    // scan's entries from number storeFirst on: the store checks that it holds the chunks named here for
    // that position (a chunk before it, or the first new one) and then copies nothing.
    struct InPlace {
        qint64 first = -1; // -1: not written
        const DlqIndexEntry *entryChunk = nullptr;
        const quint32 *groupChunk = nullptr;
    } inPlace;
    QList<FailureGroup> changedGroups;
    QList<PoisonMessage> changedPoison;
    DlqScanProgress progress;
};

struct DlqScanResult {
    quint64 scanId = 0;
    DlqScanProgress progress;
    bool cancelled = false;
    QString error; // empty: the scan read what it set out to read
    QStringList notes;
    QList<FailureGroup> groups; // all of them, final
    QList<PoisonMessage> poison;
};

// One record fetched on demand for the inspector.
struct DlqFetchedRecord {
    quint64 requestId = 0;
    QString topic;
    int partition = -1;
    qint64 offset = -1;
    KafkaRecord record;
    DecodedPayload payload; // the value through PayloadDecoder (ARCHITECTURE.md, Data flows: payload decoding)
    PayloadMask::Outcome mask; // what the policy's masking took out of record and payload before they left
    bool revealed = false;     // fetched without masking, after a recorded reveal
    QByteArray valueSha256;    // of the value's bytes as fetched (a masked value's bytes are hidden)
    QString error;
    bool fromCache = false;
    bool ok() const { return error.isEmpty(); }
};

// A field filter's answer (DlqScanner::filterFields): the entries whose payload passed.
struct DlqFieldFilterItem {
    quint32 entry = 0; // the entry's number in the scan
    int partition = -1;
    qint64 offset = -1;
};
struct DlqFieldFilterResult {
    quint64 requestId = 0;
    std::shared_ptr<const std::vector<quint32>> matched; // entry numbers, ascending
    qint64 read = 0;      // payloads read back and decoded
    qint64 undecoded = 0; // of those, not JSON nor decoded by a schema: they cannot pass
    bool cancelled = false;
    QString error; // empty: every entry asked about was looked at
};

Q_DECLARE_METATYPE(DlqScanPlan)
Q_DECLARE_METATYPE(DlqFieldFilterResult)
Q_DECLARE_METATYPE(DlqScanBatch)
Q_DECLARE_METATYPE(DlqScanResult)
Q_DECLARE_METATYPE(DlqFetchedRecord)
