// The alert list offscreen: owner, rule and evidence shown; acknowledge, snooze with a reason, and the
// link into the view that shows the evidence; the thresholds with their source.
#include "models/alertmodel.h"
#include "views/alertview.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <QTreeWidget>

using namespace Qt::StringLiterals;

class TestAlertView : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void listShowsOwnerRuleAndEvidence();
    void acknowledgeAndSnoozeWithAReason();
    void evidenceOpensTheView();
    void thresholdsNameTheirSource();

private:
    // An engine with two firing alerts (an owned DLQ, an unowned one) and one cleared.
    void fill(AlertEngine &engine)
    {
        AlertRules::configure(engine);
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        engine.observe({AlertRules::dlqArrivals, u"orders-dlt"_s, AlertEngine::Observation::Breach,
                        u"12 dead letter(s) on orders-dlt in the last 15 min (alert at 10)."_s, u"team-orders"_s,
                        u"dlq"_s},
                       now);
        engine.observe({AlertRules::dlqArrivals, u"dlq-warehouse-sink"_s, AlertEngine::Observation::Breach,
                        u"<b>10</b> dead letters"_s, {}, u"dlq"_s},
                       now);
        engine.observe({AlertRules::stuckInProgress, u"orders-inbox"_s, AlertEngine::Observation::Breach, u"stuck"_s,
                        u"team-orders"_s, u"inbox"_s},
                       now - 120000);
        engine.observe({AlertRules::stuckInProgress, u"orders-inbox"_s, AlertEngine::Observation::Normal, {}, {}, {}},
                       now - 60000);
        engine.observe({AlertRules::stuckInProgress, u"orders-inbox"_s, AlertEngine::Observation::Normal, {}, {}, {}},
                       now);
    }
    int rowOf(const AlertModel &model, const QString &subject)
    {
        for (int r = 0; r < model.rowCount(); ++r) {
            if (model.index(r, AlertModel::Subject).data().toString() == subject)
                return r;
        }
        return -1;
    }
};

void TestAlertView::listShowsOwnerRuleAndEvidence()
{
    AlertEngine engine;
    fill(engine);
    AlertModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setAlerts(engine.alerts());
    QCOMPARE(model.rowCount(), 3);
    const int owned = rowOf(model, u"orders-dlt"_s);
    const int unowned = rowOf(model, u"dlq-warehouse-sink"_s);
    const int cleared = rowOf(model, u"orders-inbox"_s);
    QCOMPARE(model.index(owned, AlertModel::Owner).data().toString(), u"team-orders"_s);
    QCOMPARE(model.index(owned, AlertModel::Rule).data().toString(), u"dlq-arrivals"_s);
    QVERIFY(model.index(owned, AlertModel::Message).data().toString().contains(u"12 dead letter"_s));
    QCOMPARE(model.index(unowned, AlertModel::Owner).data().toString(), u"no owner stated"_s);
    QCOMPARE(model.index(unowned, AlertModel::Message).data().toString(), u"<b>10</b> dead letters"_s); // plain text
    QCOMPARE(model.index(cleared, AlertModel::State).data().toString(), u"cleared"_s);
    QCOMPARE(model.index(owned, 0).data(AlertModel::ViewRole).toString(), u"dlq"_s);
    AlertView view(&model);
    view.resize(1200, 600);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QCOMPARE(view.table()->model()->rowCount(), 3);
}

