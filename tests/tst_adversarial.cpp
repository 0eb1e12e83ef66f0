// The adversarial dead-letter corpus: 36 hostile records, produced into the mock cluster by this test (by
// Berth's producer, by raw librdkafka for a tombstone and by kcat as an independent client), go through the
// triage desk as an operator would use it: the scanner indexes every one, the browser has text for every
// cell, the inspector shows each record as plain text (markup stays literal, escape sequences and bidi
// controls inert) or says clearly why it cannot, and the export writes every row.
#include "models/dlqbrowsermodel.h"
#include "services/demo/mockkafkacluster.h"
#include "services/dlq/dlqentrybuilder.h"
#include "services/dlq/dlqscanner.h"
#include "services/kafka/kafkaproducer.h"
#include "support/testsupport.h"
#include "views/dlqbrowserview.h"
#include "views/dlqinspectorview.h"

#include <QAbstractItemModelTester>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProcess>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextEdit>

using namespace Qt::StringLiterals;

namespace {
const QString kTopic = u"adversarial-dlt"_s;

struct Case {
    const char *name;
    QByteArray key;
    bool keyIsNull = false;
    QByteArray value;
    bool tombstone = false;
    RecordHeaders headers;
};

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

// Every case goes to partition 0, in this order (its offset is its index). The mock broker keeps about
// 5 MB a partition: the 16 MB record goes alone to partition 1.
QList<Case> corpus()
{
    QList<Case> c;
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
    return c;
}

// Two more from kcat, an independent producer: a header with markup, and a NULL value (-Z).
constexpr int kKcatRecords = 2;
constexpr int kPartition0 = 33 + kKcatRecords; // corpus() + kcat
constexpr int kTotal = kPartition0 + 1;        // + the 16 MB record
const QByteArray kHuge = "{\"data\":\"" + QByteArray(16 * 1024 * 1024, 'x') + "\"}";

bool hasControlOrBidi(const QString &text, bool allowLineBreaks)
{
    for (const QChar c : text) {
        const char16_t u = c.unicode();
        if (allowLineBreaks && (u == u'\n' || u == u'\t'))
            continue;
        if (u < 0x20 || u == 0x7f || u == 0x202e || u == 0x202d || u == 0x2066 || u == 0x2067 || u == 0x2068
            || u == 0x2069)
            return true;
    }
    return false;
}
} // namespace

class TestAdversarial final : public QObject {
    Q_OBJECT
    std::unique_ptr<MockKafkaCluster> m_cluster;
    QList<Case> m_cases;

    bool kcat(const QStringList &args, const QByteArray &input, QString *error)
    {
        QProcess p;
        p.start(u"kcat"_s,
                QStringList{u"-P"_s, u"-b"_s, m_cluster->bootstrapServers(), u"-t"_s, kTopic, u"-p"_s, u"0"_s}
                    + args);
        if (!p.waitForStarted(10000)) {
            *error = p.errorString();
            return false;
        }
        p.write(input);
        p.closeWriteChannel();
        if (!p.waitForFinished(30000) || p.exitCode() != 0) {
            *error = QString::fromUtf8(p.readAllStandardError());
            return false;
        }
        return true;
    }

    // Scans the topic in a browser view and waits for the whole index.
    void scan(DlqBrowserView &view)
    {
        view.setBootstrap(m_cluster->bootstrapServers());
        view.setTopic(kTopic);
        view.startScan();
        QTRY_COMPARE_WITH_TIMEOUT(view.model()->rowCount(), kTotal, 60000);
    }

