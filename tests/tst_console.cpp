#include "app/console.h"
#include "models/lagtablemodel.h"
#include "models/grouplagmodel.h"
#include "services/demo/mockkafkacluster.h"
#include "services/demo/temppostgres.h"
#include "services/inbox/pgsession.h"
#include "services/monitor/alertengine.h"
#include "services/monitor/alertrules.h"
#include "support/testsupport.h"
#include "views/inboxboardview.h"
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

    // Every mapped table is read on its own clock: a stuck row in the second mapping raises its alert
    // while the Inbox view shows the first, which nobody changed.
    void alertFromAnInboxNobodySelected()
    {
        TempPostgres pg;
        QString error;
        QVERIFY2(pg.start(&error), qPrintable(error));
        PgSession sql;
        QVERIFY2(sql.connect(pg.conninfo(), &error), qPrintable(error));
        QVERIFY2(sql.execScript(u"CREATE TABLE orders_inbox (msg text PRIMARY KEY, state text, touched timestamptz);"
                                u"INSERT INTO orders_inbox VALUES ('o-1', 'done', now()), ('o-2', 'working', now());"
                                u"CREATE TABLE payments_inbox (msg text PRIMARY KEY, state text, touched timestamptz);"
                                u"INSERT INTO payments_inbox VALUES ('p-1', 'done', now()),"
                                u"  ('p-2', 'working', now() - interval '1 hour');"_s,
                                &error),
                 qPrintable(error));
        const auto mapping = [](const QString &name, const QString &table) {
            InboxMapping m;
            m.name = name;
            m.table = table;
            m.messageIdColumn = u"msg"_s;
            m.statusColumn = u"state"_s;
            m.updatedColumn = u"touched"_s;
            m.statuses = {{u"done"_s, InboxState::Completed}, {u"working"_s, InboxState::InProgress}};
            m.stuckAfterSeconds = 300;
            return m;
        };
        ConnectionProfile profile;
        profile.cluster = {{u"bootstrap.servers"_s, u"127.0.0.1:1"_s}};
        profile.databaseConninfo = pg.conninfo();
        profile.inboxMappings = {mapping(u"order-projection"_s, u"orders_inbox"_s),
                                 mapping(u"payment-capture"_s, u"payments_inbox"_s)};
        // Independently: only the payments inbox has a row in progress for longer than stuck after.
        const auto stuck = [&sql](const QString &table) {
            return sql.exec(u"SELECT count(*) FROM "_s + table + u" WHERE state = 'working' AND touched < now() - interval '300 seconds'"_s)
                .rows.value(0).value(0).toInt();
        };
        QCOMPARE(stuck(u"orders_inbox"_s), 0);
        QCOMPARE(stuck(u"payments_inbox"_s), 1);

        Console console(profile);
        auto *view = console.window()->findChild<InboxBoardView *>();
        QVERIFY(view);
        QCOMPARE(view->currentMapping().name, u"order-projection"_s);
        const auto firing = [&console](const QString &subject) {
            const QList<Alert> active = console.alerts()->activeAlerts();
            return std::any_of(active.cbegin(), active.cend(), [&subject](const Alert &a) {
                return a.rule == AlertRules::stuckInProgress && a.subject == subject;
            });
        };
        QTRY_VERIFY_WITH_TIMEOUT(firing(u"payment-capture"_s), 20000);
        QVERIFY(!firing(u"order-projection"_s));
        QCOMPARE(view->currentMapping().name, u"order-projection"_s); // still the one on screen
    }
};

QTEST_MAIN(TestConsole)
#include "tst_console.moc"
