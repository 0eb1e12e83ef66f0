#include "app/console.h"
#include "app/translation.h"
#include "models/checklistmodel.h"
#include "models/displayformat.h"
#include "models/grouplagmodel.h"
#include "models/inboxboardmodel.h"
#include "models/lagtablemodel.h"
#include "services/demo/mockkafkacluster.h"
#include "services/demo/temppostgres.h"
#include "services/inbox/inboxmapping.h"
#include "services/inbox/pgsession.h"
#include "services/kafka/kafkaproducer.h"
#include "services/monitor/alertengine.h"
#include "services/monitor/alertrules.h"
#include "support/testsupport.h"
#include "views/checklistview.h"
#include "views/inboxboardview.h"
#include "views/elidedlabel.h"
#include "views/inboxrowsview.h"
#include "views/lagview.h"
#include "views/mainwindow.h"
#include "views/shortcutsdialog.h"
#include "views/summarystrip.h"
#include "views/tablecolumns.h"

#include <QAction>
#include <QLabel>
#include <QSpinBox>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {
// A throwaway database with the demo's schema and a console on the demo's policy (payment-capture's
// processed_events inbox with attempts, retry.maxAttempts 3, and its outbox block).
struct DemoShapes {
    TempPostgres pg;
    PgSession sql;
    std::unique_ptr<Console> console;
    InboxBoardView *view = nullptr;
};
bool startDemoShapes(DemoShapes &d, const QString &rows, QString *error)
{
    QFile schema(TestSupport::sourcePath(u"resources/sql/demo_schema.sql"_s));
    if (!d.pg.start(error) || !d.sql.connect(d.pg.conninfo(), error) || !schema.open(QIODevice::ReadOnly)
        || !d.sql.execScript(QString::fromUtf8(schema.readAll()) + rows, error))
        return false;
    ConnectionProfile profile;
    profile.cluster = {{u"bootstrap.servers"_s, u"127.0.0.1:1"_s}};
    profile.databaseConninfo = d.pg.conninfo();
    profile.policyPath = TestSupport::sourcePath(u"resources/policy/demo-policy.yaml"_s);
    d.console = std::make_unique<Console>(profile);
    d.console->window()->show();
    d.view = d.console->window()->findChild<InboxBoardView *>();
    return d.view != nullptr;
}
// An inbox table (msg, state, touched) with the words done, working, parked and dead.
InboxMapping mapping(const QString &name, const QString &table)
{
    InboxMapping m;
    m.name = name;
    m.table = table;
    m.messageIdColumn = u"msg"_s;
    m.statusColumn = u"state"_s;
    m.updatedColumn = u"touched"_s;
    m.statuses = {{u"done"_s, InboxState::Completed},
                  {u"working"_s, InboxState::InProgress},
                  {u"parked"_s, InboxState::Parked},
                  {u"dead"_s, InboxState::FailedTerminal}};
    m.stuckAfterSeconds = 300;
    return m;
}
bool showMapping(InboxBoardView *view, const QString &name)
{
    const int index = view->mappingSelector()->findText(name);
    if (index < 0)
        return false;
    view->mappingSelector()->setCurrentIndex(index);
    return true;
}

} // namespace

// The real composition root, offscreen: bad addresses and a database that goes away must show clear
// states while the window keeps working.
class TestConsole final : public QObject {
    Q_OBJECT