    // The row of partition/offset in the model (scan order is not partition order).
    static int rowOf(const DlqBrowserModel &model, int partition, qint64 offset)
    {
        for (int row = 0; row < model.rowCount(); ++row) {
            const DlqIndexEntry &e = model.entry(row);
            if (e.partition == partition && e.offset == offset)
                return row;
        }
        return -1;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(TestSupport::haveExecutable(u"kcat"_s), "kcat is needed as the independent producer");
        m_cluster = std::make_unique<MockKafkaCluster>(1);
        QVERIFY2(m_cluster->isValid(), qPrintable(m_cluster->error()));
        QVERIFY(m_cluster->createTopic(kTopic, 2));
        KafkaProperties props = m_cluster->clientProperties();
        props.append({u"message.max.bytes"_s, u"20000000"_s});
        QString error;
        auto producer = KafkaProducer::create(props, &error);
        QVERIFY2(producer, qPrintable(error));
        m_cases = corpus();
        QCOMPARE(m_cases.size() + kKcatRecords, kPartition0);
        for (const Case &c : std::as_const(m_cases)) {
            if (c.tombstone) {
                // KafkaProducer sends an empty value, never NULL: a tombstone needs librdkafka itself.
                rd_kafka_headers_t *headers = rd_kafka_headers_new(size_t(c.headers.size()));
                for (const RecordHeader &h : c.headers)
                    rd_kafka_header_add(headers, h.name.constData(), h.name.size(), h.value.constData(),
                                        h.value.size());
                const rd_kafka_resp_err_t err = rd_kafka_producev(
                    producer->handle(), RD_KAFKA_V_TOPIC("adversarial-dlt"), RD_KAFKA_V_PARTITION(0),
                    RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
                    RD_KAFKA_V_KEY(c.key.constData(), size_t(c.key.size())), RD_KAFKA_V_VALUE(nullptr, 0),
                    RD_KAFKA_V_HEADERS(headers), RD_KAFKA_V_END);
                QCOMPARE(err, RD_KAFKA_RESP_ERR_NO_ERROR);
            } else {
                QVERIFY2(producer->produce({kTopic, 0, c.key, c.keyIsNull, c.value, c.headers, 0}, &error),
                         qPrintable(error));
            }
            QVERIFY2(producer->flush(30000, &error),
                     qPrintable(error)); // one at a time: offsets follow the list
        }
        QVERIFY2(
            producer->produce({kTopic, 1, "huge", false, kHuge, canonical("sixteen megabytes"), 0}, &error),
            qPrintable(error));
        QVERIFY2(producer->flush(60000, &error), qPrintable(error));
        QCOMPARE(producer->failed(), 0);

        QVERIFY2(kcat({u"-K"_s, u":"_s, u"-H"_s, u"dlq-reason=<i>kcat</i> \u202eevil"_s, u"-H"_s,
                       u"dlq-exception-class=com.acme.Kcat"_s},
                      "kcat-key:<p>kcat <b>value</b></p>\n", &error),
                 qPrintable(error));
        QVERIFY2(
            kcat({u"-K"_s, u":"_s, u"-Z"_s, u"-H"_s, u"dlq-reason=null from kcat"_s}, "kcat-null:\n", &error),
            qPrintable(error));
    }

    void scannerIndexesEveryRecord()
    {
        DlqScanner scanner;
        DlqIndexEntries entries;
        std::shared_ptr<const StringPool> strings;
        DlqScanResult result;
        bool finished = false;
        connect(&scanner, &DlqScanner::scanStarted, this, [&](const DlqScanPlan &p) { strings = p.strings; });
        connect(&scanner, &DlqScanner::batchReady, this,
                [&](const DlqScanBatch &b) { entries += b.entries; });
        connect(&scanner, &DlqScanner::scanFinished, this, [&](const DlqScanResult &r) {
            result = r;
            finished = true;
        });
        DlqScanRequest request;
        request.cluster = m_cluster->clientProperties();
        request.topic = kTopic;
        scanner.start(request);
        QTRY_VERIFY_WITH_TIMEOUT(finished, 60000);
        QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
        QCOMPARE(entries.size(), kTotal);
        QCOMPARE(result.progress.records, qint64(kTotal));

        QHash<qint64, DlqIndexEntry> p0;
        for (const DlqIndexEntry &e : std::as_const(entries)) {
            if (e.partition == 0)
                p0.insert(e.offset, e);
            else
                QVERIFY(e.has(DlqIndexEntry::Huge) && e.valueSize == quint32(kHuge.size()));
        }
        QCOMPARE(p0.size(), kPartition0);
        const StringPool &pool = *strings;
        QVERIFY(p0[0].has(DlqIndexEntry::InvalidUtf8));
        QVERIFY(p0[1].valueSize == 0 && !p0[1].has(DlqIndexEntry::NullValue));
        QVERIFY(p0[2].has(DlqIndexEntry::NullValue));
        QVERIFY(p0[3].has(DlqIndexEntry::NullKey));
        QVERIFY(!p0[4].has(DlqIndexEntry::NullKey) && p0[4].keySize == 0);
        QVERIFY(p0[5].has(DlqIndexEntry::BinaryKey));
        QCOMPARE(DlqEntryText::reason(p0[8], pool), u"<b>bold</b> <a href=\"http://evil\">link</a>"_s);
        QCOMPARE(DlqEntryText::reason(p0[14], pool), u"last"_s); // the last occurrence wins
        QVERIFY(p0[14].has(DlqIndexEntry::HasNotes));
        for (int wrong : {15, 16, 18, 19})
            QVERIFY2(p0[wrong].has(DlqIndexEntry::HasNotes), qPrintable(QString::number(wrong)));
        QCOMPARE(p0[15].originalPartition, -1); // three bytes are no int: not guessed
        QCOMPARE(p0[17].originalPartition, 12); // text where binary was expected: read by its charset
        QCOMPARE(p0[17].originalOffset, 77);
        QVERIFY(DlqEntryText::reason(p0[23], pool).size() <= DlqEntryBuilder::MaxReason + 1);
        QVERIFY(p0[kPartition0 - 1].has(DlqIndexEntry::NullValue)); // kcat -Z
        QCOMPARE(DlqEntryText::key(p0[kPartition0 - 2], pool), u"kcat-key"_s);
    }

