// Inboxes shaped the way teams actually build them, written here (not the seed presets), in two databases
// of one throwaway server: a payments inbox without a consumer column and with lower-case words; a
// notifications inbox in a non-public schema whose name has a space and a non-ASCII letter, with a
// composite key and epoch-millisecond timestamps; a view over two tables with timestamps without zone.
// Board counts, stuck rows, key look-ups, no-op predictions and skips are checked against SQL written
// independently below; bad input (no privilege, a wrong column type, a dropped table, a database that is
// not there, a query over its timeout) gets a message that says so.
#include "services/demo/temppostgres.h"
#include "services/inbox/inboxboardjson.h"
#include "services/inbox/inboxboardquery.h"
#include "services/inbox/inboxdiscovery.h"
#include "services/inbox/inboxtableinfo.h"
#include "services/inbox/inboxkeylookup.h"
#include "services/inbox/inboxmappingset.h"
#include "services/inbox/inboxrowsquery.h"
#include "services/inbox/inboxwatch.h"
#include "services/inbox/pgsession.h"
#include "services/remediation/dryrun.h"
#include "services/remediation/inboxremediation.h"

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QSignalSpy>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {
const char16_t kPaymentsSchema[] = uR"(
CREATE TABLE payment_inbox (
    payment_intent_id text PRIMARY KEY,
    status text,
    modified timestamptz NOT NULL,
    created timestamptz NOT NULL DEFAULT now(),
    tries int NOT NULL DEFAULT 1,
    last_failure text
);
CREATE INDEX ON payment_inbox (status, modified);
INSERT INTO payment_inbox (payment_intent_id, status, modified, tries, last_failure) VALUES
    ('pi-1', 'in_flight', now() - interval '20 minutes', 1, NULL),
    ('pi-2', 'in_flight', now() - interval '11 minutes', 2, NULL),
    ('pi-3', 'in_flight', now(), 1, NULL),
    ('pi-4', 'captured', now(), 1, NULL),
    ('pi-5', 'captured', now(), 3, 'card timeout'),
    ('pi-6', 'captured', now(), 1, NULL),
    ('pi-7', 'declined', now(), 1, NULL),
    ('pi-8', 'failed', now(), 2, 'gateway 502'),
    ('pi-9', 'failed', now(), 4, 'gateway 502'),
    ('pi-10', 'dead', now(), 6, 'card revoked'),
    ('pi-11', 'parked', now(), 3, 'manual review'),
    ('pi-12', 'parked', now(), 3, 'manual review'),
    ('pi-13', NULL, now(), 1, NULL),
    ('pi-14', 'weird', now(), 1, NULL);
CREATE SCHEMA legacy;
CREATE TABLE legacy.inbox_2024 (msg_id text, status text, updated_at timestamp without time zone);
CREATE TABLE legacy.inbox_2025 (msg_id text, status text, updated_at timestamp without time zone);
INSERT INTO legacy.inbox_2024 VALUES ('L-1', 'DONE', localtimestamp), ('L-2', 'PARK', localtimestamp),
    ('L-3', 'OPEN', localtimestamp - interval '2 hours');
INSERT INTO legacy.inbox_2025 VALUES ('L-4', 'DONE', localtimestamp), ('L-5', 'OPEN', localtimestamp),
    ('L-6', 'DONE', localtimestamp);
CREATE VIEW legacy.inbox_all AS SELECT * FROM legacy.inbox_2024 UNION ALL SELECT * FROM legacy.inbox_2025;
CREATE VIEW legacy.slow_inbox AS SELECT msg_id, status, updated_at FROM legacy.inbox_all, pg_sleep(3);
CREATE ROLE viewer LOGIN;
)";

const char16_t kNotifySchema[] = uR"(
CREATE SCHEMA "Ops é";
CREATE TABLE "Ops é"."notif ""inbox""" (
    grp text NOT NULL,
    event_key text NOT NULL,
    state text NOT NULL,
    updated_ms bigint NOT NULL,
    first_ms bigint NOT NULL,
    PRIMARY KEY (grp, event_key)
);
CREATE INDEX ON "Ops é"."notif ""inbox""" (grp, state, updated_ms);
INSERT INTO "Ops é"."notif ""inbox""" VALUES
    ('email-sender', 'n-1', 'pending', (extract(epoch FROM now() - interval '1 hour') * 1000)::bigint, 0),
    ('email-sender', 'n-2', 'pending', (extract(epoch FROM now()) * 1000)::bigint, 0),
    ('email-sender', 'n-3', 'sent', (extract(epoch FROM now()) * 1000)::bigint, 0),
    ('email-sender', 'n-4', 'sent', (extract(epoch FROM now()) * 1000)::bigint, 0),
    ('email-sender', 'n-5', 'error', (extract(epoch FROM now()) * 1000)::bigint, 0),
    ('email-sender', 'pi-4', 'error', (extract(epoch FROM now()) * 1000)::bigint, 0),
    ('sms-sender', 'n-1', 'sent', (extract(epoch FROM now()) * 1000)::bigint, 0),
    ('sms-sender', 'n-9', 'pending', (extract(epoch FROM now() - interval '1 hour') * 1000)::bigint, 0);
CREATE TABLE notify_outbox (id bigserial PRIMARY KEY, st text NOT NULL, created_ms bigint NOT NULL);
CREATE INDEX ON notify_outbox (created_ms) WHERE st = 'todo';
INSERT INTO notify_outbox (st, created_ms) VALUES
    ('todo', (extract(epoch FROM now() - interval '90 seconds') * 1000)::bigint),
    ('todo', (extract(epoch FROM now()) * 1000)::bigint), ('done', 0);
)";

// Independent answers: the states spelled out in SQL, not taken from a mapping. Indexes follow InboxState.
const char16_t kPaymentsCounts[] =
    u"SELECT CASE status WHEN 'in_flight' THEN 0 WHEN 'captured' THEN 1 WHEN 'declined' THEN 1 "
    u"WHEN 'failed' THEN 2 WHEN 'dead' THEN 3 WHEN 'parked' THEN 4 WHEN 'skipped' THEN 5 ELSE 6 END, count(*) "
    u"FROM payment_inbox GROUP BY 1";
const char16_t kNotifyCounts[] =
    u"SELECT CASE state WHEN 'pending' THEN 0 WHEN 'sent' THEN 1 WHEN 'error' THEN 2 WHEN 'dropped' THEN 5 "
    u"ELSE 6 END, count(*) FROM \"Ops é\".\"notif \"\"inbox\"\"\" WHERE grp = 'email-sender' GROUP BY 1";
const char16_t kLedgerCounts[] =
    u"SELECT CASE status WHEN 'OPEN' THEN 0 WHEN 'DONE' THEN 1 WHEN 'PARK' THEN 4 ELSE 6 END, count(*) "
    u"FROM (SELECT status FROM legacy.inbox_2024 UNION ALL SELECT status FROM legacy.inbox_2025) AS u GROUP BY 1";
const char16_t kPaymentsStuck[] =
    u"SELECT count(*) FROM payment_inbox WHERE status = 'in_flight' AND modified < now() - interval '300 seconds'";
const char16_t kNotifyStuck[] =
    u"SELECT count(*) FROM \"Ops é\".\"notif \"\"inbox\"\"\" WHERE grp = 'email-sender' AND state = 'pending' "
    u"AND to_timestamp(updated_ms / 1000.0) < now() - interval '300 seconds'";
const char16_t kLedgerStuck[] =
    u"SELECT count(*) FROM legacy.inbox_2024 WHERE status = 'OPEN' AND updated_at < localtimestamp - interval "
    u"'300 seconds'";

// The tables the large-table tests write (grp, id, st, upd; working, done, parked).
InboxMapping largeTableMapping(const QString &name, const QString &table)
{
    InboxMapping m;
    m.name = name;
    m.table = table;
    m.consumerColumn = u"grp"_s;
    m.messageIdColumn = u"id"_s;
    m.statusColumn = u"st"_s;
    m.updatedColumn = u"upd"_s;
    m.statuses = {{u"working"_s, InboxState::InProgress}, {u"done"_s, InboxState::Completed},
                  {u"parked"_s, InboxState::Parked}};
    return m;
}

