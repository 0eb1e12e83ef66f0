#include "adversarialcorpus.h"

#include "services/kafka/kafkaproducer.h"

#include <QProcess>
#include <QRandomGenerator>

using namespace Qt::StringLiterals;

namespace {
RecordHeaders canonical(const QByteArray &reason, const QByteArray &exception = "com.acme.Bad")
{
    return {{"dlq-original-topic", "orders", false},
            {"dlq-original-partition", "0", false},
            {"dlq-exception-class", exception, false},
            {"dlq-reason", reason, false}};
}

QByteArray be(qint64 v, int bytes)
{
    QByteArray out(bytes, '\0');
    for (int i = bytes - 1; i >= 0; --i, v >>= 8)
        out[i] = char(v & 0xff);
    return out;
}
} // namespace

namespace AdversarialCorpus {
const QByteArray &huge()
{
    static const QByteArray value = "{\"data\":\"" + QByteArray(16 * 1024 * 1024, 'x') + "\"}";
    return value;
}

QList<Record> records()
{
    QList<Record> c;
    QByteArray binary(256, Qt::Uninitialized);
    QRandomGenerator rng(7);
    for (char &b : binary)
        b = char(rng.bounded(256));
    RecordHeaders thousand;
    for (int i = 0; i < 1000; ++i)
        thousand.append({"h-" + QByteArray::number(i), QByteArray::number(i), false});
    QByteArray deepObject;
    for (int i = 0; i < 100'000; ++i)
        deepObject += "{\"a\":";
    deepObject += "1" + QByteArray(100'000, '}');

    c.append(
        {"invalid utf-8", "k0", false, "\xff\xfe\xfd\xc3\x28", false, canonical("bad \xff\xc3\x28 reason")});
    c.append({"zero bytes", "k1", false, QByteArray(""), false, canonical("empty value")});
    c.append({"tombstone", "k2", false, {}, true, canonical("tombstone")});
    c.append({"null key", {}, true, "{\"v\":1}", false, canonical("null key")});
    c.append({"empty key", QByteArray(""), false, "{}", false, canonical("empty key")});
    c.append(
        {"binary", QByteArray("\x00\x01\xff\x80", 4), false, binary, false, canonical("binary payload")});
    c.append({"json 100000 deep arrays", "k6", false, QByteArray(100'000, '[') + QByteArray(100'000, ']'),
              false, canonical("deep arrays")});
    c.append({"json 100000 deep objects", "k7", false, deepObject, false, canonical("deep objects")});
    c.append({"html", "<b>key</b>", false,
              "<html><body><h1>Title</h1><img src=x onerror=alert(1)><script>alert(2)</script></body></html>",
              false, canonical("<b>bold</b> <a href=\"http://evil\">link</a>", "<i>com.acme.Html</i>")});
    c.append({"qt rich text", "<qt>k9</qt>", false, "<qt><a href=\"file:///etc/passwd\">click</a></qt>",
              false, canonical("<qt><font color=red>red</font></qt>")});
    c.append({"ansi escapes", "\x1b[2Jkey", false, "\x1b[31mred\x1b[0m \x1b]0;title\x07", false,
              canonical("\x1b[31mred\x1b[0m")});
    c.append({"rtl override",
              "abc\xe2\x80\xae"
              "fed",
              false, "{\"name\":\"\xe2\x80\xaegnp.exe\"}", false,
              canonical("evil \xe2\x80\xae"
                        "fdp.exe")});
    c.append({"bidi isolates and zero width", "k\xe2\x81\xa6x\xe2\x81\xa9", false,
              "a\xe2\x80\x8b"
              "b\xe2\x81\xa7"
              "c\xe2\x80\x8f",
              false, canonical("\xe2\x81\xa6isolate\xe2\x81\xa9 e\xcc\x81\xcc\x81\xcc\x81")});
    c.append({"1000 headers", "k13", false, "{}", false, thousand + canonical("one of a thousand")});
    c.append(
        {"repeated headers", "k14", false, "{}", false,
         canonical("first") + RecordHeaders{{"dlq-reason", "second", false}, {"dlq-reason", "last", false}}});
    c.append({"binary ints of wrong lengths",
              "k15",
              false,
              "{}",
              false,
              {{"kafka_dlt-original-topic", "orders", false},
               {"kafka_dlt-original-partition", QByteArray("\x00\x00\x01", 3), false},
               {"kafka_dlt-original-offset", QByteArray("\x00\x00\x00\x00\x00\x00\x09", 7), false},
               {"kafka_dlt-original-timestamp", QByteArray(9, '\x01'), false},
               {"kafka_dlt-exception-fqcn", "com.acme.WrongLength", false}}});
    c.append({"binary ints too long and empty",
              "k16",
              false,
              "{}",
              false,
              {{"x-original-topic", "orders", false},
               {"x-original-partition", QByteArray(5, '\x00'), false},
               {"x-original-offset", QByteArray(""), false},
               {"x-exception-fqcn", "com.acme.Empty", false}}});
    c.append({"text numbers in a binary dialect",
              "k17",
              false,
              "{}",
              false,
              {{"kafka_dlt-original-topic", "orders", false},
               {"kafka_dlt-original-partition", "12", false},
               {"kafka_dlt-original-offset", be(77, 8), false},
               {"kafka_dlt-exception-message", "text partition", false}}});
    c.append({"connect numbers that are not",
              "k18",
              false,
              "{}",
              false,
              {{"__connect.errors.topic", "orders", false},
               {"__connect.errors.partition", "-5", false},
               {"__connect.errors.offset", "99999999999999999999", false},
               {"__connect.errors.exception.class.name", "abc", false}}});
    c.append({"retry attempts of odd sizes",
              "k19",
              false,
              "{}",
              false,
              {{"kafka_original-topic", "orders", false},
               {"retry_topic-attempts", QByteArray(9, '\x7f'), false},
               {"retry_topic-original-timestamp", QByteArray(""), false},
               {"kafka_exception-message", "odd attempts", false}}});
    c.append({"null header values",
              "k20",
              false,
              "{}",
              false,
              {{"dlq-original-topic", {}, true},
               {"dlq-reason", {}, true},
               {"dlq-attempts", {}, true},
               {"idempotency-key", {}, true}}});
    c.append({"odd header names", "k21", false, "{}", false,
              canonical("odd names")
                  + RecordHeaders{{"", "empty name", false},
                                  {"\xff\xfe", "binary name", false},
                                  {"<b>name</b>", "<i>value</i>", false}}});
    c.append({"nul bytes", QByteArray("a\0b", 3), false, QByteArray("{\"a\":\"x\0y\"}", 11), false,
              canonical(QByteArray("nul \0 inside", 12))
                  + RecordHeaders{{"idempotency-key", QByteArray("id\0x", 4), false}}});
    c.append({"long reason and header name", "k23", false, "{}", false,
              canonical(QByteArray(100'000, 'r')) + RecordHeaders{{QByteArray(10'000, 'n'), "v", false}}});
    c.append(
        {"512 KiB single line", "k24", false, QByteArray(512 * 1024, 'z'), false, canonical("one line")});
    c.append(
        {"truncated json", "k25", false, "{\"order\": [1, 2, {\"sku\": \"A", false, canonical("truncated")});
    c.append({"json escapes and controls", "k26", false,
              "{\"s\":\"quote \\\" backslash \\\\ nul \\u0000 bell \x07 tab\t\"}", false,
              canonical("escapes")});
    c.append({"bom overlong surrogate", "\xef\xbb\xbfk27", false,
              "\xef\xbb\xbf{\"a\":\"\xc0\x80\xed\xa0\x80\"}", false,
              canonical("\xef\xbb\xbf"
                        "bom reason")});
    c.append(
        {"formula injection", "=HYPERLINK(\"http://evil\")", false, "{}", false,
         canonical("+cmd|' /C calc'!A0", "@SUM(1+1)") + RecordHeaders{{"idempotency-key", "-2+3", false}}});
    c.append({"line breaks", "line1\r\nline2", false,
              "a\r\nb\rc\nd\xe2\x80\xa8"
              "e",
              false, canonical("reason\r\nInjected: yes")});
    c.append({"odd times and attempts", "k30", false, "{}", false,
              canonical("odd times")
                  + RecordHeaders{{"dlq-attempts", "100000", false},
                                  {"dlq-first-failure-at", "2024-02-30T25:61:00Z", false},
                                  {"dlq-last-failure-at", "-1", false}}});
    c.append({"256 KiB header value", "k31", false, "{}", false,
              canonical("big header")
                  + RecordHeaders{{"kafka_dlt-exception-stacktrace", QByteArray(256 * 1024, 's'), false}}});
    c.append({"stack trace with markup",
              "k32",
              false,
              "{}",
              false,
              {{"kafka_dlt-original-topic", "orders", false},
               {"kafka_dlt-exception-fqcn", "com.acme.Trace", false},
               {"kafka_dlt-exception-stacktrace",
                "<b>at</b> com.acme.X(\x1b[1mX.java\x1b[0m:1)\n\tat <script>y</script>", false}}});
    // From kcat, an independent producer: markup and a bidi override in a header, then a NULL value (-Z).
    c.append({"kcat markup",
              "kcat-key",
              false,
              "<p>kcat <b>value</b></p>",
              false,
              {{"dlq-reason",
                "<i>kcat</i> \xe2\x80\xae"
                "evil",
                false},
               {"dlq-exception-class", "com.acme.Kcat", false}},
              0,
              true});
    c.append({"kcat null", "kcat-null", false, {}, true, {{"dlq-reason", "null from kcat", false}}, 0, true});
    c.append({"16 MB", "huge", false, huge(), false, canonical("sixteen megabytes"), 1});
    return c;
}

} // namespace AdversarialCorpus

namespace {
// kcat -P with the record's key and value as one "key:value" line; -Z turns the empty value into NULL.
bool kcatProduce(const QString &bootstrap, const QString &topic, const AdversarialCorpus::Record &r,
                 QString *error)
{
    QStringList args{u"-P"_s, u"-b"_s, bootstrap, u"-t"_s, topic, u"-p"_s, QString::number(r.partition),
                     u"-K"_s, u":"_s};
    if (r.valueIsNull)
        args << u"-Z"_s;
    for (const RecordHeader &h : r.headers)
        args << u"-H"_s << QString::fromUtf8(h.name + '=' + h.value);
    QProcess p;
    p.start(u"kcat"_s, args);
    if (!p.waitForStarted(10'000)) {
        *error = u"kcat: "_s + p.errorString();
        return false;
    }
    p.write(r.key + ':' + r.value + '\n');
    p.closeWriteChannel();
    if (!p.waitForFinished(30'000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        *error = u"kcat: "_s + QString::fromUtf8(p.readAllStandardError());
        return false;
    }
    return true;
}
} // namespace

namespace AdversarialCorpus {
bool produce(const KafkaProperties &cluster, const QString &bootstrap, const QString &topic, QString *error)
{
    std::unique_ptr<KafkaProducer> producer =
        KafkaProducer::create(cluster + KafkaProperties{{u"message.max.bytes"_s, u"20000000"_s}}, error);
    if (!producer)
        return false;
    const QList<Record> all = records();
    for (const Record &r : all) {
        if (r.viaKcat) {
            if (!kcatProduce(bootstrap, topic, r, error))
                return false;
            continue;
        }
        OutgoingRecord out{topic, r.partition, r.key, r.keyIsNull, r.value, r.headers, 0, r.valueIsNull};
        // One at a time: offsets follow the list.
        if (!producer->produce(out, error) || !producer->flush(60'000, error))
            return false;
        if (producer->failed() > 0) {
            *error = QString::fromLatin1(r.name) + u": "_s + producer->lastDeliveryError();
            return false;
        }
    }
    return true;
}
} // namespace AdversarialCorpus