void TestAlertView::acknowledgeAndSnoozeWithAReason()
{
    AlertEngine engine;
    fill(engine);
    AlertModel model;
    connect(&engine, &AlertEngine::changed, &model, [&] { model.setAlerts(engine.alerts()); });
    model.setAlerts(engine.alerts());
    AlertView view(&model);
    connect(&view, &AlertView::acknowledgeRequested, &engine, &AlertEngine::acknowledge);
    connect(&view, &AlertView::snoozeRequested, &engine, [&](quint64 id, int minutes, const QString &reason) {
        engine.snooze(id, QDateTime::currentMSecsSinceEpoch() + qint64(minutes) * 60000, reason);
    });
    QSignalSpy snoozes(&view, &AlertView::snoozeRequested);
    view.show();
    QVERIFY(!view.acknowledgeButton()->isEnabled()); // nothing selected
    view.table()->selectRow(rowOf(model, u"orders-dlt"_s));
    QVERIFY(view.acknowledgeButton()->isEnabled());
    QTest::mouseClick(view.acknowledgeButton(), Qt::LeftButton);
    QCOMPARE(model.index(rowOf(model, u"orders-dlt"_s), AlertModel::State).data().toString(), u"active, acknowledged"_s);

    view.table()->selectRow(rowOf(model, u"dlq-warehouse-sink"_s));
    QVERIFY(!view.snoozeButton()->isEnabled()); // no reason yet
    view.snoozeReason()->setText(u"   "_s);
    QVERIFY(!view.snoozeButton()->isEnabled());
    view.snoozeDuration()->setCurrentIndex(view.snoozeDuration()->findData(240));
    QTest::keyClicks(view.snoozeReason(), u"sink owner found: INC-7"_s);
    QVERIFY(view.snoozeButton()->isEnabled());
    QTest::mouseClick(view.snoozeButton(), Qt::LeftButton);
    QCOMPARE(snoozes.size(), 1);
    QCOMPARE(snoozes.first().at(1).toInt(), 240);
    QCOMPARE(snoozes.first().at(2).toString(), u"sink owner found: INC-7"_s);
    const int row = rowOf(model, u"dlq-warehouse-sink"_s);
    QVERIFY(model.index(row, AlertModel::State).data().toString().startsWith(u"snoozed until"_s));
    QVERIFY(model.index(row, AlertModel::Message).data(Qt::ToolTipRole).toString().contains(u"INC-7"_s));
    QVERIFY(view.snoozeReason()->text().isEmpty());
    // A cleared alert cannot be snoozed.
    view.table()->selectRow(rowOf(model, u"orders-inbox"_s));
    view.snoozeReason()->setText(u"why"_s);
    QVERIFY(!view.snoozeButton()->isEnabled());
}

void TestAlertView::evidenceOpensTheView()
{
    AlertEngine engine;
    fill(engine);
    AlertModel model;
    model.setAlerts(engine.alerts());
    AlertView view(&model);
    view.resize(1200, 600);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QSignalSpy opened(&view, &AlertView::evidenceRequested);
    const int row = rowOf(model, u"orders-dlt"_s);
    view.table()->selectRow(row);
    const QRect cell = view.table()->visualRect(model.index(row, AlertModel::Subject));
    QTest::mouseClick(view.table()->viewport(), Qt::LeftButton, {}, cell.center()); // a double-click follows a press
    QTest::mouseDClick(view.table()->viewport(), Qt::LeftButton, {}, cell.center());
    QCOMPARE(opened.size(), 1);
    QCOMPARE(opened.first().at(0).toString(), u"dlq"_s);
    QCOMPARE(opened.first().at(1).toString(), u"orders-dlt"_s);
    view.table()->selectRow(rowOf(model, u"orders-inbox"_s));
    QTest::mouseClick(view.evidenceButton(), Qt::LeftButton);
    QCOMPARE(opened.size(), 2);
    QCOMPARE(opened.last().at(0).toString(), u"inbox"_s);
}

void TestAlertView::thresholdsNameTheirSource()
{
    AlertEngine engine;
    AlertRuleSet rules(engine);
    DeliveryPolicy policy;
    ConsumerPolicy consumer;
    consumer.name = u"order-projection"_s;
    consumer.lagSloMaxLagSeconds = 45;
    consumer.dlqTopic = u"orders-dlt"_s;
    consumer.dlqOwner = u"team-orders"_s;
    policy.consumers << consumer;
    rules.setPolicy(AlertPolicy::from(policy));
    AlertModel model;
    AlertView view(&model);
    view.setThresholds(rules.thresholds({u"order-projection"_s, u"unlisted"_s}, {u"orders-dlt"_s}));
    QTreeWidget *list = view.thresholdList();
    QStringList rows;
    for (int i = 0; i < list->topLevelItemCount(); ++i) {
        const QTreeWidgetItem *item = list->topLevelItem(i);
        rows << item->text(0) + u'|' + item->text(1) + u'|' + item->text(3);
        if (item->text(0) == AlertRules::lagSlo && item->text(1) == u"order-projection"_s)
            QVERIFY(item->text(2).contains(u"450 s"_s));
    }
    QVERIFY2(rows.contains(u"lag-slo|order-projection|lagSlo.maxLagSeconds"_s), qPrintable(rows.join(u'\n')));
    QVERIFY2(rows.contains(u"lag-slo|unlisted|default"_s), qPrintable(rows.join(u'\n')));
    QVERIFY2(rows.contains(u"dlq-arrivals|orders-dlt|default"_s), qPrintable(rows.join(u'\n')));
}

QTEST_MAIN(TestAlertView)
#include "tst_alertview.moc"
