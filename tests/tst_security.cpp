// SQL injection through everything an operator types that reaches PostgreSQL: every inbox mapping field
// (schema, table and column names, status words, outbox) and every filter text, against a throwaway server.
// Identifiers must be escaped (a table whose every name is an injection string is read correctly) or
// refused with a clear message; text must be a value (filters match literally: % _ \ ' are characters).
// After each test the database is as it was: the canary table and every row are there, and no table,
// schema or role was added or removed. The DLQ browser's filter (no SQL) is literal too.
#include "models/dlqbrowsermodel.h"
#include "services/demo/temppostgres.h"
#include "services/inbox/inboxboardquery.h"
#include "services/inbox/inboxkeylookup.h"
#include "services/inbox/inboxrowsquery.h"
#include "services/inbox/pgsession.h"
#include "support/testsupport.h"

#include <QTest>

using namespace Qt::StringLiterals;

namespace {
// Each at most 63 bytes (PostgreSQL's identifier limit) and NUL-free, so each can also be a real name.
const QStringList kInjections = {
    u"'; DROP TABLE berth_canary; --"_s,
    u"\"; DROP TABLE berth_canary; --"_s,
    u"x\" OR \"1\"=\"1"_s,
    u"status\" FROM pg_class; CREATE TABLE pwned (); --"_s,
    u"') OR 1=1; DELETE FROM processed_events; --"_s,
    u"back\\slash\\"_s,
    u"100%_done"_s,
    u"$1; SELECT pg_sleep(5)"_s,
    u"/* comment */ --"_s,
    u"E'\\x27' || chr(39)"_s,
    u"\u00fcn\u00efc\u00f8d\u00e9 \u8868 \U0001F642"_s,
    u"$$; DROP SCHEMA public CASCADE; $$"_s,
};

// The hostile-named inbox: every schema, table and column name is an injection string.
struct HostileNames {
    QString schema = u"'; DROP TABLE berth_canary; --"_s;
    QString table = u"t\"x; DELETE FROM processed_events; --"_s;
    QString consumer = u"c'); DROP TABLE berth_canary; --"_s;
    QString id = u"\"id\" = ANY($1) OR true --"_s;
    QString status = u"st\\atus%_ \u00fcn\u00efc\u00f8d\u00e9"_s;
    QString firstSeen = u"first\" FROM pg_roles; --"_s;
    QString updated = u"upd$1::text"_s;
    QString attempts = u"att/**/; SELECT 1"_s;
    QString error = u"err' OR '1'='1"_s;
    QString topic = u"top;--"_s;
};
} // namespace

class TestSecurity final : public QObject {
    Q_OBJECT
    std::unique_ptr<TempPostgres> m_pg;
    PgSession m_db;
    HostileNames m_names;

    QVariant scalar(const QString &sql, const QVariantList &params = {})
    {
        const PgResult r = m_db.exec(sql, params);
        if (!r.ok)
            qWarning() << sql << r.error;
        return r.rows.value(0).value(0);
    }

    // Runs SQL that PostgreSQL itself builds with format('%I'): setup does not trust the code under test.
    bool execFormatted(const QString &format, const QVariantList &identifiers, QString *error)
    {
        QString sql = u"SELECT format($1::text"_s;
        for (int i = 0; i < identifiers.size(); ++i)
            sql += u", $"_s + QString::number(i + 2) + u"::text"_s;
        const PgResult built = m_db.exec(sql + u')', QVariantList{format} + identifiers);
        if (!built.ok) {
            *error = built.error;
            return false;
        }
        return m_db.execScript(built.rows.value(0).value(0).toString(), error);
    }

    // What must not change: objects and rows.
    struct Snapshot {
        qint64 tables = 0, schemas = 0, roles = 0, canary = 0, messages = 0, events = 0, outbox = 0,
               hostile = 0;
        friend bool operator==(const Snapshot &, const Snapshot &) = default;
    };
    Snapshot m_before;

