#include "testsupport.h"

#include "services/inbox/pgsession.h"

#include <QDir>
#include <QFile>
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

bool execSourceScript(PgSession &db, const QString &relative, QString *error)
{
    QFile file(sourcePath(relative));
    if (!file.open(QIODevice::ReadOnly)) {
        *error = file.fileName() + QStringLiteral(": ") + file.errorString()
                 + QStringLiteral(" (is BERTH_SOURCE_DIR set?)");
        return false;
    }
    return db.execScript(QString::fromUtf8(file.readAll()), error);
}
}