    void browserHasTextForEveryCell()
    {
        DlqScanner scanner;
        DlqBrowserView view(&scanner);
        QAbstractItemModelTester tester(view.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        view.resize(1400, 900);
        view.show();
        scan(view);
        QTRY_VERIFY_WITH_TIMEOUT(!scanner.isRunning(), 30000);
        const DlqBrowserModel *model = view.model();
        for (int row = 0; row < model->rowCount(); ++row) {
            for (int column = 0; column < model->columnCount(); ++column) {
                const QModelIndex index = model->index(row, column);
                const QVariant display = index.data(Qt::DisplayRole);
                QVERIFY2(display.isValid() || column == int(DlqColumn::InboxStatus), // no inbox configured
                         qPrintable(u"row %1 column %2 has no text"_s.arg(row).arg(column)));
                const QString text = display.toString();
                QVERIFY2(
                    !hasControlOrBidi(text, false),
                    qPrintable(u"row %1 column %2 acts on the table: %3"_s.arg(row).arg(column).arg(text)));
                const QString tip = index.data(Qt::ToolTipRole).toString();
                QVERIFY2(
                    !tip.contains(u"<b>"_s) && !tip.contains(u"<qt>"_s) && !tip.contains(u"<a "_s),
                    qPrintable(
                        u"row %1 column %2 tooltip carries live markup: %3"_s.arg(row).arg(column).arg(tip)));
            }
        }
        // The cells show every record's fields (the key, the reason), markup as literal text.
        const int html = rowOf(*model, 0, 8);
        QVERIFY(html >= 0);
        QCOMPARE(model->index(html, int(DlqColumn::Key)).data().toString(), u"<b>key</b>"_s);
        QCOMPARE(model->index(html, int(DlqColumn::Reason)).data().toString(),
                 u"<b>bold</b> <a href=\"http://evil\">link</a>"_s);
        QVERIFY(model->index(html, int(DlqColumn::Reason))
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(u"&lt;b&gt;"_s));
        // Every label of the desk is plain text.
        const QList<QLabel *> labels = view.findChildren<QLabel *>();
        for (QLabel *label : labels) {
            if (!label->text().isEmpty() && label->textFormat() != Qt::PlainText)
                QVERIFY2(!label->text().contains(u'<'), qPrintable(label->text()));
        }
    }

    void inspectorShowsEachRecordAsPlainText()
    {
        DlqScanner scanner;
        DlqBrowserView view(&scanner);
        view.resize(1400, 900);
        view.show();
        scan(view);
        DlqInspectorView *inspector = view.inspector();
        // Record data lives in plain-text widgets only: no rich text editor, every label plain.
        QVERIFY(inspector->findChildren<QTextEdit *>().isEmpty());
        QVERIFY(inspector->findChildren<QPlainTextEdit *>().size() >= 5);
        QSignalSpy loaded(inspector, &DlqInspectorView::recordLoaded);
        QSignalSpy failed(inspector, &DlqInspectorView::recordFailed);
        DlqBrowserModel *model = view.model();
        auto inspect = [&](int partition, qint64 offset) {
            loaded.clear();
            failed.clear();
            const int row = rowOf(*model, partition, offset);
            if (row < 0)
                return false;
            view.table()->setCurrentIndex(model->index(row, 0));
            return QTest::qWaitFor([&] { return !loaded.isEmpty() || !failed.isEmpty(); }, 30000);
        };
        for (qint64 offset = 0; offset < kPartition0; ++offset) {
            const QString which = u"offset %1"_s.arg(offset);
            QVERIFY2(inspect(0, offset),
                     qPrintable(which + u": the inspector neither showed nor refused it"_s));
            QVERIFY2(failed.isEmpty(), qPrintable(which + u": "_s + failed.value(0).value(0).toString()));
            QCOMPARE(inspector->record().offset, offset);
            for (QLabel *label : inspector->findChildren<QLabel *>())
                QVERIFY2(label->textFormat() == Qt::PlainText, qPrintable(which + u": "_s + label->text()));
            for (const QString &text :
                 {inspector->summaryText(), inspector->payloadText(), inspector->stackTraceText()})
                QVERIFY2(!hasControlOrBidi(text, true), qPrintable(which + u": "_s + text.left(200)));
            QTableWidget *headers = inspector->headerTable();
            QCOMPARE(headers->rowCount(), int(inspector->record().headers.size()));
            for (int r = 0; r < headers->rowCount(); ++r) {
                for (int col = 0; col < 2; ++col)
                    QVERIFY2(!hasControlOrBidi(headers->item(r, col)->text(), true), qPrintable(which));
            }
            QVERIFY(inspector->payloadText().size() < 2'000'000); // laid out, not exploded
            QVERIFY(!inspector->hexText().isEmpty() || inspector->record().value.isEmpty());
        }
        // Markup is shown as the characters it is made of.
        QVERIFY(inspect(0, 8));
        QVERIFY(inspector->payloadText().contains(u"<h1>Title</h1>"_s));
        QVERIFY(inspector->payloadText().contains(u"<script>alert(2)</script>"_s));
        QVERIFY(inspector->summaryText().contains(u"<b>bold</b>"_s));
        QVERIFY(inspector->summaryText().contains(u"<i>com.acme.Html</i>"_s));
        QVERIFY(inspect(0, 32));
        QVERIFY(inspector->stackTraceText().contains(u"<script>y</script>"_s));
        QVERIFY(inspect(0, kPartition0 - 2));
        QVERIFY(inspector->payloadText().contains(u"<p>kcat <b>value</b></p>"_s));
        bool kcatHeader = false;
        for (int r = 0; r < inspector->headerTable()->rowCount(); ++r)
            kcatHeader |= inspector->headerTable()->item(r, 1)->text().startsWith(u"<i>kcat</i>"_s);
        QVERIFY(kcatHeader);
        // Nulls are named, not shown as empty text.
        QVERIFY(inspect(0, kPartition0 - 1));
        QVERIFY(inspector->record().value.isNull());
        QVERIFY(inspector->payloadText().contains(u"tombstone"_s));
        QVERIFY(inspect(0, 3));
        QVERIFY(inspector->record().keyIsNull);
        // Undecodable numbers come with a note naming the header and its bytes.
        QVERIFY(inspect(0, 15));
        QVERIFY(inspector->summaryText().contains(u"kafka_dlt-original-partition"_s));
        QVERIFY(inspector->summaryText().contains(u"000001"_s));
        // 16 MB: the first 256 KiB, and more on request.
        QVERIFY(inspect(1, 0));
        QCOMPARE(inspector->record().value.size(), kHuge.size());
        QVERIFY(inspector->payloadText().size() < 600'000);
    }

    void exportWritesEveryRow()
    {
        DlqScanner scanner;
        DlqBrowserView view(&scanner);
        scan(view);
        QTRY_VERIFY_WITH_TIMEOUT(!scanner.isRunning(), 30000);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        for (const QString &name : {u"rows.csv"_s, u"rows.jsonl"_s}) {
            QSignalSpy done(&view, &DlqBrowserView::exportFinished);
            view.exportRows(dir.filePath(name));
            QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 30000);
            QVERIFY2(done.at(0).at(0).toBool(), qPrintable(name));
            QCOMPARE(done.at(0).at(1).toLongLong(), qint64(kTotal));
        }
        QFile jsonl(dir.filePath(u"rows.jsonl"_s));
        QVERIFY(jsonl.open(QIODevice::ReadOnly));
        QSet<QPair<int, qint64>> positions;
        int lines = 0;
        while (!jsonl.atEnd()) {
            QJsonParseError error;
            const QJsonObject o = QJsonDocument::fromJson(jsonl.readLine(), &error).object();
            QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
            positions.insert({o.value(u"partition"_s).toInt(), qint64(o.value(u"offset"_s).toDouble())});
            if (o.value(u"offset"_s).toInt() == 28 && o.value(u"partition"_s).toInt() == 0)
                QCOMPARE(o.value(u"reason"_s).toString(), u"+cmd|' /C calc'!A0"_s); // JSON keeps it exact
            ++lines;
        }
        QCOMPARE(lines, kTotal);
        QCOMPARE(positions.size(), kTotal);
        // CSV: every record, and no field a spreadsheet would run as a formula.
        QFile csv(dir.filePath(u"rows.csv"_s));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(csv.readAll());
        QVERIFY(text.contains(u"'+cmd|' /C calc'!A0"_s));
        QVERIFY(text.contains(u"'@SUM(1+1)"_s));
        QVERIFY(!text.contains(u",=HYPERLINK"_s) && !text.contains(u",\"=HYPERLINK"_s));
    }
};

QTEST_MAIN(TestAdversarial)
#include "tst_adversarial.moc"
