#pragma once
// The benchmarks' mock cluster served from a child process (so that its CPU is not charged to the process
// measured), and kcat's raw read of a topic, the yardstick the `*_ratio_vs_kcat` figures divide by.
#include <QElapsedTimer>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <iostream>
#include <string>

namespace BenchCluster {

// Child side: announces where the cluster listens ("READY <bootstrap>"), then lives until its stdin closes.
inline int serveUntilStdinCloses(const QString &bootstrap)
{
    std::cout << "READY " << qPrintable(bootstrap) << std::endl;
    std::string line;
    while (std::getline(std::cin, line)) {
    }
    return 0;
}

// Parent side: starts this executable with `arguments` and waits for the child's announcement. Returns the
// bootstrap servers, or an empty string (said on stderr) when the child never announced.
inline QString startChild(QProcess &child, const QString &program, const QStringList &arguments)
{
    child.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    child.start(program, arguments);
    QString bootstrap;
    while (bootstrap.isEmpty() && child.waitForReadyRead(1'800'000)) {
        while (child.canReadLine()) {
            const QByteArray line = child.readLine().trimmed();
            if (line.startsWith("READY "))
                bootstrap = QString::fromUtf8(line.mid(6));
        }
    }
    if (bootstrap.isEmpty())
        std::cerr << "the mock cluster did not start" << std::endl;
    return bootstrap;
}

// kcat's time to read `topic` from the beginning to its end, in seconds; -1 when kcat failed.
inline double kcatReadSeconds(const QString &bootstrap, const QString &topic)
{
    QProcess kcat;
    kcat.setStandardOutputFile(QProcess::nullDevice());
    QElapsedTimer clock;
    clock.start();
    kcat.start(QStringLiteral("kcat"), {QStringLiteral("-C"), QStringLiteral("-b"), bootstrap, QStringLiteral("-t"),
                                        topic, QStringLiteral("-e"), QStringLiteral("-o"),
                                        QStringLiteral("beginning"), QStringLiteral("-q")});
    if (!kcat.waitForFinished(1'800'000) || kcat.exitCode() != 0)
        return -1;
    return double(clock.nsecsElapsed()) / 1e9;
}

} // namespace BenchCluster