    Snapshot snapshot()
    {
        Snapshot s;
        s.tables =
            scalar(u"SELECT count(*) FROM pg_class WHERE relkind IN ('r', 'v', 'm', 'p')"_s).toLongLong();
        s.schemas = scalar(u"SELECT count(*) FROM pg_namespace"_s).toLongLong();
        s.roles = scalar(u"SELECT count(*) FROM pg_roles"_s).toLongLong();
        s.canary = scalar(u"SELECT count(*) FROM berth_canary"_s).toLongLong();
        s.messages = scalar(u"SELECT count(*) FROM processed_message"_s).toLongLong();
        s.events = scalar(u"SELECT count(*) FROM processed_events"_s).toLongLong();
        s.outbox = scalar(u"SELECT count(*) FROM outbox"_s).toLongLong();
        const PgResult r =
            m_db.exec(u"SELECT count(*) FROM "_s + quoted(m_names.schema) + u'.' + quoted(m_names.table));
        s.hostile = r.ok ? r.rows.value(0).value(0).toLongLong() : -1;
        return s;
    }

    // Independent quoting for the checks' own SQL (the standard rule: double the quotes).
    static QString quoted(QString name) { return u'"' + name.replace(u'"', u"\"\""_s) + u'"'; }

    void verifyIntact()
    {
        const Snapshot now = snapshot();
        QCOMPARE(now.canary, qint64(3));
        QCOMPARE(now.tables, m_before.tables);
        QCOMPARE(now.schemas, m_before.schemas);
        QCOMPARE(now.roles, m_before.roles);
        QCOMPARE(now.messages, m_before.messages);
        QCOMPARE(now.events, m_before.events);
        QCOMPARE(now.outbox, m_before.outbox);
        QCOMPARE(now.hostile, m_before.hostile);
        QCOMPARE(scalar(u"SELECT count(*) FROM pg_class WHERE relname = 'pwned'"_s).toLongLong(), qint64(0));
    }

    InboxMapping hostileMapping() const
    {
        InboxMapping m;
        m.name = u"hostile"_s;
        m.schema = m_names.schema;
        m.table = m_names.table;
        m.consumerColumn = m_names.consumer;
        m.messageIdColumn = m_names.id;
        m.statusColumn = m_names.status;
        m.firstSeenColumn = m_names.firstSeen;
        m.updatedColumn = m_names.updated;
        m.attemptsColumn = m_names.attempts;
        m.errorColumn = m_names.error;
        m.topicColumn = m_names.topic;
        // Status words are values: injection strings too.
        m.statuses = {{u"IN'; DROP TABLE berth_canary; --"_s, InboxState::InProgress},
                      {u"DONE\" OR 1=1"_s, InboxState::Completed},
                      {u"PARK%_\\"_s, InboxState::Parked}};
        m.stuckAfterSeconds = 60;
        return m;
    }

