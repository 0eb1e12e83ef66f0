#include "commands.h"
#include "consolehost.h"
#include "terminationsignals.h"

#include "services/demo/demoworld.h"

#include <QApplication>
#include <QSettings>
#include <QTemporaryDir>
#include <QCommandLineParser>
#include <QTextStream>
#include <QTimer>


using namespace Qt::StringLiterals;

namespace Commands {
int demo(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        u"Runs Berth's demo world: a 3-broker mock Kafka cluster, a private PostgreSQL and reference services "
        "with continuous traffic and scheduled faults, and opens the console on it."_s);
    parser.addHelpOption();
    parser.addOption({u"headless"_s, u"Run the world alone and print how to connect; stop with Ctrl+C."_s});
    parser.addOption({u"screenshots"_s, u"Warm up, write one PNG per main view into DIR, and exit."_s, u"dir"_s});
    parser.addOption({u"warm-up"_s, u"Seconds to warm up before screenshots."_s, u"seconds"_s, u"20"_s});
    parser.addOption({u"data-dir"_s, u"Keep the world's PostgreSQL in DIR (default: a temporary directory)."_s, u"dir"_s});
    parser.addOption({u"speed"_s, u"Traffic multiplier."_s, u"factor"_s, u"1"_s});
    parser.addOption({u"user"_s, u"Database role the console uses (alice or bob)."_s, u"role"_s, u"alice"_s});
    parser.process(arguments);

    QTextStream out(stdout);
    QTextStream err(stderr);
    err << "Starting the demo world (mock cluster, PostgreSQL, services)…" << Qt::endl;
    DemoWorld world;
    DemoWorld::Options options;
    options.dataDir = parser.value(u"data-dir"_s);
    options.speed = std::max(0.1, parser.value(u"speed"_s).toDouble());
    QString error;
    if (!world.start(options, &error)) {
        err << "berth demo: " << error << Qt::endl;
        return 1;
    }
    out << world.connectionHelp() << Qt::flush;
    // Ctrl+C / SIGTERM: the world stops cleanly (PostgreSQL shut down, temp dir removed). Headless, the
    // application is a QCoreApplication (qApp would name a QApplication).
    quitOnTerminationSignals(QCoreApplication::instance());

    if (parser.isSet(u"headless"_s)) {
        out << "The demo world is running. Stop it with Ctrl+C." << Qt::endl;
        return QCoreApplication::exec();
    }

    ConnectionProfile profile = world.profile(parser.value(u"user"_s));
    const bool screenshots = parser.isSet(u"screenshots"_s);
    QTemporaryDir pictureSettings;
    if (screenshots) {
        profile.sampleIntervalMs = 2000;
        // Pictures show the factory layout, and taking them leaves the operator's saved layout alone.
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, pictureSettings.path());
    }
    ConsoleHost host;
    Console &console = *host.open(profile);
    int exitCode = 0;
    if (screenshots) {
        QObject::connect(&console, &Console::screenshotsDone, qApp, [&](bool ok, const QString &message) {
            (ok ? out : err) << message << Qt::endl;
            exitCode = ok ? 0 : 1;
            QCoreApplication::quit();
        });
        console.writeScreenshots(parser.value(u"screenshots"_s), parser.value(u"warm-up"_s).toInt() * 1000);
    }
    const int loop = QApplication::exec();
    return screenshots ? exitCode : loop;
}
}
