#pragma once

#include <QString>

namespace TestSupport {
// Absolute path of a file in the source tree (tests read fixtures from there).
QString sourcePath(const QString &relative);
// True when an executable is on PATH (kcat, pg_ctl...).
bool haveExecutable(const QString &name);
}