    // Sets one mapping field by name; returns false for an unknown name.
    static bool setField(InboxMapping &m, const QString &field, const QString &value)
    {
        QString *const target = field == u"schema"                 ? &m.schema
                                : field == u"table"                ? &m.table
                                : field == u"consumerColumn"       ? &m.consumerColumn
                                : field == u"messageIdColumn"      ? &m.messageIdColumn
                                : field == u"statusColumn"         ? &m.statusColumn
                                : field == u"firstSeenColumn"      ? &m.firstSeenColumn
                                : field == u"updatedColumn"        ? &m.updatedColumn
                                : field == u"attemptsColumn"       ? &m.attemptsColumn
                                : field == u"errorColumn"          ? &m.errorColumn
                                : field == u"topicColumn"          ? &m.topicColumn
                                : field == u"payloadColumn"        ? &m.payloadColumn
                                : field == u"outbox.schema"        ? &m.outbox.schema
                                : field == u"outbox.table"         ? &m.outbox.table
                                : field == u"outbox.statusColumn"  ? &m.outbox.statusColumn
                                : field == u"outbox.createdColumn" ? &m.outbox.createdColumn
                                : field == u"outbox.pendingStatus" ? &m.outbox.pendingStatus
                                : field == u"skippedStatus"        ? &m.skippedStatus
                                                                   : nullptr;
        if (!target)
            return false;
        *target = value;
        return true;
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
        QVERIFY2(m_db.execScript(
                     u"CREATE TABLE berth_canary (id int PRIMARY KEY); INSERT INTO berth_canary VALUES (1), "
                     u"(2), (3);"
                     u"INSERT INTO processed_message (consumer_name, message_id, status, error_code) VALUES "
                     u"('c', 'pct-100%', 'PARKED', 'e1'), ('c', 'under_score', 'PARKED', 'e2'), "
                     u"('c', 'back\\slash', 'PARKED', 'e3'), ('c', 'quote''d', 'PARKED', 'e4'), "
                     u"('c', 'plain-1', 'PARKED', 'x'), ('c', 'plain-2', 'PARKED', 'y'), "
                     u"('c', '\u00fcn\u00efc\u00f8d\u00e9-1', 'PARKED', 'z'), "
                     u"('c', 'dash--1', 'PARKED', 'drop; -- it'), ('c', 'ok-1', 'COMPLETED', NULL);"
                     u"INSERT INTO processed_events (idempotency_key, consumer_group, topic, status, "
                     u"last_error) VALUES "
                     u"('pay-1', 'payment-capture', 'payments', 'COMPLETED', NULL), "
                     u"('pay-2', 'payment-capture', 'payments', 'FAILED', 'declined');"
                     u"INSERT INTO outbox (aggregate_id, topic, event_type, payload) VALUES "
                     u"('a', 'payments', 'captured', '{}');"_s,
                     &error),
                 qPrintable(error));

        // The hostile inbox, named by PostgreSQL's own format('%I').
        const HostileNames &n = m_names;
        QVERIFY2(execFormatted(u"CREATE SCHEMA %I"_s, {n.schema}, &error), qPrintable(error));
        QVERIFY2(execFormatted(
                     u"CREATE TABLE %I.%I (%I text, %I text PRIMARY KEY, %I text NOT NULL, "
                     u"%I timestamptz DEFAULT now(), %I timestamptz NOT NULL, %I int, %I text, %I text)"_s,
                     {n.schema, n.table, n.consumer, n.id, n.status, n.firstSeen, n.updated, n.attempts,
                      n.error, n.topic},
                     &error),
                 qPrintable(error));
        QVERIFY2(
            execFormatted(
                u"INSERT INTO %I.%I (%I, %I, %I, %I, %I, %I, %I) VALUES "
                u"('cons''1', 'id-stuck-1', 'IN''; DROP TABLE berth_canary; --', now() - interval '2 hours', "
                u"2, 'boom', 't'), "
                u"('cons''1', 'id-stuck-2', 'IN''; DROP TABLE berth_canary; --', now() - interval '1 hour', "
                u"1, 'boom', 't'), "
                u"('cons''1', 'id-parked', 'PARK%%_\\', now() - interval '3 hours', 7, 'poison <b>', 't'), "
                u"('cons''1', 'id-done', 'DONE\" OR 1=1', now(), 1, NULL, 't')"_s,
                {n.schema, n.table, n.consumer, n.id, n.status, n.updated, n.attempts, n.error, n.topic},
                &error),
            qPrintable(error));
        m_before = snapshot();
        QCOMPARE(m_before.canary, qint64(3));
        QCOMPARE(m_before.hostile, qint64(4));
    }

