// The Accounting view over its model, offscreen: counts per class, choosing classes filters the
// records, the chart has its axes with units and a series per class present, and a replay is requested
// only for the unaccounted or dead-lettered records selected.
#include "models/accountingmodel.h"
#include "views/accountingview.h"
#include "views/qcustomplotinclude.h"

#include <QAbstractItemModelTester>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTableWidget>
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
};

QTEST_MAIN(TestAccountingView)
#include "tst_accountingview.moc"
