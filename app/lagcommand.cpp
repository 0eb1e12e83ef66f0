#include "commands.h"
#include "connectionoptions.h"

#include "services/kafka/clusterinspector.h"
#include "services/monitor/lagsampler.h"
#include "services/monitor/offsetpeeker.h"
#include "services/monitor/lagsnapshotjson.h"

#include <QJsonDocument>
#include <QLocale>
#include <QTextStream>

using namespace Qt::StringLiterals;

namespace Commands {
int lag(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(u"Takes one lag sample with the console's sampler and prints it."_s);
    parser.addHelpOption();
    ConnectionOptions::add(parser);
    parser.addOption({u"json"_s, u"Print JSON for scripts."_s});
    parser.addOption({u"timeout"_s, u"Per-request timeout in milliseconds."_s, u"ms"_s, u"5000"_s});
    parser.process(arguments);
    const ConnectionProfile profile = ConnectionOptions::read(parser);
    QTextStream err(stderr);
    if (profile.cluster.isEmpty()) {
        err << "berth lag: give --bootstrap\n";
        return 2;
    }
    QString error;
    auto inspector = ClusterInspector::create(profile.cluster, &error);
    if (!inspector) {
        err << "berth lag: " << error << "\n";
        return 2;
    }
    LagSampler::Settings settings;
    settings.cluster = profile.cluster;
    settings.namedGroups = profile.namedGroups;
    settings.requestTimeoutMs = parser.value(u"timeout"_s).toInt();
    // One shot: there is no history to interpolate over, so time lag comes from peeking at the records.
    auto peeker = OffsetPeeker::create(profile.cluster, &error);
    LagHistory history;
    const LagSnapshot snapshot = LagSampler::sampleOnce(*inspector, settings, history, peeker.get());
    QTextStream out(stdout);
    if (parser.isSet(u"json"_s)) {
        out << QJsonDocument(lagSnapshotToJson(snapshot)).toJson(QJsonDocument::Indented);
    } else {
        for (const auto &row : snapshot.rows)
            out << lagStatusName(row.status) << '\t' << row.group << '\t' << row.topic << '[' << row.partition
                << "]\tcommitted " << row.committed << "\tend " << row.end << "\tlag " << row.lag << "\ttime lag "
                << (row.timeLagMs < 0 ? u"?"_s : QString::number(double(row.timeLagMs) / 1000.0, 'f', 1) + u" s")
                << " (" << timeLagMethodName(row.timeLagMethod) << ")\n";
    }
    for (const auto &problem : snapshot.problems)
        err << "berth lag: " << problem << "\n";
    return snapshot.reachable ? 0 : 1;
}
}
