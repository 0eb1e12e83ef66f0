#include "services/demo/temppostgres.h"
#include "services/inbox/pgconnection.h"
#include "services/inbox/pgsession.h"

#include <QElapsedTimer>
#include <QLoggingCategory>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTest>
#include <QThread>

#include <optional>

using namespace Qt::StringLiterals;
using State = PgConnection::State;

namespace {
// Runs one query through the connection and waits for its result on this thread. The local context
// guarantees a late result (after a timeout) is dropped instead of touching this frame.
PgResult await(PgConnection &db, const QString &sql, const QVariantList &params = {})
{
    auto result = std::make_shared<std::optional<PgResult>>();
    QObject context;
    db.query(sql, params, &context, [result](const PgResult &r) { *result = r; });
    if (!QTest::qWaitFor([&] { return result->has_value(); }, 10'000))
        return PgResult::failure(u"test timed out waiting for the result"_s);
    return **result;
}
QStringList g_log; // every message logged while a test captures them
void captureMessage(QtMsgType, const QMessageLogContext &, const QString &message)
{
    g_log << message;
}
} // namespace

class TestPgConnection final : public QObject {
    Q_OBJECT
    std::unique_ptr<TempPostgres> m_pg;

    // Only the tests that need a server pay for one (each test function runs as its own process).
    bool startServer()
    {
        if (m_pg)
            return true;
        m_pg = std::make_unique<TempPostgres>();
        QString error;
        if (!m_pg->start(&error)) {
            qWarning().noquote() << error;
            return false;
        }
        return true;
    }

    bool openConnected(PgConnection &db)
    {
        db.setBackoff(50, 200);
        db.open(m_pg->conninfo());
        return QTest::qWaitFor([&] { return db.state() == State::Connected; }, 10'000);
    }

private Q_SLOTS:
    void roundTripsParametersAndTypes()
    {
        QVERIFY(startServer());
        PgConnection db;
        QVERIFY2(openConnected(db), qPrintable(db.lastError()));
        PgResult r = await(
            db, u"CREATE TABLE rt (id int PRIMARY KEY, flag boolean, small int2, big int8, ratio float8, "
                "amount numeric, label text, code varchar(40), at timestamptz, naive timestamp, "
                "payload bytea)"_s);
        QVERIFY2(r.ok, qPrintable(r.error));

        const QString injection = u"Robert'); DROP TABLE rt; -- \"x\" \\ Grüße 🚢"_s;
        const QDateTime at(QDate(2024, 2, 29), QTime(23, 59, 58, 123), Qt::UTC);
        // Same instant written with a +05:30 offset: must come back as UTC.
        const QDateTime offset = at.toOffsetFromUtc(5 * 3600 + 1800);
        QByteArray payload;
        for (int i = 0; i < 256; ++i)
            payload.append(char(i));

        const QString insert = u"INSERT INTO rt VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)"_s;
        r = await(db, insert,
                  {1, true, 7, Q_INT64_C(9007199254740993), 0.25, 1234.5, injection, injection.left(12),
                   offset, at, payload});
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.affected, qint64(1));
        // Qt 6 semantics: only an invalid QVariant (or nullptr) is NULL; a null QString is ''.
        r = await(db, insert,
                  {2, false, {}, {}, {}, QVariant::fromValue(nullptr), {}, QVariant(QString()), {}, {}, {}});
        QVERIFY2(r.ok, qPrintable(r.error));

        r = await(db, u"SELECT * FROM rt ORDER BY id"_s);
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.rows.size(), 2);
        QCOMPARE(r.columns.size(), 11);
        const QVariantList full = r.rows.at(0);
        QCOMPARE(full.at(r.columnIndex(u"flag")).metaType().id(), QMetaType::Bool);
        QCOMPARE(full.at(r.columnIndex(u"flag")).toBool(), true);
        QCOMPARE(full.at(r.columnIndex(u"small")), QVariant(qlonglong(7)));
        QCOMPARE(full.at(r.columnIndex(u"big")), QVariant(Q_INT64_C(9007199254740993)));
        QCOMPARE(full.at(r.columnIndex(u"ratio")), QVariant(0.25));
        QCOMPARE(full.at(r.columnIndex(u"amount")), QVariant(1234.5));
        QCOMPARE(full.at(r.columnIndex(u"label")), QVariant(injection)); // stored verbatim, nothing executed
        QCOMPARE(full.at(r.columnIndex(u"code")), QVariant(injection.left(12)));
        const QDateTime readAt = full.at(r.columnIndex(u"at")).toDateTime();
        QCOMPARE(readAt, at);
        QCOMPARE(readAt.timeSpec(), Qt::UTC);
        QCOMPARE(full.at(r.columnIndex(u"naive")).toDateTime(), at);
        QCOMPARE(full.at(r.columnIndex(u"payload")).metaType().id(), QMetaType::QByteArray);
        QCOMPARE(full.at(r.columnIndex(u"payload")).toByteArray(), payload);
        QCOMPARE(r.columnIndex(u"missing"), -1);

        const QVariantList nulls = r.rows.at(1);
        QCOMPARE(nulls.at(r.columnIndex(u"flag")), QVariant(false));
        QCOMPARE(nulls.at(r.columnIndex(u"code")), QVariant(QString(u""_s)));
        const QStringList nullable{u"small"_s, u"big"_s, u"ratio"_s, u"amount"_s,
                                   u"label"_s, u"at"_s,  u"naive"_s, u"payload"_s};
        for (const QString &column : nullable)
            QVERIFY2(!nulls.at(r.columnIndex(column)).isValid(), qPrintable(column));

        r = await(db, u"SELECT count(*) FROM rt WHERE label = $1"_s, {injection});
        QCOMPARE(r.rows.value(0).value(0), QVariant(qlonglong(1)));
        r = await(db, u"SELECT $1::bytea = decode($2, 'hex')"_s,
                  {payload, QString::fromLatin1(payload.toHex())});
        QCOMPARE(r.rows.value(0).value(0), QVariant(true));
    }

    // A string list is sent as one text[] literal (as executors send thousands of items per statement):
    // every element arrives as it was, quotes, backslashes, separators and non-ASCII text included.
    void stringListsArriveAsTextArrays()
    {
        QVERIFY(startServer());
        PgConnection db;
        QVERIFY2(openConnected(db), qPrintable(db.lastError()));
        const QStringList sent{u"plain"_s,       QString(),       u"say \"hi\""_s, u"C:\\dir\\"_s,
                               u"a,b {c}"_s,     u"NULL"_s,       u"Grüße €"_s,    u"tab\tand\nline"_s,
                               u"\\\""_s,        u"𝄞 \\ \"x\""_s};
        const PgResult r = await(
            db, u"SELECT x, octet_length(x) FROM unnest($1::text[]) WITH ORDINALITY AS u(x, n) ORDER BY n"_s,
            {sent});
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.rows.size(), sent.size());
        for (qsizetype i = 0; i < sent.size(); ++i) {
            QCOMPARE(r.rows.at(i).at(0).toString(), sent.at(i));
            QCOMPARE(r.rows.at(i).at(1).toInt(), int(sent.at(i).toUtf8().size()));
        }
    }

