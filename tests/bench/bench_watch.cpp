// `berth watch` memory benchmark. Prints FIGURE lines:
//   watch_rss_5000x20_1h_mb   resident memory after an hour of samples of 5,000 groups x 20 partitions
// The hour runs on a fake clock: each sample goes through the sampler's own evaluation (LagHistory,
// evaluateLag), the alert rules and a Prometheus scrape every third sample, as in the watch process; only
// the Kafka round trips are left out (bench_lag times those). --quick: 500 groups, 10 minutes.
#include "services/monitor/alertrules.h"
#include "services/monitor/lagevaluator.h"
#include "services/monitor/metricsexposition.h"
#include "services/support/memorypolicy.h"
#include "benchfigure.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QTextStream>

using namespace Qt::StringLiterals;

namespace {
constexpr int partitionsPerTopic = 20;
constexpr int topicCount = 25;

// VmRSS or VmHWM from /proc/self/status, in MB.
double memoryMb(const char *field)
{
    QFile status(u"/proc/self/status"_s);
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith(field))
            return line.mid(qsizetype(qstrlen(field))).trimmed().split(' ').first().toDouble() / 1024.0;
    }
    return -1;
}
}

int main(int argc, char **argv)
{
    MemoryPolicy::apply(); // as berth does
    QCoreApplication app(argc, argv);
    const bool quick = app.arguments().contains(u"--quick"_s);
    const int groups = quick ? 500 : 5000;
    const int samples = quick ? 120 : 720; // 10 min or 1 h at the default 5 s clock
    const double baseline = memoryMb("VmRSS:");

    // The shape the sampler produces: one row per group partition, sorted by group; every topic's end
    // offsets moving, each group committing a little behind.
    QStringList topics;
    for (int t = 0; t < topicCount; ++t)
        topics << u"bench-%1"_s.arg(t, 2, 10, QLatin1Char('0'));
    QStringList names;
    for (int g = 0; g < groups; ++g)
        names << u"bench-group-%1"_s.arg(g, 4, 10, QLatin1Char('0'));
    LagHistory history;
    AlertEngine engine;
    AlertRuleSet rules(engine);
    DeliveryPolicy policy;
    for (int g = 0; g < groups; g += 10) { // a policy naming every tenth group, as a large estate might
        ConsumerPolicy consumer;
        consumer.name = names.at(g);
        consumer.topics = {topics.at(g % topicCount)};
        consumer.lagSloMaxLagSeconds = 60;
        policy.consumers << consumer;
    }
    rules.setPolicy(AlertPolicy::from(policy));
    LagEvaluation evaluation;
    const qint64 start = 1'700'000'000'000;
    LagSnapshot kept; // the watch keeps the latest sample for /metrics
    qsizetype exposition = 0;
    QElapsedTimer clock;
    clock.start();
    for (int s = 0; s < samples; ++s) {
        const qint64 now = start + qint64(s) * 5000;
        LagSnapshot snap;
        snap.reachable = true;
        snap.takenAt = QDateTime::fromMSecsSinceEpoch(now, Qt::UTC);
        snap.groups = names;
        for (const QString &topic : std::as_const(topics)) {
            for (int p = 0; p < partitionsPerTopic; ++p)
                snap.endOffsets.insert({topic, p}, qint64(s) * 50 + p);
        }
        snap.rows.reserve(qsizetype(groups) * partitionsPerTopic);
        for (int g = 0; g < groups; ++g) {
            const QString &topic = topics.at(g % topicCount);
            for (int p = 0; p < partitionsPerTopic; ++p) {
                PartitionLag row;
                row.group = names.at(g);
                row.topic = topic;
                row.partition = p;
                row.end = qint64(s) * 50 + p;
                row.start = 0;
                row.committed = std::max<qint64>(0, row.end - 20 - (g % 7) * 10);
                row.lag = row.end - row.committed;
                snap.rows.append(row);
            }
        }
        evaluateLag(snap, history, nullptr, evaluation);
        rules.observeLag(snap);
        kept = snap;
        if (s % 3 == 0) {
            const QList<Alert> active = engine.activeAlerts();
            const QStringList dlqTopics;
            const QHash<QString, InboxBoard> boards;
            const DuplicateStats duplicates;
            exposition = prometheusExposition(
                             MetricsInputs{kept, boards, duplicates, rules.dlqArrivals(), dlqTopics, active})
                             .size();
        }
    }
    const double rss = memoryMb("VmRSS:");
    QTextStream(stderr) << groups << " groups x " << partitionsPerTopic << " partitions, " << samples
                        << " samples on a fake 5 s clock in " << clock.elapsed() / 1000.0 << " s; "
                        << history.groupPartitionCount() << " group partitions remembered; /metrics "
                        << exposition / 1024 << " KiB; RSS " << rss << " MB (peak " << memoryMb("VmHWM:")
                        << " MB, at start " << baseline << " MB)\n";
    figure(quick ? "watch_rss_500x20_10min_mb" : "watch_rss_5000x20_1h_mb", rss, "MB");
    return 0;
}
