#include "services/dlq/dlqheadercodec.h"

#include <QDateTime>
#include <QRandomGenerator>
#include <QTest>

#include <ctime>

using namespace Qt::StringLiterals;

namespace {

// Which metadata fields each dialect carries: the test's own statement of ARCHITECTURE.md (Contracts: DLQ header dialects), independent of
// the codec's table.
constexpr quint32 Topic = 1 << 0, Partition = 1 << 1, Offset = 1 << 2, Timestamp = 1 << 3, TsType = 1 << 4,
                  Group = 1 << 5, Exception = 1 << 6, Cause = 1 << 7, Reason = 1 << 8, Stack = 1 << 9,
                  Attempts = 1 << 10, First = 1 << 11, Last = 1 << 12, Schema = 1 << 13, Connector = 1 << 14,
                  Common = 1 << 15, Origin = Topic | Partition | Offset;

// Indexed by DlqDialect. Spring DLT records carry retry_topic-attempts, as @RetryableTopic ones do.
constexpr quint32 kCarried[] = {
    Common,
    Origin | Timestamp | TsType | Group | Exception | Cause | Reason | Stack | Attempts | Common,
    Origin | Timestamp | TsType | Exception | Cause | Reason | Stack | Attempts | Common,
    Origin | Timestamp | TsType | Exception | Reason | Stack | Common,
    Origin | Connector | Exception | Reason | Stack | Common,
    Origin | Exception | Reason | Stack | Common,
    Origin | Group | Reason | Exception | Attempts | First | Last | Schema | Common,
};

// Every DlqMetadata field but dialect and notes, with the bit of the dialects that carry it.
// clang-format off
#define DLQ_FIELDS(X)                                                                                        \
    X(originalTopic, Topic) X(originalPartition, Partition) X(originalOffset, Offset)                        \
    X(originalTimestampMs, Timestamp) X(originalTimestampType, TsType) X(consumerGroup, Group)               \
    X(exceptionClass, Exception) X(causeClass, Cause) X(reason, Reason) X(stackTrace, Stack)                 \
    X(attempts, Attempts) X(firstFailureMs, First) X(lastFailureMs, Last) X(schemaVersion, Schema)           \
    X(correlationId, Common) X(idempotencyKey, Common) X(connectorName, Connector)                           \
    X(connectorTask, Connector) X(connectorStage, Connector) X(connectorClass, Connector)
// clang-format on

// `m` reduced to what `d` carries (dialect and notes cleared).
DlqMetadata project(DlqDialect d, const DlqMetadata &m)
{
    const quint32 c = kCarried[int(d)];
    DlqMetadata p;
#define X(f, bit)                                                                                            \
    if (c & (bit))                                                                                           \
        p.f = m.f;
    DLQ_FIELDS(X)
#undef X
    return p;
}

// One field by name, as text, so data rows can name the field they check. Unset numbers read "-1".
QString field(const DlqMetadata &m, QStringView name)
{
#define X(f, bit)                                                                                            \
    if (name == QLatin1StringView(#f))                                                                       \
        return QVariant(m.f).toString();
    DLQ_FIELDS(X)
#undef X
    qFatal("no field %s", qPrintable(name.toString()));
}

// Differences between two decodings, field by field (dialect and notes are checked separately).
QString differences(const DlqMetadata &actual, const DlqMetadata &expected)
{
    QString out;
#define X(f, bit)                                                                                            \
    if (QVariant(actual.f) != QVariant(expected.f))                                                          \
        out += QLatin1StringView(#f) + u": got \""_s + QVariant(actual.f).toString().left(80)                \
               + u"\", expected \""_s + QVariant(expected.f).toString().left(80) + u"\"\n"_s;
    DLQ_FIELDS(X)
#undef X
    return out;
}

const auto notesText = [](const DlqMetadata &m) { return m.notes.join(u" | "_s); };

const auto hasNote = [](const DlqMetadata &m, const QString &part) {
    return std::any_of(m.notes.begin(), m.notes.end(), [&](const QString &n) { return n.contains(part); });
};

const auto utcMs = [](int y, int mo, int d, int h, int mi, int s, int ms) {
    return QDateTime(QDate(y, mo, d), QTime(h, mi, s, ms), Qt::UTC).toMSecsSinceEpoch();
};

// Every field set, with non-ASCII text, so each dialect's round trip has something to lose.
DlqMetadata fullMetadata()
{
    DlqMetadata m;
    m.originalTopic = u"orders.v2"_s;
    m.originalPartition = 7;
    m.originalOffset = 9'876'543'210;
    m.originalTimestampMs = utcMs(2024, 5, 1, 12, 0, 0, 5);
    m.originalTimestampType = u"CreateTime"_s;
    m.consumerGroup = u"order-projection"_s;
    m.exceptionClass = u"org.springframework.kafka.listener.ListenerExecutionFailedException"_s;
    m.causeClass = u"com.fasterxml.jackson.core.JsonParseException"_s;
    m.reason = u"Unerwartetes Zeichen 'ß' in Größe — ✓ 🚢"_s;
    m.stackTrace = u"java.lang.IllegalStateException: boom\n\tat com.example.A.run(A.java:1)"_s;
    m.attempts = 3;
    m.firstFailureMs = utcMs(2024, 5, 1, 12, 34, 56, 789);
    m.lastFailureMs = utcMs(2024, 5, 1, 12, 35, 1, 0);
    m.schemaVersion = u"orders-v2.3"_s;
    m.correlationId = u"c0ffee-42"_s;
    m.idempotencyKey = u"order-1001:placed"_s;
    m.connectorName = u"warehouse-sink"_s;
    m.connectorTask = u"2"_s;
    m.connectorStage = u"VALUE_CONVERTER"_s;
    m.connectorClass = u"org.apache.kafka.connect.json.JsonConverter"_s;
    return m;
}

const auto header = [](const char *name, const QByteArray &value, bool isNull = false) {
    return RecordHeader{QByteArray(name), value, isNull};
};

// A DLQ record's headers as a producer leaves them: the original record's business headers, then the
// dialect's diagnostics for fullMetadata().
RecordHeaders dlqRecordHeaders(DlqDialect d)
{
    return RecordHeaders{header("correlation-id", "c0ffee-42"),
                         header("idempotency-key", "order-1001:placed")}
           + encodeDlqHeaders(d, fullMetadata());
}

// One decoding expectation: the dialect, one field's value, and the notes (each a part of exactly one
// note; no other notes).
struct Case {
    RecordHeaders headers;
    DlqDialect dialect = DlqDialect::Unknown;
    const char *field = "originalTopic";
    QString expected;
    QStringList notes;
};

void check(const Case &c)
{
    const DlqMetadata m = decodeDlqHeaders(c.headers);
    QCOMPARE(m.dialect, c.dialect);
    QCOMPARE(field(m, QString::fromLatin1(c.field)), c.expected);
    QVERIFY2(m.notes.size() == c.notes.size(), qPrintable(notesText(m)));
    for (const QString &n : c.notes)
        QVERIFY2(hasNote(m, n), qPrintable(n + u" not in: "_s + notesText(m)));
}

void caseRow(const char *tag, const RecordHeaders &headers, DlqDialect dialect, const char *field,
             const QString &expected = {}, const QStringList &notes = {})
{
    QTest::newRow(tag) << Case{headers, dialect, field, expected, notes};
}

const QList<DlqDialect> kDialects = {DlqDialect::Unknown,       DlqDialect::SpringDlt,
                                     DlqDialect::SpringRetry,   DlqDialect::SpringCloudStream,
                                     DlqDialect::KafkaConnect,  DlqDialect::KafkaStreams,
                                     DlqDialect::BerthCanonical};

} // namespace

class TestDlqHeaders final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        // Zone-less ISO times must read as UTC whatever the desk's zone, so run in one that is not UTC.
        qputenv("TZ", "XXX-05:30");
        tzset();
    }

    void roundTrip_data()
    {
        QTest::addColumn<DlqDialect>("dialect");
        QTest::addColumn<int>("headerCount"); // every carried field but the business two
        const int counts[] = {0, 12, 11, 8, 10, 6, 10};
        for (const DlqDialect d : kDialects)
            QTest::newRow(qPrintable(dialectName(d))) << d << counts[int(d)];
    }

    void roundTrip()
    {
        QFETCH(DlqDialect, dialect);
        QFETCH(int, headerCount);
        const RecordHeaders encoded = encodeDlqHeaders(dialect, fullMetadata());
        QCOMPARE(encoded.size(), headerCount);
        QSet<QByteArray> names; // replay drops exactly what the encoder wrote: diagnostics only
        for (const RecordHeader &h : encoded) {
            names.insert(h.name);
            QVERIFY2(isDiagnosticDlqHeader(h.name) && !h.isNull, h.name.constData());
        }
        QCOMPARE(names.size(), encoded.size()); // no header written twice
        const DlqMetadata decoded = decodeDlqHeaders(dlqRecordHeaders(dialect));
        DlqMetadata expected = project(dialect, fullMetadata());
        expected.dialect = dialect;
        QCOMPARE(decoded.notes, QStringList());
        QCOMPARE(differences(decoded, expected), QString());
        QVERIFY(decoded == expected);
    }

    void wireFormat_data()
    {
        QTest::addColumn<DlqDialect>("dialect");
        QTest::addColumn<QByteArray>("name");
        QTest::addColumn<QByteArray>("expected"); // hex; "absent" when the dialect must not write it
        auto row = [](const char *tag, DlqDialect d, const char *name, const QByteArray &hex) {
            QTest::newRow(tag) << d << QByteArray(name) << hex;
        };
        using enum DlqDialect;
        // 2024-05-01T12:00:00.005Z = 1714564800005 = 0x18f34069e05
        row("dlt partition int32", SpringDlt, "kafka_dlt-original-partition", "00000007");
        row("dlt offset int64", SpringDlt, "kafka_dlt-original-offset", "000000024cb016ea");
        row("dlt timestamp int64", SpringDlt, "kafka_dlt-original-timestamp", "0000018f34069e05");
        row("dlt topic utf8", SpringDlt, "kafka_dlt-original-topic", "6f72646572732e7632");
        row("dlt attempts int32", SpringDlt, "retry_topic-attempts", "00000003");
        row("dlt no schema", SpringDlt, "dlq-schema-version", "absent");
        row("retry partition", SpringRetry, "kafka_original-partition", "00000007");
        row("retry attempts", SpringRetry, "retry_topic-attempts", "00000003");
        row("retry BigInteger ts", SpringRetry, "retry_topic-original-timestamp", "018f34069e05");
        row("retry no group", SpringRetry, "kafka_dlt-original-consumer-group", "absent");
        row("scs partition", SpringCloudStream, "x-original-partition", "00000007");
        row("scs offset", SpringCloudStream, "x-original-offset", "000000024cb016ea");
        row("connect partition", KafkaConnect, "__connect.errors.partition", "37");
        row("connect offset", KafkaConnect, "__connect.errors.offset", "39383736353433323130");
        row("connect task", KafkaConnect, "__connect.errors.task.id", "32");
        row("connect no attempts", KafkaConnect, "dlq-attempts", "absent");
        row("streams partition", KafkaStreams, "__streams.errors.partition", "37");
        row("berth partition", BerthCanonical, "dlq-original-partition", "37");
        row("berth first failure", BerthCanonical, "dlq-first-failure-at",
            QByteArray("2024-05-01T12:34:56.789Z").toHex());
        row("berth no timestamp", BerthCanonical, "kafka_dlt-original-timestamp", "absent");
    }

    void wireFormat()
    {
        QFETCH(DlqDialect, dialect);
        QFETCH(QByteArray, name);
        QFETCH(QByteArray, expected);
        const RecordHeaders headers = encodeDlqHeaders(dialect, fullMetadata());
        const auto it = std::find_if(headers.begin(), headers.end(),
                                     [&](const RecordHeader &h) { return h.name == name; });
        QCOMPARE(it != headers.end() ? it->value.toHex() : "absent"_ba, expected);
    }

    void numbers_data()
    {
        QTest::addColumn<Case>("c");
        const char *dltPart = "kafka_dlt-original-partition", *dltOff = "kafka_dlt-original-offset";
        const char *conPart = "__connect.errors.partition", *firstAt = "dlq-first-failure-at";
        const QString ms = QString::number(utcMs(2024, 5, 1, 12, 34, 56, 789));
        // One header: its name tells the dialect to detect and the field to read. Empty note: none at all.
        auto row = [](const char *tag, const char *name, const QByteArray &v, QAnyStringView e,
                      const char *note = "") {
            const std::pair<const char *, DlqDialect> prefixes[] = {
                {"kafka_dlt-", DlqDialect::SpringDlt},     {"kafka_original-", DlqDialect::SpringRetry},
                {"retry_topic-", DlqDialect::SpringRetry}, {"x-", DlqDialect::SpringCloudStream},
                {"__connect.", DlqDialect::KafkaConnect},  {"__streams.", DlqDialect::KafkaStreams},
                {"dlq-", DlqDialect::BerthCanonical}};
            const QByteArrayView n(name);
            const auto it = std::find_if(std::begin(prefixes), std::end(prefixes),
                                         [&](const auto &p) { return n.startsWith(p.first); });
            const char *f = n.endsWith("partition")     ? "originalPartition"
                            : n.endsWith("offset")      ? "originalOffset"
                            : n.endsWith("attempts")    ? "attempts"
                            : n.startsWith("dlq-first") ? "firstFailureMs"
                            : n.startsWith("dlq-last")  ? "lastFailureMs"
                                                        : "originalTimestampMs";
            caseRow(tag, {header(name, v)}, it->second, f, e.toString(),
                    *note ? QStringList{QString::fromUtf8(note)} : QStringList());
        };
        row("dlt partition binary", dltPart, "\x00\x00\x00\x03"_ba, "3");
        row("dlt partition negative", dltPart, "\xff\xff\xff\xfe"_ba, "-2");
        row("dlt partition text", dltPart, "3"_ba, "3", "read as text");
        row("dlt partition 4 digits are text", dltPart, "1234"_ba, "1234", "read as text");
        row("dlt partition 3 bytes", dltPart, "\x0a\x0b\x0c"_ba, "-1",
            "kafka_dlt-original-partition: 3 bytes, not a 4-byte int; shown raw: 0a0b0c");
        row("dlt partition 8 bytes", dltPart, "\0\0\0\0\0\0\0\x01"_ba, "-1", "8 bytes, not a 4-byte");
        row("dlt partition text overflow", dltPart, "2147483648"_ba, "-1", "out of range; shown raw: 3231");
        row("dlt offset max", dltOff, "\x7f\xff\xff\xff\xff\xff\xff\xff"_ba, "9223372036854775807");
        row("dlt offset text", dltOff, "9876543210"_ba, "9876543210", "read as text");
        row("dlt offset text min", dltOff, "-9223372036854775808"_ba, "-9223372036854775808", "as text");
        row("dlt offset text overflow", dltOff, "9223372036854775808"_ba, "-1", "out of range");
        row("dlt offset 4 bytes", dltOff, "\0\0\x01\0"_ba, "-1", "not an 8-byte long; shown raw: 00000100");
        row("retry attempts 1-byte BigInteger", "retry_topic-attempts", "\x04"_ba, "4");
        row("retry attempts 5 bytes", "retry_topic-attempts", "\0\0\0\0\x04"_ba, "-1",
            "5 bytes, not a big-endian int of 1 to 4 bytes; shown raw: 0000000004");
        row("retry original ts BigInteger", "retry_topic-original-timestamp", "\x01\x8f\x34\x06\x9e\x05"_ba,
            "1714564800005");
        row("connect partition text", conPart, "+5"_ba, "5");
        row("connect partition binary", conPart, "\0\0\0\x05"_ba, "5", "4-byte binary where decimal");
        row("connect partition junk", conPart, "5x"_ba, "-1",
            "2 bytes, not decimal text or a 4-byte int; shown raw: 3578");
        row("connect offset lone sign", "__connect.errors.offset", "-"_ba, "-1", "1 byte, not");
        row("streams offset binary", "__streams.errors.offset", "\0\0\0\0\0\0\x01\0"_ba, "256", "8-byte");
        row("berth iso offset", firstAt, "2024-05-01T14:34:56.789+02:00"_ba, ms);
        row("berth iso no zone", firstAt, "2024-05-01T12:34:56.789"_ba, ms, "without a zone, read as UTC");
        row("berth epoch millis", firstAt, "1714566896789"_ba, ms);
        row("berth time binary", "dlq-last-failure-at", "\0\0\x01\x8f\x34\x06\x9e\x05"_ba, "1714564800005",
            "8-byte binary where decimal text is expected");
        row("berth time junk", firstAt, "yesterday"_ba, "-1",
            "9 bytes, not ISO-8601, epoch millis or an 8-byte long; shown raw: 79657374657264617");
        row("berth time bad date", firstAt, "2024-13-01T00:00:00Z"_ba, "-1", "not ISO-8601");
    }

    void numbers()
    {
        QFETCH(Case, c);
        check(c);
    }

    void wrongLengthLosesNothing_data()
    {
        QTest::addColumn<Case>("c");
        // A full DLQ record of the dialect, with one value made undecodable.
        auto row = [](const char *tag, DlqDialect d, const char *name, const QByteArray &v, const char *f,
                      const QString &note) {
            RecordHeaders headers = dlqRecordHeaders(d);
            for (RecordHeader &h : headers)
                h.value = h.name == name ? v : h.value;
            caseRow(tag, headers, d, f, u"-1"_s, {note});
        };
        using enum DlqDialect;
        row("dlt partition", SpringDlt, "kafka_dlt-original-partition", "\x0a\x0b\x0c"_ba,
            "originalPartition",
            u"kafka_dlt-original-partition: 3 bytes, not a 4-byte int; shown raw: 0a0b0c"_s);
        row("dlt offset", SpringDlt, "kafka_dlt-original-offset", "\x01\x02"_ba, "originalOffset",
            u"kafka_dlt-original-offset: 2 bytes, not an 8-byte long; shown raw: 0102"_s);
        row("scs timestamp", SpringCloudStream, "x-original-timestamp", QByteArray(9, '\xee'),
            "originalTimestampMs",
            u"x-original-timestamp: 9 bytes, not an 8-byte long; shown raw: eeeeeeeeeeeeeeeeee"_s);
        row("berth attempts", BerthCanonical, "dlq-attempts", "three"_ba, "attempts",
            u"dlq-attempts: 5 bytes, not decimal text or a 4-byte int; shown raw: 7468726565"_s);
        row("long raw value is cut", KafkaStreams, "__streams.errors.offset", QByteArray(100, 'z'),
            "originalOffset",
            u"__streams.errors.offset: 100 bytes, not decimal text or an 8-byte long; shown raw: "_s
                + u"7a"_s.repeated(64) + u"…"_s);
    }

    void wrongLengthLosesNothing()
    {
        QFETCH(Case, c);
        check(c); // the field is unset, with the note
        // Every other field still decodes.
        const DlqMetadata expected = project(c.dialect, fullMetadata());
        const QString f = QString::fromLatin1(c.field);
        QCOMPARE(differences(decodeDlqHeaders(c.headers), expected),
                 f + u": got \"-1\", expected \""_s + field(expected, f) + u"\"\n"_s);
    }

    void repeatedHeaders_data()
    {
        QTest::addColumn<Case>("c");
        using enum DlqDialect;
        const QByteArray topic = "kafka_dlt-original-topic", part = "kafka_dlt-original-partition";
        caseRow("string, last wins",
                {{topic, "a", false}, {"x", "y", false}, {topic, "b", false}, {topic, "c", false}}, SpringDlt,
                "originalTopic", u"c"_s,
                {u"kafka_dlt-original-topic: 3 occurrences, the last one is used"_s});
        caseRow("binary, last wins", {{part, toBigEndian32(1), false}, {part, toBigEndian32(2), false}},
                SpringDlt, "originalPartition", u"2"_s, {u"2 occurrences"_s});
        caseRow("broken last still wins", {{part, toBigEndian32(1), false}, {part, "\x0a\x0b"_ba, false}},
                SpringDlt, "originalPartition", u"-1"_s, {u"2 occurrences"_s, u"shown raw: 0a0b"_s});
        caseRow("valid last wins over broken",
                {{part, "\x0a\x0b"_ba, false}, {part, toBigEndian32(5), false}}, SpringDlt,
                "originalPartition", u"5"_s, {u"2 occurrences"_s});
        caseRow("business header",
                {header("idempotency-key", "k1"), header("kafka_dlt-original-topic", "t"),
                 header("idempotency-key", "k2")},
                SpringDlt, "idempotencyKey", u"k2"_s, {u"idempotency-key: 2 occurrences"_s});
        caseRow("connect text",
                {header("__connect.errors.offset", "10"), header("__connect.errors.offset", "11")},
                KafkaConnect, "originalOffset", u"11"_s, {u"2 occurrences"_s});
    }

    void repeatedHeaders()
    {
        QFETCH(Case, c);
        check(c);
    }

    void mixedFamilies_data()
    {
        QTest::addColumn<Case>("c");
        using enum DlqDialect;
        DlqMetadata other = fullMetadata();
        other.originalTopic = u"other-topic"_s;
        const RecordHeaders dlt = encodeDlqHeaders(SpringDlt, fullMetadata());
        const RecordHeaders connect = encodeDlqHeaders(KafkaConnect, other);
        caseRow("dlt wins over connect, topic", connect.mid(0, 3) + dlt, SpringDlt, "originalTopic",
                u"orders.v2"_s, {u"Also found 3 Kafka Connect header(s)"_s});
        caseRow("connect fills what dlt lacks", dlt + connect, SpringDlt, "connectorName",
                u"warehouse-sink"_s, {u"Also found 10 Kafka Connect header(s)"_s});
        caseRow("tie goes to streams",
                {header("dlq-original-topic", "berth-t"), header("dlq-original-partition", "1"),
                 header("__streams.errors.topic", "streams-t"), header("__streams.errors.partition", "2")},
                KafkaStreams, "originalTopic", u"streams-t"_s, {u"Also found 2 Berth canonical"_s});
        caseRow("retryable-topic DLT, no note",
                {header("kafka_dlt-original-topic", "t"), header("retry_topic-attempts", toBigEndian32(4)),
                 header("retry_topic-backoff-timestamp", "\x01\x8f\x34\x06\x9e\x05"_ba)},
                SpringDlt, "attempts", u"4"_s, {});
        caseRow("retry dialect beats one dlt header",
                {header("kafka_dlt-original-topic", "a"), header("kafka_original-topic", "b"),
                 header("kafka_original-partition", toBigEndian32(1))},
                SpringRetry, "originalTopic", u"b"_s,
                {u"Also found 1 Spring Kafka DLT header(s); used only where Spring Kafka retry topic "
                 u"set nothing"_s});
        caseRow("retry_topic alone", {header("retry_topic-attempts", "\x02"_ba)}, SpringRetry, "attempts",
                u"2"_s, {});
        caseRow("broken winner field filled by other",
                {header("kafka_dlt-original-topic", "a"), header("kafka_dlt-original-partition", "\x01"_ba),
                 header("__connect.errors.partition", "4")},
                SpringDlt, "originalPartition", u"4"_s,
                {u"Also found 1 Kafka Connect"_s, u"1 byte, not a 4-byte int; shown raw: 01"_s});
        caseRow("key exception",
                {header("kafka_dlt-key-exception-fqcn", "KeyErr"), header("kafka_dlt-original-topic", "t")},
                SpringDlt, "exceptionClass", u"KeyErr"_s, {u"The record key, not the value, failed"_s});
        caseRow(
            "value exception beats key exception",
            {header("kafka_dlt-key-exception-fqcn", "KeyErr"), header("kafka_dlt-exception-fqcn", "ValErr")},
            SpringDlt, "exceptionClass", u"ValErr"_s, {});
        caseRow("business headers only", {header("idempotency-key", "k"), header("traceparent", "00-ab")},
                Unknown, "idempotencyKey", u"k"_s, {});
    }

    void mixedFamilies()
    {
        QFETCH(Case, c);
        check(c);
    }

    void emptyAndNullValues_data()
    {
        QTest::addColumn<Case>("c");
        using enum DlqDialect;
        caseRow("no headers", {}, Unknown, "originalTopic", {}, {});
        caseRow("empty topic", {header("kafka_dlt-original-topic", {})}, SpringDlt, "originalTopic", {}, {});
        caseRow("null topic", {header("kafka_dlt-original-topic", {}, true)}, SpringDlt, "originalTopic", {},
                {u"kafka_dlt-original-topic: null value"_s});
        caseRow("empty partition", {header("kafka_dlt-original-partition", {})}, SpringDlt,
                "originalPartition", u"-1"_s, {u"kafka_dlt-original-partition: empty value, not a number"_s});
        caseRow("null partition", {header("kafka_dlt-original-partition", {}, true)}, SpringDlt,
                "originalPartition", u"-1"_s, {u"kafka_dlt-original-partition: null value"_s});
        caseRow("empty berth time", {header("dlq-last-failure-at", {})}, BerthCanonical, "lastFailureMs",
                u"-1"_s, {u"dlq-last-failure-at: empty value, not a number"_s});
        caseRow("null idempotency key", {header("idempotency-key", {}, true)}, Unknown, "idempotencyKey", {},
                {u"idempotency-key: null value"_s});
        caseRow("empty name", {header("", "orders")}, Unknown, "originalTopic", {}, {});
        caseRow("null unrelated", {header("traceparent", {}, true)}, Unknown, "originalTopic", {}, {});
    }

    void emptyAndNullValues()
    {
        QFETCH(Case, c);
        check(c);
        if (c.dialect == DlqDialect::Unknown && c.notes.isEmpty())
            QVERIFY(decodeDlqHeaders(c.headers) == DlqMetadata());
    }

    void invalidUtf8_data()
    {
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<QString>("expected");
        QTest::addColumn<bool>("note");
        const QChar bad = QChar::ReplacementCharacter;
        QTest::newRow("trailing 0xff") << "abc\xff"_ba << (u"abc"_s + bad) << true;
        QTest::newRow("truncated sequence")
            << "ok\xe2\x82"_ba << (u"ok"_s + bad + bad) << true; // Qt: one per byte
        QTest::newRow("overlong slash") << "\xc0\xaf"_ba << QString(2, bad) << true;
        QTest::newRow("encoded surrogate") << "\xed\xa0\x80!"_ba << (QString(3, bad) + u"!"_s) << true;
        QTest::newRow("valid non-ascii") << "Gr\xc3\xb6\xc3\x9f"
                                            "e \xe2\x9c\x93 \xf0\x9f\x9a\xa2"_ba
                                         << u"Größe ✓ 🚢"_s << false;
        QTest::newRow("bom kept") << "\xef\xbb\xbfX"_ba << (QString(QChar(0xfeff)) + u"X"_s) << false;
        QTest::newRow("embedded nul") << "a\0b"_ba << u"a\0b"_s << false;
    }

    void invalidUtf8()
    {
        QFETCH(QByteArray, value);
        QFETCH(QString, expected);
        QFETCH(bool, note);
        const DlqMetadata m = decodeDlqHeaders({header("kafka_dlt-exception-message", value)});
        QCOMPARE(m.reason, expected);
        const QString expectedNote = u"kafka_dlt-exception-message: invalid UTF-8, shown with replacement "_s
                                     u"characters; raw: "_s
                                     + QString::fromLatin1(value.toHex());
        QCOMPARE(m.notes, note ? QStringList{expectedNote} : QStringList());
    }

    void thousandHeaders()
    {
        const RecordHeaders dlt = dlqRecordHeaders(DlqDialect::SpringDlt);
        RecordHeaders headers;
        for (int i = 0; headers.size() < 999; ++i) {
            const QByteArray junk = QByteArray::number(i * 7919).repeated(4);
            headers.append(i % 71 == 0 && i / 71 < dlt.size() ? dlt.at(i / 71) : header("x-trace", junk));
        }
        headers.append(header("kafka_dlt-original-topic", "final"));
        QCOMPARE(headers.size(), 1000);
        DlqMetadata expected = project(DlqDialect::SpringDlt, fullMetadata());
        expected.dialect = DlqDialect::SpringDlt;
        expected.originalTopic = u"final"_s;
        expected.notes = {u"kafka_dlt-original-topic: 2 occurrences, the last one is used"_s};
        const DlqMetadata m = decodeDlqHeaders(headers);
        QCOMPARE(differences(m, expected), QString());
        QVERIFY(m == expected);
    }

    void randomBytesDoNotCrash()
    {
        QRandomGenerator rng(20240501); // fixed: a failure must reproduce
        QList<QByteArray> names = QByteArray("kafka_dlt-key-exception-fqcn kafka_dlt-key-exception-message "
                                             "retry_topic-backoff-timestamp x-original- dlq- ")
                                      .split(' '); // the last is empty
        for (const DlqDialect d : kDialects) {
            for (const RecordHeader &h : encodeDlqHeaders(d, fullMetadata()))
                names.append(h.name);
        }
        auto bytes = [&](int n) {
            QByteArray b(n, Qt::Uninitialized);
            std::generate(b.begin(), b.end(), [&] { return char(rng.bounded(256)); });
            return b;
        };
        // Null, decimal text, ISO-8601 text, or random bytes of the lengths binary numbers have, or any.
        auto value = [&]() -> QByteArray {
            const int kind = rng.bounded(6);
            if (kind == 1)
                return (rng.bounded(4) == 0 ? "-" : "")
                       + QByteArray::number(rng.generate64() >> rng.bounded(64));
            if (kind == 2)
                return QDateTime::fromSecsSinceEpoch(rng.bounded(1 << 30), Qt::UTC)
                    .toString(Qt::ISODate)
                    .toLatin1();
            return kind == 0 ? QByteArray() : bytes(kind == 3 ? 4 : kind == 4 ? 8 : rng.bounded(1, 65));
        };
        for (int round = 0; round < 20000; ++round) {
            RecordHeaders headers;
            bool anyDiagnostic = false;
            for (int i = rng.bounded(30); i > 0; --i) {
                const QByteArray name =
                    rng.bounded(4) == 0 ? bytes(rng.bounded(24)) : names.at(rng.bounded(names.size()));
                const bool isNull = rng.bounded(10) == 0;
                headers.append({name, isNull ? QByteArray() : value(), isNull});
                anyDiagnostic |= isDiagnosticDlqHeader(name);
            }
            const DlqMetadata m = decodeDlqHeaders(headers);
            QVERIFY(decodeDlqHeaders(headers) == m);
            // The original topic alone is the one the full decode chooses, among mixed families too.
            QCOMPARE(dlqOriginalTopic(headers), m.originalTopic);
            QVERIFY(anyDiagnostic || m.dialect == DlqDialect::Unknown);
            // Whatever was decoded survives being written again by the same dialect, cleanly.
            RecordHeaders rewritten = encodeDlqHeaders(m.dialect, m);
            rewritten << header("correlation-id", m.correlationId.toUtf8())
                      << header("idempotency-key", m.idempotencyKey.toUtf8());
            const DlqMetadata again = decodeDlqHeaders(rewritten);
            const QString diff = differences(project(m.dialect, again), project(m.dialect, m));
            QVERIFY2(diff.isEmpty(), qPrintable(u"round %1: "_s.arg(round) + diff));
            QVERIFY2(again.notes.isEmpty(), qPrintable(notesText(again)));
            QVERIFY(again.dialect == m.dialect || again.dialect == DlqDialect::Unknown
                    || (m.dialect == DlqDialect::SpringDlt && again.dialect == DlqDialect::SpringRetry));
        }
    }

    void diagnosticHeaders_data()
    {
        QTest::addColumn<QByteArray>("name");
        QTest::addColumn<bool>("diagnostic");
        for (const char *n :
             {"kafka_dlt-original-topic", "kafka_dlt-key-exception-stacktrace", "kafka_dlt-future-header",
              "kafka_original-offset", "kafka_exception-fqcn", "retry_topic-backoff-timestamp",
              "x-original-partition", "x-exception-message", "__connect.errors.stage",
              "__streams.errors.offset", "dlq-reason", "dlq-first-failure-at"})
            QTest::newRow(n) << QByteArray(n) << true;
        for (const char *n : {"correlation-id", "idempotency-key", "traceparent", "x-request-id", "kafka_dlt",
                              "berth-replay-id", "__connect.error.topic", "", "content-type"})
            QTest::newRow(*n ? n : "empty") << QByteArray(n) << false;
    }

    void diagnosticHeaders()
    {
        QFETCH(QByteArray, name);
        QFETCH(bool, diagnostic);
        QCOMPARE(isDiagnosticDlqHeader(name), diagnostic);
    }

    void helpers()
    {
        QCOMPARE(toBigEndian32(0x01020304), "\x01\x02\x03\x04"_ba);
        QCOMPARE(toBigEndian32(-2), "\xff\xff\xff\xfe"_ba);
        QCOMPARE(toBigEndian64(0x0102030405060708LL), "\x01\x02\x03\x04\x05\x06\x07\x08"_ba);
        QCOMPARE(toBigEndian64(-1), QByteArray(8, '\xff'));
        QCOMPARE(dialectName(DlqDialect::SpringDlt), u"Spring Kafka DLT"_s);
        QSet<QString> names{QString()}; // every dialect has its own, non-empty name
        for (const DlqDialect d : kDialects)
            names.insert(dialectName(d));
        QCOMPARE(names.size(), kDialects.size() + 1);
    }
};

QTEST_GUILESS_MAIN(TestDlqHeaders)
#include "tst_dlqheaders.moc"