    // Names made of injection strings are escaped identifiers: the board, the rows and the key look-up all
    // read the hostile table correctly (spliced, not one of these statements would even parse).
    void hostileNamesAreEscapedIdentifiers()
    {
        const InboxMapping m = hostileMapping();
        QCOMPARE(m.validate(), QString());
        const InboxBoard board = InboxBoardQuery::collect(m_db, m);
        QVERIFY2(board.error.isEmpty(), qPrintable(board.error));
        QCOMPARE(board.consumers.size(), 1);
        QCOMPARE(board.consumers.at(0).consumer, u"cons'1"_s);
        QCOMPARE(board.totals[size_t(InboxState::InProgress)], qint64(2));
        QCOMPARE(board.totals[size_t(InboxState::Parked)], qint64(1));
        QCOMPARE(board.totals[size_t(InboxState::Completed)], qint64(1));
        QVERIFY(board.hasStuck);
        QCOMPARE(board.stuckCount, qint64(2));
        QCOMPARE(board.oldestStuck.messageId, u"id-stuck-1"_s);
        QCOMPARE(board.topErrors.value(0).error, u"boom"_s);

        const InboxRowsPage parked = InboxRowsQuery::read(m_db, m, {InboxState::Parked});
        QVERIFY2(parked.error.isEmpty(), qPrintable(parked.error));
        QCOMPARE(parked.rows.size(), 1);
        QCOMPARE(parked.rows.at(0).messageId, u"id-parked"_s);
        QCOMPARE(parked.rows.at(0).error, u"poison <b>"_s);
        QCOMPARE(parked.rows.at(0).attempts, 7);
        const InboxRowsPage filtered = InboxRowsQuery::read(m_db, m, {InboxState::InProgress}, u"STUCK-2"_s);
        QVERIFY2(filtered.error.isEmpty(), qPrintable(filtered.error));
        QCOMPARE(filtered.rows.size(), 1);

        QString error;
        const InboxKeyStates found = InboxKeyLookup::lookup(
            m_db, {m}, {u"id-done"_s, u"id-parked"_s, u"' OR '1'='1"_s, u"id-stuck-1\" --"_s}, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(found.size(), 2);
        QCOMPARE(found.value(u"id-done"_s).state, InboxState::Completed);
        QCOMPARE(found.value(u"id-parked"_s).state, InboxState::Parked);

        // The documented CREATE INDEX statement quotes the names too.
        bool named = false;
        for (const QString &missing : board.missingIndexes)
            named |= missing.contains(quoted(m_names.schema) + u'.' + quoted(m_names.table));
        QVERIFY2(named, qPrintable(board.missingIndexes.join(u" | "_s)));
        verifyIntact();
    }

    // Every field of a working mapping, set to each injection string: an escaped name that does not exist
    // (a clear error naming it) or a value that matches nothing; never a statement of its own.
    void injectionInEveryMappingField_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<QString>("field");
        for (const QString &field :
             {u"schema"_s, u"table"_s, u"consumerColumn"_s, u"messageIdColumn"_s, u"statusColumn"_s,
              u"firstSeenColumn"_s, u"updatedColumn"_s, u"errorColumn"_s, u"skippedStatus"_s})
            QTest::newRow(qPrintable(u"seed000 "_s + field)) << u"seed000"_s << field;
        for (const QString &field : {u"attemptsColumn"_s, u"topicColumn"_s, u"payloadColumn"_s,
                                     u"outbox.schema"_s, u"outbox.table"_s, u"outbox.statusColumn"_s,
                                     u"outbox.createdColumn"_s, u"outbox.pendingStatus"_s})
            QTest::newRow(qPrintable(u"seed001 "_s + field)) << u"seed001"_s << field;
    }

