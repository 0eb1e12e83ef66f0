// The adversarial dead-letter corpus: 36 hostile records, produced into the mock cluster by this test (by
// Berth's producer, a NULL value included, and by kcat as an independent client), go through the
// triage desk as an operator would use it: the scanner indexes every one, the browser has text for every
// cell, the inspector shows each record as plain text (markup stays literal, escape sequences and bidi
// controls inert) or says clearly why it cannot, and the export writes every row.
#include "models/dlqbrowsermodel.h"
#include "services/demo/mockkafkacluster.h"
#include "services/dlq/dlqentrybuilder.h"
#include "services/dlq/dlqscanner.h"
#include "support/adversarialcorpus.h"
#include "support/testsupport.h"
#include "views/dlqbrowserview.h"
#include "views/dlqinspectorview.h"

#include <QAbstractItemModelTester>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextEdit>

using namespace Qt::StringLiterals;

namespace {
const QString kTopic = u"adversarial-dlt"_s;

constexpr int kPartition0 = AdversarialCorpus::Partition0;
constexpr int kTotal = AdversarialCorpus::Total;
const QByteArray &kHuge = AdversarialCorpus::huge();

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
        QString error;
        QVERIFY2(AdversarialCorpus::produce(m_cluster->clientProperties(), m_cluster->bootstrapServers(),
                                            kTopic, &error),
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
