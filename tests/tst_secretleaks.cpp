// Secrets never reach the disk or a log in plaintext. Each test function runs Berth with a PostgreSQL
// password and a Kafka sasl.password through the paths that talk about connections (failed connections
// whose libpq and librdkafka errors are logged, runbooks that print conninfos, the console opened from a
// saved profile whose secrets live in a keychain) and then searches every file written under the run's own
// home (XDG config, cache, data, state and runtime dirs, the working directory) and everything logged
// (this process's Qt messages, the console's log panel, the berth processes' stdout and stderr) for each
// secret as typed, in UTF-16, percent-encoded, hex and base64. Debug logging is on throughout.
#include "app/commands.h"
#include "models/remediationtasks.h"
#include "services/inbox/pgsession.h"
#include "services/support/connectiontest.h"
#include "services/support/logbuffer.h"
#include "services/support/profilestore.h"
#include "services/support/secretstore.h"
#include "support/berthcli.h"
#include "support/privatekeychain.h"
#include "support/replayworld.h"
#include "support/testsupport.h"

#include <libpq-fe.h>

#include <QApplication>
#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QInputDialog>
#include <QLoggingCategory>
#include <QMutex>
#include <QProcess>
#include <QRegularExpression>
#include <QStringEncoder>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QUrl>

using namespace Qt::StringLiterals;

namespace {
// Characters that percent-encoding and base64 change, so every form below is a different byte string.
const QString KafkaSecret = u"Kafka Secret+7f3a/9c51"_s;
const QString DbSecret = u"Db Secret@c0ffee:42"_s;
// Nothing listens on port 1 of the loopback: every connection there is refused at once.
const QString DeadKafka = u"127.0.0.1:1"_s;
const QString DeadDb = u"host=127.0.0.1 port=1 user=alice dbname=orders connect_timeout=3"_s;

QString withPassword(const QString &conninfo, const QString &password)
{
    QString quoted = password;
    quoted.replace(u"\\"_s, u"\\\\"_s).replace(u"'"_s, u"\\'"_s);
    return conninfo + u" password='"_s + quoted + u'\'';
}

KafkaProperties saslTo(const QString &bootstrap)
{
    return {{u"bootstrap.servers"_s, bootstrap},
            {u"security.protocol"_s, u"SASL_PLAINTEXT"_s},
            {u"sasl.mechanisms"_s, u"SCRAM-SHA-512"_s},
            {u"sasl.username"_s, u"berth"_s},
            {u"sasl.password"_s, KafkaSecret}};
}

// Every form a secret could take in a file or a log, by name.
QList<QPair<QString, QByteArray>> formsOf(const QString &secret)
{
    const QByteArray utf8 = secret.toUtf8();
    const QByteArray utf16le(reinterpret_cast<const char *>(secret.utf16()), secret.size() * 2);
    QByteArray utf16be = utf16le;
    for (qsizetype i = 0; i + 1 < utf16be.size(); i += 2)
        std::swap(utf16be[i], utf16be[i + 1]);
    QList<QPair<QString, QByteArray>> forms{{u"plain"_s, utf8},
                                            {u"UTF-16LE"_s, utf16le},
                                            {u"UTF-16BE"_s, utf16be},
                                            {u"percent-encoded"_s, QUrl::toPercentEncoding(secret)},
                                            {u"hex"_s, utf8.toHex()}};
    // Inside a longer base64 text the secret starts at one of three alignments; only the groups of three
    // bytes that lie wholly inside it encode the same wherever it sits.
    for (int shift = 0; shift < 3; ++shift) {
        const QByteArray encoded = QByteArray(QByteArray(shift, '\0') + utf8).toBase64();
        const qsizetype first = shift == 0 ? 0 : 4;
        const qsizetype last = (shift + utf8.size()) / 3 * 4;
        const QByteArray core = encoded.mid(first, last - first);
        forms.append({u"base64+%1"_s.arg(shift), core});
        QByteArray url = core;
        forms.append({u"base64url+%1"_s.arg(shift), url.replace('+', '-').replace('/', '_')});
    }
    return forms;
}

// "<where>: <secret> as <form>" for every form of every secret in bytes.
QStringList leaksIn(const QByteArray &bytes, const QString &where, const QStringList &secrets)
{
    QStringList found;
    for (const QString &secret : secrets) {
        for (const auto &[form, needle] : formsOf(secret)) {
            if (bytes.contains(needle))
                found << where + u": "_s + secret + u" as "_s + form;
        }
    }
    return found;
}

// Everything Qt's message handler sees in this process, librdkafka's logs and the log panel's feed included.
QMutex g_messagesMutex;
QByteArray g_messages;
QtMessageHandler g_previousHandler = nullptr;

void captureMessage(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    {
        QMutexLocker lock(&g_messagesMutex);
        g_messages +=
            QByteArray(context.category ? context.category : "default") + ": " + message.toUtf8() + '\n';
    }
    if (type != QtDebugMsg && g_previousHandler) // the test log stays readable; the capture has everything
        g_previousHandler(type, context, message);
}

QByteArray capturedMessages()
{
    QMutexLocker lock(&g_messagesMutex);
    return g_messages;
}

// The run's home: set before QApplication exists, so QSettings, QStandardPaths, the keychain daemon and
// every child process (which inherit the environment) write under it.
void useHome(const QString &home)
{
    for (const char *dir : {"config", "cache", "data", "state", "runtime", "cwd"})
        QDir(home).mkpath(QString::fromLatin1(dir));
    QFile::setPermissions(home + u"/runtime"_s,
                          QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    qputenv("HOME", home.toUtf8());
    qputenv("XDG_CONFIG_HOME", (home + u"/config"_s).toUtf8());
    qputenv("XDG_CACHE_HOME", (home + u"/cache"_s).toUtf8());
    qputenv("XDG_DATA_HOME", (home + u"/data"_s).toUtf8());
    qputenv("XDG_STATE_HOME", (home + u"/state"_s).toUtf8());
    qputenv("XDG_RUNTIME_DIR", (home + u"/runtime"_s).toUtf8());
    // No session bus until a test starts its own keychain: nothing may reach the developer's real one.
    qputenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=" + (home + u"/no-bus"_s).toUtf8());
    // Debug output of every Berth category, so connection attempts are logged with their errors.
    qputenv("QT_LOGGING_RULES", "berth.*.debug=true");
}
} // namespace

class TestSecretLeaks final : public QObject {
    Q_OBJECT
public:
    explicit TestSecretLeaks(const QString &home)
        : m_home(home)
    {
    }

private:
    QString m_home;
    QByteArray m_childOutput; // stdout and stderr of every berth process
    std::unique_ptr<PrivateKeychain> m_keychain;