    void injectionInEveryMappingField()
    {
        QFETCH(QString, preset);
        QFETCH(QString, field);
        const InboxMapping base = preset == u"seed000" ? InboxMapping::seed000ProcessedMessage()
                                                       : InboxMapping::seed001ProcessedEvents();
        const QStringList keys = {u"pay-1"_s, u"plain-1"_s};
        for (const QString &injection : kInjections) {
            InboxMapping m = base;
            QVERIFY(setField(m, field, injection));
            const QString where = field + u" = "_s + injection + u": "_s;
            // The board: fails with a readable line naming what does not exist, or reads the real table.
            const InboxBoard board = InboxBoardQuery::collect(m_db, m);
            if (!board.error.isEmpty()) {
                QVERIFY2(board.error.contains(u"does not exist"_s), qPrintable(where + board.error));
            } else if (field.startsWith(u"outbox.")) {
                // An injection in the outbox costs only the outbox line (or matches no pending row).
                QVERIFY2(!board.outboxError.isEmpty() || board.outbox.pending == 0,
                         qPrintable(where + board.outboxError));
                if (!board.outboxError.isEmpty() && field != u"outbox.pendingStatus")
                    QVERIFY2(board.outboxError.contains(u"does not exist"_s),
                             qPrintable(where + board.outboxError));
            }
            // The rows and the key look-up: the same, or nothing found.
            const InboxRowsPage rows =
                InboxRowsQuery::read(m_db, m, {InboxState::Parked, InboxState::FailedRetryable});
            QVERIFY2(rows.error.isEmpty() || rows.error.contains(u"does not exist"_s),
                     qPrintable(where + rows.error));
            QString error;
            const InboxKeyStates found = InboxKeyLookup::lookup(m_db, {m}, keys, &error);
            QVERIFY2(error.isEmpty() || error.contains(u"does not exist"_s), qPrintable(where + error));
            QVERIFY(found.size() <= 1);
            if (QTest::currentTestFailed())
                return;
        }
        verifyIntact();
    }

    // What cannot be an identifier is refused before any SQL, with the reason.
    void impossibleIdentifiersAreRefused_data()
    {
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("expected");
        QTest::newRow("64 bytes") << (u"processed_message\"; DROP TABLE berth_canary; --"_s
                                      + QString(20, u'x'))
                                  << u"63-byte identifier limit"_s;
        QTest::newRow("64 bytes of unicode") << QString(22, QChar(0x8868)) << u"63-byte identifier limit"_s;
        QTest::newRow("nul") << u"status\0; DROP TABLE berth_canary; --"_s << u"NUL character"_s;
    }

    void impossibleIdentifiersAreRefused()
    {
        QFETCH(QString, value);
        QFETCH(QString, expected);
        for (const QString &field : {u"table"_s, u"statusColumn"_s, u"consumerColumn"_s, u"outbox.table"_s}) {
            InboxMapping m = InboxMapping::seed001ProcessedEvents();
            QVERIFY(setField(m, field, value));
            QVERIFY2(m.validate().contains(expected), qPrintable(field + u": "_s + m.validate()));
            const InboxBoard board = InboxBoardQuery::collect(m_db, m);
            QVERIFY2(board.error.contains(expected), qPrintable(board.error));
            const InboxRowsPage rows = InboxRowsQuery::read(m_db, m, {InboxState::FailedRetryable});
            QVERIFY2(rows.error.contains(expected), qPrintable(rows.error));
            QVERIFY(rows.rows.isEmpty());
        }
        verifyIntact();
    }