InboxMapping payments()
{
    InboxMapping m;
    m.name = u"payment-capture"_s;
    m.database = u"payments-db"_s; // the profile's named database
    m.table = u"payment_inbox"_s;
    m.messageIdColumn = u"payment_intent_id"_s;
    m.statusColumn = u"status"_s;
    m.updatedColumn = u"modified"_s;
    m.firstSeenColumn = u"created"_s;
    m.attemptsColumn = u"tries"_s;
    m.errorColumn = u"last_failure"_s;
    m.consumerValue = u"payment-capture"_s;
    m.statuses = {{u"in_flight"_s, InboxState::InProgress}, {u"captured"_s, InboxState::Completed},
                  {u"declined"_s, InboxState::Completed},  {u"failed"_s, InboxState::FailedRetryable},
                  {u"dead"_s, InboxState::FailedTerminal}, {u"parked"_s, InboxState::Parked},
                  {u"skipped"_s, InboxState::Skipped}};
    m.skippedStatus = u"skipped"_s;
    return m;
}

InboxMapping notifications()
{
    InboxMapping m;
    m.name = u"email-sender"_s;
    m.consumerValue = u"email-sender"_s;
    m.schema = u"Ops \u00e9"_s;
    m.table = u"notif \"inbox\""_s;
    m.consumerColumn = u"grp"_s;
    m.messageIdColumn = u"event_key"_s;
    m.statusColumn = u"state"_s;
    m.updatedColumn = u"updated_ms"_s;
    m.firstSeenColumn = u"first_ms"_s;
    m.statuses = {{u"pending"_s, InboxState::InProgress}, {u"sent"_s, InboxState::Completed},
                  {u"error"_s, InboxState::FailedRetryable}, {u"dropped"_s, InboxState::Skipped}};
    m.skippedStatus = u"dropped"_s;
    m.outbox = {QString(), u"notify_outbox"_s, u"st"_s, u"created_ms"_s, u"todo"_s};
    return m;
}

InboxMapping ledger()
{
    InboxMapping m;
    m.name = u"ledger"_s;
    m.database.clear(); // the default database
    m.schema = u"legacy"_s;
    m.table = u"inbox_all"_s;
    m.messageIdColumn = u"msg_id"_s;
    m.statusColumn = u"status"_s;
    m.updatedColumn = u"updated_at"_s;
    m.statuses = {{u"OPEN"_s, InboxState::InProgress}, {u"DONE"_s, InboxState::Completed},
                  {u"PARK"_s, InboxState::Parked}, {u"SKIP"_s, InboxState::Skipped}};
    m.skippedStatus = u"SKIP"_s;
    return m;
}

QList<qint64> countsOf(const InboxStateCounts &counts)
{
    return QList<qint64>(counts.begin(), counts.end());
}
} // namespace

class TestInboxShapes final : public QObject {
    Q_OBJECT
    std::unique_ptr<TempPostgres> m_pg;
    PgSession m_payments; // the test's own connections: setup and the independent answers
    PgSession m_notify;

    QString paymentsConninfo() const { return m_pg->conninfo(u"postgres"_s, u"payments"_s); }
    QString notifyConninfo() const { return m_pg->conninfo(u"postgres"_s, u"notify"_s); }

    InboxMappingSet set(const QList<InboxMapping> &extra = {}) const
    {
        InboxMapping notify = notifications();
        notify.database = notifyConninfo(); // a conninfo in the mapping itself
        return InboxMappingSet::resolve({payments(), notify, ledger()}, extra, paymentsConninfo(),
                                        {{u"payments-db"_s, paymentsConninfo()}});
    }

    static QList<qint64> independent(PgSession &db, const QString &sql)
    {
        QList<qint64> out(InboxStateCount, 0);
        const PgResult r = db.exec(sql);
        if (!r.ok)
            qWarning().noquote() << r.error;
        for (const QVariantList &row : r.rows)
            out[row.value(0).toInt()] += row.value(1).toLongLong();
        return out;
    }
    static qint64 scalar(PgSession &db, const QString &sql, const QVariantList &params = {})
    {
        return db.exec(sql, params).rows.value(0).value(0).toLongLong();
    }

    // A small table the catalogue is told has `rows` rows (the large-table paths): created with its columns,
    // filled by `fill` (a SELECT), given `extra` (indexes, grants), analysed, its row estimate set.
    void createHugeTable(const QString &table, const QString &columns, const QString &fill, const QString &extra,
                         qint64 rows)
    {
        QString error;
        QVERIFY2(m_payments.execScript(u"DROP TABLE IF EXISTS %1; CREATE TABLE %1 (%2); INSERT INTO %1 %3; %4; "
                                       u"ANALYZE %1; UPDATE pg_class SET reltuples = %5 WHERE oid = '%1'::regclass"_s
                                           .arg(table, columns, fill, extra, QString::number(rows)),
                                       &error),
                 qPrintable(error));
    }

    // A large-table board (largeTableMapping's words) whose parked and working counts are what SQL says, per
    // consumer.
    void checkLargeTableCounts(const InboxBoard &b, const QString &table, qsizetype consumers)
    {
        QVERIFY2(b.ok(), qPrintable(b.error));
        QCOMPARE(b.consumers.size(), consumers);
        for (const InboxConsumerCounts &c : b.consumers) {
            for (const auto &[state, word] :
                 {std::pair{InboxState::Parked, u"parked"_s}, std::pair{InboxState::InProgress, u"working"_s}})
                QCOMPARE(c.count(state), scalar(m_payments, u"SELECT count(*) FROM %1 WHERE grp = $1 AND st = $2"_s.arg(table),
                                                {c.consumer, word}));
        }
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_pg = std::make_unique<TempPostgres>();
        QString error;
        QVERIFY2(m_pg->start(&error), qPrintable(error));
        QVERIFY(m_pg->exec(u"CREATE DATABASE payments"_s, &error));
        QVERIFY(m_pg->exec(u"CREATE DATABASE notify"_s, &error));
        QVERIFY2(m_payments.connect(paymentsConninfo(), &error), qPrintable(error));
        QVERIFY2(m_notify.connect(notifyConninfo(), &error), qPrintable(error));
        QVERIFY2(m_payments.execScript(QString::fromUtf16(kPaymentsSchema), &error), qPrintable(error));
        QVERIFY2(m_notify.execScript(QString::fromUtf16(kNotifySchema), &error), qPrintable(error));
    }

