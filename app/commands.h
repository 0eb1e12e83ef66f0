#pragma once

#include <QStringList>

// Subcommands share the services with the console (one brain, two faces). Each returns an exit code.
namespace Commands {
int console(const QStringList &arguments);
int demo(const QStringList &arguments);
int lag(const QStringList &arguments);
// berth watch: the monitoring without a window; alerts as JSON lines, Prometheus metrics (app/watchcommand.cpp)
int watch(const QStringList &arguments);
// berth replay request|approve|reject|execute|status|runbook (app/replaycommand.cpp)
int replay(const QStringList &arguments);
// berth account: every record of a consumer's window accounted for (app/accountcommand.cpp)
int account(const QStringList &arguments);
// berth audit verify (app/auditcommand.cpp)
int audit(const QStringList &arguments);
}
