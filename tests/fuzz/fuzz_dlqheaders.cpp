// Header dialect decoder: any header list decodes without crashing, the scanner's allocation-free path
// (decodeDlqHeadersFast, through DlqEntryBuilder) agrees with decodeDlqHeaders on every record it takes,
// and what the decoder read (original position, exception, reason) survives being written back in its
// dialect.
#include "fuzzinput.h"
#include "services/dlq/dlqentrybuilder.h"
#include "services/dlq/dlqentryfields.h"
#include "services/dlq/dlqheadercodec.h"

#include <cstdio>
#include <cstdlib>
#include <memory>

namespace {
// Recognised names are hard to guess byte by byte: half the headers pick one of these.
const char *const kNames[] = {
    "kafka_dlt-original-topic",
    "kafka_dlt-original-partition",
    "kafka_dlt-original-offset",
    "kafka_dlt-original-timestamp",
    "kafka_dlt-original-timestamp-type",
    "kafka_dlt-original-consumer-group",
    "kafka_dlt-exception-fqcn",
    "kafka_dlt-exception-cause-fqcn",
    "kafka_dlt-exception-message",
    "kafka_dlt-exception-stacktrace",
    "kafka_dlt-key-exception-fqcn",
    "kafka_dlt-key-exception-message",
    "kafka_original-topic",
    "kafka_original-partition",
    "kafka_original-offset",
    "kafka_exception-fqcn",
    "kafka_exception-message",
    "retry_topic-attempts",
    "retry_topic-original-timestamp",
    "retry_topic-backoff-timestamp",
    "x-original-topic",
    "x-original-partition",
    "x-original-offset",
    "x-exception-fqcn",
    "x-exception-message",
    "__connect.errors.topic",
    "__connect.errors.partition",
    "__connect.errors.offset",
    "__connect.errors.connector.name",
    "__connect.errors.task.id",
    "__connect.errors.exception.class.name",
    "__connect.errors.exception.message",
    "__streams.errors.topic",
    "__streams.errors.partition",
    "__streams.errors.offset",
    "__streams.errors.exception",
    "__streams.errors.message",
    "dlq-original-topic",
    "dlq-original-partition",
    "dlq-original-offset",
    "dlq-consumer",
    "dlq-reason",
    "dlq-exception-class",
    "dlq-attempts",
    "dlq-first-failure-at",
    "dlq-last-failure-at",
    "dlq-schema-version",
    "correlation-id",
    "idempotency-key",
};
constexpr int kNameCount = int(sizeof kNames / sizeof *kNames);

[[noreturn]] void fail(const char *what)
{
    std::fprintf(stderr, "fuzz_dlqheaders: %s\n", what);
    std::abort();
}

void compare(const DlqIndexEntry &fast, const DlqIndexEntry &slow, const StringPool &pool)
{
    if (fast.dialect != slow.dialect)
        fail("fast and slow paths disagree on the dialect");
    if (fast.flags != slow.flags)
        fail("fast and slow paths disagree on the flags");
    if (fast.originalPartition != slow.originalPartition || fast.originalOffset != slow.originalOffset)
        fail("fast and slow paths disagree on the original position");
    if (fast.attempts != slow.attempts)
        fail("fast and slow paths disagree on the attempts");
    // Reasons are stored, not interned (equal ones may have different ids): compared as text.
    if (pool.bytes(fast.reasonId) != pool.bytes(slow.reasonId) || fast.exceptionId != slow.exceptionId
        || fast.causeId != slow.causeId)
        fail("fast and slow paths disagree on reason, exception or cause");
    if (fast.routeId != slow.routeId)
        fail("fast and slow paths disagree on original topic or consumer");
    if (fast.idempotencyKeyId != slow.idempotencyKeyId)
        fail("fast and slow paths disagree on the idempotency key");
    if (DlqEntryText::key(fast, pool) != DlqEntryText::key(slow, pool))
        fail("fast and slow paths disagree on the key");
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FuzzInput in(data, size);
    KafkaRecord record;
    record.offset = 7;
    const quint8 keyMode = in.byte();
    record.keyIsNull = keyMode & 1;
    if (!record.keyIsNull)
        record.key = in.bytes().toByteArray();
    record.value = (keyMode & 2) ? QByteArray() : QByteArray("{}");
    while (!in.atEnd() && record.headers.size() < 200) {
        const quint8 flags = in.byte();
        RecordHeader h;
        h.name = (flags & 1) ? QByteArray(kNames[in.byte() % kNameCount]) : in.bytes().toByteArray();
        h.isNull = (flags & 6) == 6;
        if (!h.isNull)
            h.value = in.bytes().toByteArray();
        record.headers.append(h);
    }

    const DlqMetadata m = decodeDlqHeaders(record.headers);
    for (const RecordHeader &h : record.headers)
        (void)isDiagnosticDlqHeader(h.name);

    // The scanner's two paths build the same index entry.
    // One pool over many inputs, like a long scan's (a fresh one costs a populated 1 MiB chunk).
    static auto poolHolder = std::make_unique<StringPool>();
    if (poolHolder->count() > 100000)
        poolHolder = std::make_unique<StringPool>();
    StringPool &pool = *poolHolder;
    DlqEntryBuilder builder(pool);
    builder.setFastPath(true);
    const DlqIndexEntry fast = builder.build(record);
    if (builder.fastDecoded() == 1) {
        // (Stack traces are left out of both: the index does not keep them, the inspector decodes them.)
        builder.setFastPath(false);
        compare(fast, builder.build(record), pool);
    }

    // Written back in its dialect, the decoded record reads the same.
    if (m.dialect != DlqDialect::Unknown) {
        const RecordHeaders written = encodeDlqHeaders(m.dialect, m);
        const DlqMetadata again = decodeDlqHeaders(written);
        if (qEnvironmentVariableIsSet("FUZZ_DEBUG")) {
            for (const RecordHeaders *list :
                 {static_cast<const RecordHeaders *>(&record.headers), &written}) {
                std::fprintf(stderr, "--\n");
                for (const RecordHeader &h : *list)
                    std::fprintf(stderr, "%s%s = %s\n", h.name.constData(), h.isNull ? " (null)" : "",
                                 h.value.toHex(' ').constData());
            }
            std::fprintf(stderr, "dialects %d -> %d, notes: %s\n", int(m.dialect), int(again.dialect),
                         m.notes.join(u" | ").toUtf8().constData());
        }
        // (The dialect itself may change: a Spring DLT record whose kafka_dlt-* values were all unreadable
        // is written back as retry_topic-* headers alone, which are Spring retry's.)
        if (!written.isEmpty()) {
            if (again.originalTopic != m.originalTopic || again.originalPartition != m.originalPartition
                || again.originalOffset != m.originalOffset)
                fail("re-encoded headers lose the original position");
            if (again.exceptionClass != m.exceptionClass || again.reason != m.reason)
                fail("re-encoded headers lose exception or reason");
        }
    }
    return 0;
}
