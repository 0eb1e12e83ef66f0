// The DLQ browser's filter and sort. Berth has no filter expression language: the filter is literal text
// (case-insensitive, in key, reason, exception class and idempotency key) plus a failure group and an
// exception class, and the scan's start is a small expression ("end-100", "offset:5", "time:..."). This
// fuzzes both: DlqScanRequest::parseStart, whose accepted text must read back through startText(); and
// DlqRowQuery::run over index entries built from fuzzed records, against a plain reference matcher
// (literal: no wildcard or pattern syntax) and the sort order's definition.
#include "fuzzinput.h"
#include "models/dlqrowquery.h"
#include "services/dlq/dlqentrybuilder.h"
#include "services/dlq/dlqscantypes.h"

#include <cstdio>
#include <cstdlib>
#include <memory>

namespace {
[[noreturn]] void fail(const char *what)
{
    std::fprintf(stderr, "fuzz_filter: %s\n", what);
    std::abort();
}

char lower(char c)
{
    return (c >= 'A' && c <= 'Z') ? char(c + 32) : c;
}

bool containsFolded(QByteArrayView haystack, QByteArrayView needle)
{
    for (qsizetype i = 0; i + needle.size() <= haystack.size(); ++i) {
        qsizetype k = 0;
        while (k < needle.size() && lower(haystack[i + k]) == lower(needle[k]))
            ++k;
        if (k == needle.size())
            return true;
    }
    return false;
}

// What the filter promises, written the plain way.
bool referenceMatch(const DlqIndexEntry &e, quint32 group, const DlqFilter &f, const StringPool &pool)
{
    if (f.groupId >= 0 && qint64(group) != f.groupId)
        return false;
    if (!f.exceptionClass.isEmpty() && pool.text(e.exceptionId) != f.exceptionClass)
        return false;
    const QString needle = f.text.trimmed();
    if (needle.isEmpty())
        return true;
    bool ascii = true;
    for (const QChar c : needle)
        ascii &= c.unicode() < 0x80;
    for (const quint32 id : {e.keyId, e.reasonId, e.exceptionId, e.idempotencyKeyId}) {
        if (id == 0)
            continue;
        if (ascii ? containsFolded(pool.bytes(id), needle.toLatin1())
                  : QString::fromUtf8(pool.bytes(id)).contains(needle, Qt::CaseInsensitive))
            return true;
    }
    return false;
}

void checkStart(const QString &text)
{
    DlqScanRequest request;
    QString error;
    if (!request.parseStart(text, &error)) {
        if (error.isEmpty())
            fail("parseStart refused without saying why");
        return;
    }
    DlqScanRequest again;
    if (!again.parseStart(request.startText(), &error)) {
        std::fprintf(stderr, "\"%s\" -> \"%s\"\n", qPrintable(text), qPrintable(request.startText()));
        fail("startText() does not parse");
    }
    if (again.start != request.start || again.startValue != request.startValue)
        fail("startText() reads back as another start");
}

const char *const kHeaderNames[] = {
    "dlq-reason",   "dlq-exception-class",        "idempotency-key", "dlq-attempts", "dlq-original-topic",
    "dlq-consumer", "kafka_dlt-exception-message"};
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FuzzInput in(data, size);
    checkStart(QString::fromUtf8(in.bytes()));

    DlqFilter filter;
    filter.text = QString::fromUtf8(in.bytes());
    const quint8 mode = in.byte();
    filter.groupId = (mode & 0x80) ? qint64(mode & 3) : -1;
    filter.sortColumn = int(in.byte() % (int(DlqColumn::Count) + 1)) - 1;
    filter.sortOrder = (mode & 0x40) ? Qt::DescendingOrder : Qt::AscendingOrder;
    const bool byException = mode & 0x20;

    // A pool and a store serve many inputs, like one scan's (fresh ones cost populated megabytes each):
    // this input's entries are appended, and the query runs over everything since the last reset.
    static std::shared_ptr<StringPool> pool;
    static std::unique_ptr<DlqEntryStore> store;
    if (!store || store->size() > 256) {
        pool = std::make_shared<StringPool>();
        store = std::make_unique<DlqEntryStore>();
    }
    DlqEntryBuilder builder(*pool);
    DlqIndexEntries entries;
    QList<quint32> groups;
    while (!in.atEnd() && entries.size() < 64) {
        KafkaRecord r;
        r.offset = entries.size();
        r.timestampMs = in.byte();
        const quint8 flags = in.byte();
        r.keyIsNull = flags & 1;
        r.key = in.bytes().toByteArray();
        r.value = QByteArray(flags >> 4, 'v');
        for (int h = (flags >> 1) & 7; h > 0; --h)
            r.headers.append({kHeaderNames[in.byte() % 7], in.bytes().toByteArray(), false});
        entries.append(builder.build(r));
        groups.append(flags & 3);
    }
    if (byException && !entries.isEmpty())
        filter.exceptionClass = pool->text(entries.first().exceptionId);
    store->append(entries, groups);
    const DlqEntryStore::Snapshot snapshot = store->snapshot();

    const std::vector<quint32> rows = DlqRowQuery::run(snapshot, pool, filter, [] { return false; });
    std::vector<bool> listed(snapshot.size(), false);
    for (const quint32 i : rows) {
        if (i >= snapshot.size() || listed[i])
            fail("a row is out of range or listed twice");
        listed[i] = true;
    }
    for (quint32 i = 0; i < snapshot.size(); ++i) {
        if (listed[i] != referenceMatch(snapshot.at(i), snapshot.groupOf(i), filter, *pool))
            fail("the filter disagrees with the literal reference match");
    }

    // Sorted by the column's value, ties in scan order.
    const bool descending = filter.sortOrder == Qt::DescendingOrder;
    for (size_t r = 1; r < rows.size() && filter.sorts(); ++r) {
        const DlqIndexEntry &a = snapshot.at(rows[r - 1]);
        const DlqIndexEntry &b = snapshot.at(rows[r]);
        qint64 x = 0, y = 0;
        switch (DlqColumn(filter.sortColumn)) {
        case DlqColumn::Time:
            x = a.timestampMs, y = b.timestampMs;
            break;
        case DlqColumn::Size:
            x = a.valueSize, y = b.valueSize;
            break;
        case DlqColumn::Attempts:
            x = a.attemptCount(), y = b.attemptCount();
            break;
        case DlqColumn::Reason: {
            x = pool->bytes(a.reasonId).compare(pool->bytes(b.reasonId), Qt::CaseInsensitive), y = 0;
            break;
        }
        default:
            continue;
        }
        if (descending ? x < y : x > y)
            fail("rows are out of sort order");
        if (x == y && DlqColumn(filter.sortColumn) != DlqColumn::Reason && rows[r - 1] > rows[r])
            fail("equal rows are not in scan order");
    }
    return 0;
}
