// The DLQ browser's inbox cross-reference against a real PostgreSQL holding both seed inbox schemas:
// keys are looked up in batches off the UI thread, the answers land in the "Inbox status" column, and
// hostile keys stay values.
#include "models/dlqbrowsermodel.h"
#include "models/dlqexport.h"
#include "services/demo/temppostgres.h"
#include "services/dlq/dlqentrybuilder.h"
#include "services/dlq/dlqheadercodec.h"
#include "services/dlq/dlqlookupkeys.h"
#include "services/inbox/inboxkeylookup.h"
#include "services/inbox/pgsession.h"
#include "services/payload/schemacatalog.h"
#include "support/testsupport.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {
const QString kInjection = u"x'); DROP TABLE processed_events; --"_s;
}

class TestInboxKeyLookup final : public QObject {
    Q_OBJECT
    std::unique_ptr<TempPostgres> m_pg;
    PgSession m_db;

    // The two seed tables as the mappings of the consumers whose rows they hold.
    QList<InboxMapping> mappings() const
    {
        InboxMapping payments = InboxMapping::seed001ProcessedEvents();
        payments.name = payments.consumerValue = u"payment-capture"_s;
        InboxMapping orders = InboxMapping::seed000ProcessedMessage();
        orders.name = orders.consumerValue = u"order-projection"_s;
        return {payments, orders};
    }

    // Dead letters of one scan, one per key; an empty key is a record without an idempotency key.
    // consumers[i]: the record's consumer header (empty or absent: none).
    static void feed(DlqBrowserModel &model, const std::shared_ptr<StringPool> &pool, const QStringList &keys,
                     quint64 scanId = 1, const QStringList &consumers = {})
    {
        DlqScanPlan plan;
        plan.scanId = scanId;
        plan.topic = u"orders-dlt"_s;
        plan.strings = pool;
        model.beginScan(plan);
        DlqScanBatch batch;
        batch.scanId = scanId;
        for (qsizetype i = 0; i < keys.size(); ++i) {
            DlqIndexEntry e;
            e.offset = i;
            e.idempotencyKeyId = keys[i].isEmpty() ? 0 : pool->intern(QStringView(keys[i]));
            const QString consumer =
                consumers.value(i, consumers.isEmpty() ? u"payment-capture"_s : QString());
            if (!consumer.isEmpty())
                e.routeId = pool->internPair(pool->intern(u"orders"), pool->intern(QStringView(consumer)));
            batch.entries.append(e);
            batch.groupIds.append(0);
        }
        model.appendBatch(batch);
    }

    static QString statusOf(const DlqBrowserModel &model, int row)
    {
        return model.index(row, int(DlqColumn::InboxStatus)).data().toString();
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_pg = std::make_unique<TempPostgres>();
        QString error;
        QVERIFY2(m_pg->start(&error), qPrintable(error));
        QVERIFY2(m_db.connect(m_pg->conninfo(), &error), qPrintable(error));
        QVERIFY2(TestSupport::execSourceScript(m_db, u"resources/sql/demo_schema.sql"_s, &error),
                 qPrintable(error));
        // seed 001: one completed, one failed; seed 000: one parked, and the completed key again, failed,
        // under another consumer (COMPLETED must win).
        QVERIFY2(m_db.execScript(
                     u"INSERT INTO processed_events (idempotency_key, consumer_group, topic, status) VALUES "
                     u"('pay-1', 'payment-capture', 'payments', 'COMPLETED'), "
                     u"('pay-2', 'payment-capture', 'payments', 'FAILED');"
                     u"INSERT INTO processed_message (consumer_name, message_id, status) VALUES "
                     u"('order-projection', 'ord-7', 'PARKED'), ('order-projection', 'pay-1', 'FAILED_RETRYABLE');"_s,
                     &error),
                 qPrintable(error));
    }

