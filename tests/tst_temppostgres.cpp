#include "services/demo/temppostgres.h"
#include "services/inbox/pgsession.h"

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace {
qint64 postmasterPid(const TempPostgres &pg)
{
    QFile file(pg.dataDir() + u"/postmaster.pid"_s);
    if (!file.open(QIODevice::ReadOnly))
        return -1;
    return file.readLine().trimmed().toLongLong();
}

// The postmaster is not our child, so once stopped it may linger as a zombie until init reaps it.
bool processAlive(qint64 pid)
{
    QFile status(u"/proc/%1/status"_s.arg(pid));
    if (pid <= 0 || !status.open(QIODevice::ReadOnly))
        return false;
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith("State:"))
            return !line.contains("zombie");
    }
    return true;
}

uint expectedServerUid()
{
    if (::geteuid() != 0)
        return ::geteuid();
    const passwd *pw = ::getpwnam("postgres");
    return pw ? pw->pw_uid : 0;
}

// A directory the server user may walk through (QTemporaryDir is 0700, owned by us).
bool makeTraversable(const QTemporaryDir &dir)
{
    return ::chmod(QFile::encodeName(dir.path()).constData(), 0755) == 0;
}
} // namespace

class TestTempPostgres final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void startsQuicklyAndRunsSql()
    {
        TempPostgres pg;
        QVERIFY(!pg.isRunning());
        QElapsedTimer timer;
        timer.start();
        QString error;
        QVERIFY2(pg.start(&error), qPrintable(error));
        const qint64 elapsed = timer.elapsed();
        qInfo("initdb + start took %lld ms", elapsed);
        QVERIFY2(elapsed < 10'000, "startup must be quick (< 3 s on an idle machine)");
        QVERIFY(pg.isRunning());
        QVERIFY(pg.port() >= 20000 && pg.port() <= 60000);
        QVERIFY(QFileInfo::exists(pg.socketDir() + u"/.s.PGSQL."_s + QString::number(pg.port())));
        QVERIFY(pg.conninfo().contains(u"host="_s + pg.socketDir()));

        QVERIFY2(pg.exec(u"CREATE TABLE t (id int PRIMARY KEY, name text);"
                         "INSERT INTO t VALUES (1, 'one'), (2, 'two');"_s,
                         &error),
                 qPrintable(error));
        PgSession session;
        QVERIFY2(session.connect(pg.conninfo(), &error), qPrintable(error));
        PgResult result = session.exec(u"SELECT id, name FROM t ORDER BY id"_s);
        QVERIFY2(result.ok, qPrintable(result.error));
        QCOMPARE(result.columns, QStringList({u"id"_s, u"name"_s}));
        QCOMPARE(result.rows.size(), 2);
        QCOMPARE(result.rows.at(1).at(0), QVariant(qlonglong(2)));
        QCOMPARE(result.rows.at(1).at(1), QVariant(u"two"_s));

        // Socket only, and throwaway durability.
        result = session.exec(u"SELECT current_setting('listen_addresses'), current_setting('fsync'), "
                              "inet_server_addr() IS NULL"_s);
        QVERIFY2(result.ok, qPrintable(result.error));
        QCOMPARE(result.rows.at(0).at(0).toString(), QString());
        QCOMPARE(result.rows.at(0).at(1).toString(), u"off"_s);
        QCOMPARE(result.rows.at(0).at(2), QVariant(true));

        QVERIFY(!pg.exec(u"SELECT * FROM missing_table"_s, &error));
        QVERIFY2(error.contains(u"missing_table"_s), qPrintable(error));
    }

    void conninfoSelectsUserAndDatabase()
    {
        TempPostgres pg;
        QString error;
        QVERIFY2(pg.start(&error), qPrintable(error));
        QVERIFY2(pg.exec(u"CREATE ROLE alice LOGIN"_s, &error), qPrintable(error));
        // Alone: a multi-statement script is one implicit transaction, which CREATE DATABASE refuses.
        QVERIFY2(pg.exec(u"CREATE DATABASE shop OWNER alice"_s, &error), qPrintable(error));
        PgSession session;
        QVERIFY2(session.connect(pg.conninfo(u"alice"_s, u"shop"_s), &error), qPrintable(error));
        const PgResult result = session.exec(u"SELECT session_user, current_database()"_s);
        QVERIFY2(result.ok, qPrintable(result.error));
        QCOMPARE(result.rows.at(0).at(0).toString(), u"alice"_s);
        QCOMPARE(result.rows.at(0).at(1).toString(), u"shop"_s);
    }

    void restartDropsClientsAndKeepsData()
    {
        TempPostgres pg;
        QString error;
        QVERIFY2(pg.start(&error), qPrintable(error));
        QVERIFY2(pg.exec(u"CREATE TABLE kept (v text); INSERT INTO kept VALUES ('still here')"_s, &error),
                 qPrintable(error));
        PgSession session;
        QVERIFY2(session.connect(pg.conninfo(), &error), qPrintable(error));
        QVERIFY(session.exec(u"SELECT 1"_s).ok);
        const qint64 before = postmasterPid(pg);
        QVERIFY(before > 0);

        QVERIFY2(pg.restart(&error), qPrintable(error));
        QVERIFY(pg.isRunning());
        QVERIFY(postmasterPid(pg) != before);
        const PgResult lost = session.exec(u"SELECT 1"_s);
        QVERIFY(!lost.ok);
        QVERIFY(!lost.error.isEmpty());
        QVERIFY(!session.isOpen());

        PgSession again;
        QVERIFY2(again.connect(pg.conninfo(), &error), qPrintable(error));
        const PgResult result = again.exec(u"SELECT v FROM kept"_s);
        QVERIFY2(result.ok, qPrintable(result.error));
        QCOMPARE(result.rows.value(0).value(0).toString(), u"still here"_s);
    }

    void stopThenStartKeepsPortAndData()
    {
        TempPostgres pg;
        QString error;
        QVERIFY2(pg.start(&error), qPrintable(error));
        QVERIFY2(pg.exec(u"CREATE TABLE kept (v int); INSERT INTO kept VALUES (42)"_s, &error),
                 qPrintable(error));
        const int port = pg.port();
        const qint64 pid = postmasterPid(pg);

        pg.stop();
        QVERIFY(!pg.isRunning());
        QTRY_VERIFY_WITH_TIMEOUT(!processAlive(pid), 30000);
        QVERIFY(!QFileInfo::exists(pg.socketDir() + u"/.s.PGSQL."_s + QString::number(port)));
        PgSession session;
        QVERIFY(!session.connect(pg.conninfo(), &error));
        QVERIFY2(error.contains(pg.socketDir()), qPrintable(error));

        QVERIFY2(pg.start(&error), qPrintable(error));
        QCOMPARE(pg.port(), port); // clients keep their conninfo across the outage
        QVERIFY2(session.connect(pg.conninfo(), &error), qPrintable(error));
        QCOMPARE(session.exec(u"SELECT v FROM kept"_s).rows.value(0).value(0), QVariant(qlonglong(42)));
    }

    void serverRunsAsPostgresWhenRoot()
    {
        TempPostgres pg;
        QString error;
        QVERIFY2(pg.start(&error), qPrintable(error));
        const uint uid = expectedServerUid();
        if (::geteuid() == 0)
            QVERIFY2(uid != 0, "root needs a postgres system user");
        const qint64 pid = postmasterPid(pg);
        QVERIFY(processAlive(pid));
        QCOMPARE(QFileInfo(u"/proc/%1"_s.arg(pid)).ownerId(), uid);
        QCOMPARE(QFileInfo(pg.dataDir()).ownerId(), uid);
        QCOMPARE(QFileInfo(pg.socketDir()).ownerId(), uid);
        PgSession session;
        QVERIFY2(session.connect(pg.conninfo(), &error), qPrintable(error));
        const PgResult result = session.exec(u"SELECT current_setting('data_directory')"_s);
        QVERIFY2(result.ok, qPrintable(result.error));
        QCOMPARE(result.rows.at(0).at(0).toString(), pg.dataDir());
    }

    void destructionStopsServerAndRemovesDirectory()
    {
        QString runtimeDir;
        qint64 pid = -1;
        {
            TempPostgres pg;
            QString error;
            QVERIFY2(pg.start(&error), qPrintable(error));
            runtimeDir = pg.socketDir();
            pid = postmasterPid(pg);
            QVERIFY(QFileInfo::exists(pg.dataDir() + u"/PG_VERSION"_s));
            QVERIFY(processAlive(pid));
        }
        QTRY_VERIFY_WITH_TIMEOUT(!processAlive(pid), 30000);
        QVERIFY(!runtimeDir.isEmpty());
        QVERIFY(!QFileInfo::exists(runtimeDir));
    }

    void orphanedServersAreReaped()
    {
        auto orphan = std::make_unique<TempPostgres>();
        QString error;
        QVERIFY2(orphan->start(&error), qPrintable(error));
        const qint64 orphanPid = postmasterPid(*orphan);
        const QString orphanDir = orphan->socketDir();
        // Pretend its owner died: a process that has certainly exited.
        QProcess gone;
        gone.start(u"true"_s);
        QVERIFY(gone.waitForStarted());
        const qint64 deadPid = gone.processId();
        QVERIFY(gone.waitForFinished());
        QFile owner(orphanDir + u"/owner.pid"_s);
        QVERIFY(owner.open(QIODevice::ReadOnly));
        const QByteArray dataLine = owner.readAll().split('\n').value(1);
        owner.close();
        QVERIFY(owner.open(QIODevice::WriteOnly | QIODevice::Truncate));
        owner.write(QByteArray::number(deadPid) + '\n' + dataLine);
        owner.close();

        TempPostgres next;
        QVERIFY2(next.start(&error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(!processAlive(orphanPid), 30000); // a loaded CI machine stops servers slowly
        QVERIFY(!QFileInfo::exists(orphanDir));
        QVERIFY(processAlive(postmasterPid(next)));
        orphan.reset(); // its server is already gone: destruction must cope
        QVERIFY(processAlive(postmasterPid(next)));
    }

    void persistentDirectoryIsReused()
    {
        QTemporaryDir parent;
        QVERIFY(parent.isValid());
        QVERIFY(makeTraversable(parent));
        const QString dataDir = parent.filePath(u"cluster"_s);
        QString error;
        {
            TempPostgres pg(dataDir);
            QVERIFY2(pg.start(&error), qPrintable(error));
            QCOMPARE(pg.dataDir(), dataDir);
            QVERIFY2(
                pg.exec(u"CREATE TABLE remembered (v text); INSERT INTO remembered VALUES ('yes')"_s, &error),
                qPrintable(error));
        }
        QVERIFY(QFileInfo::exists(dataDir + u"/PG_VERSION"_s));
        TempPostgres pg(dataDir);
        QVERIFY2(pg.start(&error), qPrintable(error));
        PgSession session;
        QVERIFY2(session.connect(pg.conninfo(), &error), qPrintable(error));
        QCOMPARE(session.exec(u"SELECT v FROM remembered"_s).rows.value(0).value(0).toString(), u"yes"_s);
    }

    void failuresAreExplained()
    {
        QTemporaryDir parent;
        QVERIFY(parent.isValid());
        QVERIFY(makeTraversable(parent));
        QString error;

        // initdb refuses a directory that is neither empty nor a cluster.
        const QString occupied = parent.filePath(u"occupied"_s);
        QVERIFY(QDir().mkpath(occupied));
        QFile stray(occupied + u"/notes.txt"_s);
        QVERIFY(stray.open(QIODevice::WriteOnly));
        stray.close();
        TempPostgres refused(occupied);
        QVERIFY(!refused.start(&error));
        QVERIFY(!refused.isRunning());
        QVERIFY2(error.contains(u"initdb"_s) && error.contains(u"not empty"_s), qPrintable(error));

        // A server that cannot start: the error carries the tail of its log.
        const QString broken = parent.filePath(u"broken"_s);
        {
            TempPostgres pg(broken);
            QVERIFY2(pg.start(&error), qPrintable(error));
        }
        QFile config(broken + u"/postgresql.conf"_s);
        QVERIFY(config.open(QIODevice::Append));
        config.write("this line is not a setting\n");
        config.close();
        TempPostgres pg(broken);
        QVERIFY(!pg.start(&error));
        QVERIFY(!pg.isRunning());
        QVERIFY2(error.contains(u"pg_ctl start failed"_s), qPrintable(error));
        QVERIFY2(error.contains(u"Server log"_s) && error.contains(u"postgresql.conf"_s), qPrintable(error));
    }
};

QTEST_GUILESS_MAIN(TestTempPostgres)
#include "tst_temppostgres.moc"