    // The parked/failed tab's filter is a literal, case-insensitive part of the id or the error.
    void inboxFilterIsLiteral_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QStringList>("ids");
        QTest::newRow("percent") << u"%"_s << QStringList{u"pct-100%"_s};
        QTest::newRow("underscore") << u"_"_s << QStringList{u"under_score"_s};
        QTest::newRow("backslash") << u"\\"_s << QStringList{u"back\\slash"_s};
        QTest::newRow("quote") << u"'"_s << QStringList{u"quote'd"_s};
        QTest::newRow("double quote") << u"\""_s << QStringList{};
        QTest::newRow("comment dashes") << u"--"_s << QStringList{u"dash--1"_s};
        QTest::newRow("case") << u"PLAIN"_s << QStringList{u"plain-1"_s, u"plain-2"_s};
        QTest::newRow("error text") << u"drop; -- it"_s << QStringList{u"dash--1"_s};
        QTest::newRow("unicode") << u"\u00efc\u00f8"_s << QStringList{u"\u00fcn\u00efc\u00f8d\u00e9-1"_s};
        QTest::newRow("pattern") << u"p%n-_"_s << QStringList{};
        QTest::newRow("bracket class") << u"[a-z]"_s << QStringList{};
        for (const QString &injection : kInjections)
            QTest::newRow(qPrintable(u"injection "_s + injection)) << injection << QStringList{};
    }

    void inboxFilterIsLiteral()
    {
        QFETCH(QString, text);
        QFETCH(QStringList, ids);
        const InboxRowsPage page =
            InboxRowsQuery::read(m_db, InboxMapping::seed000ProcessedMessage(), {InboxState::Parked}, text);
        QVERIFY2(page.error.isEmpty(), qPrintable(page.error));
        QStringList got;
        for (const InboxRow &row : page.rows)
            got << row.messageId;
        got.sort();
        ids.sort();
        QCOMPARE(got, ids);
        // Status words are values too: an injection as a status word matches nothing and runs nothing.
        InboxMapping m = InboxMapping::seed000ProcessedMessage();
        m.statuses.insert(text, InboxState::Parked);
        const InboxRowsPage more = InboxRowsQuery::read(m_db, m, {InboxState::Parked});
        QVERIFY2(more.error.isEmpty(), qPrintable(more.error));
        QCOMPARE(more.rows.size(), 8);
        verifyIntact();
    }

    // The DLQ browser's filter never reaches SQL, and is literal as well: no wildcard, no pattern.
    void dlqFilterIsLiteral_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QList<int>>("rows");
        QTest::newRow("percent") << u"%"_s << QList<int>{0};
        QTest::newRow("underscore") << u"_"_s << QList<int>{1};
        QTest::newRow("dot") << u"."_s << QList<int>{2};
        QTest::newRow("star") << u"*"_s << QList<int>{3};
        QTest::newRow("quote") << u"'"_s << QList<int>{4};
        QTest::newRow("injection") << u"'; DROP TABLE x; --"_s << QList<int>{4};
        QTest::newRow("backslash") << u"\\"_s << QList<int>{5};
        QTest::newRow("regex") << u"a.*b"_s << QList<int>{};
        QTest::newRow("case") << u"SURE"_s << QList<int>{0};
        QTest::newRow("unicode") << u"\u00dcN\u00cf"_s << QList<int>{6};
        QTest::newRow("markup") << u"<b>"_s << QList<int>{7};
    }

    void dlqFilterIsLiteral()
    {
        QFETCH(QString, text);
        QFETCH(QList<int>, rows);
        const QStringList reasons = {u"100% sure"_s,
                                     u"a_b"_s,
                                     u"x.y"_s,
                                     u"a*b"_s,
                                     u"'; DROP TABLE x; --"_s,
                                     u"c:\\temp"_s,
                                     u"\u00fcn\u00efc\u00f8d\u00e9"_s,
                                     u"<b>bold</b>"_s};
        auto pool = std::make_shared<StringPool>();
        DlqBrowserModel model;
        DlqScanPlan plan;
        plan.scanId = 1;
        plan.topic = u"orders-dlt"_s;
        plan.strings = pool;
        model.beginScan(plan);
        DlqScanBatch batch;
        batch.scanId = 1;
        for (qsizetype i = 0; i < reasons.size(); ++i) {
            DlqIndexEntry e;
            e.offset = i;
            e.reasonId = pool->intern(QStringView(reasons[i]));
            e.flags = DlqIndexEntry::NullKey;
            batch.entries.append(e);
            batch.groupIds.append(0);
        }
        model.appendBatch(batch);
        DlqFilter filter;
        filter.text = text;
        model.setFilter(filter);
        QTRY_VERIFY_WITH_TIMEOUT(!model.isFiltering(), 10000);
        QList<int> got;
        for (int row = 0; row < model.rowCount(); ++row)
            got << int(model.entry(row).offset);
        QCOMPARE(got, rows);
    }
};

QTEST_MAIN(TestSecurity)
#include "tst_security.moc"
