#include "commands.h"
#include "dlqcommand.h"
#include "services/support/memorypolicy.h"
#include "translation.h"

#include <QApplication>
#include <QCoreApplication>
#include <QTextStream>

#include <cstring>
#include <string>
#include <memory>

using namespace Qt::StringLiterals;

namespace {
struct Subcommand {
    const char *name;
    bool needsGui; // decided per invocation below for "demo"
    int (*run)(const QStringList &);
    const char *summary;
};

const Subcommand subcommands[] = {
    {"demo", true, &Commands::demo,
     "the demo world (mock cluster, private PostgreSQL, reference services) and the console;\n"
     "           --headless: the world alone; --screenshots DIR: write a PNG of each view and exit"},
    {"lag", false, &Commands::lag, "one lag sample (--bootstrap, --group, --json)"},
    {"watch", false, &Commands::watch,
     "lag, DLQ, duplicate and inbox alerts without a window: JSON lines on stdout;\n"
     "           --metrics-address HOST:PORT serves Prometheus metrics at /metrics"},
    {"dlq", false, &Commands::dlqScan, "dlq scan --topic T [--from ...] --json: decoded dead letters and failure groups"},
    {"account", false, &Commands::account,
     "account --group G --topic T --from ... [--to ...] --json: every record of a window accounted for"},
    {"replay", false, &Commands::replay,
     "replay request|approve|reject|execute|status|runbook: audited, four-eyes remediation (--db, --bootstrap)"},
    {"audit", false, &Commands::audit, "audit verify --db CONNINFO: recompute the audit log's hash chain"},
};

void printHelp()
{
    QTextStream out(stdout);
    out << "Usage: berth [SUBCOMMAND] [OPTIONS]\n\n"
        << "Without a subcommand, opens the console (--bootstrap SERVERS, --group NAME..., --db CONNINFO).\n"
        << "Anywhere: --lang CODE chooses the interface language (de, en; default: the system locale).\n\n"
        << "Subcommands:\n";
    for (const auto &cmd : subcommands)
        out << "  " << QString::fromLatin1(cmd.name).leftJustified(9) << QString::fromLatin1(cmd.summary) << "\n";
    out << "\nEach subcommand takes --help.\n";
}

void setIdentity()
{
    QCoreApplication::setOrganizationName(u"Berth"_s);
    QCoreApplication::setApplicationName(u"Berth"_s);
    QCoreApplication::setApplicationVersion(u"0.1.0"_s);
}

bool wantsHeadless(int argc, char **argv)
{
    for (int i = 2; i < argc; ++i) {
        if (std::strcmp(argv[i], "--headless") == 0 || std::strcmp(argv[i], "--help") == 0)
            return true;
    }
    return false;
}
}

int main(int argc, char **argv)
{
    MemoryPolicy::apply();
    QString language;
    if (!Translation::takeLanguageOption(argc, argv, &language)) {
        QTextStream(stderr) << "berth: --lang needs a language code (de, en)\n";
        return 2;
    }
    if (argc > 1 && (std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0 || std::strcmp(argv[1], "help") == 0)) {
        printHelp();
        return 0;
    }
    if (argc > 1 && std::strcmp(argv[1], "--version") == 0) {
        QTextStream(stdout) << "berth 0.1.0\n";
        return 0;
    }
    const Subcommand *chosen = nullptr;
    if (argc > 1 && argv[1][0] != '-') {
        for (const auto &cmd : subcommands) {
            if (std::strcmp(argv[1], cmd.name) == 0)
                chosen = &cmd;
        }
        if (!chosen) {
            QTextStream(stderr) << "berth: unknown subcommand '" << argv[1] << "'\n\n";
            printHelp();
            return 2;
        }
    }
    // Usage lines name the command as typed ("berth replay approve"), never the binary's path.
    static std::string usageName = "berth";
    if (chosen) {
        usageName += std::string(" ") + argv[1];
        if (argc > 2 && argv[2][0] != '-')
            usageName += std::string(" ") + argv[2];
    }
    argv[0] = usageName.data();
    // Command-line work runs without a display; only the console needs widgets.
    const bool gui = !chosen || (chosen->needsGui && !wantsHeadless(argc, argv));
    std::unique_ptr<QCoreApplication> app;
    if (gui)
        app = std::make_unique<QApplication>(argc, argv);
    else
        app = std::make_unique<QCoreApplication>(argc, argv);
    setIdentity();
    if (Translation::install(language).isEmpty() && !language.isEmpty() && !language.startsWith(u"en"))
        QTextStream(stderr) << "berth: no translation for '" << language << "'; using English\n";
    QStringList arguments = QCoreApplication::arguments();
    if (chosen)
        arguments.removeAt(1); // the subcommand itself; parsers see "berth --options"
    return chosen ? chosen->run(arguments) : Commands::console(arguments);
}
