#include "app/console.h"
#include "models/lagtablemodel.h"
#include "models/grouplagmodel.h"
#include "services/demo/mockkafkacluster.h"
#include "services/demo/temppostgres.h"
#include "support/testsupport.h"
#include "views/mainwindow.h"

#include <QLabel>
#include <QStatusBar>
#include <QTest>

using namespace Qt::StringLiterals;

// The real composition root, offscreen: bad addresses and a database that goes away must show clear
// states while the window keeps working.
class TestConsole final : public QObject {
    Q_OBJECT

    static QString statusText(MainWindow *window)
    {
        QStringList texts;
        const auto labels = window->statusBar()->findChildren<QLabel *>();
        for (const auto *label : labels)
            texts << label->text();
        return texts.join(u" | "_s);
    }

private Q_SLOTS:
    void wrongBootstrapShowsUnreachableBanner()
    {
        ConnectionProfile profile;
        profile.cluster = {{u"bootstrap.servers"_s, u"127.0.0.1:1"_s}};
        profile.namedGroups = {u"g"_s};
        profile.sampleIntervalMs = 500;
        Console console(profile);
        console.show();
        QTRY_VERIFY_WITH_TIMEOUT(console.window()->bannerText().contains(u"unreachable"_s), 20000);
        QVERIFY(console.window()->bannerText().contains(u"127.0.0.1:1"_s));
        QVERIFY(statusText(console.window()).contains(u"Kafka: unreachable"_s));
        // The UI thread is free: a zero-timer still fires promptly while the sampler keeps retrying.
        QElapsedTimer clock;
        clock.start();
        bool fired = false;
        QTimer::singleShot(0, this, [&] { fired = true; });
        QTRY_VERIFY_WITH_TIMEOUT(fired, 1000);
        QVERIFY(clock.elapsed() < 500);
    }

    void invalidKafkaPropertyIsReportedInWords()
    {
        ConnectionProfile profile;
        profile.cluster = {{u"bootstrap.servers"_s, u"127.0.0.1:1"_s}, {u"security.protocol"_s, u"carrier-pigeon"_s}};
        Console console(profile);
        QTRY_VERIFY_WITH_TIMEOUT(console.window()->bannerText().contains(u"security.protocol"_s)
                                     || console.window()->bannerText().contains(u"carrier-pigeon"_s),
                                 10000);
        QVERIFY(console.window()->bannerText().contains(u"rejected"_s));
    }

    void seedPolicyDrivesTheGroupList()
    {
        // The mock cluster cannot list groups: only named groups are sampled, and the policy names them.
        MockKafkaCluster cluster(1);
        QVERIFY2(cluster.isValid(), qPrintable(cluster.error()));
        ConnectionProfile profile;
        profile.cluster = cluster.clientProperties();
        profile.namedGroups = {u"from-profile"_s};
        profile.policyPath = TestSupport::sourcePath(u"tests/fixtures/seed000-policy.yaml"_s);
        profile.sampleIntervalMs = 500;
        Console console(profile);
        const auto groups = [&] {
            QStringList names;
            for (int row = 0; row < console.groupModel()->rowCount(); ++row)
                names << console.groupModel()->index(row, 0).data().toString();
            return names;
        };
        QTRY_VERIFY_WITH_TIMEOUT(groups().contains(u"search-indexer"_s) && groups().contains(u"notification-sender"_s), 20000);
        QVERIFY(groups().contains(u"from-profile"_s));
    }

    void databaseDownThenBackIsShown()
    {
        TempPostgres pg;
        QString error;
        QVERIFY2(pg.start(&error), qPrintable(error));
        ConnectionProfile profile;
        profile.cluster = {{u"bootstrap.servers"_s, u"127.0.0.1:1"_s}};
        profile.databaseConninfo = pg.conninfo();
        Console console(profile);
        QTRY_VERIFY_WITH_TIMEOUT(statusText(console.window()).contains(u"Database: connected"_s), 15000);
        pg.stop();
        QTRY_VERIFY_WITH_TIMEOUT(statusText(console.window()).contains(u"Database: unavailable"_s), 15000);
        QVERIFY(pg.start(&error));
        QTRY_VERIFY_WITH_TIMEOUT(statusText(console.window()).contains(u"Database: connected"_s), 30000);
    }
};

QTEST_MAIN(TestConsole)
#include "tst_console.moc"
