// Export of the DLQ browser's rows: what is shown (filter and sort) is what is written, every field
// survives a round trip through a CSV or JSON-lines reader, and a spreadsheet never sees a formula.
#include "models/dlqbrowsermodel.h"
#include "models/dlqexport.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {
// An independent RFC 4180 reader: quoted fields, doubled quotes, line breaks inside quotes.
QList<QStringList> readCsv(const QString &text)
{
    QList<QStringList> rows;
    QStringList row;
    QString field;
    bool quoted = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (quoted) {
            if (c == u'"' && i + 1 < text.size() && text[i + 1] == u'"') {
                field += u'"';
                ++i;
            } else if (c == u'"') {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == u'"') {
            quoted = true;
        } else if (c == u',') {
            row << field;
            field.clear();
        } else if (c == u'\r' && i + 1 < text.size() && text[i + 1] == u'\n') {
            row << field;
            rows << row;
            row.clear();
            field.clear();
            ++i;
        } else {
            field += c;
        }
    }
    return rows;
}

const QStringList kReasons = {u"plain reason"_s, u"comma, and \"quotes\""_s, u"two\nlines"_s,
                              u"=HYPERLINK(\"http://evil\")"_s, u"<b>markup</b> \u202Eright-to-left"_s};
} // namespace

class TestDlqExport final : public QObject {
    Q_OBJECT

    std::shared_ptr<StringPool> m_pool;

    void fill(DlqBrowserModel &model, int n)
    {
        m_pool = std::make_shared<StringPool>();
        DlqScanPlan plan;
        plan.scanId = 1;
        plan.topic = u"orders-dlt"_s;
        plan.strings = m_pool;
        model.beginScan(plan);
        DlqScanBatch batch;
        batch.scanId = 1;
        const quint32 route = m_pool->internPair(m_pool->intern(QStringView(u"orders")),
                                                 m_pool->intern(QStringView(u"order-projection")));
        for (int i = 0; i < n; ++i) {
            DlqIndexEntry e;
            e.partition = quint16(i % 3);
            e.offset = i;
            e.timestampMs = 1'700'000'000'000 + i;
            e.originalPartition = i % 5;
            e.originalOffset = 1000 + i;
            e.attempts = quint32(i % 4);
            e.valueSize = quint32(i * 10);
            e.routeId = route;
            e.reasonId = m_pool->intern(QStringView(kReasons[i % kReasons.size()]));
            e.exceptionId = m_pool->intern(QStringView(u"com.acme.Failure"));
            const QByteArray key = "key-" + QByteArray::number(i);
            e.keyId = m_pool->intern(QByteArrayView(key));
            e.keySize = quint32(key.size());
            const QString idem = u"idem-"_s + QString::number(i);
            e.idempotencyKeyId = m_pool->intern(QStringView(idem));
            e.dialect = quint8(DlqDialect::SpringDlt);
            batch.entries.append(e);
            batch.groupIds.append(0);
        }
        model.appendBatch(batch);
    }

private Q_SLOTS:
    void csvFieldQuotesAndDisarms()
    {
        QCOMPARE(DlqExport::csvField(u"plain"_s), u"plain"_s);
        QCOMPARE(DlqExport::csvField(u"a,b"_s), u"\"a,b\""_s);
        QCOMPARE(DlqExport::csvField(u"say \"hi\""_s), u"\"say \"\"hi\"\"\""_s);
        QCOMPARE(DlqExport::csvField(u"=1+1"_s), u"'=1+1"_s);
        QCOMPARE(DlqExport::csvField(u"-2"_s), u"'-2"_s);
        QCOMPARE(DlqExport::csvField(u"@SUM(A1)"_s), u"'@SUM(A1)"_s);
        QCOMPARE(DlqExport::csvField(u"\t=1+1"_s), u"'\t=1+1"_s);
        QCOMPARE(DlqExport::csvField(u"\r=1+1"_s), u"\"'\r=1+1\""_s); // disarmed, then quoted for the CR
    }