    void sqlErrorsCarryStateAndKeepConnection()
    {
        QVERIFY(startServer());
        PgConnection db;
        QVERIFY2(openConnected(db), qPrintable(db.lastError()));
        QSignalSpy states(&db, &PgConnection::stateChanged);
        PgResult r = await(db, u"SELECT * FROM no_such_table"_s);
        QVERIFY(!r.ok);
        QCOMPARE(r.sqlState, u"42P01"_s);
        QVERIFY2(r.error.contains(u"no_such_table"_s), qPrintable(r.error));
        QVERIFY(!r.error.contains(u'\n'));
        r = await(db, u"SELECT $1::int + 1"_s, {41});
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.rows.value(0).value(0), QVariant(qlonglong(42)));
        QCOMPARE(db.state(), State::Connected);
        QCOMPARE(states.count(), 0);
    }

    // A server error never quotes row values (ARCHITECTURE.md, Masking: server errors): an integrity
    // violation's DETAIL ("Key (id)=(...) already exists", "Failing row contains (...)") and a data
    // exception's quoted input could hold masked keys or payload fields. The error names the constraint
    // and table instead; errors of other classes keep their DETAIL. Neither the error nor the log holds
    // the marker, on the desk's connection and on a blocking session alike.
    void serverErrorsDoNotQuoteRowValues()
    {
        QVERIFY(startServer());
        const QString marker = u"MARKER-4111-1111"_s;
        QLoggingCategory::setFilterRules(u"*.debug=true"_s);
        g_log.clear();
        const QtMessageHandler previous = qInstallMessageHandler(captureMessage);
        const auto restore = qScopeGuard([previous] {
            qInstallMessageHandler(previous);
            QLoggingCategory::setFilterRules(QString());
        });
        PgConnection db;
        QVERIFY2(openConnected(db), qPrintable(db.lastError()));
        PgResult r = await(db, u"CREATE TABLE parked (id text PRIMARY KEY, card text CONSTRAINT card_short "
                               u"CHECK (length(card) < 8), n int NOT NULL, sku uuid)"_s);
        QVERIFY2(r.ok, qPrintable(r.error));
        r = await(db, u"INSERT INTO parked (id, card, n) VALUES ($1, 'x', 1)"_s, {marker});
        QVERIFY2(r.ok, qPrintable(r.error));

        const auto check = [&](const PgResult &failed, const QString &state, const QString &named) {
            QVERIFY(!failed.ok);
            QCOMPARE(failed.sqlState, state);
            QVERIFY2(!failed.error.contains(marker), qPrintable(failed.error));
            QVERIFY2(!failed.error.contains(u"4111"_s), qPrintable(failed.error));
            QVERIFY2(failed.error.contains(named), qPrintable(failed.error));
        };
        // unique: "Key (id)=(MARKER...) already exists"
        check(await(db, u"INSERT INTO parked (id, card, n) VALUES ($1, 'x', 1)"_s, {marker}), u"23505"_s,
              u"parked_pkey"_s);
        // check: "Failing row contains (..., MARKER...)"
        check(await(db, u"INSERT INTO parked (id, card, n) VALUES ('a', $1, 1)"_s, {marker}), u"23514"_s,
              u"card_short"_s);
        // not null: "Failing row contains (MARKER..., ...)"
        check(await(db, u"INSERT INTO parked (id, card) VALUES ($1 || '-2', 'x')"_s, {marker}), u"23502"_s,
              u"parked"_s);
        // data exception: `invalid input syntax for type uuid: "MARKER..."`
        check(await(db, u"INSERT INTO parked (id, card, n, sku) VALUES ('b', 'x', 1, $1)"_s, {marker}),
              u"22P02"_s, u"uuid"_s);

        // The same rule on a blocking session (the audit database's, the inbox tables').
        PgSession session;
        QString error;
        QVERIFY2(session.connect(m_pg->conninfo(), &error), qPrintable(error));
        check(session.exec(u"INSERT INTO parked (id, card, n) VALUES ($1, 'x', 1)"_s, {marker}), u"23505"_s,
              u"parked_pkey"_s);
        QVERIFY(!session.execScript(
            u"INSERT INTO parked (id, card, n) VALUES ('"_s + marker + u"', 'x', 1)"_s, &error));
        QVERIFY2(!error.contains(marker) && error.contains(u"parked_pkey"_s), qPrintable(error));

        // Another class keeps its DETAIL: a refused DROP says what depends on the table.
        QVERIFY(session.exec(u"CREATE VIEW parked_view AS SELECT id FROM parked"_s).ok);
        const PgResult drop = session.exec(u"DROP TABLE parked"_s);
        QCOMPARE(drop.sqlState, u"2BP01"_s);
        QVERIFY2(drop.error.contains(u"parked_view"_s), qPrintable(drop.error));

        for (const QString &line : std::as_const(g_log))
            QVERIFY2(!line.contains(marker), qPrintable(line));
    }

    void resultsArriveOnTheContextThread()
    {
        QVERIFY(startServer());
        PgConnection db;
        QVERIFY2(openConnected(db), qPrintable(db.lastError()));

        QThread other;
        other.start();
        QObject remote;
        remote.moveToThread(&other);
        QObject local;
        std::atomic<QThread *> remoteSeen = nullptr;
        std::atomic<QThread *> localSeen = nullptr;
        db.query(u"SELECT 1"_s, {}, &remote,
                 [&](const PgResult &) { remoteSeen = QThread::currentThread(); });
        db.query(u"SELECT 2"_s, {}, &local, [&](const PgResult &) { localSeen = QThread::currentThread(); });
        QTRY_VERIFY(remoteSeen.load() && localSeen.load());
        QCOMPARE(remoteSeen.load(), &other);
        QCOMPARE(localSeen.load(), QThread::currentThread());
        other.quit();
        QVERIFY(other.wait(5000));
    }

    void resultsForADestroyedContextAreDropped()
    {
        QVERIFY(startServer());
        PgConnection db;
        QVERIFY2(openConnected(db), qPrintable(db.lastError()));
        auto called = std::make_shared<bool>(false);
        auto *context = new QObject;
        db.query(u"SELECT pg_sleep(0.2)"_s, {}, context, [called](const PgResult &) { *called = true; });
        delete context;
        // Results come back in order: once this one is here, the first would have been delivered.
        QVERIFY(await(db, u"SELECT 1"_s).ok);
        QVERIFY(!*called);
    }

    void wrongConninfoRetriesWithReadableError()
    {
        PgConnection db;
        db.setBackoff(20, 40);
        QSignalSpy states(&db, &PgConnection::stateChanged);
        db.open(u"host=/nonexistent-berth-dir port=5432 user=postgres"_s);
        QTRY_COMPARE(db.state(), State::Reconnecting);
        QVERIFY2(db.lastError().contains(u"/nonexistent-berth-dir"_s), qPrintable(db.lastError()));
        QVERIFY2(db.lastError().contains(u"No such file or directory"_s), qPrintable(db.lastError()));
        QVERIFY(!db.lastError().contains(u'\n'));
        QCOMPARE(states.first().at(0).value<State>(), State::Connecting);
        // Retrying quietly: the same failure is not re-announced on every attempt.
        QTest::qWait(300);
        QCOMPARE(db.state(), State::Reconnecting);
        QCOMPARE(states.count(), 2);
        db.close();
        QTRY_COMPARE(db.state(), State::Disconnected);
    }

    void malformedConninfoFails()
    {
        PgConnection db;
        db.open(u"host=/tmp bogus_option=1"_s);
        QTRY_COMPARE(db.state(), State::Failed);
        QVERIFY2(db.lastError().contains(u"bogus_option"_s), qPrintable(db.lastError()));
    }

    void queriesFailFastWhenNotConnected()
    {
        PgConnection db;
        QElapsedTimer timer;
        timer.start();
        PgResult r = await(db, u"SELECT 1"_s);
        QVERIFY(!r.ok);
        QVERIFY2(r.error.contains(u"not connected"_s), qPrintable(r.error));
        QVERIFY(timer.elapsed() < 2000);

        db.setBackoff(5000, 5000); // stays in its first backoff wait for the rest of the test
        db.open(u"host=/nonexistent-berth-dir port=5432 user=postgres"_s);
        QTRY_COMPARE(db.state(), State::Reconnecting);
        timer.restart();
        r = await(db, u"SELECT 1"_s);
        QVERIFY(!r.ok);
        QVERIFY(timer.elapsed() < 2000);
        QVERIFY2(r.error.contains(u"not connected"_s) && r.error.contains(u"No such file or directory"_s),
                 qPrintable(r.error));
    }

    void reconnectsAfterTheServerComesBack()
    {
        QVERIFY(startServer());
        PgConnection db;
        db.listen(u"berth_events"_s); // before connecting: issued once connected, and again after reconnects
        QVERIFY2(openConnected(db), qPrintable(db.lastError()));
        QSignalSpy states(&db, &PgConnection::stateChanged);
        QSignalSpy notifications(&db, &PgConnection::notification);

        m_pg->stop();
        // Noticed while idle, from the socket alone.
        QTRY_COMPARE(db.state(), State::Reconnecting);
        QCOMPARE(states.first().at(0).value<State>(), State::Reconnecting);
        // The server's own reason, not only libpq's "server closed the connection unexpectedly".
        const QString lostBecause = states.first().at(1).toString();
        QVERIFY2(lostBecause.contains(u"administrator command"_s), qPrintable(lostBecause));
        QVERIFY(!db.lastError().isEmpty());
        const PgResult down = await(db, u"SELECT 1"_s);
        QVERIFY(!down.ok);
        QTest::qWait(300); // a few failed attempts while the server is away
        QCOMPARE(db.state(), State::Reconnecting);

        QString error;
        QVERIFY2(m_pg->start(&error), qPrintable(error));
        QTRY_COMPARE_WITH_TIMEOUT(db.state(), State::Connected, 5000);
        QCOMPARE(states.last().at(0).value<State>(), State::Connected);
        QVERIFY(await(db, u"SELECT 1"_s).ok);
        QVERIFY2(m_pg->exec(u"NOTIFY berth_events, 'after restart'"_s, &error), qPrintable(error));
        QTRY_COMPARE(notifications.count(), 1);
        QCOMPARE(notifications.first().at(1).toString(), u"after restart"_s);

        // A restart (connections terminated, server back at once) is survived too.
        states.clear();
        QVERIFY2(m_pg->restart(&error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(states.count() >= 2 && db.state() == State::Connected, 5000);
        QCOMPARE(states.first().at(0).value<State>(), State::Reconnecting);
        QVERIFY(await(db, u"SELECT 1"_s).ok);
    }

    void listenDeliversNotifications()
    {
        QVERIFY(startServer());
        PgConnection db;
        QVERIFY2(openConnected(db), qPrintable(db.lastError()));
        QSignalSpy notifications(&db, &PgConnection::notification);
        db.listen(u"berth_events"_s);
        db.listen(u"Mixed Case \"channel\""_s); // must be quoted, not folded or broken
        QVERIFY(await(db, u"SELECT 1"_s).ok);   // both LISTENs ran before this

        QString error;
        QVERIFY2(m_pg->exec(u"NOTIFY unrelated, 'ignored'; NOTIFY berth_events, 'from outside';"
                            "SELECT pg_notify('Mixed Case \"channel\"', 'quoted');"_s,
                            &error),
                 qPrintable(error));
        QTRY_COMPARE(notifications.count(), 2);
        QCOMPARE(notifications.at(0).at(0).toString(), u"berth_events"_s);
        QCOMPARE(notifications.at(0).at(1).toString(), u"from outside"_s);
        QCOMPARE(notifications.at(1).at(0).toString(), u"Mixed Case \"channel\""_s);

        // Notifications that arrive inside a query's own response are not left in libpq's buffer.
        QVERIFY(await(db, u"SELECT pg_notify('berth_events', 'self')"_s).ok);
        QTRY_COMPARE(notifications.count(), 3);
        QCOMPARE(notifications.at(2).at(1).toString(), u"self"_s);
    }

    void destructionDoesNotWaitForARunningQuery()
    {
        QVERIFY(startServer());
        auto db = std::make_unique<PgConnection>();
        QVERIFY2(openConnected(*db), qPrintable(db->lastError()));
        auto result = std::make_shared<std::optional<PgResult>>();
        db->query(u"SELECT pg_sleep(30)"_s, {}, this, [result](const PgResult &r) { *result = r; });
        QTest::qWait(200); // let it start on the server
        QElapsedTimer timer;
        timer.start();
        db.reset();
        QVERIFY2(timer.elapsed() < 5000, "the running statement must be cancelled");
        QTRY_VERIFY(result->has_value());
        QVERIFY(!(*result)->ok);
        QCOMPARE((*result)->sqlState, u"57014"_s); // query_canceled
    }
};

QTEST_GUILESS_MAIN(TestPgConnection)
#include "tst_pgconnection.moc"