    // berth as an operator runs it, in the run's working directory (a stray file there is found too).
    BerthCli::Result berth(const QStringList &arguments, int timeoutMs = 60'000)
    {
        QProcess p;
        p.setWorkingDirectory(m_home + u"/cwd"_s);
        p.start(BerthCli::executable(), arguments);
        BerthCli::Result r;
        if (!p.waitForFinished(timeoutMs)) {
            p.kill();
            p.waitForFinished();
        } else if (p.exitStatus() == QProcess::NormalExit) {
            r.exitCode = p.exitCode();
        }
        r.out = p.readAllStandardOutput();
        const QByteArray err = p.readAllStandardError();
        r.err = QString::fromUtf8(err);
        m_childOutput += r.out + err; // not the arguments: they carry the secrets, as an operator's would
        return r;
    }

    QByteArray logPanelText() const
    {
        QByteArray text;
        const QList<LogBuffer::Entry> entries = LogBuffer::instance()->entries();
        for (const LogBuffer::Entry &e : entries)
            text += e.category.toUtf8() + ": " + e.message.toUtf8() + '\n';
        return text;
    }

    // Every regular file under the home, and everything logged: none holds a secret in any form.
    void verifyNoSecretAnywhere(const QStringList &secrets, int minimumFiles)
    {
        QStringList leaks;
        int files = 0;
        QDirIterator it(m_home, QDir::Files | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                        QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QFileInfo info(it.next());
            if (!info.isFile() || info.isSymLink())
                continue; // sockets of the keychain daemon
            QFile file(info.filePath());
            QVERIFY2(file.open(QIODevice::ReadOnly),
                     qPrintable(info.filePath() + u": "_s + file.errorString()));
            leaks += leaksIn(file.readAll(), info.filePath(), secrets);
            ++files;
        }
        leaks += leaksIn(capturedMessages(), u"Qt messages of the test process"_s, secrets);
        leaks += leaksIn(logPanelText(), u"the console's log panel"_s, secrets);
        leaks += leaksIn(m_childOutput, u"stdout/stderr of berth"_s, secrets);
        QVERIFY2(leaks.isEmpty(), qPrintable(leaks.join(u'\n')));
        QVERIFY2(
            files >= minimumFiles,
            qPrintable(u"only %1 file(s) under the home: the run wrote less than it should"_s.arg(files)));
    }

private Q_SLOTS:
    void initTestCase()
    {
        g_previousHandler = qInstallMessageHandler(captureMessage);
        LogBuffer::instance(); // the console's log panel feed, chained behind the capture
        QLoggingCategory::setFilterRules(u"berth.*.debug=true"_s);
    }

    void detectorFindsEveryForm()
    {
        // The search itself, on planted copies made by other means (QStringEncoder, base64 of longer texts):
        // each form at each alignment inside other bytes is found, and near misses are not. Without this, a
        // scan that finds nothing would prove nothing.
        for (const QString &secret : {KafkaSecret, DbSecret}) {
            const QByteArray utf8 = secret.toUtf8();
            QList<QByteArray> planted{utf8, QUrl::toPercentEncoding(secret), utf8.toHex()};
            for (const auto encoding : {QStringEncoder::Utf16LE, QStringEncoder::Utf16BE}) {
                QStringEncoder encoder(encoding);
                planted.append(QByteArray(encoder(secret)));
            }
            for (int prefix = 0; prefix < 3; ++prefix) {
                const QByteArray text = QByteArray(prefix, 'p') + utf8 + "tail";
                planted.append(text.toBase64());
                planted.append(text.toBase64(QByteArray::Base64UrlEncoding));
            }
            for (const QByteArray &p : std::as_const(planted))
                QVERIFY2(!leaksIn("head\n" + p + "\nrest", u"planted"_s, {secret}).isEmpty(), p.constData());
        }
        QVERIFY(
            leaksIn("Kafka Secret 7f3a/9c51, Db Secret c0ffee:42", u"near misses"_s, {KafkaSecret, DbSecret})
                .isEmpty());
    }

    void parseErrorsHideThePassword_data()
    {
        QTest::addColumn<QString>("conninfo");
        QTest::addColumn<QStringList>("hidden");  // pieces of the password
        QTest::addColumn<QString>("explanation"); // what libpq still says
        QTest::newRow("unquoted space")
            << u"host=127.0.0.1 port=1 user=alice password=Tr0ub4dor horse-staple-9f dbname=x"_s
            << QStringList{u"Tr0ub4dor"_s, u"horse-staple-9f"_s} << u"missing \"=\""_s;
        QTest::newRow("uri bad escape") << u"postgresql://alice:s3cr%ZZet-77@127.0.0.1:1/x"_s
                                        << QStringList{u"s3cr"_s, u"ZZet-77"_s} << u"percent-encoded"_s;
        QTest::newRow("uri ipv6") << u"postgresql://alice:s3cr3t-77@[::1/x"_s << QStringList{u"s3cr3t-77"_s}
                                  << u"IPv6"_s;
        QTest::newRow("query") << u"postgresql://alice@127.0.0.1:1/x?password=Tr0ub4dor%ZZ"_s
                               << QStringList{u"Tr0ub4dor"_s} << u"percent-encoded"_s;
        QTest::newRow("unterminated quote") << u"host=127.0.0.1 port=1 password='Tr0ub4dor dbname=x"_s
                                            << QStringList{u"Tr0ub4dor"_s} << u"unterminated"_s;
        // Hiding goes no further than the password: a misspelt keyword before it is still named.
        QTest::newRow("misspelt keyword")
            << u"hots=db password=Tr0ub4dor"_s << QStringList{u"Tr0ub4dor"_s} << u"\"hots\""_s;
    }

    void parseErrorsHideThePassword()
    {
        QFETCH(QString, conninfo);
        QFETCH(QStringList, hidden);
        QFETCH(QString, explanation);
        // Each place an operator reads it: the session's error (console banner, log), "Test connection" in
        // the profile dialog, and the command line's stderr.
        PgSession session;
        QString error;
        QVERIFY(!session.connect(conninfo, &error));
        const ConnectionCheck check = ConnectionTest::database(conninfo);
        QVERIFY(!check.ok);
        const BerthCli::Result cli =
            berth({u"replay"_s, u"status"_s, u"--db"_s, conninfo, u"--request"_s, u"1"_s});
        QCOMPARE(cli.exitCode, 1);
        for (const QString &text : {error, check.summary, cli.err}) {
            QVERIFY2(text.contains(explanation), qPrintable(text));
            for (const QString &piece : hidden)
                QVERIFY2(!text.contains(piece), qPrintable(text));
        }
        verifyNoSecretAnywhere(hidden.filter(QRegularExpression(u"^.{9,}$"_s)), 0);
    }

    void failedConnectionsLogNoSecret()
    {
        // libpq's words for a refused connection, as the command line prints them, from both conninfo forms.
        const QString uri = u"postgresql://alice:"_s + QString::fromLatin1(QUrl::toPercentEncoding(DbSecret))
                            + u"@127.0.0.1:1/orders?connect_timeout=3"_s;
        for (const QString &db : {withPassword(DeadDb, DbSecret), uri}) {
            const BerthCli::Result r =
                berth({u"replay"_s, u"status"_s, u"--db"_s, db, u"--request"_s, u"1"_s});
            QCOMPARE(r.exitCode, 1);
            QVERIFY2(r.err.contains(u"127.0.0.1"_s) && r.err.contains(u"refused"_s), qPrintable(r.err));
        }
        // librdkafka's, with its debug output on: its configuration dump names sasl.password, and every
        // refused connection is logged.
        QStringList lag{u"lag"_s,     u"--bootstrap"_s,      DeadKafka,
                        u"--group"_s, u"orders-projector"_s, u"--timeout"_s,
                        u"1500"_s,    u"--property"_s,       u"debug=broker,security,conf"_s};
        for (const auto &[key, value] : saslTo(DeadKafka)) {
            if (key != u"bootstrap.servers")
                lag << u"--property"_s << key + u'=' + value;
        }
        const BerthCli::Result r = berth(lag);
        QVERIFY2(r.exitCode == 1, qPrintable(r.err));
        QVERIFY2(r.err.contains(u"sasl.password"_s), qPrintable(r.err.left(4000)));
        QVERIFY2(r.err.contains(u"Connection refused"_s), qPrintable(r.err.left(4000)));
        verifyNoSecretAnywhere({KafkaSecret, DbSecret}, 0);
    }

    void runbooksCarryNoPassword()
    {
        ReplayWorld world;
        QString error;
        QVERIFY2(world.start(u"t_secretleaks"_s, &error), qPrintable(error));
        QVERIFY2(world.seedDlq(0, 3, 3, &error), qPrintable(error));
        RequestDraft draft;
        draft.selection = world.dlqRange(0, 3);
        draft.reason = u"runbook with secrets around"_s;
        const qint64 id = world.request(draft, &error);
        QVERIFY2(id > 0, qPrintable(error));

        // The audit conninfo with the password, keyword/value and as a URI (percent-encoded there).
        PQconninfoOption *parsed = PQconninfoParse(world.conninfo(u"alice"_s).toUtf8().constData(), nullptr);
        QVERIFY(parsed);
        QHash<QString, QString> options;
        for (PQconninfoOption *o = parsed; o->keyword; ++o) {
            if (o->val)
                options.insert(QString::fromUtf8(o->keyword), QString::fromUtf8(o->val));
        }
        PQconninfoFree(parsed);
        const QString keywordForm = withPassword(world.conninfo(u"alice"_s), DbSecret);
        const QString uriForm = u"postgresql://alice:"_s
                                + QString::fromLatin1(QUrl::toPercentEncoding(DbSecret)) + u"@/"_s
                                + options.value(u"dbname"_s) + u"?host="_s
                                + QString::fromLatin1(QUrl::toPercentEncoding(options.value(u"host"_s)))
                                + u"&port="_s + options.value(u"port"_s);
        for (const QString &db : {keywordForm, uriForm}) {
            for (const bool json : {false, true}) {
                QStringList args{
                    u"replay"_s,      u"runbook"_s,       u"--db"_s,       db,
                    u"--bootstrap"_s, world.bootstrap(),  u"--property"_s, u"sasl.password="_s + KafkaSecret,
                    u"--request"_s,   QString::number(id)};
                if (json)
                    args << u"--json"_s;
                const BerthCli::Result r = berth(args);
                QVERIFY2(r.exitCode == 0, qPrintable(r.err));
                const QString markdown =
                    json ? r.json().value(u"markdown"_s).toString() : QString::fromUtf8(r.out);
                QVERIFY2(markdown.contains(u"replay execute --bootstrap"_s), qPrintable(markdown));
                QVERIFY2(markdown.contains(u"alice"_s) && markdown.contains(options.value(u"dbname"_s)),
                         qPrintable(markdown)); // the conninfo is there, only without its password
            }
            // The console's "Write runbook", into the run's data directory.
            const QString path = m_home + u"/data/runbook-"_s + QString::number(db == uriForm) + u".md"_s;
            const RemediationTasks::RunbookWritten written =
                RemediationTasks::writeRunbook(db, id, world.bootstrap(), path, {});
            QVERIFY2(written.error.isEmpty(), qPrintable(written.error));
            QFile file(path);
            QVERIFY(file.open(QIODevice::ReadOnly));
            QVERIFY(file.readAll().contains("replay execute --bootstrap"));
        }
        verifyNoSecretAnywhere({KafkaSecret, DbSecret}, 2);
    }

    void consoleFromAKeychainProfileWritesNoSecret()
    {
        m_keychain = std::make_unique<PrivateKeychain>();
        QString error;
        QVERIFY2(m_keychain->start(&error, m_home), qPrintable(error));
        // A saved profile: the settings file gets the rest, the keychain its secrets.
        ConnectionProfile profile;
        profile.name = u"prod / eu"_s;
        profile.cluster = saslTo(DeadKafka);
        profile.namedGroups = {u"orders-projector"_s};
        profile.dlqTopics = {u"orders-dlt"_s};
        profile.databaseConninfo = withPassword(DeadDb, DbSecret);
        profile.sampleIntervalMs = 500;
        const QHash<QString, QString> secrets = ProfileStore().save(profile);
        QCOMPARE(secrets.size(), 2);
        SecretStore keychain;
        bool stored = false;
        keychain.store(profile.name, secrets, [&](const SecretStore::Outcome &o) {
            stored = o.ok;
            if (!o.ok)
                qWarning().noquote() << o.error;
        });
        QTRY_VERIFY_WITH_TIMEOUT(stored, 30'000);

        // `berth --profile "prod / eu"`, in this process: the real composition root, its log panel and its
        // settings. It runs until both connections have failed in the log, then its windows close (saving
        // their layout). A password prompt would mean the keychain was not used: that fails the test.
        bool prompted = false;
        bool kafkaFailed = false;
        bool databaseFailed = false;
        QElapsedTimer clock;
        clock.start();
        QTimer watch;
        connect(&watch, &QTimer::timeout, this, [&] {
            if (auto *prompt = qobject_cast<QInputDialog *>(QApplication::activeModalWidget())) {
                prompted = true;
                prompt->reject();
                return;
            }
            const QByteArray log = logPanelText();
            kafkaFailed = log.contains("berth.kafka: ") && log.contains("127.0.0.1:1")
                          && log.contains("Connection refused");
            databaseFailed = log.contains("database connection attempt failed");
            if ((kafkaFailed && databaseFailed) || clock.elapsed() > 30'000) {
                watch.stop();
                QApplication::closeAllWindows();
                QTimer::singleShot(0, qApp, &QCoreApplication::quit);
            }
        });
        watch.start(200);
        const int exitCode = Commands::console({u"berth"_s, u"--profile"_s, profile.name});
        watch.stop();
        QVERIFY(!prompted);
        QCOMPARE(exitCode, 0);
        QVERIFY2(kafkaFailed, "the console never logged librdkafka's refused connection");
        QVERIFY2(databaseFailed, "the console never logged the refused database connection");

        // The settings file is the one this run wrote: the profile and the console's layout are in it.
        QFile settings(m_home + u"/config/Berth/Berth.conf"_s);
        QVERIFY2(settings.open(QIODevice::ReadOnly), qPrintable(settings.fileName()));
        const QByteArray content = settings.readAll();
        QVERIFY(content.contains("127.0.0.1:1"));
        QVERIFY(content.contains("SCRAM-SHA-512"));
        QVERIFY(content.contains("dlq"));
        // The keychain kept them in its own (encrypted) file, which the search below reads as well.
        QVERIFY(QFileInfo::exists(m_home + u"/data/keyrings/login.keyring"_s));
        verifyNoSecretAnywhere({KafkaSecret, DbSecret}, 3);
    }

    void cleanupTestCase()
    {
        m_keychain.reset();
        qInstallMessageHandler(g_previousHandler);
    }
};

int main(int argc, char **argv)
{
    QTemporaryDir home;
    if (!home.isValid())
        return 2;
    useHome(home.path());
    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName(u"Berth"_s); // as berth's main(): the settings file's name
    QCoreApplication::setApplicationName(u"Berth"_s);
    QTEST_SET_MAIN_SOURCE_PATH
    TestSecretLeaks test(home.path());
    return QTest::qExec(&test, argc, argv);
}

#include "tst_secretleaks.moc"
