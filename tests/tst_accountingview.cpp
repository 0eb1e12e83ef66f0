// The Accounting view over its model, offscreen: counts per class, choosing classes filters the
// records, the chart has its axes with units and a series per class present, and a replay is requested
// only for the unaccounted or dead-lettered records selected; the record chosen and its dead letter are
// shown whole by the inspectors, fetched from a mock cluster and masked as the policy says.
#include "models/accountingmodel.h"
#include "services/accounting/accountingservice.h"
#include "services/accounting/deliveryaccountant.h"
#include "services/demo/mockkafkacluster.h"
#include "services/dlq/dlqheadercodec.h"
#include "services/dlq/dlqscanner.h"
#include "services/kafka/kafkaproducer.h"
#include "views/accountingview.h"
#include "views/dlqinspectorview.h"
#include "views/qcustomplotinclude.h"

#include <QAbstractItemModelTester>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {
AccountingResultPtr arranged()
{
    auto result = std::make_shared<AccountingResult>();
    result->group = u"projection"_s;
    result->topic = u"orders"_s;
    result->keys = {QByteArray(), "order-1", "<b>e-1</b>", "e-2", "e-3"};
    const qint64 minute = 29'000'000LL * 60'000;
    const auto add = [&](qint64 offset, AccountClass c, quint32 key, qint64 at) {
        AccountedRecord r;
        r.partition = 0;
        r.offset = offset;
        r.timestampMs = at;
        r.recordKey = 1;
        r.idempotencyKey = key;
        r.cls = c;
        result->records.push_back(r);
        ++result->counts[size_t(c)];
        ++result->minutes[at / 60'000][size_t(c)]; // the chart's data, which the classifier fills
    };
    add(0, AccountClass::Processed, 2, minute);
    add(1, AccountClass::Duplicate, 2, minute + 1000);
    add(2, AccountClass::DeadLettered, 3, minute + 60'000);
    add(3, AccountClass::Unaccounted, 4, minute + 120'000);
    add(4, AccountClass::NotConsumed, 0, minute + 120'500);
    return result;
}
// Records from `first` (epoch ms), one every `everyMs`: a window of that span for the chart.
AccountingResultPtr spanning(qint64 first, qint64 everyMs, int count)
{
    auto result = std::make_shared<AccountingResult>();
    result->keys = {QByteArray(), "k"};
    for (int i = 0; i < count; ++i) {
        AccountedRecord r;
        r.partition = 0;
        r.offset = i;
        r.timestampMs = first + i * everyMs;
        r.cls = AccountClass::Processed;
        result->records.push_back(r);
        ++result->counts[0];
        ++result->minutes[r.timestampMs / 60'000][0];
    }
    return result;
}

// The chart's x-axis labels after a full redraw; every adjacent pair must differ.
QVector<QString> tickLabels(AccountingView &view)
{
    view.chart()->replot(QCustomPlot::rpImmediateRefresh);
    return view.chart()->xAxis->tickVectorLabels();
}

bool adjacentDiffer(const QVector<QString> &labels)
{
    for (qsizetype i = 1; i < labels.size(); ++i) {
        if (labels[i] == labels[i - 1])
            return false;
    }
    return true;
}
} // namespace

class TestAccountingView final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void modelPassesTheTesterAndFilters()
    {
        AccountingModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setResult(arranged());
        QCOMPARE(model.rowCount(), 5);
        model.setClasses({AccountClass::Unaccounted, AccountClass::DeadLettered});
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.index(0, AccountingModel::OffsetColumn).data().toLongLong(), 2);
        QCOMPARE(model.index(1, AccountingModel::IdempotencyKeyColumn).data().toString(), u"e-3"_s);
        model.setClasses({});
        QCOMPARE(model.index(0, AccountingModel::IdempotencyKeyColumn).data().toString(), u"<b>e-1</b>"_s);
        QCOMPARE(model.perMinute(AccountClass::Processed).size(), 1);
    }

    void viewShowsCountsChartAndRequestsReplay()
    {
        AccountingModel model;
        AccountingView view(&model);
        view.resize(1200, 800);
        view.show();
        QSignalSpy runs(&view, &AccountingView::runRequested);
        view.topicEdit()->clear();
        view.runButton()->click();
        QCOMPARE(runs.size(), 0); // nothing to account without a group and topic
        view.setGroups({u"projection"_s});
        view.topicEdit()->setText(u"orders"_s);
        view.runButton()->click();
        QCOMPARE(runs.size(), 1);
        QCOMPARE(runs.first().at(2).toString(), u"beginning"_s);
        QVERIFY(!view.runButton()->isEnabled());
        QVERIFY(view.cancelButton()->isEnabled());

        view.setResult(arranged());
        QVERIFY(view.runButton()->isEnabled());
        QCOMPARE(view.countTable()->item(int(AccountClass::Unaccounted), 1)->text(), u"1"_s);
        QCOMPARE(view.countTable()->item(int(AccountClass::Processed), 1)->text(), u"1"_s);
        // The unaccounted class is chosen first: its record alone is listed.
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(view.summaryLabel()->textFormat(), Qt::PlainText);
        QCOMPARE(view.chart()->plottableCount(), 5);
        QCOMPARE(view.chart()->yAxis->label(), u"Records per minute"_s);
        QVERIFY(view.chart()->xAxis->label().contains(u"time"_s));

        QSignalSpy replays(&view, &AccountingView::replayRequested);
        QVERIFY(!view.replayButton()->isEnabled());
        view.countTable()->clearSelection(); // every record
        QCOMPARE(model.rowCount(), 5);
        view.recordTable()->selectAll();
        QVERIFY(view.replayButton()->isEnabled());
        view.replayButton()->click();
        QCOMPARE(replays.size(), 1);
        const auto records = replays.first().first().value<QList<DlqSelection>>();
        QCOMPARE(records.size(), 2); // the dead-lettered and the unaccounted one, never the processed ones
        QCOMPARE(records[0].topic, u"orders"_s);
        QCOMPARE(records[0].offset, 2);
        QCOMPARE(records[1].offset, 3);
    }

    // In a window as short as the console's, the summary and the semantics verdict wrap below the counts
    // and never paint over them: the side pane scrolls instead.
    void summaryNeverCoversTheCounts()
    {
        AccountingModel model;
        // Inside the console's tabs the view gets the height the window has, not the one it asks for.
        QWidget window;
        window.resize(1040, 420);
        AccountingView view(&model, nullptr, nullptr, &window);
        view.setGeometry(0, 0, 1040, 420);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto result = std::make_shared<AccountingResult>(*arranged());
        result->dlqTopics = {u"error.notifications.email-sender"_s};
        result->keySource = u"header idempotency-key, else the record key"_s;
        view.setResult(result);
        view.setSemantics(
            u"accounting shows effectively-once (policy: effectively-once)"_s,
            {u"the policy says effectively-once and per-key ordering; 455 order break(s) were seen"_s});
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        QCoreApplication::processEvents();
        const auto inView = [&view](const QWidget *w) {
            return QRect(w->mapTo(&view, QPoint(0, 0)), w->size());
        };
        const QRect counts = inView(view.countTable());
        const QRect summary = inView(view.summaryLabel());
        const QRect semantics = inView(view.semanticsLabel());
        QVERIFY2(summary.top() >= counts.bottom(),
                 qPrintable(u"summary %1 over counts %2"_s.arg(summary.top()).arg(counts.bottom())));
        QVERIFY(semantics.top() >= summary.bottom());
        // They scroll together beside the chart when the window is shorter than they need.
        for (const QWidget *w : {static_cast<const QWidget *>(view.countTable()),
                                 static_cast<const QWidget *>(view.summaryLabel()),
                                 static_cast<const QWidget *>(view.semanticsLabel())})
            QVERIFY(view.sidePane()->isAncestorOf(w));
        QVERIFY(view.sidePane()->isVisible());
        QVERIFY(view.sidePane()->verticalScrollBar()->maximum() > 0);
        // Every line of the summary gets its height.
        QVERIFY(view.summaryLabel()->height()
                >= view.summaryLabel()->heightForWidth(view.summaryLabel()->width()));
    }

    // A window of a few minutes is labelled by the second, one of three days by the date: no two adjacent
    // labels read the same, and the axis label names the format.
    void chartTickLabelsFollowTheWindowsSpan()
    {
        AccountingModel model;
        AccountingView view(&model);
        view.resize(1200, 800);
        view.show();
        const qint64 start = 29'000'000LL * 60'000 + 17'000;
        view.setResult(spanning(start, 2'000, 12)); // within one minute: the chart shows three
        const QVector<QString> shortLabels = tickLabels(view);
        QVERIFY2(shortLabels.size() >= 3, qPrintable(shortLabels.join(u' ')));
        QVERIFY2(adjacentDiffer(shortLabels), qPrintable(shortLabels.join(u' ')));
        QCOMPARE(shortLabels.first().count(u':'), 2); // HH:mm:ss
        QVERIFY(view.chart()->xAxis->label().contains(u"HH:mm:ss"_s));
        QVERIFY(view.chart()->yAxis->label().contains(u"per minute"_s));

        view.setResult(spanning(start, 3'600'000, 72));
        const QVector<QString> longLabels = tickLabels(view);
        QVERIFY2(longLabels.size() >= 3, qPrintable(longLabels.join(u' ')));
        QVERIFY2(adjacentDiffer(longLabels), qPrintable(longLabels.join(u' ')));
        QVERIFY2(longLabels.first().contains(u'-'), qPrintable(longLabels.join(u' '))); // the date shows
    }

    // ARCHITECTURE.md, Contracts: masking. A result whose keys the policy masks shows "(masked)" in every
    // cell, the inspectors' fields and both exports; an unmasked result shows its keys.
    void maskedKeysShowNowhere()
    {
        auto masked = std::make_shared<AccountingResult>(*arranged());
        masked->recordKeyMasked = true;
        masked->idempotencyKeyMasked = true;
        AccountingModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setResult(masked);
        const QStringList real{u"order-1"_s, u"e-1"_s, u"e-2"_s, u"e-3"_s};
        const auto holdsReal = [&real](const QString &text) {
            return std::any_of(real.cbegin(), real.cend(), [&text](const QString &r) { return text.contains(r); });
        };
        for (int row = 0; row < model.rowCount(); ++row) {
            for (int column = 0; column < model.columnCount(); ++column) {
                for (const int role : {int(Qt::DisplayRole), int(Qt::ToolTipRole)}) {
                    const QString text = model.index(row, column).data(role).toString();
                    QVERIFY2(!holdsReal(text), qPrintable(text));
                }
            }
            const AccountedRecordFields f = model.fields(row);
            QVERIFY(!holdsReal(f.key) && !holdsReal(f.idempotencyKey));
        }
        QCOMPARE(model.index(0, AccountingModel::KeyColumn).data().toString(), u"(masked)"_s);
        QCOMPARE(model.index(0, AccountingModel::IdempotencyKeyColumn).data().toString(), u"(masked)"_s);
        QCOMPARE(model.index(4, AccountingModel::IdempotencyKeyColumn).data().toString(), QString()); // none

        QTemporaryDir dir;
        AccountingService service;
        QSignalSpy exported(&service, &AccountingService::exported);
        for (const auto format : {AccountingService::ExportFormat::Csv, AccountingService::ExportFormat::JsonLines}) {
            const QString path = dir.filePath(u"export"_s + QString::number(int(format)));
            service.exportRecords(masked, {}, format, path);
            QVERIFY(exported.wait(10'000));
            QFile file(path);
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QString text = QString::fromUtf8(file.readAll());
            QCOMPARE(text.count(u"(masked)"_s), 9); // five record keys, four idempotency keys
            QVERIFY2(!holdsReal(text), qPrintable(text));
        }

        model.setResult(arranged());
        QCOMPARE(model.index(0, AccountingModel::KeyColumn).data().toString(), u"order-1"_s);
        QCOMPARE(model.index(0, AccountingModel::IdempotencyKeyColumn).data().toString(), u"<b>e-1</b>"_s);
    }

    // A dead-lettered record of a real accounting: the record inspector shows the source record and the
    // second one its dead letter, both fetched from the cluster and masked by the policy's rule for the
    // topic; a record without a dead letter leaves the second one empty.
    void inspectorsShowTheRecordAndItsDeadLetterMasked()
    {
        MockKafkaCluster cluster(1);
        QVERIFY(cluster.isValid());
        QVERIFY(cluster.createTopic(u"orders"_s, 1));
        QVERIFY(cluster.createTopic(u"orders-dlt"_s, 1));
        QString error;
        auto producer = KafkaProducer::create(cluster.clientProperties(), &error);
        QVERIFY2(producer, qPrintable(error));
        const auto order = [](int n) -> QByteArray {
            return "{\"order\":" + QByteArray::number(n) + ",\"customer\":{\"email\":\"buyer" + QByteArray::number(n)
                 + "@example.com\"}}";
        };
        for (int n = 0; n < 3; ++n)
            QVERIFY(producer->produce({u"orders"_s, 0, "order-" + QByteArray::number(n), false, order(n),
                                       {{"idempotency-key", "e-" + QByteArray::number(n), false}}, 0}));
        DlqMetadata m;
        m.originalTopic = u"orders"_s;
        m.originalPartition = 0;
        m.originalOffset = 1;
        m.consumerGroup = u"projection"_s;
        m.exceptionClass = u"com.acme.OrderRejected"_s;
        m.reason = u"Order 1 rejected"_s;
        RecordHeaders h = encodeDlqHeaders(DlqDialect::SpringDlt, m);
        h.append({"idempotency-key", "e-1", false});
        QVERIFY(producer->produce({u"orders-dlt"_s, 0, "order-1", false, order(1), h, 0}));
        QVERIFY(producer->flush(20000));

        AccountingRequest request;
        request.cluster = cluster.clientProperties();
        request.group = u"projection"_s;
        request.topic = u"orders"_s;
        request.dlqTopics = {u"orders-dlt"_s};
        const AccountingResultPtr result = DeliveryAccountant::run(request);
        QVERIFY2(result->error.isEmpty(), qPrintable(result->error));
        QCOMPARE(result->count(AccountClass::DeadLettered), 1);

        MaskRule rule;
        rule.topic = u"orders"_s;
        rule.fields = {u"$.customer.email"_s};
        DlqScanner records, deadLetters;
        records.setMasking({rule});
        deadLetters.setMasking({rule});
        AccountingModel model;
        AccountingView view(&model, &records, &deadLetters);
        view.setCluster(cluster.clientProperties());
        view.resize(1400, 900);
        view.show();
        view.setResult(result);
        QCOMPARE(model.rowCount(), 3);
        QVERIFY(!view.inspectorTabs()->isTabEnabled(1));

        QSignalSpy recordLoaded(view.recordInspector(), &DlqInspectorView::recordLoaded);
        QSignalSpy letterLoaded(view.deadLetterInspector(), &DlqInspectorView::recordLoaded);
        view.recordTable()->setCurrentIndex(model.index(1, 0));
        QTRY_COMPARE_WITH_TIMEOUT(recordLoaded.count(), 1, 20000);
        QTRY_COMPARE_WITH_TIMEOUT(letterLoaded.count(), 1, 20000);
        QVERIFY(view.inspectorTabs()->isTabEnabled(1));

        const DlqInspectorView *source = view.recordInspector();
        QCOMPARE(source->record().topic, u"orders"_s);
        QCOMPARE(source->record().offset, 1);
        QVERIFY2(source->payloadText().contains(u"\"order\": 1"_s), qPrintable(source->payloadText()));
        QVERIFY2(source->payloadText().contains(u"(masked)"_s), qPrintable(source->payloadText()));
        QVERIFY(!source->payloadText().contains(u"buyer1@example.com"_s));
        QVERIFY2(source->summaryText().contains(u"Dead-lettered"_s), qPrintable(source->summaryText()));
        QVERIFY(source->summaryText().contains(u"orders-dlt [0] @ 0"_s));

        const DlqInspectorView *letter = view.deadLetterInspector();
        QCOMPARE(letter->record().topic, u"orders-dlt"_s);
        QCOMPARE(letter->record().offset, 0);
        QVERIFY2(letter->summaryText().contains(u"Order 1 rejected"_s), qPrintable(letter->summaryText()));
        QVERIFY(letter->payloadText().contains(u"(masked)"_s));
        QVERIFY(!letter->payloadText().contains(u"buyer1@example.com"_s));

        // A record with no dead letter: the source record alone.
        view.recordTable()->setCurrentIndex(model.index(2, 0));
        QTRY_COMPARE_WITH_TIMEOUT(recordLoaded.count(), 2, 20000);
        QCOMPARE(source->record().offset, 2);
        QVERIFY(!view.inspectorTabs()->isTabEnabled(1));
        QVERIFY(!letter->hasRecord());
    }
};

QTEST_MAIN(TestAccountingView)
#include "tst_accountingview.moc"
