// Connection profiles: secrets never reach the settings file, they round-trip through a real keychain
// (a private Secret Service: dbus-daemon + gnome-keyring-daemon started by the test), and where no keychain
// exists the operator is told why and asked. "Test connection" reaches a real mock cluster and a real
// PostgreSQL server and reports librdkafka's own words for a bad property.
#include "services/demo/mockkafkacluster.h"
#include "services/demo/temppostgres.h"
#include "services/support/connectiontest.h"
#include "services/support/profilesecrets.h"
#include "services/support/profilestore.h"
#include "services/support/secretstore.h"
#include "support/privatekeychain.h"
#include "support/testsupport.h"
#include "views/mainwindow.h"
#include "views/profiledialog.h"
#include "views/shortcutsdialog.h"

#include "models/connectionsmodel.h"

#include <QFile>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace {
constexpr char KafkaSecret[] = "Kafka-Secret-7f3a9c";
constexpr char DbSecret[] = "Db-Secret-c0ffee42";

ConnectionProfile sampleProfile()
{
    ConnectionProfile p;
    p.name = u"prod / eu-west"_s; // a slash must not turn into a settings subgroup
    p.cluster = {{u"bootstrap.servers"_s, u"broker-1:9093,broker-2:9093"_s},
                 {u"security.protocol"_s, u"SASL_SSL"_s},
                 {u"sasl.mechanisms"_s, u"SCRAM-SHA-512"_s},
                 {u"sasl.username"_s, u"berth"_s},
                 {u"sasl.password"_s, QString::fromLatin1(KafkaSecret)},
                 {u"ssl.ca.location"_s, u"/etc/ssl/certs/kafka-ca.pem"_s}};
    p.namedGroups = {u"order-projection"_s, u"payment-capture"_s};
    p.dlqTopics = {u"orders-dlt"_s};
    p.duplicateTopics = {u"orders"_s};
    p.databaseConninfo = u"postgresql://alice:"_s + QString::fromLatin1(DbSecret) + u"@db.internal:5432/orders?sslmode=verify-full"_s;
    p.policyPath = u"/etc/berth/policy.yaml"_s;
    p.sampleIntervalMs = 10000;
    return p;
}

SecretStore::Outcome wait(SecretStore &store, const std::function<void(SecretStore::Done)> &call)
{
    SecretStore::Outcome outcome;
    bool done = false;
    call([&](const SecretStore::Outcome &o) {
        outcome = o;
        done = true;
    });
    if (!QTest::qWaitFor([&] { return done; }, 30000))
        outcome.error = u"no answer from the keychain within 30 s"_s;
    return outcome;
}
} // namespace

