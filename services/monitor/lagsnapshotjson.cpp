#include "lagsnapshotjson.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

QJsonObject lagSnapshotToJson(const LagSnapshot &snapshot)
{
    QJsonArray groups;
    qsizetype i = 0;
    for (const GroupLag &summary : snapshot.groupRows) {
        const QString &group = summary.group;
        QJsonArray partitions;
        qint64 total = 0;
        while (i < snapshot.rows.size() && snapshot.rows[i].group < group)
            ++i;
        for (; i < snapshot.rows.size() && snapshot.rows[i].group == group; ++i) {
            const PartitionLag &r = snapshot.rows[i];
            QJsonArray flags;
            if (r.flags & PartitionLag::NoCommit)
                flags.append(u"no-commit"_s);
            if (r.flags & PartitionLag::CommittedAhead)
                flags.append(u"committed-ahead-of-end"_s);
            if (r.flags & PartitionLag::EndUnknown)
                flags.append(u"end-unknown"_s);
            partitions.append(QJsonObject{
                {u"topic"_s, r.topic},
                {u"partition"_s, r.partition},
                {u"committed"_s, r.committed},
                {u"start"_s, r.start},
                {u"end"_s, r.end},
                {u"lag"_s, r.lag},
                {u"timeLagSeconds"_s,
                 r.timeLagMs < 0 ? QJsonValue() : QJsonValue(double(r.timeLagMs) / 1000.0)},
                {u"timeLagMethod"_s, timeLagMethodName(r.timeLagMethod)},
                {u"timeToClearSeconds"_s, r.timeToClearS < 0 ? QJsonValue() : QJsonValue(r.timeToClearS)},
                {u"clearing"_s, lagClearingName(r.clearing)},
                {u"status"_s, lagStatusName(r.status)},
                {u"statusReason"_s, r.statusReason},
                {u"flags"_s, flags}});
            total += r.lag;
        }
        groups.append(QJsonObject{
            {u"group"_s, group},
            {u"lag"_s, total},
            {u"maxTimeLagSeconds"_s,
             summary.maxTimeLagMs < 0 ? QJsonValue() : QJsonValue(double(summary.maxTimeLagMs) / 1000.0)},
            {u"timeToClearSeconds"_s,
             summary.timeToClearS < 0 ? QJsonValue() : QJsonValue(summary.timeToClearS)},
            {u"clearing"_s, lagClearingName(summary.clearing)},
            {u"status"_s, lagStatusName(summary.status)},
            {u"statusReason"_s, summary.statusReason},
            {u"partitions"_s, partitions}});
    }
    return QJsonObject{{u"bootstrap"_s, snapshot.bootstrap},
                       {u"takenAt"_s, snapshot.takenAt.toString(Qt::ISODateWithMs)},
                       {u"durationMs"_s, snapshot.durationMs},
                       {u"reachable"_s, snapshot.reachable},
                       {u"groupSource"_s, snapshot.groupSource},
                       {u"groups"_s, groups},
                       {u"problems"_s, QJsonArray::fromStringList(snapshot.problems)}};
}
