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
    }
};

QTEST_GUILESS_MAIN(TestCliHelp)
#include "tst_clihelp.moc"
