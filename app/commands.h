#pragma once

#include <QStringList>

// Subcommands share the services with the console (one brain, two faces). Each returns an exit code.
namespace Commands {
int console(const QStringList &arguments);
int demo(const QStringList &arguments);
int lag(const QStringList &arguments);
}
