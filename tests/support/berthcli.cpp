#include "berthcli.h"

#include "support/replayworld.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QProcess>

using namespace Qt::StringLiterals;

namespace BerthCli {
QString executable()
{
    const QString configured = qEnvironmentVariable("BERTH_EXECUTABLE");
    return configured.isEmpty() ? QCoreApplication::applicationDirPath() + u"/../app/berth"_s : configured;
}

QJsonObject Result::json() const
{
    return QJsonDocument::fromJson(out).object();
}

Result run(const QStringList &arguments, int timeoutMs)
{
    QProcess p;
    p.start(executable(), arguments);
    Result r;
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        r.err = u"timed out"_s;
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

QHash<QString, int> replayIdCounts(const QList<QJsonObject> &records)
{
    QHash<QString, int> counts;
    for (const QJsonObject &r : records) {
        const QStringList ids = kcatHeaders(r).values(u"berth-replay-id"_s);
        for (const QString &id : ids)
            ++counts[id];
    }
    return counts;
}

bool exactlyOnce(const QList<QJsonObject> &records, qint64 requestId, int count, QString *why)
{
    const QHash<QString, int> ids = replayIdCounts(records);
    const QString prefix = QString::number(requestId) + u'-';
    int ofRequest = 0;
    for (auto it = ids.cbegin(); it != ids.cend(); ++it) {
        if (it.key().startsWith(prefix))
            ++ofRequest;
    }
    for (int item = 1; item <= count; ++item) {
        const QString id = prefix + QString::number(item);
        if (ids.value(id) != 1) {
            *why = id + u" appears "_s + QString::number(ids.value(id)) + u" times"_s;
            return false;
        }
    }
    if (ofRequest != count) {
        *why = QString::number(ofRequest) + u" distinct replay ids of the request, expected "_s + QString::number(count);
        return false;
    }
    return true;
}
} // namespace BerthCli