    static QString statusText(MainWindow *window)
    {
        return window->kafkaStatus() + u" | "_s + window->databaseStatus();
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
        // Each group's allowed time lag: the policy's lagSlo.maxLagSeconds, else the default said as one.
        const auto slo = [&](const QString &group) {
            const int row = int(groups().indexOf(group));
            return console.groupModel()->index(row, GroupLagModel::LagSlo).data().toString();
        };
        QCOMPARE(slo(u"search-indexer"_s), DisplayFormat::duration(60'000)); // stated: lagSlo.maxLagSeconds 60
        QCOMPARE(slo(u"from-profile"_s), u"%1 (default)"_s.arg(DisplayFormat::duration(StatusRules::DefaultMaxTimeLagMs)));
        // The message allowance beside it never reads as "allowed lag 0".
        auto *allowance = console.window()->findChild<LagView *>()->findChild<QSpinBox *>();
        QVERIFY(allowance);
        QCOMPARE(allowance->text(), u"none"_s);
    }

    // A 2,000-character database error (an unresolvable host name libpq quotes whole) reaches every view
    // that reads the database; text is elided or wrapped to the window, never the window widened to the
    // text, and the full text stays reachable.
    void longDatabaseErrorLeavesTheWindowWidth()
    {
        ConnectionProfile profile;
        profile.cluster = {{u"bootstrap.servers"_s, u"127.0.0.1:1"_s}};
        const QString host = QString(2000, u'h') + u".invalid"_s;
        profile.databaseConninfo = u"host="_s + host + u" connect_timeout=2"_s;
        profile.inboxMappings = InboxMapping::presets();
        Console console(profile);
        MainWindow *window = console.window();
        window->show();
        window->resize(1400, 880); // the screenshots' size
        QVERIFY(QTest::qWaitForWindowExposed(window));
        QTRY_COMPARE(window->width(), 1400);
        QTRY_VERIFY_WITH_TIMEOUT(window->databaseStatus().contains(u"unavailable"_s), 20000);
        QVERIFY(window->databaseStatus().contains(QString(200, u'h')));
        // Every view that reads the database has had its answer by now.
        QTest::qWait(3000);
        QString wide;
        for (QWidget *w : window->findChildren<QWidget *>()) {
            if (w->isVisibleTo(window) && w->minimumSizeHint().width() > 1400)
                wide += QString::fromLatin1(w->metaObject()->className()) + u' ' + w->objectName() + u"; "_s;
        }
        QVERIFY2(window->minimumSizeHint().width() <= 1400,
                 qPrintable(QString::number(window->minimumSizeHint().width()) + u": "_s + wide));
        QCOMPARE(window->width(), 1400);
        const auto tooltipHoldsAll = [window] {
            for (const QLabel *label : window->statusBar()->findChildren<QLabel *>()) {
                if (label->toolTip() == window->databaseStatus())
                    return true;
            }
            return false;
        };
        window->repaint();
        QTRY_VERIFY(tooltipHoldsAll());
    }

    // F1 lists each key once, buttons' keys too (Ctrl+K acknowledges alerts); Ctrl+PgDn / Ctrl+PgUp cycle
    // through every view, also those past Alt+9.
    void shortcutsAreListedOnceAndViewsCycle()
    {
        ConnectionProfile profile;
        profile.cluster = {{u"bootstrap.servers"_s, u"127.0.0.1:1"_s}};
        Console console(profile);
        MainWindow *window = console.window();
        window->show();
        QVERIFY(QTest::qWaitForWindowExposed(window));
        QStringList keys;
        for (const ShortcutsDialog::Entry &e : ShortcutsDialog::collect(window))
            keys += e.keys.split(u", "_s);
        QStringList repeated;
        for (const QString &k : std::as_const(keys)) {
            if (keys.count(k) > 1 && !repeated.contains(k))
                repeated << k;
        }
        QVERIFY2(repeated.isEmpty(), qPrintable(repeated.join(u' ')));
        const auto native = [](QKeyCombination k) { return QKeySequence(k).toString(QKeySequence::NativeText); };
        QVERIFY(keys.contains(native(Qt::CTRL | Qt::Key_K)));
        QVERIFY(keys.contains(native(Qt::CTRL | Qt::Key_R)));
        QVERIFY(keys.contains(native(Qt::CTRL | Qt::Key_PageDown)));

        // Every table of every view sizes and elides by the one policy (ARCHITECTURE.md, Views: tables).
        QStringList unmanaged;
        for (QTableView *table : window->findChildren<QTableView *>()) {
            if (!TableColumns::of(table))
                unmanaged << QString::fromLatin1(table->parentWidget()->metaObject()->className());
        }
        QVERIFY2(unmanaged.isEmpty(), qPrintable(unmanaged.join(u", "_s)));

        auto *tabs = window->findChild<QTabWidget *>();
        QVERIFY(tabs && tabs->count() > 9);
        tabs->setCurrentIndex(0);
        for (int i = 1; i <= tabs->count(); ++i) {
            QTest::keyClick(window, Qt::Key_PageDown, Qt::ControlModifier);
            QCOMPARE(tabs->currentIndex(), i % tabs->count());
        }
        QTest::keyClick(window, Qt::Key_PageUp, Qt::ControlModifier);
        QCOMPARE(tabs->currentIndex(), tabs->count() - 1);
    }

    // F1's list comes from the actions themselves: every action the window holds (its children and those
    // registered on any of its widgets) that has a key is listed with that key, named (Reset offsets…,
    // Ctrl+Shift+R, on the Lag view's groups; the DLQ view's field filter, Ctrl+Shift+F).
    void everyActionShortcutIsListed()
    {
        ConnectionProfile profile;
        profile.cluster = {{u"bootstrap.servers"_s, u"127.0.0.1:1"_s}};
        Console console(profile);
        MainWindow *window = console.window();
        QHash<QString, QString> listed; // key -> the names listed for it
        for (const ShortcutsDialog::Entry &e : ShortcutsDialog::collect(window)) {
            for (const QString &k : e.keys.split(u", "_s))
                listed.insert(k, e.action);
        }
        QList<QAction *> actions = window->findChildren<QAction *>();
        for (QWidget *widget : window->findChildren<QWidget *>())
            actions += widget->actions();
        QStringList missing;
        int withKeys = 0;
        for (const QAction *action : std::as_const(actions)) {
            for (const QKeySequence &key : action->shortcuts()) {
                if (key.isEmpty())
                    continue;
                ++withKeys;
                const QString k = key.toString(QKeySequence::NativeText);
                if (!listed.contains(k) || listed.value(k).isEmpty())
                    missing << action->text() + u" ("_s + k + u')';
            }
        }
        QVERIFY(withKeys > 10);
        QVERIFY2(missing.isEmpty(), qPrintable(missing.join(u", "_s)));
        const QString reset = QKeySequence(u"Ctrl+Shift+R"_s).toString(QKeySequence::NativeText);
        QVERIFY2(listed.value(reset).contains(u"Reset offsets"_s), qPrintable(listed.value(reset)));
    }

    // The first window answers "is anything wrong right now?": the strip and the tabs count what SQL and the
    // brokers hold, follow them as they change, and each part opens the view that shows it. Alerts is
    // reached with Alt+N like the other views.
    void summaryStripAndTabCountsFollowTheSources()
    {
        MockKafkaCluster cluster(1);
        QVERIFY2(cluster.isValid(), qPrintable(cluster.error()));
        QVERIFY(cluster.createTopic(u"orders-dlt"_s, 1));
        TempPostgres pg;
        QString error;
        QVERIFY2(pg.start(&error), qPrintable(error));
        PgSession sql;
        QVERIFY2(sql.connect(pg.conninfo(), &error), qPrintable(error));
        QVERIFY2(sql.execScript(u"CREATE TABLE inbox (msg text PRIMARY KEY, state text, touched timestamptz);"
                                u"INSERT INTO inbox VALUES ('a', 'done', now()), ('b', 'parked', now()),"
                                u"  ('c', 'parked', now()), ('d', 'dead', now()),"
                                u"  ('e', 'working', now() - interval '1 hour');"_s,
                                &error),
                 qPrintable(error));
        InboxMapping mapping;
        mapping.name = u"order-projection"_s;
        mapping.table = u"inbox"_s;
        mapping.messageIdColumn = u"msg"_s;
        mapping.statusColumn = u"state"_s;
        mapping.updatedColumn = u"touched"_s;
        mapping.statuses = {{u"done"_s, InboxState::Completed},
                            {u"working"_s, InboxState::InProgress},
                            {u"parked"_s, InboxState::Parked},
                            {u"dead"_s, InboxState::FailedTerminal}};
        mapping.stuckAfterSeconds = 300;
        ConnectionProfile profile;
        profile.cluster = cluster.clientProperties();
        profile.dlqTopics = {u"orders-dlt"_s};
        profile.sampleIntervalMs = 500;
        profile.databaseConninfo = pg.conninfo();
        profile.inboxMappings = {mapping};
        const auto parkedInSql = [&sql] {
            return sql.exec(u"SELECT count(*) FROM inbox WHERE state IN ('parked', 'dead')"_s)
                .rows.value(0)
                .value(0)
                .toInt();
        };

        Console console(profile);
        MainWindow *window = console.window();
        window->show();
        QVERIFY(QTest::qWaitForWindowExposed(window));
        auto *strip = window->findChild<SummaryStrip *>();
        QVERIFY(strip);
        QHash<QString, QWidget *> views;
        for (const MainWindow::MainView &view : window->mainViews())
            views.insert(view.name, view.widget);

        QTRY_VERIFY_WITH_TIMEOUT(strip->plainText().contains(u"%1 parked row(s)"_s.arg(parkedInSql())),
                                 20000);
        QCOMPARE(window->tabText(views[u"parked"_s]), u"&Parked (3)"_s);
        QTRY_VERIFY_WITH_TIMEOUT(console.alerts()->activeCount() > 0, 20000); // the stuck row
        const int firing = console.alerts()->activeCount();
        QTRY_VERIFY(strip->plainText().contains(u"%1 alert(s) firing"_s.arg(firing)));
        QCOMPARE(window->tabText(views[u"alerts"_s]), u"&Alerts (%1)"_s.arg(firing));

        // Dead letters arriving after Berth's first reading of the DLQ's end are counted per topic.
        QTRY_VERIFY_WITH_TIMEOUT(strip->plainText().contains(u"orders-dlt: 0 dead letter(s)"_s), 20000);
        auto producer = KafkaProducer::create(cluster.clientProperties(), &error);
        QVERIFY2(producer, qPrintable(error));
        for (int i = 0; i < 4; ++i)
            QVERIFY(producer->produce({u"orders-dlt"_s, 0, "k", false, "v", {}, 0}));
        QVERIFY2(producer->flush(10000, &error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(strip->plainText().contains(u"orders-dlt: 4 dead letter(s)"_s), 20000);
        QCOMPARE(window->tabText(views[u"dlq"_s]), u"&DLQ (4)"_s);

        // Rows change in the database: the next reading (F5 reads now) shows what SQL counts.
        QVERIFY2(sql.execScript(u"UPDATE inbox SET state = 'parked' WHERE msg = 'a';"_s, &error),
                 qPrintable(error));
        QTest::keyClick(window, Qt::Key_F5);
        QTRY_VERIFY_WITH_TIMEOUT(strip->plainText().contains(u"%1 parked row(s)"_s.arg(parkedInSql())),
                                 20000);
        QCOMPARE(window->tabText(views[u"parked"_s]), u"&Parked (4)"_s);

        // Each part opens its view; Alerts has its Alt+N.
        auto *tabs = window->findChild<QTabWidget *>();
        for (qsizetype i = 0; i < strip->items().size(); ++i) {
            if (strip->items()[i].view == u"parked") {
                Q_EMIT strip->linkActivated(QString::number(i));
                break;
            }
        }
        QCOMPARE(tabs->currentWidget(), views[u"parked"_s]);
        const int alertsIndex = tabs->indexOf(views[u"alerts"_s]);
        QVERIFY(alertsIndex >= 0 && alertsIndex < 9);
        QTest::keyClick(window, Qt::Key(Qt::Key_1 + alertsIndex), Qt::AltModifier);
        QCOMPARE(tabs->currentWidget(), views[u"alerts"_s]);
    }

    // Two inboxes with parked rows: the Parked tab counts the inbox its table lists, so the number on the tab
    // is the number of rows the operator finds there; the strip names it and the sum over all inboxes.
    void parkedTabCountsWhatItsTableLists()
    {
        TempPostgres pg;
        QString error;
        QVERIFY2(pg.start(&error), qPrintable(error));
        PgSession sql;
        QVERIFY2(sql.connect(pg.conninfo(), &error), qPrintable(error));
        QVERIFY2(sql.execScript(u"CREATE TABLE orders_inbox (msg text PRIMARY KEY, state text, touched timestamptz);"
                                u"INSERT INTO orders_inbox VALUES ('o-1', 'done', now()), ('o-2', 'parked', now()),"
                                u"  ('o-3', 'parked', now()), ('o-4', 'dead', now());"
                                u"CREATE TABLE payments_inbox (msg text PRIMARY KEY, state text, touched timestamptz);"
                                u"INSERT INTO payments_inbox VALUES ('p-1', 'done', now()), ('p-2', 'parked', now());"_s,
                                &error),
                 qPrintable(error));
        ConnectionProfile profile;
        profile.cluster = {{u"bootstrap.servers"_s, u"127.0.0.1:1"_s}};
        profile.databaseConninfo = pg.conninfo();
        profile.inboxMappings = {mapping(u"order-projection"_s, u"orders_inbox"_s),
                                 mapping(u"payment-capture"_s, u"payments_inbox"_s)};
        const auto parkedInSql = [&sql](const QString &table) {
            return sql.exec(u"SELECT count(*) FROM "_s + table + u" WHERE state IN ('parked', 'dead')"_s)
                .rows.value(0).value(0).toInt();
        };
        Console console(profile);
        MainWindow *window = console.window();
        window->show();
        auto *rows = window->findChild<InboxRowsView *>();
        auto *strip = window->findChild<SummaryStrip *>();
        QVERIFY(rows && strip);
        const auto listed = [rows] { return rows->table()->model()->rowCount(); };
        const auto tab = [window, rows] { return window->tabText(rows); };

        QCOMPARE(rows->currentMapping(), u"order-projection"_s);
        QTRY_VERIFY2_WITH_TIMEOUT(listed() == parkedInSql(u"orders_inbox"_s),
                                  qPrintable(static_cast<ElidedLabel *>(rows->statusLabel())->text()), 20000);
        QTRY_COMPARE_WITH_TIMEOUT(tab(), u"&Parked (%1)"_s.arg(listed()), 20000);
        const int all = parkedInSql(u"orders_inbox"_s) + parkedInSql(u"payments_inbox"_s);
        QTRY_VERIFY2_WITH_TIMEOUT(strip->plainText().contains(u"order-projection: 3 parked row(s) (%1 in all inboxes)"_s.arg(all)),
                                  qPrintable(strip->plainText()), 20000);

        rows->mappingSelector()->setCurrentIndex(rows->mappingSelector()->findText(u"payment-capture"_s));
        QTRY_COMPARE_WITH_TIMEOUT(listed(), parkedInSql(u"payments_inbox"_s), 20000);
        QCOMPARE(tab(), u"&Parked (%1)"_s.arg(listed()));
    }

    // In German the window still fits the screenshots' 1400 px: no view's minimum width forces it wider.
    void germanWindowFitsTheScreenshotsWidth()
    {
        QCOMPARE(Translation::install(u"de"_s), u"de"_s);
        const auto restore = qScopeGuard([] { Translation::uninstall(); });
        ConnectionProfile profile;
        profile.cluster = {{u"bootstrap.servers"_s, u"127.0.0.1:1"_s}};
        profile.inboxMappings = InboxMapping::presets();
        Console console(profile);
        MainWindow *window = console.window();
        window->show();
        QVERIFY(QTest::qWaitForWindowExposed(window));
        auto *tabs = window->findChild<QTabWidget *>();
        QString report;
        int widest = 0;
        for (int i = 0; i < tabs->count(); ++i) {
            tabs->setCurrentIndex(i);
            QCoreApplication::processEvents();
            const int width = window->minimumSizeHint().width();
            widest = std::max(widest, width);
            if (width > 1400) {
                report += tabs->tabText(i) + u": "_s + QString::number(width) + u" ("_s;
                for (QWidget *w : tabs->widget(i)->findChildren<QWidget *>()) {
                    if (w->isVisibleTo(window) && w->minimumSizeHint().width() > 900)
                        report += QString::fromLatin1(w->metaObject()->className()) + u' ' + w->objectName()
                                  + u' ' + QString::number(w->minimumSizeHint().width()) + u"; "_s;
                }
                report += u") "_s;
            }
        }
        if (widest > 1400) {
            report += u"tab bar "_s + QString::number(tabs->tabBar()->minimumSizeHint().width()) + u"; "_s;
            for (int i = 0; i < tabs->count(); ++i) {
                report += tabs->tabText(i) + u" page "_s
                          + QString::number(tabs->widget(i)->minimumSizeHint().width()) + u"; "_s;
                for (QWidget *w : tabs->widget(i)->findChildren<QWidget *>()) {
                    if (w->minimumSizeHint().width() > 700 || w->minimumWidth() > 700)
                        report += QString::fromLatin1(w->metaObject()->className()) + u' '
                                  + QString::number(w->minimumSizeHint().width()) + u"; "_s;
                }
            }
        }
        QVERIFY2(widest <= 1400, qPrintable(QString::number(widest) + u": "_s + report));
    }

    // German at the screenshots' 1400 px: the database state stays readable beside a long Kafka status.
    void germanDatabaseStateIsNotElided()
    {
        QCOMPARE(Translation::install(u"de"_s), u"de"_s);
        const auto restore = qScopeGuard([] { Translation::uninstall(); });
        TempPostgres pg;
        QString error;
        QVERIFY2(pg.start(&error), qPrintable(error));
        ConnectionProfile profile;
        profile.cluster = {{u"bootstrap.servers"_s, u"127.0.0.1:1"_s}};
        profile.databaseConninfo = pg.conninfo();
        Console console(profile);
        MainWindow *window = console.window();
        window->show();
        window->resize(1400, 880);
        QVERIFY(QTest::qWaitForWindowExposed(window));
        QTRY_VERIFY_WITH_TIMEOUT(window->databaseStatus().contains(u"verbunden"_s), 15000);
        window->setKafkaStatus(u"Kafka: "_s + QStringList(8, u"broker-0.kafka.example.internal:9092"_s).join(u',')
                               + u" verbunden \u2014 3 Broker, 8 Topics, 4 Gruppen"_s);
        ElidedLabel *database = nullptr;
        for (ElidedLabel *label : window->statusBar()->findChildren<ElidedLabel *>()) {
            if (label->text() == window->databaseStatus())
                database = label;
        }
        QVERIFY(database);
        QTRY_VERIFY2(!database->isElided(), qPrintable(QString::number(database->width())));
        QCOMPARE(window->width(), 1400);
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

    // payment-capture's outbox block ({table: outbox, status: status, created: created_at, pending: pending})
    // over the demo schema: after rows change, the Inbox tab's outbox line says what SQL counts, and when.
    void outboxPendingFollowsTheTable()
    {
        DemoShapes d;
        QString error;
        QVERIFY2(startDemoShapes(d,
                                 u"INSERT INTO processed_events (idempotency_key, consumer_group, topic, status) "
                                 u"  VALUES ('k-1', 'payment-capture', 'payments', 'COMPLETED');"
                                 u"INSERT INTO outbox (aggregate_id, topic, event_type, payload, status) VALUES "
                                 u"  ('p-1', 'payment-events', 'PaymentCaptured', '{}', 'published');"_s,
                                 &error),
                 qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(showMapping(d.view, u"payment-capture"_s), 10000);
        // A backlog a relay drains in moments is a reading at one instant: the line names its time.
        const auto saysAt = [&d](const QString &what) {
            return QRegularExpression(u"outbox: "_s + what + u" at \\d\\d:\\d\\d:\\d\\d UTC"_s)
                .match(d.view->outboxLabel()->text())
                .hasMatch();
        };
        QTRY_VERIFY2_WITH_TIMEOUT(saysAt(u"nothing pending"_s), qPrintable(d.view->outboxLabel()->text()), 20000);

        QVERIFY2(d.sql.execScript(u"INSERT INTO outbox (aggregate_id, topic, event_type, payload) "
                                  u"SELECT 'p-' || i, 'payment-events', 'PaymentCaptured', '{}' "
                                  u"FROM generate_series(2, 5) AS i;"_s,
                                  &error),
                 qPrintable(error));
        const int pending =
            d.sql.exec(u"SELECT count(*) FROM outbox WHERE status = 'pending'"_s).rows.value(0).value(0).toInt();
        QCOMPARE(pending, 4);
        QTest::keyClick(d.console->window(), Qt::Key_F5);
        QTRY_VERIFY2_WITH_TIMEOUT(saysAt(u"%1 pending"_s.arg(pending)), qPrintable(d.view->outboxLabel()->text()),
                                  20000);
    }

    // Seed 001's FAILED rows are retried until their attempts reach retry.maxAttempts (3 for
    // payment-capture): then they are exhausted. The Inbox tab and the checklist count them as SQL does.
    void exhaustedRetriesOnTheBoardAndChecklist()
    {
        DemoShapes d;
        QString error;
        QVERIFY2(startDemoShapes(d,
                                 u"INSERT INTO processed_events (idempotency_key, consumer_group, topic, status, "
                                 u"  attempt_count) VALUES ('k-1', 'payment-capture', 'payments', 'COMPLETED', 1),"
                                 u"  ('k-2', 'payment-capture', 'payments', 'FAILED', 1),"
                                 u"  ('k-3', 'payment-capture', 'payments', 'FAILED', 3),"
                                 u"  ('k-4', 'payment-capture', 'payments', 'FAILED', 6),"
                                 u"  ('k-5', 'payment-capture', 'payments', 'COMPLETED', 3);"_s,
                                 &error),
                 qPrintable(error));
        const auto exhaustedInSql = [&d] {
            return d.sql.exec(u"SELECT count(*) FROM processed_events WHERE consumer_group = 'payment-capture' "
                              u"AND status = 'FAILED' AND attempt_count >= 3"_s)
                .rows.value(0).value(0).toInt();
        };
        QCOMPARE(exhaustedInSql(), 2);
        QTRY_VERIFY_WITH_TIMEOUT(showMapping(d.view, u"payment-capture"_s), 10000);
        const auto failedCell = [&d] {
            const QAbstractItemModel *model = d.view->table()->model();
            return model->rowCount() > 0 ? model->index(0, InboxBoardModel::FailedRetryable).data().toString()
                                         : QString();
        };
        QTRY_COMPARE_WITH_TIMEOUT(failedCell(), u"3 (%1 exhausted)"_s.arg(exhaustedInSql()), 20000);
        const auto poisonEvidence = [&d] {
            for (const ConsumerChecklist &c : d.console->window()->findChild<ChecklistView *>()->model()->checklists()) {
                if (c.consumer != u"payment-capture")
                    continue;
                for (const ChecklistItem &item : c.items) {
                    if (item.key == u"poison")
                        return item.evidence;
                }
            }
            return QString();
        };
        QTRY_VERIFY2_WITH_TIMEOUT(
            poisonEvidence().contains(u"%1 failed inbox row(s) at retry.maxAttempts (3)"_s.arg(exhaustedInSql())),
            qPrintable(poisonEvidence()), 20000);

        QVERIFY2(d.sql.execScript(u"UPDATE processed_events SET attempt_count = 3 WHERE idempotency_key = 'k-2';"_s,
                                  &error),
                 qPrintable(error));
        QTest::keyClick(d.console->window(), Qt::Key_F5);
        QTRY_COMPARE_WITH_TIMEOUT(failedCell(), u"3 (%1 exhausted)"_s.arg(exhaustedInSql()), 20000);
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
