#include "models/dlqbrowsermodel.h"
#include "models/failuregroupmodel.h"
#include "services/demo/mockkafkacluster.h"
#include "services/dlq/dlqheadercodec.h"
#include "services/dlq/dlqscanner.h"
#include "services/kafka/kafkaproducer.h"
#include "views/dlqbrowserview.h"
#include "views/dlqinspectorview.h"

#include <QApplication>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTableView>
#include <QTableWidget>
#include <QTest>

using namespace Qt::StringLiterals;

// The triage desk end to end (offscreen): scan, groups, filter by group, inspect, live tail.
class TestDlqBrowserView final : public QObject {
    Q_OBJECT
    std::unique_ptr<MockKafkaCluster> m_cluster;
    std::unique_ptr<KafkaProducer> m_producer;
    const QString m_topic = u"orders-dlt"_s;

    bool produce(int i)
    {
        DlqMetadata m;
        m.originalTopic = u"orders"_s;
        m.originalPartition = i % 3;
        m.originalOffset = i;
        m.consumerGroup = u"order-projection"_s;
        m.exceptionClass = i % 4 == 0 ? u"com.acme.PaymentDeclined"_s : u"com.acme.OrderNotFound"_s;
        m.reason = (i % 4 == 0 ? u"Card %1 declined"_s : u"Order %1 not found"_s).arg(1000 + i);
        m.stackTrace = u"at com.acme.Projection.apply(Projection.java:42)"_s;
        RecordHeaders h = encodeDlqHeaders(DlqDialect::SpringDlt, m);
        h.append({"idempotency-key", "order-" + QByteArray::number(i), false});
        return m_producer->produce({m_topic, i % 2, "ORD-" + QByteArray::number(i), false,
                                    "{\"order\":" + QByteArray::number(i) + "}", h, 0});
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_cluster = std::make_unique<MockKafkaCluster>(1);
        QVERIFY(m_cluster->isValid());
        QVERIFY(m_cluster->createTopic(m_topic, 2));
        QString error;
        m_producer = KafkaProducer::create(m_cluster->clientProperties(), &error);
        QVERIFY2(m_producer, qPrintable(error));
        for (int i = 0; i < 40; ++i)
            QVERIFY(produce(i));
        QVERIFY(m_producer->flush(20000));
    }

    void scanGroupFilterAndInspect()
    {
        DlqScanner scanner;
        DlqBrowserView view(&scanner);
        view.resize(1400, 900);
        view.show();
        view.setBootstrap(m_cluster->bootstrapServers());
        view.setTopics({u"orders"_s, m_topic, u"payments"_s});
        view.setTopic(m_topic);
        view.startScan();
        DlqBrowserModel *model = view.model();
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 40, 20000);
        QTRY_VERIFY_WITH_TIMEOUT(!scanner.isRunning(), 20000);
        QCOMPARE(view.groupModel()->rowCount(), 2);

