#include "commands.h"
#include "connectionoptions.h"

#include "services/inbox/inboxboardjson.h"
#include "services/inbox/inboxboardquery.h"
#include "services/kafka/clusterinspector.h"
#include "services/monitor/lagsampler.h"
#include "services/monitor/lagsnapshotjson.h"
#include "services/monitor/offsetpeeker.h"
#include "services/payload/keymask.h"

#include <QJsonArray>
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
    DeliveryPolicy policy;
    InboxMappingSet inboxes;
    if (!ConnectionOptions::readPolicy(profile, &policy, &inboxes, &error)) {
        err << "berth lag: " << error << "\n";
        return 2;
    }
    auto inspector = ClusterInspector::create(profile.cluster, &error);
    if (!inspector) {
        err << "berth lag: " << error << "\n";
        return 2;
    }
    LagSampler::Settings settings;
    settings.cluster = profile.cluster;
    settings.namedGroups = profile.namedGroups;
    for (const QString &group : policy.consumerGroups()) { // the policy lists what must be watched
        if (!settings.namedGroups.contains(group))
            settings.namedGroups.append(group);
    }
    settings.requestTimeoutMs = parser.value(u"timeout"_s).toInt();
    // One shot: there is no history to interpolate over, so time lag comes from peeking at the records.
    auto peeker = OffsetPeeker::create(profile.cluster, &error);
    LagHistory history;
    const LagSnapshot snapshot = LagSampler::sampleOnce(*inspector, settings, history, peeker.get());
    // Every mapped inbox, each in its own database.
    QList<InboxBoard> boards;
    const KeyMask keyMask(policy); // a masked message id is printed "(masked)" (ARCHITECTURE.md, Masking)
    for (const InboxMapping &mapping : std::as_const(inboxes.mappings)) {
        QString problem;
        const QString conninfo = inboxes.conninfoFor(mapping, &problem);
        InboxBoard board = conninfo.isEmpty()
                               ? InboxBoard{}
                               : InboxBoardQuery::collect(conninfo, mapping, JobControl(),
                                                          InboxBoardQuery::DefaultStatementTimeoutMs, nullptr,
                                                          nullptr, keyMask);
        if (conninfo.isEmpty()) {
            board.mappingName = mapping.name;
            board.table = mapping.qualifiedTable();
            board.error = problem;
        }
        board.database = inboxes.databaseLabel(mapping);
        boards << board;
    }
    QTextStream out(stdout);
    if (parser.isSet(u"json"_s)) {
        QJsonObject json = lagSnapshotToJson(snapshot);
        if (!inboxes.isEmpty()) {
            QJsonArray list;
            for (const InboxBoard &board : std::as_const(boards))
                list.append(inboxBoardToJson(board));
            json.insert(u"inboxes"_s, list);
        }
        out << QJsonDocument(json).toJson(QJsonDocument::Indented);
    } else {
        for (const InboxBoard &board : std::as_const(boards)) {
            out << "inbox\t" << board.mappingName << '\t' << board.table << " (" << board.database << ")\t";
            if (!board.ok()) {
                out << "error: " << board.error << '\n';
                continue;
            }
            for (int st = 0; st < InboxStateCount; ++st)
                out << inboxStateName(InboxState(st)) << (board.estimated[size_t(st)] ? " about " : " ")
                    << board.totals[size_t(st)] << (st + 1 < InboxStateCount ? ", " : "");
            out << "\tstuck " << board.stuckCount << '\n';
        }
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
