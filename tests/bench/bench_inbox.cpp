// Inbox benchmarks on a 10,000,000-row inbox generated in a throwaway PostgreSQL (server-side, with
// generate_series): 50 consumers, each with every state (97 % completed, the rest over the other states),
// and one status word with 7 rows that discovery must find. The documented indexes exist: (consumer,
// status, updated), the open-rows indexes (consumer, status) and (updated_at, status), both WHERE status <>
// 'completed', and the primary
// key on the message id covering (INCLUDE) consumer, status and updated; the outbox has its partial index
// on pending rows. The board must name none of them as missing. Prints FIGURE lines,
// each the median of 5 runs (every run's time on stderr), no result cached between runs (the index check's
// catalogue reading is, for one board interval, as in the product):
//   inbox_board_10m_ms              one full board refresh (connect, counts per state, oldest stuck,
//                                    attempts, top errors, outbox backlog; the exact counts on two
//                                    sessions in one snapshot, said on stderr), refreshed as the console
//                                    does: the second session kept connected across refreshes
//   inbox_board_10m_new_helper_ms   the same with the second session connected anew for each refresh
//                                    (for comparison, no target; its runs alternate with the first's)
//   inbox_board_10m_one_session_ms  the same board read by a role allowed one connection: the exact
//                                    counts on one session (for comparison, no target)
//   inbox_board_10m_exhausted_ms    the board with retry.maxAttempts set (exhausted rows per consumer),
//                                    with the open-rows (consumer, status, attempts) index: exact
//   inbox_board_10m_exhausted_estimated_ms  the same without that index: estimated from each consumer's
//                                    latest failed rows (its error against the exact count on stderr)
// QT_LOGGING_RULES=berth.inbox.debug=true prints each board statement's time.
//   inbox_key_lookup_10k_ms         10,000 DLQ keys looked up in the inbox (one statement)
//   inbox_status_discovery_10m_ms   the status vocabulary, every word
//   inbox_parked_first_page_ms      the first page of parked rows, oldest first
// The server gets 512 MB of shared buffers (a small production server's), not the test server's 16 MB.
// --quick: 1,000,000 rows.
#include "services/demo/temppostgres.h"
#include "services/inbox/inboxboardhelpersession.h"
#include "services/inbox/inboxboardquery.h"
#include "services/inbox/inboxdiscovery.h"
#include "services/inbox/inboxkeylookup.h"
#include "services/inbox/inboxrowsquery.h"
#include "services/inbox/pgsession.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <cstdio>
#include <functional>

using namespace Qt::StringLiterals;

namespace {
void figure(const char *name, double value, const char *unit)
{
    std::printf("FIGURE %s %.3f %s\n", name, value, unit);
    std::fflush(stdout);
}

// The median of 5 runs; every run's time goes to stderr in order, so a slow first (cold) run shows.
double medianMs(const char *name, const std::function<void()> &run)
{
    QList<double> times;
    std::fprintf(stderr, "bench_inbox: %s runs:", name);
    for (int i = 0; i < 5; ++i) {
        QElapsedTimer clock;
        clock.start();
        run();
        times << double(clock.nsecsElapsed()) / 1e6;
        std::fprintf(stderr, " %.1f", times.constLast());
    }
    std::fprintf(stderr, "\n");
    std::sort(times.begin(), times.end());
    return times.at(2);
}

bool step(PgSession &db, const QString &what, const QString &sql)
{
    QElapsedTimer clock;
    clock.start();
    QString error;
    if (!db.execScript(sql, &error)) {
        std::fprintf(stderr, "bench_inbox: %s failed: %s\n", qPrintable(what), qPrintable(error));
        return false;
    }
    std::fprintf(stderr, "bench_inbox: %s in %.1f s\n", qPrintable(what), double(clock.elapsed()) / 1000.0);
    return true;
}

InboxMapping mapping()
{
    InboxMapping m;
    m.name = u"bench"_s;
    m.table = u"inbox"_s;
    m.consumerColumn = u"consumer"_s;
    m.messageIdColumn = u"message_id"_s;
    m.statusColumn = u"status"_s;
    m.updatedColumn = u"updated_at"_s;
    m.firstSeenColumn = u"first_seen_at"_s;
    m.attemptsColumn = u"attempts"_s;
    m.errorColumn = u"last_error"_s;
    m.statuses = {{u"in_progress"_s, InboxState::InProgress}, {u"completed"_s, InboxState::Completed},
                  {u"failed"_s, InboxState::FailedRetryable},  {u"dead"_s, InboxState::FailedTerminal},
                  {u"parked"_s, InboxState::Parked},           {u"skipped"_s, InboxState::Skipped}};
    m.outbox = {QString(), u"outbox"_s, u"status"_s, u"created_at"_s, u"pending"_s};
    return m;
}
} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const bool quick = app.arguments().contains(u"--quick"_s);
    const qint64 rows = quick ? 1'000'000 : 10'000'000;
    TempPostgres pg;
    // The throwaway server's 16 MB of shared buffers would measure the disk cache, not the queries: give
    // it what a small production server has.
    pg.setSharedBuffers(u"512MB"_s);
    QString error;
    if (!pg.start(&error)) {
        std::fprintf(stderr, "bench_inbox: %s\n", qPrintable(error));
        return 1;
    }
    PgSession db;
    if (!db.connect(pg.conninfo(), &error))
        return 1;
    std::fprintf(stderr, "bench_inbox: shared_buffers %s\n",
                 qPrintable(db.exec(u"SHOW shared_buffers"_s).rows.value(0).value(0).toString()));
    // Unlogged and filled in one statement: the data is throwaway, only its shape matters.
    const QString fill = uR"(