        // Selecting a group filters the table to it (the groups are sorted by count: 30, then 10).
        QTableView *groups = view.groupTable();
        groups->selectRow(1);
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 10, 10000);
        for (int row = 0; row < model->rowCount(); ++row) {
            // The column shows the simple class name; its tooltip names the class in full.
            QCOMPARE(model->index(row, int(DlqColumn::Exception)).data().toString(), u"PaymentDeclined"_s);
            QVERIFY(model->index(row, int(DlqColumn::Exception)).data(Qt::ToolTipRole).toString()
                        .contains(u"com.acme.PaymentDeclined"_s));
        }
        groups->clearSelection();
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 40, 10000);

        // The current row goes to the inspector, which fetches the whole record.
        QSignalSpy loaded(view.inspector(), &DlqInspectorView::recordLoaded);
        view.table()->setCurrentIndex(model->index(5, 0));
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 20000);
        const DlqIndexEntry &e = model->entry(5);
        QCOMPARE(view.inspector()->record().offset, e.offset);
        QVERIFY(view.inspector()->summaryText().contains(u"order-projection"_s));
        QVERIFY(view.inspector()->stackTraceText().contains(u"Projection.java:42"_s));
        QVERIFY(
            view.inspector()->kcatCommand().contains(u" -o "_s + QString::number(e.offset) + u" -c 1 -J"_s));

        // Sorting keeps the inspected record selected.
        const quint32 inspected = model->entryIndex(5);
        model->sort(int(DlqColumn::Reason), Qt::DescendingOrder);
        QTRY_VERIFY_WITH_TIMEOUT(!model->isFiltering(), 10000);
        QCOMPARE(model->entryIndex(view.table()->currentIndex().row()), inspected);

        const QByteArray state = view.saveState();
        DlqBrowserView other(&scanner);
        other.restoreState(state);
        QCOMPARE(other.saveState(), state);
    }

    // The Headers tab reads a dialect's numbers as the Summary does (Spring writes binary big-endian ints and
    // longs), and a replayed record that failed again shows Berth's replay headers.
    void headersTabDecodesNumbersAndShowsReplay()
    {
        const QString topic = u"replayed-dlt"_s;
        QVERIFY(m_cluster->createTopic(topic, 1));
        DlqMetadata m;
        m.originalTopic = u"orders"_s;
        m.originalPartition = 5;
        m.originalOffset = 2;
        m.originalTimestampMs = 1764190800123; // 2025-11-26T21:00:00.123Z
        m.consumerGroup = u"order-projection"_s;
        m.exceptionClass = u"com.acme.OrderNotFound"_s;
        m.reason = u"Order 5 not found"_s;
        RecordHeaders h = encodeDlqHeaders(DlqDialect::SpringDlt, m);
        h.append({"berth-replay-id", "3-2", false});
        h.append({"berth-request-id", "3", false});
        h.append({"berth-replayed-from", "orders-dlt/0/17", false});
        h.append({"berth-replay-count", "1", false});
        QVERIFY(m_producer->produce({topic, 0, "ORD-5", false, "{\"order\":5}", h, 0}));
        QVERIFY(m_producer->flush(20000));

        DlqScanner scanner;
        DlqBrowserView view(&scanner);
        view.show();
        view.setBootstrap(m_cluster->bootstrapServers());
        view.setTopics({topic});
        view.setTopic(topic);
        view.startScan();
        QTRY_COMPARE_WITH_TIMEOUT(view.model()->rowCount(), 1, 20000);
        QSignalSpy loaded(view.inspector(), &DlqInspectorView::recordLoaded);
        view.table()->setCurrentIndex(view.model()->index(0, 0));
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 20000);

        QHash<QString, QString> shown;
        const QTableWidget *headers = view.inspector()->headerTable();
        for (int row = 0; row < headers->rowCount(); ++row)
            shown.insert(headers->item(row, 0)->text(), headers->item(row, 1)->text());
        QCOMPARE(shown.value(u"kafka_dlt-original-partition"_s), u"5"_s);
        QCOMPARE(shown.value(u"kafka_dlt-original-offset"_s), u"2"_s);
        QVERIFY2(shown.value(u"kafka_dlt-original-timestamp"_s).contains(u"2025-11-26T21:00:00.123Z"_s),
                 qPrintable(shown.value(u"kafka_dlt-original-timestamp"_s)));
        QVERIFY(shown.value(u"kafka_dlt-original-timestamp"_s).contains(u"1764190800123"_s));
        QCOMPARE(shown.value(u"berth-replay-id"_s), u"3-2"_s);
        QCOMPARE(shown.value(u"berth-replayed-from"_s), u"orders-dlt/0/17"_s);
        const QString summary = view.inspector()->summaryText();
        QVERIFY2(summary.contains(u"request 3, item 2, from orders-dlt/0/17; replay number 1"_s),
                 qPrintable(summary));
        QVERIFY(summary.contains(u"orders [5] @ 2"_s));
    }

    // ARCHITECTURE.md, Contracts: field filters: the payloads are read back from the brokers off the UI
    // thread, the table shows the entries that pass (with the text filter too), a masked field is refused.
    void fieldFilterReadsPayloadsBack()
    {
        DlqScanner scanner;
        DlqBrowserView view(&scanner);
        view.resize(1400, 900);
        view.show();
        view.setBootstrap(m_cluster->bootstrapServers());
        view.setTopics({m_topic});
        view.setTopic(m_topic);
        view.startScan();
        DlqBrowserModel *model = view.model();
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 40, 20000);
        QTRY_VERIFY_WITH_TIMEOUT(!scanner.isRunning(), 20000);

        QSignalSpy finished(&scanner, &DlqScanner::fieldFilterFinished);
        view.fieldFilterEdit()->setFocus();
        QTest::keyClicks(view.fieldFilterEdit(), u"$.order >= 30 or ($.order < 4 and $.order != 1)"_s);
        QTest::keyClick(view.fieldFilterEdit(), Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 20000);
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 13, 10000); // 30..39, 0, 2, 3
        QVERIFY2(view.fieldFilterState().contains(u"13 of 40"_s), qPrintable(view.fieldFilterState()));
        QList<int> orders;
        for (int row = 0; row < model->rowCount(); ++row)
            orders << model->index(row, int(DlqColumn::Key)).data().toString().mid(4).toInt();
        std::sort(orders.begin(), orders.end());
        QCOMPARE(orders, (QList<int>{0, 2, 3, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39}));

        // The field filter and the text filter together.
        view.focusFilter();
        QTest::keyClicks(QApplication::focusWidget(), u"ORD-3"_s);
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 11, 10000); // ORD-3, ORD-30..39

        // A masked field cannot be searched by value: said, and the rows stay as they were.
        MaskRule rule;
        rule.topic = u"orders"_s;
        rule.fields = {u"$.order"_s};
        scanner.setMasking({rule});
        view.fieldFilterEdit()->setText(u"$.order == 3"_s);
        view.runFieldFilter();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 10000);
        QVERIFY2(view.fieldFilterState().contains(u"cannot be searched by value"_s), qPrintable(view.fieldFilterState()));
        QCOMPARE(model->rowCount(), 11);

        // The text filter cleared: the field filter's rows; that cleared too: every row.
        view.focusFilter();
        qobject_cast<QLineEdit *>(QApplication::focusWidget())->clear();
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 13, 10000);
        view.fieldFilterEdit()->clear();
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 40, 10000);
        QVERIFY(view.fieldFilterState().isEmpty());
    }

    void liveTailShowsNewDeadLetters()
    {
        DlqScanner scanner;
        DlqBrowserView view(&scanner);
        view.setBootstrap(m_cluster->bootstrapServers());
        view.setTopic(m_topic);
        view.startScan(true);
        QTRY_VERIFY_WITH_TIMEOUT(view.model()->rowCount() >= 40, 20000);
        const int before = view.model()->rowCount();
        QVERIFY(produce(1000));
        QVERIFY(m_producer->flush(20000));
        QTRY_COMPARE_WITH_TIMEOUT(view.model()->rowCount(), before + 1, 20000);
        QVERIFY(scanner.isRunning());
        view.cancelScan();
        QVERIFY(!scanner.isRunning());
    }

    void dlqTopicsComeFirst_data()
    {
        QTest::addColumn<QString>("topic");
        QTest::addColumn<bool>("dlq");
        QTest::newRow("spring dlt") << u"orders-dlt"_s << true;
        QTest::newRow("spring DLT suffix") << u"orders.DLT"_s << true;
        QTest::newRow("berth") << u"payments-dlq"_s << true;
        QTest::newRow("scs") << u"error.notifications.email-sender"_s << true;
        QTest::newRow("connect") << u"dlq-warehouse-sink"_s << true;
        QTest::newRow("plain") << u"orders"_s << false;
    }

    void dlqTopicsComeFirst()
    {
        QFETCH(QString, topic);
        QFETCH(bool, dlq);
        QCOMPARE(DlqBrowserView::looksLikeDlq(topic), dlq);
    }
};

QTEST_MAIN(TestDlqBrowserView)
#include "tst_dlqbrowserview.moc"
