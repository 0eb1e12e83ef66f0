#pragma once

#include "services/support/connectionprofile.h"

#include <QCommandLineParser>

// The connection options every subcommand understands: --bootstrap, --property, --group, --db.
namespace ConnectionOptions {
void add(QCommandLineParser &parser);
// Falls back to the last profile used by the console (settings) for what the command line leaves out.
ConnectionProfile read(const QCommandLineParser &parser);
void remember(const ConnectionProfile &profile);
}