    void csvHoldsTheFilteredRowsInOrder()
    {
        DlqBrowserModel model;
        fill(model, 50);
        DlqFilter filter;
        filter.text = u"quotes"_s; // every fifth row
        model.setFilter(filter);
        QTRY_COMPARE_WITH_TIMEOUT(model.rowCount(), 10, 10000);
        model.sort(int(DlqColumn::Position), Qt::DescendingOrder);
        QTRY_VERIFY_WITH_TIMEOUT(!model.isFiltering() && model.entry(0).offset > model.entry(9).offset, 10000);

        QTemporaryDir dir;
        const QString path = dir.filePath(u"out.csv"_s);
        const DlqExport::Outcome outcome = DlqExport::write(path, DlqExport::formatForPath(path), model.exportSource());
        QVERIFY2(outcome.error.isEmpty(), qPrintable(outcome.error));
        QCOMPARE(outcome.rows, 10);
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QList<QStringList> rows = readCsv(QString::fromUtf8(file.readAll()));
        QCOMPARE(rows.size(), 11); // header + rows
        const int offsetColumn = int(rows[0].indexOf(u"offset"_s));
        const int reasonColumn = int(rows[0].indexOf(u"reason"_s));
        QVERIFY(offsetColumn >= 0 && reasonColumn >= 0);
        for (int r = 0; r < 10; ++r) {
            QCOMPARE(rows[r + 1].size(), rows[0].size());
            QCOMPARE(rows[r + 1][offsetColumn].toLongLong(), model.entry(r).offset); // display order
            QCOMPARE(rows[r + 1][reasonColumn], kReasons[1]);
        }
    }

    void jsonLinesRoundTripEveryField()
    {
        DlqBrowserModel model;
        fill(model, 25);
        QTemporaryDir dir;
        const QString path = dir.filePath(u"out.jsonl"_s);
        QCOMPARE(DlqExport::formatForPath(path), DlqExport::Format::JsonLines);
        const DlqExport::Outcome outcome = DlqExport::write(path, DlqExport::Format::JsonLines, model.exportSource());
        QVERIFY2(outcome.error.isEmpty(), qPrintable(outcome.error));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = file.readAll().split('\n');
        QCOMPARE(lines.size(), 26); // 25 lines and the empty rest after the last newline
        for (int i = 0; i < 25; ++i) {
            QJsonParseError error;
            const QJsonObject o = QJsonDocument::fromJson(lines[i], &error).object();
            QCOMPARE(error.error, QJsonParseError::NoError);
            QCOMPARE(o.value(u"offset"_s).toInteger(), i);
            QCOMPARE(o.value(u"reason"_s).toString(), kReasons[i % kReasons.size()]); // newline, markup intact
            QCOMPARE(o.value(u"originalOffset"_s).toInteger(), 1000 + i);
            QCOMPARE(o.value(u"key"_s).toString(), u"key-"_s + QString::number(i));
            QCOMPARE(o.value(u"idempotencyKey"_s).toString(), u"idem-"_s + QString::number(i));
            QCOMPARE(o.value(u"consumer"_s).toString(), u"order-projection"_s);
        }
    }

    void cancelledExportLeavesNoFile()
    {
        DlqBrowserModel model;
        fill(model, 20000);
        QTemporaryDir dir;
        const QString path = dir.filePath(u"cancelled.csv"_s);
        JobTracker jobs(this);
        bool done = false;
        DlqExport::Outcome outcome;
        jobs.start(
            [source = model.exportSource(), path](const JobControl &control) {
                // Cancel from inside, as the Cancel button would: the first progress check sees it.
                return DlqExport::write(path, DlqExport::Format::Csv, source, control);
            },
            [&](const DlqExport::Outcome &o) {
                outcome = o;
                done = true;
            });
        jobs.cancel(); // superseded at once: the result is dropped and the file must not appear
        QTest::qWait(500);
        QVERIFY(!done);
        QVERIFY(!QFile::exists(path));
    }

    void unwritablePathIsAClearError()
    {
        DlqBrowserModel model;
        fill(model, 3);
        const DlqExport::Outcome outcome =
            DlqExport::write(u"/nonexistent-dir/berth/out.csv"_s, DlqExport::Format::Csv, model.exportSource());
        QVERIFY(!outcome.error.isEmpty());
        QCOMPARE(outcome.rows, 0);
    }
};

QTEST_GUILESS_MAIN(TestDlqExport)
#include "tst_dlqexport.moc"
