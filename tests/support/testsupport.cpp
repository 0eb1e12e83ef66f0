#include "testsupport.h"

#include <QDir>
#include <QStandardPaths>

namespace TestSupport {
QString sourcePath(const QString &relative)
{
    return QDir(qEnvironmentVariable("BERTH_SOURCE_DIR")).filePath(relative);
}

bool haveExecutable(const QString &name)
{
    return !QStandardPaths::findExecutable(name).isEmpty();
}
}
