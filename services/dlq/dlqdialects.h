#pragma once

#include "services/dlq/dlqrecord.h"

#include <QByteArrayView>

#include <algorithm>
#include <array>
#include <cstring>
#include <string_view>

// The dead-letter header dialects (ARCHITECTURE.md, Contracts: DLQ header dialects): every header Berth
// recognises, which producer family writes it, which DlqMetadata field it feeds and how its value is
// written. The codec (dlqheadercodec.cpp) and the scan's fast path (dlqfastdecode.cpp) both read this
// table and its name look-up; adding a dialect or a header means adding rows here and nowhere else.
namespace DlqDialects {

// A header family is its dialect; enum order breaks ties when two families have as many recognised
// headers. Unknown holds the business headers read whatever the dialect (it never decides the dialect).
using Family = DlqDialect;
inline constexpr Family kCommon = DlqDialect::Unknown;
inline constexpr int kFamilyCount = int(DlqDialect::BerthCanonical) + 1;

// Grouped by type, in the order of the codec's member tables: QString fields, int fields (from
// OriginalPartition), qint64 fields (from OriginalOffset), then None: recognised for detection only.
// clang-format off
enum class Field : quint8 {
    OriginalTopic, TimestampType, ConsumerGroup, ExceptionClass, CauseClass, Reason, StackTrace,
    SchemaVersion, CorrelationId, IdempotencyKey, ConnectorName, ConnectorTask, ConnectorStage,
    ConnectorClass, OriginalPartition, Attempts, OriginalOffset, OriginalTimestamp, FirstFailure,
    LastFailure, None
};
// clang-format on
inline constexpr int kFieldCount = int(Field::None) + 1;
inline constexpr int kFirstIntField = int(Field::OriginalPartition);
inline constexpr int kFirstLongField = int(Field::OriginalOffset);

// An int field (4-byte binary form); the other numbers are longs (8 bytes).
constexpr bool isIntField(Field f)
{
    return int(f) >= kFirstIntField && int(f) < kFirstLongField;
}

// How the producer writes the value. Every numeric codec also accepts the other form (decimal text is
// recognised by its charset, binary by its length).
enum class Codec : quint8 {
    Text,    // UTF-8 string
    BinInt,  // big-endian two's complement, 4 bytes for int fields, 8 for long fields
    BigInt,  // Java BigInteger.toByteArray(): 1..4 / 1..8 bytes (Spring retry_topic-*)
    DecInt,  // decimal text
    DecTime, // ISO-8601 text or epoch millis text
};

struct HeaderSpec {
    std::string_view name;
    Family family;
    Field field;
    Codec codec;
    bool keyFailure = false; // Spring's kafka_dlt-key-exception-*: the key, not the value, failed
    // Spring's retry_topic-*: also on DLT records of @RetryableTopic listeners, so they count towards
    // the retry dialect only when no kafka_dlt-* header is present.
    bool retryTopic = false;
};

// Rows of a family are contiguous, in the order its producer writes them (encodeDlqHeaders keeps it).
// Within a family, earlier rows win when two headers feed the same field.
inline constexpr std::array kSpecs = {
    HeaderSpec{"kafka_dlt-original-topic", Family::SpringDlt, Field::OriginalTopic, Codec::Text},
    HeaderSpec{"kafka_dlt-original-partition", Family::SpringDlt, Field::OriginalPartition, Codec::BinInt},
    HeaderSpec{"kafka_dlt-original-offset", Family::SpringDlt, Field::OriginalOffset, Codec::BinInt},
    HeaderSpec{"kafka_dlt-original-timestamp", Family::SpringDlt, Field::OriginalTimestamp, Codec::BinInt},
    HeaderSpec{"kafka_dlt-original-timestamp-type", Family::SpringDlt, Field::TimestampType, Codec::Text},
    HeaderSpec{"kafka_dlt-original-consumer-group", Family::SpringDlt, Field::ConsumerGroup, Codec::Text},
    HeaderSpec{"kafka_dlt-exception-fqcn", Family::SpringDlt, Field::ExceptionClass, Codec::Text},
    HeaderSpec{"kafka_dlt-exception-cause-fqcn", Family::SpringDlt, Field::CauseClass, Codec::Text},
    HeaderSpec{"kafka_dlt-exception-message", Family::SpringDlt, Field::Reason, Codec::Text},
    HeaderSpec{"kafka_dlt-exception-stacktrace", Family::SpringDlt, Field::StackTrace, Codec::Text},
    HeaderSpec{"kafka_dlt-key-exception-fqcn", Family::SpringDlt, Field::ExceptionClass, Codec::Text, true},
    HeaderSpec{"kafka_dlt-key-exception-cause-fqcn", Family::SpringDlt, Field::CauseClass, Codec::Text, true},
    HeaderSpec{"kafka_dlt-key-exception-message", Family::SpringDlt, Field::Reason, Codec::Text, true},
    HeaderSpec{"kafka_dlt-key-exception-stacktrace", Family::SpringDlt, Field::StackTrace, Codec::Text, true},

    HeaderSpec{"kafka_original-topic", Family::SpringRetry, Field::OriginalTopic, Codec::Text},
    HeaderSpec{"kafka_original-partition", Family::SpringRetry, Field::OriginalPartition, Codec::BinInt},
    HeaderSpec{"kafka_original-offset", Family::SpringRetry, Field::OriginalOffset, Codec::BinInt},
    HeaderSpec{"kafka_original-timestamp", Family::SpringRetry, Field::OriginalTimestamp, Codec::BinInt},
    HeaderSpec{"kafka_original-timestamp-type", Family::SpringRetry, Field::TimestampType, Codec::Text},
    HeaderSpec{"kafka_exception-fqcn", Family::SpringRetry, Field::ExceptionClass, Codec::Text},
    HeaderSpec{"kafka_exception-cause-fqcn", Family::SpringRetry, Field::CauseClass, Codec::Text},
    HeaderSpec{"kafka_exception-message", Family::SpringRetry, Field::Reason, Codec::Text},
    HeaderSpec{"kafka_exception-stacktrace", Family::SpringRetry, Field::StackTrace, Codec::Text},
    HeaderSpec{"retry_topic-attempts", Family::SpringRetry, Field::Attempts, Codec::BigInt, false, true},
    HeaderSpec{"retry_topic-original-timestamp", Family::SpringRetry, Field::OriginalTimestamp, Codec::BigInt,
               false, true},
    HeaderSpec{"retry_topic-backoff-timestamp", Family::SpringRetry, Field::None, Codec::BigInt, false, true},

    HeaderSpec{"x-original-topic", Family::SpringCloudStream, Field::OriginalTopic, Codec::Text},
    HeaderSpec{"x-original-partition", Family::SpringCloudStream, Field::OriginalPartition, Codec::BinInt},
    HeaderSpec{"x-original-offset", Family::SpringCloudStream, Field::OriginalOffset, Codec::BinInt},
    HeaderSpec{"x-original-timestamp", Family::SpringCloudStream, Field::OriginalTimestamp, Codec::BinInt},
    HeaderSpec{"x-original-timestamp-type", Family::SpringCloudStream, Field::TimestampType, Codec::Text},
    HeaderSpec{"x-exception-fqcn", Family::SpringCloudStream, Field::ExceptionClass, Codec::Text},
    HeaderSpec{"x-exception-message", Family::SpringCloudStream, Field::Reason, Codec::Text},
    HeaderSpec{"x-exception-stacktrace", Family::SpringCloudStream, Field::StackTrace, Codec::Text},

    HeaderSpec{"__connect.errors.topic", Family::KafkaConnect, Field::OriginalTopic, Codec::Text},
    HeaderSpec{"__connect.errors.partition", Family::KafkaConnect, Field::OriginalPartition, Codec::DecInt},
    HeaderSpec{"__connect.errors.offset", Family::KafkaConnect, Field::OriginalOffset, Codec::DecInt},
    HeaderSpec{"__connect.errors.connector.name", Family::KafkaConnect, Field::ConnectorName, Codec::Text},
    HeaderSpec{"__connect.errors.task.id", Family::KafkaConnect, Field::ConnectorTask, Codec::Text},
    HeaderSpec{"__connect.errors.stage", Family::KafkaConnect, Field::ConnectorStage, Codec::Text},
    HeaderSpec{"__connect.errors.class.name", Family::KafkaConnect, Field::ConnectorClass, Codec::Text},
    HeaderSpec{"__connect.errors.exception.class.name", Family::KafkaConnect, Field::ExceptionClass,
               Codec::Text},
    HeaderSpec{"__connect.errors.exception.message", Family::KafkaConnect, Field::Reason, Codec::Text},
    HeaderSpec{"__connect.errors.exception.stacktrace", Family::KafkaConnect, Field::StackTrace, Codec::Text},

    HeaderSpec{"__streams.errors.topic", Family::KafkaStreams, Field::OriginalTopic, Codec::Text},
    HeaderSpec{"__streams.errors.partition", Family::KafkaStreams, Field::OriginalPartition, Codec::DecInt},
    HeaderSpec{"__streams.errors.offset", Family::KafkaStreams, Field::OriginalOffset, Codec::DecInt},
    HeaderSpec{"__streams.errors.exception", Family::KafkaStreams, Field::ExceptionClass, Codec::Text},
    HeaderSpec{"__streams.errors.message", Family::KafkaStreams, Field::Reason, Codec::Text},
    HeaderSpec{"__streams.errors.stacktrace", Family::KafkaStreams, Field::StackTrace, Codec::Text},

    HeaderSpec{"dlq-original-topic", Family::BerthCanonical, Field::OriginalTopic, Codec::Text},
    HeaderSpec{"dlq-original-partition", Family::BerthCanonical, Field::OriginalPartition, Codec::DecInt},
    HeaderSpec{"dlq-original-offset", Family::BerthCanonical, Field::OriginalOffset, Codec::DecInt},
    HeaderSpec{"dlq-consumer", Family::BerthCanonical, Field::ConsumerGroup, Codec::Text},
    HeaderSpec{"dlq-reason", Family::BerthCanonical, Field::Reason, Codec::Text},
    HeaderSpec{"dlq-exception-class", Family::BerthCanonical, Field::ExceptionClass, Codec::Text},
    HeaderSpec{"dlq-attempts", Family::BerthCanonical, Field::Attempts, Codec::DecInt},
    HeaderSpec{"dlq-first-failure-at", Family::BerthCanonical, Field::FirstFailure, Codec::DecTime},
    HeaderSpec{"dlq-last-failure-at", Family::BerthCanonical, Field::LastFailure, Codec::DecTime},
    HeaderSpec{"dlq-schema-version", Family::BerthCanonical, Field::SchemaVersion, Codec::Text},

    HeaderSpec{"correlation-id", kCommon, Field::CorrelationId, Codec::Text},
    HeaderSpec{"idempotency-key", kCommon, Field::IdempotencyKey, Codec::Text},
};
inline constexpr int kSpecCount = int(kSpecs.size());

// The name prefixes of the families' diagnostic headers: replay drops every header they start, so
// diagnostics a producer adds later, not in kSpecs yet, are dropped too (isDiagnosticDlqHeader).
inline constexpr std::array<std::string_view, 9> kDiagnosticPrefixes = {
    "kafka_dlt-",   "kafka_original-",   "kafka_exception-",  "retry_topic-", "x-original-",
    "x-exception-", "__connect.errors.", "__streams.errors.", "dlq-",
};
static_assert(std::all_of(kSpecs.begin(), kSpecs.end(),
                          [](const HeaderSpec &s) {
                              return s.family == kCommon
                                     || std::any_of(
                                         kDiagnosticPrefixes.begin(), kDiagnosticPrefixes.end(),
                                         [&](std::string_view p) { return s.name.starts_with(p); });
                          }),
              "every diagnostic header in kSpecs starts with a prefix of kDiagnosticPrefixes");

// Name look-up: an open-addressing table built at compile time. The hash reads only the length and a
// few bytes (names share long prefixes, their ends and lengths tell them apart), so a look-up costs a
// handful of loads and usually one comparison; names of any other length are rejected at once.
constexpr quint32 nameHash(std::string_view n)
{
    const auto at = [&](size_t i) { return quint32(quint8(n[i])); };
    const size_t z = n.size();
    return (quint32(z) * 0x9e3779b1u) ^ (at(z - 1) * 0x85ebca6bu) ^ (at(z - 2) * 0xc2b2ae35u)
           ^ (at(z / 2) * 0x27d4eb2fu) ^ (at(2) * 0x165667b1u);
}
inline constexpr auto kByLength = [](const HeaderSpec &a, const HeaderSpec &b) {
    return a.name.size() < b.name.size();
};
inline constexpr size_t kMinName = std::min_element(kSpecs.begin(), kSpecs.end(), kByLength)->name.size();
inline constexpr size_t kMaxName = std::max_element(kSpecs.begin(), kSpecs.end(), kByLength)->name.size();
static_assert(kSpecCount < 128, "slots hold spec indices as qint8");
inline constexpr quint32 kSlots = 256;
inline constexpr auto kSlotOf = [] {
    std::array<qint8, kSlots> slots{};
    slots.fill(-1);
    for (int i = 0; i < kSpecCount; ++i) {
        quint32 h = nameHash(kSpecs[i].name) % kSlots;
        while (slots[h] >= 0) {
            if (kSpecs[slots[h]].name == kSpecs[i].name)
                throw "duplicate header name in kSpecs";
            h = (h + 1) % kSlots;
        }
        slots[h] = qint8(i);
    }
    return slots;
}();

// Equal bytes, for names of at least 8 bytes: eight at a time, the last eight overlapping. Every header of
// every scanned record is compared once, and a call to memcmp costs more than the comparison.
inline bool sameName(std::string_view a, std::string_view b)
{
    static_assert(kMinName >= 8);
    if (a.size() != b.size())
        return false;
    const auto word = [](const char *p) {
        quint64 w;
        std::memcpy(&w, p, 8);
        return w;
    };
    const size_t n = a.size();
    for (size_t i = 0; i + 8 < n; i += 8) {
        if (word(a.data() + i) != word(b.data() + i))
            return false;
    }
    return word(a.data() + n - 8) == word(b.data() + n - 8);
}

// The row of the header named `name` in kSpecs, or -1.
inline int specIndex(QByteArrayView name)
{
    const std::string_view key(name.data(), size_t(name.size()));
    if (key.size() < kMinName || key.size() > kMaxName)
        return -1;
    for (quint32 h = nameHash(key) % kSlots; kSlotOf[h] >= 0; h = (h + 1) % kSlots) {
        if (sameName(kSpecs[kSlotOf[h]].name, key))
            return kSlotOf[h];
    }
    return -1;
}

} // namespace DlqDialects