    void boardCountsMatchIndependentSql_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("countsSql");
        QTest::addColumn<QString>("stuckSql");
        QTest::addColumn<bool>("onNotify");
        QTest::newRow("no consumer column, lower-case words")
            << u"payment-capture"_s << QString::fromUtf16(kPaymentsCounts) << QString::fromUtf16(kPaymentsStuck)
            << false;
        QTest::newRow("composite key, epoch ms, odd schema")
            << u"email-sender"_s << QString::fromUtf16(kNotifyCounts) << QString::fromUtf16(kNotifyStuck) << true;
        QTest::newRow("view over two tables") << u"ledger"_s << QString::fromUtf16(kLedgerCounts)
                                              << QString::fromUtf16(kLedgerStuck) << false;
    }
    void boardCountsMatchIndependentSql()
    {
        QFETCH(QString, name);
        QFETCH(QString, countsSql);
        QFETCH(QString, stuckSql);
        QFETCH(bool, onNotify);
        const InboxMappingSet mappings = set();
        const InboxMapping &m = *mappings.find(name);
        const InboxBoard b = InboxBoardQuery::collect(mappings.conninfoFor(m), m);
        QVERIFY2(b.ok(), qPrintable(b.error));
        PgSession &db = onNotify ? m_notify : m_payments;
        const QList<qint64> expected = independent(db, countsSql);
        QVERIFY(std::accumulate(expected.begin(), expected.end(), qint64(0)) > 0);
        QCOMPARE(countsOf(b.totals), expected);
        // One consumer: the mapping's own (by its consumer column's value, or consumerValue without one).
        QCOMPARE(b.consumers.size(), 1);
        QCOMPARE(b.consumers.first().consumer, m.consumerLabel());
        const qint64 stuck = scalar(db, stuckSql);
        QVERIFY(stuck > 0);
        QCOMPARE(b.stuckCount, stuck);
        QVERIFY(b.hasStuck);
        QVERIFY(b.oldestStuck.ageSeconds > 300);
        QCOMPARE(b.isView, name == u"ledger"_s);
    }

    void unmappedWordsAndNullsAreShownNotHidden()
    {
        const InboxBoard b = InboxBoardQuery::collect(paymentsConninfo(), payments());
        QVERIFY2(b.ok(), qPrintable(b.error));
        QCOMPARE(b.unmappedStatuses, (QStringList{u"NULL"_s, u"weird"_s}));
        QCOMPARE(b.total(InboxState::Unknown),
                 scalar(m_payments, u"SELECT count(*) FROM payment_inbox WHERE status IS NULL OR status NOT IN "
                                    u"('in_flight','captured','declined','failed','dead','parked','skipped')"_s));
    }

    void epochMillisOutboxBacklog()
    {
        InboxMapping m = notifications();
        const InboxBoard b = InboxBoardQuery::collect(notifyConninfo(), m);
        QVERIFY2(b.ok() && b.outboxError.isEmpty(), qPrintable(b.error + b.outboxError));
        QCOMPARE(b.outbox.pending, scalar(m_notify, u"SELECT count(*) FROM notify_outbox WHERE st = 'todo'"_s));
        QVERIFY2(b.outbox.oldestPendingAgeSeconds >= 89 && b.outbox.oldestPendingAgeSeconds < 200,
                 qPrintable(QString::number(b.outbox.oldestPendingAgeSeconds)));
        QVERIFY2(b.missingIndexes.isEmpty(), qPrintable(b.missingIndexes.join(u'\n')));
    }

    void parkedRowsOfEachShape()
    {
        const InboxMappingSet mappings = set();
        PgSession db;
        QString error;
        QVERIFY(db.connect(notifyConninfo(), &error));
        const InboxRowsPage notify =
            InboxRowsQuery::read(db, *mappings.find(u"email-sender"_s), {InboxState::InProgress});
        QVERIFY2(notify.error.isEmpty(), qPrintable(notify.error));
        QCOMPARE(notify.rows.size(), int(scalar(m_notify, u"SELECT count(*) FROM \"Ops é\".\"notif \"\"inbox\"\"\" "
                                                          u"WHERE grp = 'email-sender' AND state = 'pending'"_s)));
        QCOMPARE(notify.rows.first().messageId, u"n-1"_s); // oldest update first, epoch ms read as time
        QVERIFY(notify.rows.first().updated.secsTo(QDateTime::currentDateTimeUtc()) > 3000);
        const InboxRowsPage view = InboxRowsQuery::read(m_payments, ledger(), {InboxState::Parked});
        QVERIFY2(view.error.isEmpty(), qPrintable(view.error));
        QVERIFY(view.isView);
        QCOMPARE(view.rows.size(), 1);
        QCOMPARE(view.rows.first().messageId, u"L-2"_s);
    }

    void keyLookupsAcrossTwoDatabases()
    {
        const InboxMappingSet mappings = set();
        InboxKeyLookup lookup;
        lookup.setMappingSet(mappings);
        QSignalSpy answers(&lookup, &InboxKeyLookup::resolved);
        const QStringList keys{u"pi-4"_s, u"pi-11"_s, u"n-3"_s, u"n-9"_s, u"L-2"_s, u"nobody"_s};
        // Each mapping is asked on its own database; the answers are put side by side here only to
        // compare them with the SQL below (a dead letter is only ever asked of its own consumer's inbox).
        for (const InboxMapping &m : mappings.mappings)
            lookup.enqueue(1, m.name, {0, 1, 2, 3, 4, 5}, keys);
        QTRY_COMPARE_WITH_TIMEOUT(answers.size(), int(mappings.mappings.size()), 10000);
        InboxKeyLookupResult result;
        for (const QList<QVariant> &answer : std::as_const(answers)) {
            const auto one = answer.first().value<InboxKeyLookupResult>();
            QVERIFY2(one.error.isEmpty(), qPrintable(one.error));
            for (auto it = one.found.cbegin(); it != one.found.cend(); ++it) {
                QVERIFY2(it->mapping == one.mapping, qPrintable(it->mapping));
                if (!result.found.contains(it.key()) || it->state == InboxState::Completed)
                    result.found.insert(it.key(), it.value());
            }
        }
        // Independently: pi-4 is captured in payments (a COMPLETED answer wins over email-sender's error row),
        // pi-11 parked, n-3 sent to email-sender, n-9 belongs to sms-sender only (not this mapping's
        // consumer), L-2 parked in the view, nobody nowhere.
        QCOMPARE(m_payments.exec(u"SELECT status FROM payment_inbox WHERE payment_intent_id = 'pi-4'"_s).rows.value(0).value(0).toString(),
                 u"captured"_s);
        QCOMPARE(result.found.value(u"pi-4"_s).state, InboxState::Completed);
        QCOMPARE(result.found.value(u"pi-4"_s).mapping, u"payment-capture"_s);
        QCOMPARE(result.found.value(u"pi-11"_s).state, InboxState::Parked);
        QCOMPARE(result.found.value(u"n-3"_s).state, InboxState::Completed);
        QCOMPARE(result.found.value(u"n-3"_s).consumer, u"email-sender"_s);
        QCOMPARE(scalar(m_notify, u"SELECT count(*) FROM \"Ops é\".\"notif \"\"inbox\"\"\" WHERE event_key = 'n-9' "
                                  u"AND grp = 'email-sender'"_s),
                 0);
        QVERIFY(!result.found.contains(u"n-9"_s));
        QCOMPARE(result.found.value(u"L-2"_s).state, InboxState::Parked);
        QCOMPARE(result.found.value(u"L-2"_s).status, u"PARK"_s);
        QVERIFY(!result.found.contains(u"nobody"_s));
        QCOMPARE(result.found.size(), 4);
    }

    void noOpPredictionIsPerConsumer()
    {
        DryRunInput input;
        input.action = RemediationAction::Replay;
        input.inboxMappings = set();
        ConsumerPolicy email;
        email.name = u"email-sender"_s;
        email.dlqTopic = u"notify-dlq"_s;
        input.policy.consumers = {email};
        const auto item = [](const QString &topic, const QString &key, const QString &consumer) {
            PinnedItem p;
            p.sourceTopic = topic;
            p.sourcePartition = 0;
            p.idempotencyKey = key;
            p.consumerGroup = consumer;
            return p;
        };
        input.items = {
            item(u"payments-dlq"_s, u"pi-4"_s, u"payment-capture"_s),  // captured: no-op
            item(u"payments-dlq"_s, u"pi-8"_s, u"payment-capture"_s),  // failed: retaken, not a no-op
            item(u"payments-dlq"_s, u"pi-11"_s, u"payment-capture"_s), // parked: no-op
            item(u"payments-dlq"_s, u"pi-77"_s, u"payment-capture"_s), // absent: processed
            item(u"notify-dlq"_s, u"n-3"_s, QString()),                // the DLQ topic's consumer: sent, no-op
            item(u"notify-dlq"_s, u"pi-4"_s, QString()),               // email-sender's error row: retaken
            item(u"notify-dlq"_s, u"n-9"_s, QString()),                // sms-sender's row only: processed
            item(u"other-dlq"_s, u"pi-4"_s, QString()),                // nobody's: not predicted
        };
        const DryRunResult r = DryRun::evaluate(input, nullptr);
        QVERIFY2(r.inboxChecked, qPrintable(r.inboxError));
        QVERIFY2(r.inboxError.isEmpty(), qPrintable(r.inboxError));
        // Independent: per item, a row for the consumer in a state it does not take again.
        const qint64 paymentsNoOps = scalar(
            m_payments, u"SELECT count(*) FROM payment_inbox WHERE payment_intent_id = ANY($1) AND status IS "
                        u"DISTINCT FROM 'failed'"_s,
            {QStringList{u"pi-4"_s, u"pi-8"_s, u"pi-11"_s, u"pi-77"_s}});
        const qint64 notifyNoOps = scalar(
            m_notify, u"SELECT count(*) FROM \"Ops é\".\"notif \"\"inbox\"\"\" WHERE grp = 'email-sender' AND "
                      u"event_key = ANY($1) AND state <> 'error'"_s,
            {QStringList{u"n-3"_s, u"pi-4"_s, u"n-9"_s}});
        QCOMPARE(paymentsNoOps, 2);
        QCOMPARE(notifyNoOps, 1);
        QCOMPARE(qint64(r.predictedNoOps), paymentsNoOps + notifyNoOps);
        QCOMPARE(r.notPredicted, 1);
        QVERIFY(r.summary().contains(u"1 not predictable"_s));
    }

    void skipWritesEachShapesWordAndTimeType()
    {
        PgSession db;
        QString error;
        QVERIFY(db.connect(notifyConninfo(), &error));
        int rows = 0;
        const QJsonObject ref{{u"mapping"_s, u"email-sender"_s}, {u"messageId"_s, u"n-5"_s}};
        QVERIFY2(InboxRemediation::markSkipped(db, notifications(), ref, &rows, &error), qPrintable(error));
        QCOMPARE(rows, 1);
        const PgResult after = m_notify.exec(
            u"SELECT state, abs(extract(epoch FROM now()) * 1000 - updated_ms) < 60000 FROM \"Ops é\".\"notif "
            u"\"\"inbox\"\"\" WHERE grp = 'email-sender' AND event_key = 'n-5'"_s);
        QCOMPARE(after.rows.value(0).value(0).toString(), u"dropped"_s);
        QVERIFY(after.rows.value(0).value(1).toBool()); // the epoch-ms column got now, in milliseconds
        // Without a consumer column the row is the mapping's: payments writes its own word.
        QVERIFY(InboxRemediation::markSkipped(m_payments, payments(),
                                              {{u"mapping"_s, u"payment-capture"_s}, {u"messageId"_s, u"pi-12"_s}},
                                              &rows, &error));
        QCOMPARE(m_payments.exec(u"SELECT status FROM payment_inbox WHERE payment_intent_id = 'pi-12'"_s)
                     .rows.value(0).value(0).toString(),
                 u"skipped"_s);
    }

    void skipAndDeleteOnAViewAreRefusedWithTheReason()
    {
        int rows = -1;
        QString error;
        const QJsonObject ref{{u"mapping"_s, u"ledger"_s}, {u"messageId"_s, u"L-2"_s}};
        QVERIFY(!InboxRemediation::markSkipped(m_payments, ledger(), ref, &rows, &error));
        QVERIFY2(error.contains(u"legacy.inbox_all is a view"_s) && error.contains(u"skip refused"_s),
                 qPrintable(error));
        QVERIFY(!InboxRemediation::deleteParked(m_payments, ledger(), ref, &rows, &error));
        QVERIFY2(error.contains(u"delete refused"_s), qPrintable(error));
        QCOMPARE(scalar(m_payments, u"SELECT count(*) FROM legacy.inbox_2024 WHERE msg_id = 'L-2' AND status = 'PARK'"_s),
                 1);
    }

    void watchReadsEveryMappingOnItsOwnClock()
    {
        InboxMapping gone = payments();
        gone.name = u"gone-service"_s;
        gone.database = u"host=/nonexistent-berth-socket-dir dbname=x connect_timeout=2"_s;
        InboxWatch watch;
        watch.setIntervalMs(60'000);
        QSignalSpy boards(&watch, &InboxWatch::boardReady);
        watch.setMappings(set({gone}));
        QTRY_COMPARE_WITH_TIMEOUT(boards.size(), 4, 15000);
        QHash<QString, InboxBoard> byName;
        for (const QList<QVariant> &args : std::as_const(boards)) {
            const auto b = args.first().value<InboxBoard>();
            byName.insert(b.mappingName, b);
        }
        QVERIFY(byName.value(u"payment-capture"_s).ok());
        QCOMPARE(byName.value(u"payment-capture"_s).database, u"payments-db"_s);
        QVERIFY(byName.value(u"email-sender"_s).ok());
        QVERIFY(byName.value(u"ledger"_s).ok());
        // The database that is not there costs only its own board.
        QVERIFY(byName.value(u"gone-service"_s).error.contains(u"cannot connect"_s));
        QCOMPARE(watch.boards().size(), 4);
        // The next tick reads again, every table.
        watch.setIntervalMs(200);
        QTRY_VERIFY_WITH_TIMEOUT(boards.size() >= 8, 15000);
    }

    void stoppingTheWatchCancelsTheStatementInFlight()
    {
        InboxMapping slow = ledger();
        slow.name = u"slow"_s;
        slow.table = u"slow_inbox"_s;
        InboxWatch watch;
        watch.setStatementTimeoutMs(60'000);
        watch.setMappings(InboxMappingSet::resolve({slow}, {}, paymentsConninfo()));
        const QString running = u"SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND query LIKE "
                                u"'%slow_inbox%' AND pid <> pg_backend_pid()"_s;
        QTRY_VERIFY_WITH_TIMEOUT(scalar(m_payments, running) > 0, 5000);
        QElapsedTimer clock;
        clock.start();
        watch.stop();
        // PQcancel: the server stops it now, not after the three-second sleep or the minute's timeout.
        QTRY_COMPARE_WITH_TIMEOUT(scalar(m_payments, running), 0, 5000);
        QVERIFY2(clock.elapsed() < 1500, qPrintable(QString::number(clock.elapsed())));
    }

    // The large-table path (seeks per state, the dominant state estimated, pages merged per consumer and
    // word), on a small table the catalogue is told is huge: the exact states and the page must still be
    // what SQL written here says.
    void hugeTablePathCountsExactlyButTheDominantState()
    {
        QString error;
        QVERIFY2(m_payments.execScript(uR"(
DROP TABLE IF EXISTS big_inbox;
CREATE TABLE big_inbox (grp text NOT NULL, id text PRIMARY KEY, st text, upd timestamptz NOT NULL, tries int NOT NULL,
                        err text);
INSERT INTO big_inbox SELECT 'g' || (i % 5), 'b-' || i,
    CASE WHEN i % 20 < 18 THEN 'done' WHEN i % 20 = 18 THEN 'parked' WHEN i % 40 = 19 THEN 'working' ELSE NULL END,
    now() - make_interval(secs => 4000 - i), 1 + i % 3, CASE WHEN i % 20 >= 18 THEN 'e' || (i % 4) END
FROM generate_series(1, 4000) AS i;
UPDATE big_inbox SET st = 'rare' WHERE id IN ('b-7', 'b-8');
CREATE INDEX ON big_inbox (grp, st, upd);
ANALYZE big_inbox;
UPDATE pg_class SET reltuples = 2000000 WHERE oid = 'big_inbox'::regclass;
)"_s, &error), qPrintable(error));
        InboxMapping m = largeTableMapping(u"big"_s, u"big_inbox"_s);
        m.attemptsColumn = u"tries"_s;
        m.errorColumn = u"err"_s;
        const InboxBoard b = InboxBoardQuery::collect(paymentsConninfo(), m);
        QVERIFY2(b.ok(), qPrintable(b.error));
        QCOMPARE(b.estimatedRows, 2000000);
        QVERIFY(b.estimated[size_t(InboxState::Completed)]);
        QVERIFY(!b.estimated[size_t(InboxState::Parked)]);
        QVERIFY(b.attemptsSampled && b.errorsSampled);
        QCOMPARE(b.consumers.size(), 5);
        for (const InboxConsumerCounts &c : b.consumers) {
            const auto exact = [&](const QString &where) {
                return scalar(m_payments, u"SELECT count(*) FROM big_inbox WHERE grp = $1 AND "_s + where, {c.consumer});
            };
            QCOMPARE(c.count(InboxState::Parked), exact(u"st = 'parked'"_s));
            QCOMPARE(c.count(InboxState::InProgress), exact(u"st = 'working'"_s));
            QCOMPARE(c.count(InboxState::Unknown), exact(u"(st IS NULL OR st = 'rare')"_s));
            QVERIFY(c.count(InboxState::Completed) > 100000); // about 2,000,000 x 0.9 x 0.2
        }
        QCOMPARE(b.unmappedStatuses, (QStringList{u"NULL"_s, u"rare"_s}));
        // The merged first page equals one ORDER BY over the whole table.
        const InboxRowsPage page = InboxRowsQuery::read(m_payments, m, {InboxState::Parked}, {}, 50);
        QVERIFY2(page.error.isEmpty(), qPrintable(page.error));
        QVERIFY(page.more);
        const PgResult expected = m_payments.exec(u"SELECT id FROM big_inbox WHERE st = 'parked' ORDER BY upd LIMIT 50"_s);
        QCOMPARE(page.rows.size(), 50);
        for (int i = 0; i < 50; ++i)
            QCOMPARE(page.rows.at(i).messageId, expected.rows.at(i).value(0).toString());
        // Without the index the board names it instead of scanning the table.
        QVERIFY(m_payments.execScript(u"DROP INDEX big_inbox_grp_st_upd_idx"_s, &error));
        const InboxBoard noIndex = InboxBoardQuery::collect(paymentsConninfo(), m);
        QVERIFY2(noIndex.error.contains(u"CREATE INDEX ON"_s), qPrintable(noIndex.error));
    }

    // On a huge table without the indexes they seek on, the key look-ups and the Parked tab run no doomed
    // query: each refuses with the CREATE INDEX to run, and answers once it exists.
    void hugeTableWithoutIndexesRefusesLookupsAndParkedRowsNamingTheIndex()
    {
        QString error;
        QVERIFY2(m_payments.execScript(uR"(
DROP TABLE IF EXISTS bare_inbox;
CREATE TABLE bare_inbox (grp text NOT NULL, id text NOT NULL, st text, upd timestamptz NOT NULL);
INSERT INTO bare_inbox SELECT 'g' || (i % 3), 'x-' || i, CASE WHEN i % 10 < 8 THEN 'done' ELSE 'parked' END,
    now() - make_interval(secs => 2000 - i)
FROM generate_series(1, 2000) AS i;
ANALYZE bare_inbox;
UPDATE pg_class SET reltuples = 3000000 WHERE oid = 'bare_inbox'::regclass;
)"_s, &error), qPrintable(error));
        const InboxMapping m = largeTableMapping(u"bare"_s, u"bare_inbox"_s);
        const QStringList keys{u"x-7"_s, u"x-9"_s, u"nope"_s};
        QString problem;
        InboxKeyStates states = InboxKeyLookup::lookup(m_payments, {m}, keys, &problem);
        QVERIFY(states.isEmpty());
        QVERIFY2(problem.contains(u"no index on its message id"_s), qPrintable(problem));
        QVERIFY2(problem.endsWith(u"CREATE INDEX ON \"bare_inbox\" (\"id\")"_s), qPrintable(problem));
        InboxRowsPage page = InboxRowsQuery::read(m_payments, m, {InboxState::Parked}, {}, 20);
        QVERIFY(page.rows.isEmpty());
        QVERIFY2(page.error.endsWith(u"CREATE INDEX ON \"bare_inbox\" (\"grp\", \"st\", \"upd\")"_s),
                 qPrintable(page.error));
        // Created as named, both answer what SQL says. (Building an index resets the fake row count.)
        QVERIFY2(m_payments.execScript(u"CREATE INDEX ON \"bare_inbox\" (\"id\"); CREATE INDEX ON \"bare_inbox\" "
                                       u"(\"grp\", \"st\", \"upd\"); UPDATE pg_class SET reltuples = 3000000 WHERE "
                                       u"oid = 'bare_inbox'::regclass"_s,
                                       &error),
                 qPrintable(error));
        problem.clear();
        states = InboxKeyLookup::lookup(m_payments, {m}, keys, &problem);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QCOMPARE(states.size(), 2);
        QCOMPARE(states.value(u"x-7"_s).state, InboxState::Completed);
        QCOMPARE(states.value(u"x-9"_s).state, InboxState::Parked);
        page = InboxRowsQuery::read(m_payments, m, {InboxState::Parked}, {}, 20);
        QVERIFY2(page.error.isEmpty(), qPrintable(page.error));
        const PgResult expected =
            m_payments.exec(u"SELECT id FROM bare_inbox WHERE st = 'parked' ORDER BY upd LIMIT 20"_s);
        QCOMPARE(page.rows.size(), 20);
        for (int i = 0; i < 20; ++i)
            QCOMPARE(page.rows.at(i).messageId, expected.rows.at(i).value(0).toString());
    }

    // A huge table's exact counts are split over two sessions of its database in one snapshot; when a second
    // connection cannot be made (the role's connection limit) one session counts them all, to the same
    // numbers. Both are what SQL written here says.
    void hugeTableCountsOnTwoSessionsInOneSnapshot()
    {
        createHugeTable(u"split_inbox"_s, u"grp text NOT NULL, id text PRIMARY KEY, st text NOT NULL, upd timestamptz NOT NULL"_s,
                        u"SELECT 'g' || (i % 6), 's-' || i, CASE WHEN i % 10 < 7 THEN 'done' WHEN i % 10 < 9 THEN "
                        u"'parked' ELSE 'working' END, now() - make_interval(secs => 3000 - i) FROM generate_series(1, 3000) AS i"_s,
                        u"CREATE INDEX ON split_inbox (grp, st, upd); CREATE INDEX ON split_inbox (grp, st) WHERE st <> 'done'; "
                        u"DROP ROLE IF EXISTS one_session; CREATE ROLE one_session LOGIN CONNECTION LIMIT 1; "
                        u"GRANT SELECT ON split_inbox TO one_session"_s,
                        1000000);
        QString error;
        const InboxMapping m = largeTableMapping(u"split"_s, u"split_inbox"_s);
        const auto checkExact = [&](const InboxBoard &b) { checkLargeTableCounts(b, u"split_inbox"_s, 6); };
        const InboxBoard two = InboxBoardQuery::collect(paymentsConninfo(), m);
        checkExact(two);
        QCOMPARE(two.countSessions, 2);
        // The same on a session the caller holds (the editor's preview).
        PgSession own;
        QVERIFY2(own.connect(paymentsConninfo(), &error), qPrintable(error));
        const InboxBoard onOwn = InboxBoardQuery::collect(own, m);
        checkExact(onOwn);
        QCOMPARE(onOwn.countSessions, 2);
        const InboxBoard one = InboxBoardQuery::collect(m_pg->conninfo(u"one_session"_s, u"payments"_s), m);
        checkExact(one);
        QCOMPARE(one.countSessions, 1);
        QCOMPARE(one.totals, two.totals);
    }

    // A board refreshed again and again (InboxBoardQuery, as InboxWatch does per mapping) connects its second
    // session once and keeps it: the server lists one helper backend, the same one after every refresh. When
    // the server ends it (pg_terminate_backend), the next refresh connects it anew and counts what SQL says.
    void boardKeepsItsSecondSessionAcrossRefreshes()
    {
        createHugeTable(u"kept_inbox"_s, u"grp text NOT NULL, id text PRIMARY KEY, st text NOT NULL, upd timestamptz NOT NULL"_s,
                        u"SELECT 'g' || (i % 4), 'h-' || i, CASE WHEN i % 10 < 7 THEN 'done' WHEN i % 10 < 9 THEN "
                        u"'parked' ELSE 'working' END, now() - make_interval(secs => 2000 - i) FROM generate_series(1, 2000) AS i"_s,
                        u"CREATE INDEX ON kept_inbox (grp, st, upd); CREATE INDEX ON kept_inbox (grp, st) WHERE st <> 'done'"_s,
                        1000000);
        const InboxMapping m = largeTableMapping(u"kept"_s, u"kept_inbox"_s);
        const QString app = u"berth_board_kept"_s;
        const auto helperPids = [&] {
            // The board's first session closes after each refresh: what stays is its second one.
            QStringList pids;
            for (const QVariantList &row :
                 m_payments.exec(u"SELECT pid::text FROM pg_stat_activity WHERE application_name = $1"_s, {app}).rows)
                pids << row.value(0).toString();
            return pids;
        };
        const auto checkExact = [&](const InboxBoard &b) {
            QVERIFY2(b.helperError.isEmpty(), qPrintable(b.helperError));
            QCOMPARE(b.countSessions, 2);
            checkLargeTableCounts(b, u"kept_inbox"_s, 4);
        };
        InboxBoardQuery query;
        query.setConninfo(paymentsConninfo() + u" application_name="_s + app);
        QSignalSpy ready(&query, &InboxBoardQuery::boardReady);
        const auto refresh = [&]() -> InboxBoard {
            const qsizetype before = ready.size();
            query.refresh(m);
            while (ready.size() == before && ready.wait(30000)) {
            }
            if (ready.size() == before) {
                InboxBoard none;
                none.error = u"no board within 30 s"_s;
                return none;
            }
            return ready.constLast().value(0).value<InboxBoard>();
        };
        QString first;
        for (int i = 0; i < 3; ++i) {
            checkExact(refresh());
            // The first session's backend may outlive its client's close by a moment.
            QTRY_COMPARE_WITH_TIMEOUT(helperPids().size(), 1, 10000);
            const QStringList pids = helperPids();
            if (i == 0)
                first = pids.first();
            QCOMPARE(pids.first(), first);
        }
        // Its end: the next refresh notices, connects anew, and is still right.
        QVERIFY(m_payments.exec(u"SELECT pg_terminate_backend($1::int)"_s, {first}).ok);
        QTRY_VERIFY_WITH_TIMEOUT(helperPids().isEmpty(), 10000);
        checkExact(refresh());
        QTRY_COMPARE_WITH_TIMEOUT(helperPids().size(), 1, 10000);
        const QStringList after = helperPids();
        QVERIFY(after.first() != first);
        checkExact(refresh());
        QTRY_COMPARE_WITH_TIMEOUT(helperPids().size(), 1, 10000);
        QCOMPARE(helperPids(), after);
    }

    // retry.maxAttempts on a huge table whose failed rows alone exceed the large-table threshold: the board
    // never reads every failed row for its attempts. Without the (consumer, status, attempts) index it names
    // the index and estimates the exhausted rows from each consumer's latest failed rows, marked as such and
    // close to what SQL counts; with the index the count is exact.
    void exhaustedRowsOnAHugeTableAreBounded()
    {
        createHugeTable(u"retry_inbox"_s,
                        u"grp text NOT NULL, id text PRIMARY KEY, st text NOT NULL, upd timestamptz NOT NULL, att int NOT NULL"_s,
                        u"SELECT 'g' || (i % 2), 'r-' || i, CASE WHEN i % 10 < 6 THEN 'done' WHEN i % 10 < 9 THEN "
                        u"'failed' ELSE 'parked' END, now() - make_interval(secs => 8000 - i), 1 + (i / 10) % 7 "
                        u"FROM generate_series(1, 8000) AS i"_s,
                        u"CREATE INDEX ON retry_inbox (grp, st, upd); CREATE INDEX ON retry_inbox (grp, st) WHERE st <> 'done'"_s,
                        50000000);
        InboxMapping m = largeTableMapping(u"retry"_s, u"retry_inbox"_s);
        m.attemptsColumn = u"att"_s;
        m.statuses.insert(u"failed"_s, InboxState::FailedRetryable);
        m.exhaustedAfterAttempts = 5;
        // Its failed rows, as the catalogue sees the table, are far past the threshold.
        QVERIFY(50000000 * 3 / 10 > InboxBoardQuery::LargeTableRows);
        const auto exhaustedInSql = [&](const QString &consumer) {
            return scalar(m_payments, u"SELECT count(*) FROM retry_inbox WHERE grp = $1 AND st = 'failed' AND att >= 5"_s,
                          {consumer});
        };
        const InboxBoard estimated = InboxBoardQuery::collect(paymentsConninfo(), m);
        QVERIFY2(estimated.ok(), qPrintable(estimated.error));
        QVERIFY(estimated.hasExhausted);
        QVERIFY(estimated.exhaustedEstimated);
        QCOMPARE(estimated.consumers.size(), 2);
        for (const InboxConsumerCounts &c : estimated.consumers) {
            QCOMPARE(c.count(InboxState::FailedRetryable),
                     scalar(m_payments, u"SELECT count(*) FROM retry_inbox WHERE grp = $1 AND st = 'failed'"_s, {c.consumer}));
            const qint64 exact = exhaustedInSql(c.consumer);
            QVERIFY2(qAbs(c.exhausted - exact) * 20 <= exact, qPrintable(u"%1: about %2, SQL %3"_s.arg(c.consumer).arg(c.exhausted).arg(exact)));
        }
        const QString create = u"CREATE INDEX ON \"retry_inbox\" (\"grp\", \"st\", \"att\") WHERE \"st\" <> 'done'"_s;
        QVERIFY2(std::any_of(estimated.missingIndexes.cbegin(), estimated.missingIndexes.cend(),
                             [&](const QString &line) { return line.endsWith(create); }),
                 qPrintable(estimated.missingIndexes.join(u"\n"_s)));
        // The JSON and the board's cell say "about".
        QCOMPARE(inboxBoardToJson(estimated).value(u"exhausted"_s).toObject().value(u"estimated"_s).toBool(), true);

        // Created as named: exact, from the index.
        QString error;
        QVERIFY2(m_payments.execScript(u"CREATE INDEX ON retry_inbox (grp, st, att) WHERE st <> 'done'; UPDATE pg_class "
                                       u"SET reltuples = 50000000 WHERE oid = 'retry_inbox'::regclass"_s,
                                       &error),
                 qPrintable(error));
        const InboxBoard exact = InboxBoardQuery::collect(paymentsConninfo(), m);
        QVERIFY2(exact.ok(), qPrintable(exact.error));
        QVERIFY(!exact.exhaustedEstimated);
        QVERIFY2(std::none_of(exact.missingIndexes.cbegin(), exact.missingIndexes.cend(),
                              [](const QString &line) { return line.contains(u"exhausted"_s); }),
                 qPrintable(exact.missingIndexes.join(u"\n"_s)));
        for (const InboxConsumerCounts &c : exact.consumers)
            QCOMPARE(c.exhausted, exhaustedInSql(c.consumer));
        QVERIFY(exact.exhaustedRows() > 0);
    }

    // The index check reads pg_index once per table and board interval: a second batch of key look-ups
    // reuses the reading (the server's statement log says so), the board reads afresh.
    void indexCheckReadsTheCatalogueOncePerTableAndInterval()
    {
        createHugeTable(u"keyed_inbox"_s, u"grp text NOT NULL, id text PRIMARY KEY, st text NOT NULL, upd timestamptz NOT NULL"_s,
                        u"SELECT 'g' || (i % 3), 'k-' || i, CASE WHEN i % 10 < 8 THEN 'done' ELSE 'parked' END, "
                        u"now() - make_interval(secs => 500 - i) FROM generate_series(1, 500) AS i"_s,
                        QString(), 2000000);
        QString error;
        const InboxMapping m = largeTableMapping(u"keyed"_s, u"keyed_inbox"_s);
        QFile log(m_pg->logFile());
        const qint64 from = QFileInfo(log).size();
        QVERIFY2(m_payments.execScript(u"SET log_statement = 'all'"_s, &error), qPrintable(error));
        for (const QStringList &batch : {QStringList{u"k-1"_s, u"nope"_s}, QStringList{u"k-19"_s, u"none"_s}}) {
            QString problem;
            const InboxKeyStates states = InboxKeyLookup::lookup(m_payments, {m}, batch, &problem);
            QVERIFY2(problem.isEmpty(), qPrintable(problem));
            QCOMPARE(states.size(), 1);
        }
        QVERIFY2(m_payments.execScript(u"RESET log_statement"_s, &error), qPrintable(error));
        QVERIFY(log.open(QIODevice::ReadOnly));
        log.seek(from);
        const QString logged = QString::fromUtf8(log.readAll());
        QCOMPARE(logged.count(u"AND i.indisvalid"_s), 1);
    }

    // A table keyed on (consumer, message id) serves the key look-ups of a mapping that filters by consumer:
    // each probe states both. Its answers are what SQL says.
    void keyLookupsSeekOnAConsumerAndIdKey()
    {
        createHugeTable(u"pair_inbox"_s,
                        u"grp text NOT NULL, id text NOT NULL, st text NOT NULL, upd timestamptz NOT NULL, PRIMARY KEY (grp, id)"_s,
                        u"SELECT 'g' || (i % 2), 'p-' || (i / 2), CASE WHEN i % 5 = 0 THEN 'parked' ELSE 'done' END, "
                        u"now() - make_interval(secs => 1000 - i) FROM generate_series(1, 1000) AS i"_s,
                        QString(), 2000000);
        InboxMapping m = largeTableMapping(u"pair"_s, u"pair_inbox"_s);
        m.consumerValue = u"g1"_s;
        const QStringList keys{u"p-2"_s, u"p-3"_s, u"p-10"_s, u"p-400"_s, u"nope"_s};
        QString problem;
        const InboxKeyStates states = InboxKeyLookup::lookup(m_payments, {m}, keys, &problem);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        const PgResult expected = m_payments.exec(
            u"SELECT id, st FROM pair_inbox WHERE grp = 'g1' AND id = ANY($1) ORDER BY id"_s, {keys});
        QCOMPARE(states.size(), expected.rows.size());
        QVERIFY(states.size() >= 3);
        for (const QVariantList &row : expected.rows)
            QCOMPARE(states.value(row.value(0).toString()).status, row.value(1).toString());
        // Without the consumer filter the probe states only the id: that key does not serve it.
        m.consumerValue.clear();
        problem.clear();
        QVERIFY(InboxKeyLookup::lookup(m_payments, {m}, keys, &problem).isEmpty());
        QVERIFY2(problem.endsWith(u"CREATE INDEX ON \"pair_inbox\" (\"id\")"_s), qPrintable(problem));
    }

    // An inbox without a consumer column on a huge table: the Parked tab reads in time order only on the
    // documented open-rows-by-time index (updated, status), found by the board's check; an index on the time
    // alone does not serve (each page would visit the table for the words), so the tab names the index to
    // create, and once it exists the page is what SQL says.
    void parkedTabWithoutConsumerColumnChecksItsIndex()
    {
        createHugeTable(u"flat_inbox"_s, u"id text NOT NULL, st text NOT NULL, upd timestamptz NOT NULL"_s,
                        u"SELECT 'f-' || i, CASE WHEN i % 10 < 8 THEN 'done' WHEN i % 10 = 8 THEN 'parked' ELSE "
                        u"'working' END, now() - make_interval(secs => 2000 - i) FROM generate_series(1, 2000) AS i"_s,
                        u"CREATE INDEX flat_by_time ON flat_inbox (upd) WHERE st <> 'done'"_s, 3000000);
        QString error;
        InboxMapping m = largeTableMapping(u"flat"_s, u"flat_inbox"_s);
        m.consumerColumn.clear();
        InboxRowsPage page = InboxRowsQuery::read(m_payments, m, {InboxState::Parked}, {}, 20);
        QVERIFY(page.rows.isEmpty());
        QVERIFY2(page.error.endsWith(u"CREATE INDEX ON \"flat_inbox\" (\"st\", \"upd\")"_s), qPrintable(page.error));
        QVERIFY2(m_payments.execScript(u"CREATE INDEX ON flat_inbox (upd, st) WHERE st <> 'done'; UPDATE pg_class SET "
                                       u"reltuples = 3000000 WHERE oid = 'flat_inbox'::regclass"_s,
                                       &error),
                 qPrintable(error));
        page = InboxRowsQuery::read(m_payments, m, {InboxState::Parked}, {}, 20);
        QVERIFY2(page.error.isEmpty(), qPrintable(page.error));
        const PgResult expected = m_payments.exec(u"SELECT id FROM flat_inbox WHERE st = 'parked' ORDER BY upd LIMIT 20"_s);
        QCOMPARE(page.rows.size(), 20);
        for (int i = 0; i < 20; ++i)
            QCOMPARE(page.rows.at(i).messageId, expected.rows.at(i).value(0).toString());
    }

    // A huge table's board counts every state exactly but the dominant one, which is the table's rows minus
    // the exact ones and is marked as an estimate (the board's "about", the JSON's estimatedStates); the
    // stuck count is exact too. Without the open-rows partial index the board names it and still answers.
    void hugeTableEstimatesOnlyTheDominantStateAndNamesTheOpenRowsIndex()
    {
        QString error;
        QVERIFY2(m_payments.execScript(uR"(
DROP TABLE IF EXISTS huge_inbox;
CREATE TABLE huge_inbox (grp text NOT NULL, id text PRIMARY KEY, st text, upd timestamptz);
INSERT INTO huge_inbox SELECT 'g' || (i % 4), 'h-' || i,
    CASE WHEN i % 10 < 8 THEN 'done' WHEN i % 10 = 8 THEN 'parked' ELSE 'working' END,
    CASE WHEN i % 97 = 9 THEN NULL ELSE now() - make_interval(secs => 3000 - i) END
FROM generate_series(1, 3000) AS i;
CREATE INDEX ON huge_inbox (grp, st, upd);
ANALYZE huge_inbox;
UPDATE pg_class SET reltuples = 1000000 WHERE oid = 'huge_inbox'::regclass;
)"_s, &error), qPrintable(error));
        InboxMapping m = largeTableMapping(u"huge"_s, u"huge_inbox"_s);
        m.stuckAfterSeconds = 600;
        const InboxBoard b = InboxBoardQuery::collect(paymentsConninfo(), m);
        QVERIFY2(b.ok(), qPrintable(b.error));
        QCOMPARE(b.estimatedRows, 1000000);
        // Only the dominant state is an estimate, and the JSON says which.
        for (int s = 0; s < InboxStateCount; ++s)
            QCOMPARE(b.estimated[size_t(s)], InboxState(s) == InboxState::Completed);
        QCOMPARE(inboxBoardToJson(b).value(u"estimatedStates"_s).toArray(), QJsonArray{u"completed"_s});
        // Every other state exactly what SQL says, per consumer.
        QCOMPARE(b.consumers.size(), 4);
        qint64 exact = 0;
        for (const InboxConsumerCounts &c : b.consumers) {
            const auto count = [&](const QString &word) {
                return scalar(m_payments, u"SELECT count(*) FROM huge_inbox WHERE grp = $1 AND st = $2"_s,
                              {c.consumer, word});
            };
            QCOMPARE(c.count(InboxState::Parked), count(u"parked"_s));
            QCOMPARE(c.count(InboxState::InProgress), count(u"working"_s));
            exact += c.count(InboxState::Parked) + c.count(InboxState::InProgress);
        }
        // The estimate: the catalogue's rows less the rows counted exactly (each consumer rounded).
        QVERIFY2(qAbs(b.total(InboxState::Completed) - (1000000 - exact)) <= 4,
                 qPrintable(QString::number(b.total(InboxState::Completed))));
        QCOMPARE(b.stuckCount, scalar(m_payments, u"SELECT count(*) FROM huge_inbox WHERE st = 'working' AND upd < "
                                                  u"now() - interval '600 seconds'"_s));
        QVERIFY(b.stuckCount > 0);
        // The open-rows index and the covering key index are named with the statements that create them.
        const QString openRows = u"CREATE INDEX ON \"huge_inbox\" (\"grp\", \"st\") WHERE \"st\" <> 'done'"_s;
        const QString byTime = u"CREATE INDEX ON \"huge_inbox\" (\"upd\", \"st\") WHERE \"st\" <> 'done'"_s;
        const QString coveringKey = u"CREATE INDEX ON \"huge_inbox\" (\"id\") INCLUDE (\"st\", \"grp\", \"upd\")"_s;
        QCOMPARE(b.missingIndexes.size(), 3);
        QVERIFY2(b.missingIndexes.at(0).endsWith(openRows), qPrintable(b.missingIndexes.at(0)));
        QVERIFY2(b.missingIndexes.at(1).endsWith(byTime), qPrintable(b.missingIndexes.at(1)));
        QVERIFY2(b.missingIndexes.at(2).endsWith(coveringKey), qPrintable(b.missingIndexes.at(2)));
        // Created as named, they are found, and the counts stay the same.
        // (Building an index sets the catalogue's row count: the fake one is set again.)
        QVERIFY2(m_payments.execScript(openRows + u"; "_s + byTime + u"; "_s + coveringKey
                                           + u"; UPDATE pg_class SET reltuples = 1000000 WHERE oid = 'huge_inbox'::regclass"_s,
                                       &error),
                 qPrintable(error));
        const InboxBoard withIndex = InboxBoardQuery::collect(paymentsConninfo(), m);
        QVERIFY2(withIndex.ok(), qPrintable(withIndex.error));
        QVERIFY2(withIndex.missingIndexes.isEmpty(), qPrintable(withIndex.missingIndexes.join(u'\n')));
        QCOMPARE(withIndex.totals, b.totals);
        QCOMPARE(withIndex.stuckCount, b.stuckCount);
        // The Parked tab's page, now one range in time order, is still one ORDER BY over the whole table.
        for (const QList<InboxState> &states : {QList<InboxState>{InboxState::Parked},
                                                QList<InboxState>{InboxState::Parked, InboxState::InProgress}}) {
            const InboxRowsPage page = InboxRowsQuery::read(m_payments, m, states, {}, 40);
            QVERIFY2(page.error.isEmpty(), qPrintable(page.error));
            QVERIFY(page.more);
            const PgResult expected = m_payments.exec(
                u"SELECT id FROM huge_inbox WHERE st = ANY($1) ORDER BY upd, id LIMIT 40"_s,
                {states.size() == 1 ? QStringList{u"parked"_s} : QStringList{u"parked"_s, u"working"_s}});
            QCOMPARE(page.rows.size(), 40);
            for (int i = 0; i < 40; ++i)
                QCOMPARE(page.rows.at(i).messageId, expected.rows.at(i).value(0).toString());
        }
    }

    // What the mapping editor builds on: tables with estimates, columns suggested from names and types,
    // every status word found (a rare one included) and a guessed state for each.
    void discoveryFindsTablesColumnsAndEveryWord()
    {
        QString error;
        const QList<InboxDiscovery::TableEntry> tables = InboxDiscovery::tables(m_notify, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const auto notif = std::find_if(tables.cbegin(), tables.cend(), [](const InboxDiscovery::TableEntry &t) {
            return t.schema == u"Ops \u00e9"_s && t.table == u"notif \"inbox\""_s;
        });
        QVERIFY(notif != tables.cend());
        QCOMPARE(notif->kind, u"table"_s);
        const InboxTableInfo info = InboxTableInfo::read(m_notify, notif->schema, notif->table, &error);
        const InboxMapping suggested = InboxDiscovery::suggestColumns(info.types);
        QCOMPARE(suggested.messageIdColumn, u"event_key"_s);
        QCOMPARE(suggested.statusColumn, u"state"_s);
        QCOMPARE(suggested.updatedColumn, u"updated_ms"_s); // a bigint: epoch milliseconds accepted
        QCOMPARE(suggested.consumerColumn, QString());     // "grp" is not a name it can be sure of
        // Walked on the (grp, state, updated_ms) index: complete, the independent answer's words exactly.
        const InboxDiscovery::StatusWords words =
            InboxDiscovery::statusWords(m_notify, notif->schema, notif->table, u"state"_s, u"grp"_s, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(words.complete);
        QStringList expected;
        for (const QVariantList &row : m_notify.exec(u"SELECT DISTINCT state FROM \"Ops é\".\"notif \"\"inbox\"\"\" ORDER BY 1"_s).rows)
            expected << row.value(0).toString();
        QCOMPARE(words.words, expected);
        // Without an index to walk: a sample, and the result says so.
        const InboxDiscovery::StatusWords sampled =
            InboxDiscovery::statusWords(m_payments, u"legacy"_s, u"inbox_2024"_s, u"status"_s, {}, &error);
        QVERIFY(!sampled.complete);
        QVERIFY(sampled.method.contains(u"CREATE INDEX"_s));
        QCOMPARE(InboxDiscovery::guessState(u"sent"_s), InboxState::Completed);
        QCOMPARE(InboxDiscovery::guessState(u"DEAD_LETTERED"_s), InboxState::FailedTerminal);
        QCOMPARE(InboxDiscovery::guessState(u"in_flight"_s), InboxState::InProgress);
        QCOMPARE(InboxDiscovery::guessState(u"quarantined"_s), InboxState::Parked);
        QCOMPARE(InboxDiscovery::guessState(u"bounced"_s), InboxState::FailedRetryable);
        QCOMPARE(InboxDiscovery::guessState(u"zebra"_s), InboxState::Unknown); // flagged, never guessed away
    }

    void badInputGetsAClearMessage()
    {
        // No SELECT privilege for the role Berth logs in as.
        const InboxBoard denied = InboxBoardQuery::collect(m_pg->conninfo(u"viewer"_s, u"payments"_s), payments());
        QVERIFY2(denied.error.contains(u"no SELECT permission on payment_inbox for role viewer"_s),
                 qPrintable(denied.error));
        // A timestamp kept as text.
        InboxMapping wrongType = payments();
        wrongType.updatedColumn = u"last_failure"_s;
        const InboxBoard typed = InboxBoardQuery::collect(paymentsConninfo(), wrongType);
        QVERIFY2(typed.error.contains(u"the updated column \u201clast_failure\u201d is text"_s), qPrintable(typed.error));
        // A table dropped (or renamed) while watched.
        QVERIFY(m_payments.execScript(u"CREATE TABLE doomed (LIKE payment_inbox)"_s, nullptr));
        InboxMapping doomed = payments();
        doomed.table = u"doomed"_s;
        QVERIFY(InboxBoardQuery::collect(paymentsConninfo(), doomed).ok());
        QVERIFY(m_payments.execScript(u"ALTER TABLE doomed RENAME TO doomed_old"_s, nullptr));
        const InboxBoard renamed = InboxBoardQuery::collect(paymentsConninfo(), doomed);
        QVERIFY2(renamed.error.contains(u"doomed does not exist in this database (renamed or dropped?)"_s),
                 qPrintable(renamed.error));
        // A query that would run long is stopped by the statement timeout, and says so.
        InboxMapping slow = ledger();
        slow.table = u"slow_inbox"_s;
        QElapsedTimer clock;
        clock.start();
        const InboxBoard timedOut = InboxBoardQuery::collect(paymentsConninfo(), slow, JobControl(), 300);
        QVERIFY2(timedOut.error.contains(u"statement timeout"_s), qPrintable(timedOut.error));
        QVERIFY(clock.elapsed() < 2500);
    }
};

QTEST_GUILESS_MAIN(TestInboxShapes)
#include "tst_inboxshapes.moc"