SET maintenance_work_mem = '512MB';
SET max_parallel_maintenance_workers = 2;
CREATE UNLOGGED TABLE inbox (
    message_id text NOT NULL, consumer text NOT NULL, status text NOT NULL,
    first_seen_at timestamptz NOT NULL, updated_at timestamptz NOT NULL, attempts int NOT NULL, last_error text);
INSERT INTO inbox
SELECT 'm-' || i, 'consumer-' || lpad(((i / 100) % 50)::text, 2, '0'),
       CASE WHEN i % 100 < 97 THEN 'completed' WHEN i % 100 = 97 THEN 'failed' WHEN i % 100 = 98 THEN 'parked'
            WHEN i % 200 = 99 THEN 'in_progress' ELSE 'dead' END,
       now() - make_interval(secs => (%1 - i) / 100.0), now() - make_interval(secs => (%1 - i) / 100.0),
       1 + (i % 7), CASE WHEN i % 100 >= 97 THEN 'error ' || (i % 13) END
FROM generate_series(1, %1) AS i;
UPDATE inbox SET status = 'quarantined' WHERE message_id IN ('m-100', 'm-2000', 'm-30000', 'm-400000', 'm-500001', 'm-600002', 'm-700003');
)"_s.arg(rows);
    if (!step(db, u"generate %1 rows"_s.arg(rows), fill)
        || !step(db, u"primary key"_s,
                 u"ALTER TABLE inbox ADD PRIMARY KEY (message_id) INCLUDE (consumer, status, updated_at)"_s)
        || !step(db, u"board index"_s, u"CREATE INDEX inbox_board ON inbox (consumer, status, updated_at)"_s)
        || !step(db, u"open-rows index"_s,
                 u"CREATE INDEX inbox_open ON inbox (consumer, status) WHERE status <> 'completed'"_s)
        || !step(db, u"open-rows-by-time index"_s,
                 u"CREATE INDEX inbox_open_by_time ON inbox (updated_at, status) WHERE status <> 'completed'"_s)
        || !step(db, u"outbox"_s,
                 u"CREATE UNLOGGED TABLE outbox (id bigserial PRIMARY KEY, status text NOT NULL, created_at "
                 u"timestamptz NOT NULL); INSERT INTO outbox (status, created_at) SELECT CASE WHEN i % 100 = 0 "
                 u"THEN 'pending' ELSE 'published' END, now() - make_interval(secs => i) FROM generate_series(1, "
                 u"100000) AS i; CREATE INDEX outbox_pending ON outbox (created_at) WHERE status = 'pending'"_s)
        || !step(db, u"vacuum analyze"_s, u"VACUUM (FREEZE, ANALYZE) inbox"_s)
        || !step(db, u"vacuum analyze outbox"_s, u"VACUUM (ANALYZE) outbox"_s))
        return 1;

    const InboxMapping m = mapping();
    const QString conninfo = pg.conninfo();
    InboxBoard board;
    // As the console refreshes a board: its second session connected once (before the runs, as a console
    // watching the table has), kept across refreshes. The runs alternate with boards whose second session
    // is connected anew each time, so both see the same conditions.
    InboxBoardHelperSession helper;
    board = InboxBoardQuery::collect(conninfo, m, JobControl(), InboxBoardQuery::DefaultStatementTimeoutMs, nullptr,
                                     &helper);
    QList<double> kept;
    QList<double> fresh;
    for (int i = 0; i < 5; ++i) {
        QElapsedTimer clock;
        clock.start();
        board = InboxBoardQuery::collect(conninfo, m, JobControl(), InboxBoardQuery::DefaultStatementTimeoutMs,
                                         nullptr, &helper);
        kept << double(clock.nsecsElapsed()) / 1e6;
        clock.restart();
        InboxBoardQuery::collect(conninfo, m);
        fresh << double(clock.nsecsElapsed()) / 1e6;
    }
    const auto report = [](const char *name, QList<double> times) {
        std::fprintf(stderr, "bench_inbox: %s runs:", name);
        for (double t : std::as_const(times))
            std::fprintf(stderr, " %.1f", t);
        std::sort(times.begin(), times.end());
        std::fprintf(stderr, " (min %.1f, max %.1f)\n", times.constFirst(), times.constLast());
        figure(name, times.at(2), "ms");
    };
    report("inbox_board_10m_ms", kept);
    report("inbox_board_10m_new_helper_ms", fresh);
    std::fprintf(stderr, "bench_inbox: helper session connected %d time(s) over 6 refreshes\n", helper.connects());
    if (!board.ok())
        std::fprintf(stderr, "bench_inbox: board failed: %s\n", qPrintable(board.error));
    for (const QString &missing : std::as_const(board.missingIndexes))
        std::fprintf(stderr, "bench_inbox: board names a missing index: %s\n", qPrintable(missing));
    std::fprintf(stderr,
                 "bench_inbox: board: completed %lld%s, parked %lld, stuck %lld, errors %lld, outbox %lld, exact "
                 "counts on %d session(s)\n",
                 board.total(InboxState::Completed), board.estimated[size_t(InboxState::Completed)] ? " (about)" : "",
                 board.total(InboxState::Parked), board.stuckCount, qlonglong(board.topErrors.size()),
                 board.outbox.pending, board.countSessions);

    // The same board on one session (a role allowed one connection): what the second session saves, measured
    // in the same conditions.
    if (!step(db, u"one-session role"_s,
              u"CREATE ROLE bench_one LOGIN CONNECTION LIMIT 1; GRANT SELECT ON inbox, outbox TO bench_one"_s))
        return 1;
    InboxBoard oneSession;
    figure("inbox_board_10m_one_session_ms", medianMs("inbox_board_10m_one_session_ms", [&] {
               oneSession = InboxBoardQuery::collect(pg.conninfo(u"bench_one"_s), m);
           }),
           "ms");
    std::fprintf(stderr, "bench_inbox: one-session board: %s, exact counts on %d session(s), same totals: %s\n",
                 oneSession.ok() ? "ok" : qPrintable(oneSession.error), oneSession.countSessions,
                 oneSession.totals == board.totals ? "yes" : "no");

    // Exhausted retries (retry.maxAttempts 5: attempts 5, 6 and 7 of the failed rows), first with the
    // documented open-rows index on (consumer, status, attempts), then without it.
    InboxMapping withLimit = m;
    withLimit.exhaustedAfterAttempts = 5;
    const qint64 exhaustedInSql =
        db.exec(u"SELECT count(*) FROM inbox WHERE status = 'failed' AND attempts >= 5"_s).rows.value(0).value(0).toLongLong();
    if (!step(db, u"exhausted-rows index"_s,
              u"CREATE INDEX inbox_open_attempts ON inbox (consumer, status, attempts) WHERE status <> 'completed'"_s)
        || !step(db, u"vacuum analyze"_s, u"VACUUM (ANALYZE) inbox"_s))
        return 1;
    InboxBoard exhausted;
    figure("inbox_board_10m_exhausted_ms", medianMs("inbox_board_10m_exhausted_ms", [&] {
               exhausted = InboxBoardQuery::collect(conninfo, withLimit, JobControl(),
                                                    InboxBoardQuery::DefaultStatementTimeoutMs, nullptr, &helper);
           }),
           "ms");
    std::fprintf(stderr, "bench_inbox: exhausted %lld%s (SQL: %lld), missing indexes %lld %s\n",
                 exhausted.exhaustedRows(), exhausted.exhaustedEstimated ? " (about)" : "", exhaustedInSql,
                 qlonglong(exhausted.missingIndexes.size()), qPrintable(exhausted.error));
    if (!step(db, u"drop the exhausted-rows index"_s, u"DROP INDEX inbox_open_attempts"_s))
        return 1;
    figure("inbox_board_10m_exhausted_estimated_ms", medianMs("inbox_board_10m_exhausted_estimated_ms", [&] {
               exhausted = InboxBoardQuery::collect(conninfo, withLimit, JobControl(),
                                                    InboxBoardQuery::DefaultStatementTimeoutMs, nullptr, &helper);
           }),
           "ms");
    std::fprintf(stderr, "bench_inbox: exhausted about %lld%s (SQL: %lld, error %.1f %%) %s\n",
                 exhausted.exhaustedRows(), exhausted.exhaustedEstimated ? " (marked about)" : " (not marked!)",
                 exhaustedInSql,
                 100.0 * double(exhausted.exhaustedRows() - exhaustedInSql) / double(std::max<qint64>(1, exhaustedInSql)),
                 qPrintable(exhausted.error));
    {
        // What the board no longer does on such a table: every failed row's visit for its attempts.
        QElapsedTimer clock;
        clock.start();
        db.exec(u"SELECT count(*) FROM inbox WHERE status = 'failed' AND attempts >= 5"_s);
        std::fprintf(stderr, "bench_inbox: the exact count by reading every failed row: %.1f ms\n",
                     double(clock.nsecsElapsed()) / 1e6);
    }

    QStringList keys;
    for (int i = 0; i < 10'000; ++i)
        keys << u"m-"_s + QString::number(i * 997 % (rows * 2)); // about half of them in the inbox
    qsizetype found = 0;
    figure("inbox_key_lookup_10k_ms", medianMs("inbox_key_lookup_10k_ms", [&] {
               PgSession session;
               QString e;
               session.connect(conninfo, &e);
               found = InboxKeyLookup::lookup(session, {m}, keys, &e).size();
           }),
           "ms");
    std::fprintf(stderr, "bench_inbox: %lld of 10000 keys found\n", qlonglong(found));

    InboxDiscovery::StatusWords words;
    figure("inbox_status_discovery_10m_ms", medianMs("inbox_status_discovery_10m_ms", [&] {
               PgSession session;
               QString e;
               session.connect(conninfo, &e);
               words = InboxDiscovery::statusWords(session, {}, u"inbox"_s, u"status"_s, u"consumer"_s, &e);
           }),
           "ms");
    std::fprintf(stderr, "bench_inbox: words %s (%s)\n", qPrintable(words.words.join(u", "_s)), qPrintable(words.method));
    if (!words.words.contains(u"quarantined"_s))
        std::fprintf(stderr, "bench_inbox: discovery missed the rare word\n");

    InboxRowsPage page;
    figure("inbox_parked_first_page_ms", medianMs("inbox_parked_first_page_ms", [&] {
               PgSession session;
               QString e;
               session.connect(conninfo, &e);
               page = InboxRowsQuery::read(session, m, {InboxState::Parked});
           }),
           "ms");
    std::fprintf(stderr, "bench_inbox: first page %lld rows%s %s\n", qlonglong(page.rows.size()), page.more ? " (more)" : "",
                 qPrintable(page.error));

    // BERTH_BENCH_EXPLAIN=FILE: once more, after the figures, with every statement's plan and timings
    // (auto_explain, EXPLAIN ANALYZE BUFFERS) written to FILE: where a refresh spends its time. Set for the
    // database, so the board's second session is explained too.
    const QString explainTo = qEnvironmentVariable("BERTH_BENCH_EXPLAIN");
    if (!explainTo.isEmpty()) {
        const qint64 logStart = QFileInfo(pg.logFile()).size();
        QString e;
        const QString database = db.exec(u"SELECT current_database()"_s).rows.value(0).value(0).toString();
        const QString target = u"ALTER DATABASE "_s + db.escapeIdentifier(database);
        if (!db.execScript(target + u" SET session_preload_libraries = 'auto_explain'; "_s + target
                               + u" SET auto_explain.log_min_duration = 0; "_s + target
                               + u" SET auto_explain.log_analyze = on; "_s + target
                               + u" SET auto_explain.log_buffers = on;"_s,
                           &e))
            std::fprintf(stderr, "bench_inbox: auto_explain: %s\n", qPrintable(e));
        InboxBoardQuery::collect(conninfo, m);
        PgSession session;
        session.connect(conninfo, &e);
        InboxKeyLookup::lookup(session, {m}, keys, &e);
        InboxRowsQuery::read(session, m, {InboxState::Parked});
        session.close();
        db.execScript(target + u" RESET ALL"_s, &e);
        QFile log(pg.logFile());
        QFile out(explainTo);
        if (log.open(QIODevice::ReadOnly) && out.open(QIODevice::WriteOnly)) {
            log.seek(logStart);
            out.write(log.readAll());
        }
    }
    return 0;
}
