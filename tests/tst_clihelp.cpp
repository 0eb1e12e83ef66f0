// Every subcommand's --help, as an operator types it: it prints usage, exits 0, and Qt's option parser
// has nothing to complain about (an option declared twice is reported on stderr and the second is lost).
#include "support/berthcli.h"

#include <QTest>

using namespace Qt::StringLiterals;

class TestCliHelp : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void helpIsCleanAndComplete_data()
    {
        QTest::addColumn<QStringList>("command");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("berth") << QStringList{} << u"watch"_s;
        QTest::newRow("lag") << QStringList{u"lag"_s} << u"--policy"_s;
        QTest::newRow("watch") << QStringList{u"watch"_s} << u"--metrics-address"_s;
        QTest::newRow("dlq scan") << QStringList{u"dlq"_s, u"scan"_s} << u"--payloads"_s;
        QTest::newRow("account") << QStringList{u"account"_s} << u"--to"_s;
        QTest::newRow("replay request") << QStringList{u"replay"_s, u"request"_s} << u"--policy"_s;
        QTest::newRow("replay execute") << QStringList{u"replay"_s, u"execute"_s} << u"--policy"_s;
        QTest::newRow("replay verify") << QStringList{u"replay"_s, u"verify"_s} << u"--timeout"_s;
        QTest::newRow("replay approve") << QStringList{u"replay"_s, u"approve"_s} << u"[id]"_s;
        QTest::newRow("audit verify") << QStringList{u"audit"_s, u"verify"_s} << u"--db"_s;
        QTest::newRow("demo") << QStringList{u"demo"_s} << u"--headless"_s;
    }
    void helpIsCleanAndComplete()
    {
        QFETCH(QStringList, command);
        QFETCH(QString, mentions);
        const BerthCli::Result r = BerthCli::run(command + QStringList{u"--help"_s}, 30'000);
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(!r.err.contains(u"QCommandLineParser"_s), qPrintable(r.err));
        QVERIFY2(QString::fromUtf8(r.out).contains(mentions), r.out.constData());
        // The usage line names the command as typed, not the binary's path.
        const QString usage = QString::fromUtf8(r.out).section(u'\n', 0, 0);
        QVERIFY2(usage.startsWith(u"Usage: berth"_s), qPrintable(usage));
        QVERIFY2(!usage.contains(u'/'), qPrintable(usage));
        if (!command.isEmpty())
            QVERIFY2(usage.startsWith(u"Usage: berth "_s + command.join(u' ')), qPrintable(usage));
    }

    // Every verb that acts on one request takes its id positionally (`berth replay approve 3`): past the
    // arguments, it gets as far as the database, which is not there.
    void replayVerbsTakeTheRequestIdPositionally_data()
    {
        QTest::addColumn<QString>("verb");
        for (const char *verb : {"approve", "reject", "execute", "status", "runbook"})
            QTest::newRow(verb) << QString::fromLatin1(verb);
    }
    void replayVerbsTakeTheRequestIdPositionally()
    {
        QFETCH(QString, verb);
        QStringList where = {u"--db"_s, u"host=/nonexistent-berth-socket-dir dbname=x connect_timeout=1"_s};
        if (verb == u"execute"_s || verb == u"runbook"_s)
            where << u"--bootstrap"_s << u"127.0.0.1:1"_s;
        const BerthCli::Result positional = BerthCli::run(QStringList{u"replay"_s, verb, u"3"_s} + where, 30'000);
        QVERIFY2(!positional.err.contains(u"request id"_s), qPrintable(positional.err));
        QCOMPARE(positional.exitCode, 1); // ExitError: could not connect
        QVERIFY2(positional.err.contains(u"nonexistent-berth-socket-dir"_s), qPrintable(positional.err));
        const BerthCli::Result none = BerthCli::run(QStringList{u"replay"_s, verb} + where, 30'000);
        QCOMPARE(none.exitCode, 2);
        QVERIFY2(none.err.contains(u"request id"_s), qPrintable(none.err));
    }
};

QTEST_GUILESS_MAIN(TestCliHelp)
#include "tst_clihelp.moc"
