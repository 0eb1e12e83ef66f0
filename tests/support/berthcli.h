#pragma once

#include <QByteArray>
#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

// The berth executable as the tests run it: a child process, like an operator's terminal or a script.
namespace BerthCli {
// $BERTH_EXECUTABLE, else the build tree's app/berth next to the tests directory.
QString executable();

struct Result {
    int exitCode = -1; // -1: crashed or timed out
    QByteArray out;
    QString err;
    QJsonObject json() const;
};
Result run(const QStringList &arguments, int timeoutMs = 120'000);

// berth-replay-id -> how often it appears in records as kcat -J prints them.
QHash<QString, int> replayIdCounts(const QList<QJsonObject> &records);
// Items 1..count of the request each appear exactly once, and no other replay id of it does.
bool exactlyOnce(const QList<QJsonObject> &records, qint64 requestId, int count, QString *why);
} // namespace BerthCli