class TestProfiles : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void passwordsLeaveConninfos_data()
    {
        QTest::addColumn<QString>("conninfo");
        QTest::addColumn<QString>("password");
        QTest::newRow("keyword/value") << u"host=db user=alice password='p w\\'x' dbname=orders"_s << u"p w'x"_s;
        QTest::newRow("uri") << u"postgresql://alice:s3cr%40t@db:5432/orders?sslmode=require"_s << u"s3cr@t"_s;
        QTest::newRow("uri query") << u"postgres://db/orders?user=alice&password=qwerty"_s << u"qwerty"_s;
        QTest::newRow("no password") << u"host=/tmp dbname=orders user=alice"_s << QString();
        QTest::newRow("service name") << u"service=orders-prod"_s << QString();
    }

    void passwordsLeaveConninfos()
    {
        QFETCH(QString, conninfo);
        QFETCH(QString, password);
        QString found;
        const QString stripped = ProfileSecrets::stripPassword(conninfo, &found);
        QCOMPARE(found, password);
        if (password.isEmpty()) {
            QCOMPARE(stripped, conninfo); // URIs and service= names stay as the operator wrote them
            return;
        }
        QVERIFY(!stripped.contains(password));
        QVERIFY(!stripped.contains(u"password"_s));
        // Putting it back gives libpq the same password again.
        QString again;
        ProfileSecrets::stripPassword(ProfileSecrets::withPassword(stripped, password), &again);
        QCOMPARE(again, password);
        QVERIFY(stripped.contains(u"alice"_s));
    }

    void secretPropertiesAreRecognised()
    {
        for (const char *key : {"sasl.password", "ssl.key.password", "ssl.keystore.password", "ssl.key.pem",
                                "sasl.oauthbearer.client.secret"})
            QVERIFY2(ProfileSecrets::isSecretKafkaProperty(QString::fromLatin1(key)), key);
        for (const char *key : {"sasl.username", "ssl.key.location", "ssl.ca.location", "bootstrap.servers",
                                "sasl.kerberos.keytab"})
            QVERIFY2(!ProfileSecrets::isSecretKafkaProperty(QString::fromLatin1(key)), key);
    }

    void profileRoundTripKeepsSecretsOutOfTheSettingsFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"berth.ini"_s);
        const ConnectionProfile original = sampleProfile();
        QHash<QString, QString> secrets;
        {
            QSettings settings(path, QSettings::IniFormat);
            ProfileStore store(&settings);
            secrets = store.save(original);
            store.setLastUsed(original.name);
        }
        QCOMPARE(secrets.value(u"kafka/sasl.password"_s), QString::fromLatin1(KafkaSecret));
        QCOMPARE(secrets.value(u"db/password"_s), QString::fromLatin1(DbSecret));

        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray content = file.readAll();
        QVERIFY(content.contains("SCRAM-SHA-512")); // the file is the one written
        for (const char *secret : {KafkaSecret, DbSecret}) {
            const QString s = QString::fromLatin1(secret);
            QVERIFY2(!content.contains(s.toUtf8()), secret);
            QVERIFY2(!content.contains(QByteArray(reinterpret_cast<const char *>(s.utf16()), s.size() * 2)), secret);
            QVERIFY2(!content.contains(QUrl::toPercentEncoding(s)), secret);
        }

        QSettings settings(path, QSettings::IniFormat);
        ProfileStore store(&settings);
        QCOMPARE(store.names(), QStringList{original.name});
        QCOMPARE(store.lastUsed(), original.name);
        const auto loaded = store.load(original.name);
        QVERIFY(loaded);
        QCOMPARE(loaded->secretIds, (QStringList{u"db/password"_s, u"kafka/sasl.password"_s}));
        QCOMPARE(loaded->profile.namedGroups, original.namedGroups);
        QCOMPARE(loaded->profile.dlqTopics, original.dlqTopics);
        QCOMPARE(loaded->profile.policyPath, original.policyPath);
        QCOMPARE(loaded->profile.sampleIntervalMs, original.sampleIntervalMs);
        QCOMPARE(ProfileSecrets::sslModeOf(loaded->profile.databaseConninfo), u"verify-full"_s);

        // With the secrets applied it is the profile that was saved, as libpq and librdkafka see it.
        ConnectionProfile restored = loaded->profile;
        ProfileSecrets::apply(&restored, secrets);
        QCOMPARE(restored.cluster, original.cluster);
        QString password;
        ProfileSecrets::stripPassword(restored.databaseConninfo, &password);
        QCOMPARE(password, QString::fromLatin1(DbSecret));

        // Saved again with the secrets left empty, the profile still lists them (they stay in the keychain).
        store.save(loaded->profile, loaded->secretIds);
        QCOMPARE(store.load(original.name)->secretIds, loaded->secretIds);
        store.remove(original.name);
        QVERIFY(store.names().isEmpty());
        QVERIFY(store.lastUsed().isEmpty());
    }

    void noKeychainSaysWhyAndWritesNothing()
    {
        // No session bus at all: no Secret Service, no KWallet.
        QTemporaryDir dir;
        qputenv("DBUS_SESSION_BUS_ADDRESS", QByteArray("unix:path=") + dir.filePath(u"no-bus"_s).toUtf8());
        SecretStore store(u"Berth-test"_s);
        const auto outcome = wait(store, [&](SecretStore::Done done) {
            store.store(u"p"_s, {{u"db/password"_s, u"x"_s}}, std::move(done));
        });
        QVERIFY(!outcome.ok);
        QVERIFY(!outcome.error.isEmpty());
        const QString reason = SecretStore::askEachTimeReason(outcome);
        QVERIFY2(reason.contains(u"asks for them each time"_s), qPrintable(reason));
        QVERIFY(reason.contains(outcome.error));
    }

    void keychainRoundTrip()
    {
        PrivateKeychain keychain;
        QString error;
        QVERIFY2(keychain.start(&error), qPrintable(error));
        SecretStore store(u"Berth-test"_s);
        const QHash<QString, QString> secrets{{u"kafka/sasl.password"_s, QString::fromLatin1(KafkaSecret)},
                                              {u"db/password"_s, QString::fromLatin1(DbSecret)}};
        auto outcome = wait(store, [&](SecretStore::Done done) { store.store(u"prod"_s, secrets, std::move(done)); });
        QVERIFY2(outcome.ok, qPrintable(outcome.error));

        outcome = wait(store, [&](SecretStore::Done done) {
            store.fetch(u"prod"_s, {u"db/password"_s, u"kafka/sasl.password"_s, u"kafka/ssl.key.password"_s},
                        std::move(done));
        });
        QVERIFY2(outcome.ok, qPrintable(outcome.error));
        QCOMPARE(outcome.secrets, secrets);
        QCOMPARE(outcome.missing, QStringList{u"kafka/ssl.key.password"_s});

        // Another profile's secrets are its own.
        outcome = wait(store, [&](SecretStore::Done done) { store.fetch(u"staging"_s, {u"db/password"_s}, std::move(done)); });
        QCOMPARE(outcome.missing, QStringList{u"db/password"_s});

        outcome = wait(store, [&](SecretStore::Done done) { store.erase(u"prod"_s, secrets.keys(), std::move(done)); });
        QVERIFY2(outcome.ok, qPrintable(outcome.error));
        outcome = wait(store, [&](SecretStore::Done done) { store.fetch(u"prod"_s, secrets.keys(), std::move(done)); });
        QCOMPARE(outcome.missing.size(), 2);
    }

    void testConnectionReachesKafkaAndPostgres()
    {
        MockKafkaCluster cluster(3);
        QVERIFY2(cluster.isValid(), qPrintable(cluster.error()));
        QVERIFY(cluster.createTopic(u"orders"_s, 3));
        QString error;
        const ConnectionCheck kafka = ConnectionTest::kafka({{u"bootstrap.servers"_s, cluster.bootstrapServers()}});
        QVERIFY2(kafka.ok, qPrintable(kafka.summary));
        QVERIFY(kafka.summary.contains(u"3 broker(s)"_s));
        QVERIFY(kafka.detail.contains(u"(controller)"_s));

        const ConnectionCheck bad = ConnectionTest::kafka(
            {{u"bootstrap.servers"_s, cluster.bootstrapServers()}, {u"security.protocol"_s, u"carrier-pigeon"_s}});
        QVERIFY(!bad.ok);
        QVERIFY2(bad.summary.contains(u"security.protocol"_s), qPrintable(bad.summary)); // librdkafka's own words

        TempPostgres pg;
        QVERIFY2(pg.start(&error), qPrintable(error));
        const ConnectionCheck db = ConnectionTest::database(pg.conninfo());
        QVERIFY2(db.ok, qPrintable(db.summary));
        QVERIFY(db.detail.contains(u"sslmode: prefer"_s));
        QVERIFY(db.detail.contains(u"Unix socket"_s));
        const ConnectionCheck nodb = ConnectionTest::database(pg.conninfo() + u" dbname=no_such_database"_s);
        QVERIFY(!nodb.ok);
        QVERIFY2(nodb.summary.contains(u"no_such_database"_s), qPrintable(nodb.summary));
    }

    void dialogShowsTestResultAndSavesWithoutSecrets()
    {
        MockKafkaCluster cluster(1);
        QVERIFY2(cluster.isValid(), qPrintable(cluster.error()));
        QTemporaryDir dir;
        QSettings settings(dir.filePath(u"berth.ini"_s), QSettings::IniFormat);
        ProfileStore store(&settings);
        qputenv("DBUS_SESSION_BUS_ADDRESS", QByteArray("unix:path=") + dir.filePath(u"no-bus"_s).toUtf8());
        SecretStore secrets(u"Berth-test"_s);
        ProfileDialog dialog(&store, &secrets);
        ConnectionProfile p;
        p.name = u"mock"_s;
        p.cluster = {{u"bootstrap.servers"_s, cluster.bootstrapServers()}, {u"sasl.password"_s, QString::fromLatin1(KafkaSecret)}};
        dialog.setFormProfile(p);
        QCOMPARE(dialog.formProfile().cluster, p.cluster);

        QSignalSpy tested(&dialog, &ProfileDialog::tested);
        dialog.testConnection();
        QVERIFY(tested.wait(20000));
        QCOMPARE(tested.first().at(0).toBool(), true);
        QVERIFY2(dialog.resultText().contains(u"Kafka ✔"_s), qPrintable(dialog.resultText()));

        QSignalSpy saved(&dialog, &ProfileDialog::savedSecrets);
        QVERIFY(dialog.save());
        QVERIFY(saved.wait(20000));
        // No keychain here: the dialog says so, and the secret is nowhere in the settings file.
        QCOMPARE(saved.first().at(0).toBool(), false);
        QVERIFY2(dialog.resultText().contains(u"each time"_s), qPrintable(dialog.resultText()));
        settings.sync();
        QFile file(settings.fileName());
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(!file.readAll().contains(KafkaSecret));
        QCOMPARE(store.load(u"mock"_s)->secretIds, QStringList{u"kafka/sasl.password"_s});
    }

    // The dialog opens on the profile in use (secrets left out), a test keeps the focus where it was and
    // says librdkafka's cause, an edit clears the stale result, and closing with unsaved edits asks.
    void dialogOpensOnTheProfileInUseAndGuardsEdits()
    {
        QTemporaryDir dir;
        QSettings settings(dir.filePath(u"berth.ini"_s), QSettings::IniFormat);
        ProfileStore store(&settings);
        ConnectionProfile other;
        other.name = u"other"_s;
        other.cluster = {{u"bootstrap.servers"_s, u"other:9092"_s}};
        store.save(other, {});
        qputenv("DBUS_SESSION_BUS_ADDRESS", QByteArray("unix:path=") + dir.filePath(u"no-bus"_s).toUtf8());
        SecretStore secrets(u"Berth-test"_s);
        ProfileDialog dialog(&store, &secrets);
        ConnectionProfile inUse;
        inUse.name = u"demo"_s;
        inUse.cluster = {{u"bootstrap.servers"_s, u"nosuchhost.invalid:9092"_s},
                         {u"sasl.password"_s, QString::fromLatin1(KafkaSecret)}};
        dialog.showProfileInUse(inUse);
        QCOMPARE(dialog.formProfile().name, u"demo"_s);
        QCOMPARE(dialog.formProfile().cluster.value(0),
                 (std::pair{u"bootstrap.servers"_s, u"nosuchhost.invalid:9092"_s}));
        for (const auto &[key, value] : dialog.formProfile().cluster)
            QVERIFY(!value.contains(QString::fromLatin1(KafkaSecret)));
        QVERIFY(!dialog.hasUnsavedEdits());

        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QPushButton *test = nullptr;
        for (QPushButton *b : dialog.findChildren<QPushButton *>()) {
            if (b->text() == ProfileDialog::tr("&Test connection"))
                test = b;
        }
        QVERIFY(test);
        test->setFocus();
        QSignalSpy tested(&dialog, &ProfileDialog::tested);
        QTest::keyClick(test, Qt::Key_Space);
        QVERIFY(tested.wait(20000));
        QCOMPARE(QApplication::focusWidget(), test);
        QVERIFY2(dialog.resultText().contains(u"Failed to resolve"_s), qPrintable(dialog.resultText()));

        // An edit makes the result stale; closing now asks, and Cancel keeps the dialog and the edit.
        auto *bootstrap = dialog.findChildren<QLineEdit *>().value(1);
        QCOMPARE(bootstrap->text(), u"nosuchhost.invalid:9092"_s);
        bootstrap->setFocus();
        QTest::keyClicks(bootstrap, u"0"_s);
        QVERIFY(dialog.resultText().isEmpty());
        QVERIFY(dialog.hasUnsavedEdits());
        const auto answer = [&dialog](QMessageBox::StandardButton button) {
            QTimer::singleShot(0, &dialog, [&dialog, button] {
                QTRY_VERIFY(dialog.findChild<QMessageBox *>(u"unsavedChanges"_s));
                dialog.findChild<QMessageBox *>(u"unsavedChanges"_s)->button(button)->click();
            });
        };
        answer(QMessageBox::Cancel);
        QTest::keyClick(&dialog, Qt::Key_Escape);
        QVERIFY(dialog.isVisible());
        QCOMPARE(bootstrap->text(), u"nosuchhost.invalid:90920"_s);
        answer(QMessageBox::Discard);
        QTest::keyClick(&dialog, Qt::Key_Escape);
        QVERIFY(!dialog.isVisible());
    }

    void shortcutsDialogListsTheMenus()
    {
        ConnectionsModel connections;
        MainWindow window(&connections);
        window.addTab(u"one"_s, new QWidget, u"&One"_s);
        const auto entries = ShortcutsDialog::collect(&window);
        const auto has = [&](const QString &action, const QKeySequence &keys) {
            return std::any_of(entries.cbegin(), entries.cend(), [&](const ShortcutsDialog::Entry &e) {
                return e.action == action && e.keys == keys.toString(QKeySequence::NativeText);
            });
        };
        // Standard keys (Quit) are listed when the platform binds them; the offscreen platform does not.
        const QList<QKeySequence> quit = QKeySequence::keyBindings(QKeySequence::Quit);
        if (!quit.isEmpty())
            QVERIFY(has(u"Quit"_s, quit.first()));
        QVERIFY(has(u"Connection profiles"_s, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P)));
        QVERIFY(has(u"One"_s, QKeySequence(Qt::ALT | Qt::Key_1)));
        QVERIFY(has(u"Keyboard shortcuts"_s, QKeySequence(Qt::Key_F1)));
    }

    void layoutIsKeptPerProfile()
    {
        QTemporaryDir dir;
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir.path());
        ConnectionsModel connections;
        const auto showAndClose = [&](const QString &profile, const QSize &size) {
            MainWindow window(&connections);
            window.setLayoutGroup(ProfileStore::layoutGroup(profile));
            window.show();
            window.resize(size);
            QTest::qWait(50);
            window.close();
        };
        // Sizes within the offscreen screen (800x600): a larger one comes back no larger than the screen.
        showAndClose(u"a"_s, QSize(700, 500));
        showAndClose(u"b"_s, QSize(780, 560));
        showAndClose(u"wide"_s, QSize(2400, 1800));
        MainWindow again(&connections);
        again.setLayoutGroup(ProfileStore::layoutGroup(u"a"_s));
        again.show();
        QCOMPARE(again.size(), QSize(700, 500));
        MainWindow wide(&connections);
        wide.setLayoutGroup(ProfileStore::layoutGroup(u"wide"_s));
        wide.show();
        const QSize screen = wide.screen()->availableGeometry().size();
        QVERIFY2(wide.width() <= screen.width() && wide.height() <= screen.height(),
                 qPrintable(QString::number(wide.width()) + u'x' + QString::number(wide.height())));
    }
};

QTEST_MAIN(TestProfiles)
#include "tst_profiles.moc"
