#pragma once

#include <QString>

class PgSession;

namespace TestSupport {
// Absolute path of a file in the source tree (tests read fixtures from there).
QString sourcePath(const QString &relative);
// True when an executable is on PATH (kcat, pg_ctl...).
bool haveExecutable(const QString &name);
// Runs an SQL file of the source tree (e.g. resources/sql/demo_schema.sql) as one script.
bool execSourceScript(PgSession &db, const QString &relative, QString *error);
}
