#pragma once

#include "services/support/connectionprofile.h"

#include <QCommandLineParser>

// The connection options every subcommand understands: --bootstrap, --property, --group, --db, --profile.
namespace ConnectionOptions {
void add(QCommandLineParser &parser);
// Falls back to the last profile used by the console (settings) for what the command line leaves out.
// --profile loads a saved profile (without its secrets: their ids go to *secretIds).
ConnectionProfile read(const QCommandLineParser &parser, QStringList *secretIds = nullptr);
bool hasConnectionOptions(const QCommandLineParser &parser);
void remember(const ConnectionProfile &profile);
}