    void lookupAnswersFromBothSeedTables()
    {
        QString error;
        const InboxKeyStates found = InboxKeyLookup::lookup(
            m_db, mappings(), {u"pay-1"_s, u"pay-2"_s, u"ord-7"_s, u"nobody"_s, kInjection}, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(found.size(), 3);
        QCOMPARE(found.value(u"pay-1"_s).state, InboxState::Completed);
        QCOMPARE(found.value(u"pay-1"_s).consumer, u"payment-capture"_s);
        QCOMPARE(found.value(u"pay-2"_s).state, InboxState::FailedRetryable);
        QCOMPARE(found.value(u"pay-2"_s).status, u"FAILED"_s);
        QCOMPARE(found.value(u"ord-7"_s).state, InboxState::Parked);
        QCOMPARE(found.value(u"ord-7"_s).table, u"processed_message"_s);
        // The hostile key was a value: the table is still there.
        const PgResult still = m_db.exec(u"SELECT count(*) FROM processed_events"_s);
        QVERIFY2(still.ok, qPrintable(still.error));
        QCOMPARE(still.rows.at(0).at(0).toInt(), 2);
    }

    void missingTableIsSkippedNotAnError()
    {
        InboxMapping elsewhere = InboxMapping::seed001ProcessedEvents();
        elsewhere.table = u"no_such_inbox"_s;
        QString error;
        const InboxKeyStates found = InboxKeyLookup::lookup(m_db, {elsewhere}, {u"pay-1"_s}, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(found.isEmpty());
    }

    void browserColumnFillsInBatches()
    {
        InboxKeyLookup lookup;
        lookup.setMappingSet(InboxMappingSet::resolve({}, mappings(), m_pg->conninfo()));
        DlqBrowserModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setInboxLookup(&lookup);
        QSignalSpy answers(&lookup, &InboxKeyLookup::resolved);

        // More distinct keys than one batch, and the poison key repeated: looked up once.
        auto pool = std::make_shared<StringPool>();
        QStringList keys = {u"pay-1"_s, u"pay-2"_s, u"ord-7"_s, QString(), kInjection, u"pay-1"_s};
        QStringList consumers = {u"payment-capture"_s, u"payment-capture"_s, u"order-projection"_s,
                                 u"payment-capture"_s, u"payment-capture"_s, u"payment-capture"_s};
        for (int i = 0; i < InboxKeyLookup::BatchSize + 20; ++i) {
            keys << u"unknown-"_s + QString::number(i);
            consumers << u"payment-capture"_s;
        }
        feed(model, pool, keys, 1, consumers);
        QTRY_COMPARE_WITH_TIMEOUT(statusOf(model, 0), u"completed (payment-capture)"_s, 10000);
        QTRY_VERIFY_WITH_TIMEOUT(lookup.isIdle() && statusOf(model, int(keys.size()) - 1) == u"not in inbox"_s, 10000);
        QCOMPARE(answers.size(),
                 3); // payment-capture: 523 distinct keys in batches of 500; order-projection: 1
        QCOMPARE(statusOf(model, 1), u"failed retryable (payment-capture)"_s);
        QCOMPARE(statusOf(model, 2), u"parked (order-projection)"_s);
        QCOMPARE(statusOf(model, 3), QString()); // no key
        QCOMPARE(statusOf(model, 4), u"not in inbox"_s);
        QCOMPARE(statusOf(model, 5), statusOf(model, 0));
        QVERIFY(model.isInboxCompleted(0));
        QVERIFY(!model.isInboxCompleted(1));
        QVERIFY(model.index(0, int(DlqColumn::InboxStatus)).data(Qt::ToolTipRole).toString().contains(u"no-op"_s));
    }

    // Two mappings hold the same key in different states (pay-1: COMPLETED for payment-capture, failed for
    // order-projection): each dead letter is answered by its own consumer's inbox only: its consumer header,
    // else the policy consumer whose dlq.topic was scanned, else nobody.
    void eachDeadLetterAsksOnlyItsConsumersInbox()
    {
        QCOMPARE(
            m_db.exec(u"SELECT status FROM processed_message WHERE message_id = 'pay-1' AND consumer_name = "
                      u"'order-projection'"_s)
                .rows.value(0)
                .value(0)
                .toString(),
            u"FAILED_RETRYABLE"_s);
        QCOMPARE(m_db.exec(u"SELECT status FROM processed_events WHERE idempotency_key = 'pay-1' AND "
                           u"consumer_group = "
                           u"'payment-capture'"_s)
                     .rows.value(0)
                     .value(0)
                     .toString(),
                 u"COMPLETED"_s);
        InboxKeyLookup lookup;
        lookup.setMappingSet(InboxMappingSet::resolve({}, mappings(), m_pg->conninfo()));
        DlqBrowserModel model;
        model.setInboxLookup(&lookup);
        auto pool = std::make_shared<StringPool>();
        feed(model, pool, {u"pay-1"_s, u"pay-1"_s, u"pay-1"_s, u"pay-1"_s}, 1,
             {u"order-projection"_s, u"payment-capture"_s, QString(), u"nobody-mapped"_s});
        QTRY_VERIFY_WITH_TIMEOUT(
            lookup.isIdle() && statusOf(model, 0) == u"failed retryable (order-projection)"_s, 10000);
        QVERIFY(!model.isInboxCompleted(0)); // the other consumer's COMPLETED row does not make it a no-op
        QCOMPARE(statusOf(model, 1), u"completed (payment-capture)"_s);
        QVERIFY(model.isInboxCompleted(1));
        QCOMPARE(statusOf(model, 2), u"no consumer"_s); // no header, no policy: never "any consumer"
        QCOMPARE(statusOf(model, 3), u"no consumer"_s); // a consumer without a mapping
        QVERIFY(model.index(2, int(DlqColumn::InboxStatus))
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(u"DLQ topic"_s));

        // The policy says whose DLQ topic this is: the record without a header belongs to that consumer.
        DeliveryPolicy policy;
        ConsumerPolicy orders;
        orders.name = u"order-projection"_s;
        orders.dlqTopic = u"orders-dlt"_s;
        policy.consumers.append(orders);
        model.setDeliveryPolicy(policy);
        QTRY_VERIFY_WITH_TIMEOUT(
            lookup.isIdle() && statusOf(model, 2) == u"failed retryable (order-projection)"_s, 10000);
        QCOMPARE(statusOf(model, 1), u"completed (payment-capture)"_s); // the header still wins
        QCOMPARE(statusOf(model, 3), u"no consumer"_s);
    }

    // ARCHITECTURE.md, Masking: look-up keys: on a topic whose record key is masked, the scan's index holds
    // "(masked)" where the key and the idempotency key were; the inbox column still asks for the real keys
    // (kept aside by the scan) and shows the inbox's answer, while no cell, tooltip or export holds them.
    void maskedKeysAreLookedUpButNeverShown()
    {
        auto pool = std::make_shared<StringPool>();
        auto lookupKeys = std::make_shared<DlqLookupKeys>();
        MaskRule rule;
        rule.topic = u"payments"_s;
        rule.key = true;
        DlqEntryBuilder builder(*pool);
        builder.setMasking(u"payments-dlt"_s, {rule}, std::make_shared<SchemaCatalog>(), lookupKeys);
        DlqScanPlan plan;
        plan.scanId = 1;
        plan.topic = u"payments-dlt"_s;
        plan.strings = pool;
        plan.lookupKeys = lookupKeys;
        DlqScanBatch batch;
        batch.scanId = 1;
        // pay-1 is COMPLETED, pay-2 FAILED in payment-capture's inbox; the orders record is not masked.
        const QList<std::pair<QByteArray, QString>> records = {{"pay-1", u"payments"_s},
                                                               {"pay-2", u"payments"_s},
                                                               {"pay-1", u"payments"_s},
                                                               {"ord-7", u"orders"_s}};
        for (qsizetype i = 0; i < records.size(); ++i) {
            DlqMetadata m;
            m.originalTopic = records[i].second;
            m.originalPartition = 0;
            m.originalOffset = 100 + i;
            m.consumerGroup = records[i].second == u"orders"_s ? u"order-projection"_s : u"payment-capture"_s;
            m.reason = u"declined "_s + QString::fromUtf8(records[i].first);
            KafkaRecord r;
            r.topic = plan.topic;
            r.partition = 0;
            r.offset = i;
            r.key = records[i].first;
            r.keyIsNull = false;
            r.value = "{}";
            r.headers = encodeDlqHeaders(DlqDialect::BerthCanonical, m);
            r.headers.append({"idempotency-key", records[i].first, false}); // the message id is the key
            batch.entries.append(builder.build(r));
            batch.groupIds.append(0);
        }
        InboxKeyLookup lookup;
        lookup.setMappingSet(InboxMappingSet::resolve({}, mappings(), m_pg->conninfo()));
        DlqBrowserModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setInboxLookup(&lookup);
        model.beginScan(plan);
        model.appendBatch(batch);
        QTRY_COMPARE_WITH_TIMEOUT(statusOf(model, 0), u"completed (payment-capture)"_s, 10000);
        QTRY_VERIFY_WITH_TIMEOUT(lookup.isIdle(), 10000);
        QCOMPARE(statusOf(model, 1), u"failed retryable (payment-capture)"_s);
        QCOMPARE(statusOf(model, 2), u"completed (payment-capture)"_s);
        QVERIFY(model.isInboxCompleted(0));
        QVERIFY(!model.isInboxCompleted(1));
        QCOMPARE(statusOf(model, 3), u"parked (order-projection)"_s);

        // Nowhere to be seen: every cell and tooltip, and both export formats.
        QStringList shown;
        for (int row = 0; row < model.rowCount(); ++row) {
            for (int column = 0; column < model.columnCount(); ++column) {
                for (const int role : {int(Qt::DisplayRole), int(Qt::ToolTipRole)})
                    shown << model.index(row, column).data(role).toString();
            }
        }
        QTemporaryDir dir;
        for (const QString &name : {u"rows.csv"_s, u"rows.jsonl"_s}) {
            const QString path = dir.filePath(name);
            const DlqExport::Outcome written =
                DlqExport::write(path, DlqExport::formatForPath(path), model.exportSource());
            QVERIFY2(written.error.isEmpty(), qPrintable(written.error));
            QCOMPARE(written.rows, 4);
            QFile file(path);
            QVERIFY(file.open(QIODevice::ReadOnly));
            shown << QString::fromUtf8(file.readAll());
        }
        const QString all = shown.join(u'\n');
        QVERIFY(all.contains(u"(masked)"_s));
        QVERIFY(all.contains(u"ord-7"_s)); // what no rule masks stays
        for (const QString &secret : {u"pay-1"_s, u"pay-2"_s})
            QVERIFY2(!all.contains(secret), qPrintable(all.mid(qMax(0, int(all.indexOf(secret)) - 80), 160)));
    }

    // A key the column's type cannot take is quoted by the server's error; the error (which the desk
    // logs and a verification records in the audit chain) never says the keys looked up.
    void failedLookupNeverSaysTheKeys()
    {
        QVERIFY(m_db.exec(u"CREATE TABLE uuid_inbox (LIKE processed_message INCLUDING DEFAULTS)"_s).ok);
        QVERIFY(m_db.exec(u"ALTER TABLE uuid_inbox ALTER message_id TYPE uuid USING NULL"_s).ok);
        const PgResult row = m_db.exec(u"INSERT INTO uuid_inbox (consumer_name, message_id, status) "
                                       u"VALUES ('order-projection', '8a5e1c1e-0c4b-4a47-9d86-1d2f7f0b6a11', "
                                       u"'PARKED')"_s);
        QVERIFY2(row.ok, qPrintable(row.error));
        InboxMapping uuids = InboxMapping::seed000ProcessedMessage();
        uuids.table = u"uuid_inbox"_s;
        QString error;
        InboxKeyLookup::lookup(m_db, {uuids}, {u"card-4111-secret"_s}, &error);
        QVERIFY2(error.contains(u"uuid"_s), qPrintable(error));
        QVERIFY2(!error.contains(u"card-4111-secret"_s), qPrintable(error));
        QVERIFY(m_db.exec(u"DROP TABLE uuid_inbox"_s).ok);
    }

    void staleAnswersOfAnEarlierScanAreDropped()
    {
        InboxKeyLookup lookup;
        lookup.setMappingSet(InboxMappingSet::resolve({}, mappings(), m_pg->conninfo()));
        DlqBrowserModel model;
        model.setInboxLookup(&lookup);
        auto pool = std::make_shared<StringPool>();
        feed(model, pool, {u"pay-1"_s}, 1);
        // A new scan at once: whatever the first look-up answers belongs to scan 1.
        auto pool2 = std::make_shared<StringPool>();
        feed(model, pool2, {u"pay-2"_s, u"nobody"_s}, 2);
        QTRY_COMPARE_WITH_TIMEOUT(statusOf(model, 0), u"failed retryable (payment-capture)"_s, 10000);
        QTRY_COMPARE_WITH_TIMEOUT(statusOf(model, 1), u"not in inbox"_s, 10000);
        QCOMPARE(model.rowCount(), 2);
    }

    void databaseAwayIsReportedPerRow()
    {
        InboxKeyLookup lookup;
        lookup.setMappingSet(InboxMappingSet::resolve(
            {}, mappings(), u"host=/nonexistent-berth-socket-dir dbname=postgres connect_timeout=2"_s));
        DlqBrowserModel model;
        model.setInboxLookup(&lookup);
        auto pool = std::make_shared<StringPool>();
        feed(model, pool, {u"pay-1"_s});
        QTRY_COMPARE_WITH_TIMEOUT(statusOf(model, 0), u"look-up failed"_s, 10000);
        QVERIFY(!model.index(0, int(DlqColumn::InboxStatus)).data(Qt::ToolTipRole).toString().isEmpty());
    }

    void withoutDatabaseTheColumnStaysEmpty()
    {
        InboxKeyLookup lookup; // no conninfo
        DlqBrowserModel model;
        model.setInboxLookup(&lookup);
        auto pool = std::make_shared<StringPool>();
        feed(model, pool, {u"pay-1"_s});
        QTest::qWait(400);
        QCOMPARE(statusOf(model, 0), QString());
    }
};

QTEST_GUILESS_MAIN(TestInboxKeyLookup)
#include "tst_inboxkeylookup.moc"
