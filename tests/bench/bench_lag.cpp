// Lag desk benchmarks. Prints FIGURE lines:
//   lag_sample_{50,200,500,2000,5000}x20_s   one steady sample of N groups x 20 partitions on the mock cluster,
//                                   every group's offsets committed just before (the curve; 5000 is the target)
//   chart_redraw_50x24h_ms          redraw of 50 series x 24 h at 1 s resolution
//   lag_ui_stall_max_ms             longest UI event-loop stall while the console samples 10,000 group partitions
// --quick: 50 groups only, 1 h of chart data, 10 s of stall measurement. --chart-only: the 24 h chart alone.
// --sample-only: the sample curve at 500, 2,000 and 5,000 groups alone.
#include "app/console.h"
#include "models/lagseriesstore.h"
#include "services/demo/mockkafkacluster.h"
#include "services/kafka/clusterinspector.h"
#include "services/kafka/kafkaproducer.h"
#include "services/monitor/lagsampler.h"
#include "services/monitor/offsetpeeker.h"
#include "services/support/memorypolicy.h"
#include "benchfigure.h"
#include "views/lagchartview.h"
#include "views/qcustomplotinclude.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QRandomGenerator>
#include <QTextStream>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace {
constexpr int partitionsPerTopic = 20;
constexpr int topicCount = 25;

// Commits for many groups through one admin handle (AlterConsumerGroupOffsets, one group per request, a
// bounded number in flight): a consumer handle per group would make preparing 5,000 groups the slow part.
void commitGroups(MockKafkaCluster &cluster, const QList<std::pair<QString, PartitionOffsets>> &commits)
{
    QString error;
    KafkaHandle admin = KafkaConfig::createClient(RD_KAFKA_PRODUCER, cluster.clientProperties(), &error);
    if (!admin) {
        QTextStream(stderr) << "bench: " << error << '\n';
        return;
    }
    rd_kafka_queue_t *queue = rd_kafka_queue_new(admin.get());
    qsizetype next = 0;
    int inFlight = 0;
    int failed = 0;
    auto issue = [&] {
        const auto &[group, offsets] = commits.at(next++);
        auto *list = rd_kafka_topic_partition_list_new(int(offsets.size()));
        for (auto it = offsets.cbegin(); it != offsets.cend(); ++it)
            rd_kafka_topic_partition_list_add(list, it.key().topic.toUtf8().constData(), it.key().partition)->offset =
                it.value();
        rd_kafka_AlterConsumerGroupOffsets_t *request =
            rd_kafka_AlterConsumerGroupOffsets_new(group.toUtf8().constData(), list);
        rd_kafka_AlterConsumerGroupOffsets(admin.get(), &request, 1, nullptr, queue);
        rd_kafka_AlterConsumerGroupOffsets_destroy(request);
        rd_kafka_topic_partition_list_destroy(list);
        ++inFlight;
    };
    while (next < commits.size() && inFlight < 64)
        issue();
    while (inFlight > 0) {
        rd_kafka_event_t *event = rd_kafka_queue_poll(queue, 30000);
        if (!event)
            break;
        --inFlight;
        failed += rd_kafka_event_error(event) != RD_KAFKA_RESP_ERR_NO_ERROR;
        rd_kafka_event_destroy(event);
        if (next < commits.size())
            issue();
    }
    rd_kafka_queue_destroy(queue);
    if (failed || inFlight)
        QTextStream(stderr) << "bench: " << failed + inFlight << " group commits failed\n";
}

QStringList prepareGroups(MockKafkaCluster &cluster, int groups)
{
    static bool topicsReady = false;
    if (!topicsReady) {
        QString error;
        auto producer = KafkaProducer::create(cluster.clientProperties(), &error);
        for (int t = 0; t < topicCount; ++t) {
            const QString topic = u"bench-%1"_s.arg(t, 2, 10, QLatin1Char('0'));
            cluster.createTopic(topic, partitionsPerTopic);
            for (int p = 0; p < partitionsPerTopic; ++p)
                for (int i = 0; i < 20; ++i)
                    producer->produce({topic, p, "k", false, "v", {}, 0});
        }
        producer->flush(30000);
        topicsReady = true;
    }
    QStringList names;
    QList<std::pair<QString, PartitionOffsets>> commits;
    for (int g = 0; g < groups; ++g) {
        const QString group = u"bench-group-%1"_s.arg(g, 4, 10, QLatin1Char('0'));
        const QString topic = u"bench-%1"_s.arg(g % topicCount, 2, 10, QLatin1Char('0'));
        PartitionOffsets offsets;
        for (int p = 0; p < partitionsPerTopic; ++p)
            offsets.insert({topic, p}, QRandomGenerator::global()->bounded(21));
        commits.append({group, offsets});
        names << group;
    }
    commitGroups(cluster, commits);
    return names;
}

void sampleFigures(MockKafkaCluster &cluster, const QList<int> &sizes)
{
    QString error;
    auto inspector = ClusterInspector::create(cluster.clientProperties(), &error);
    auto peeker = OffsetPeeker::create(cluster.clientProperties(), &error);
    for (int size : sizes) {
        LagSampler::Settings settings;
        settings.namedGroups = prepareGroups(cluster, size);
        LagHistory history;
        QElapsedTimer first;
        first.start();
        const LagSnapshot warm = LagSampler::sampleOnce(*inspector, settings, history, peeker.get());
        const double firstS = double(first.elapsed()) / 1000.0;
        QElapsedTimer steady;
        steady.start();
        const LagSnapshot snap = LagSampler::sampleOnce(*inspector, settings, history, peeker.get());
        const double steadyS = double(steady.elapsed()) / 1000.0;
        qsizetype committedRows = 0;
        for (const PartitionLag &row : snap.rows)
            committedRows += row.committed >= 0;
        QTextStream(stderr) << size << " groups: " << snap.rows.size() << " group partitions read (" << committedRows
                            << " with a committed offset), first sample " << firstS << " s (peeks included), steady "
                            << steadyS << " s\n";
        const QByteArray name = "lag_sample_" + QByteArray::number(size) + "x20_s";
        figure(name.constData(), steadyS, "s");
    }
}

void chartFigure(int seconds)
{
    LagSeriesStore store;
    LagChartView view(&store);
    view.resize(1400, 900);
    view.show();
    const qint64 end = QDateTime::currentMSecsSinceEpoch();
    LagSnapshot snap;
    snap.reachable = true;
    for (int g = 0; g < 50; ++g)
        snap.groupRows.append(GroupLag{u"group-%1"_s.arg(g, 2, 10, QLatin1Char('0'))});
    for (int s = 0; s < seconds; ++s) {
        snap.takenAt = QDateTime::fromMSecsSinceEpoch(end - qint64(seconds - s) * 1000);
        for (int g = 0; g < 50; ++g) {
            snap.groupRows[g].lag = qint64(1000 + 800 * std::sin(double(s) / 600.0 + g));
            snap.groupRows[g].maxTimeLagMs = snap.groupRows[g].lag * 10;
        }
        store.append(snap);
    }
    view.showGroup({});
    view.setRangeSeconds(seconds >= 86400 ? 86400 : 3600); // the whole day in view: the worst case
    view.redrawNow();
    view.lagPlot()->replot(QCustomPlot::rpImmediateRefresh); // warm caches
    QElapsedTimer clock;
    clock.start();
    constexpr int rounds = 10;
    for (int i = 0; i < rounds; ++i) {
        view.redrawNow();
        view.lagPlot()->replot(QCustomPlot::rpImmediateRefresh);
    }
    figure(seconds >= 86400 ? "chart_redraw_50x24h_ms" : "chart_redraw_50x1h_ms", double(clock.elapsed()) / rounds, "ms");
}

void stallFigure(MockKafkaCluster &cluster, int groups, int seconds)
{
    ConnectionProfile profile;
    profile.cluster = cluster.clientProperties();
    profile.namedGroups = prepareGroups(cluster, groups);
    profile.sampleIntervalMs = 1000;
    Console console(profile);
    console.show();
    QElapsedTimer clock, sinceTick;
    clock.start();
    sinceTick.start();
    qint64 worst = 0;
    QTimer heartbeat;
    heartbeat.setInterval(5);
    QObject::connect(&heartbeat, &QTimer::timeout, [&] {
        if (clock.elapsed() > 3000) // after start-up
            worst = std::max(worst, sinceTick.elapsed() - 5);
        sinceTick.restart();
    });
    heartbeat.start();
    QEventLoop loop;
    QTimer::singleShot(seconds * 1000, &loop, &QEventLoop::quit);
    loop.exec();
    QTextStream(stderr) << groups * partitionsPerTopic << " group partitions sampled every second for " << seconds << " s\n";
    figure("lag_ui_stall_max_ms", double(std::max<qint64>(0, worst)), "ms");
}
}

int main(int argc, char **argv)
{
    MemoryPolicy::apply(); // as berth does
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName(u"BerthBench"_s);
    const bool quick = app.arguments().contains(u"--quick"_s);
    if (app.arguments().contains(u"--chart-only"_s)) {
        chartFigure(86400);
        return 0;
    }
    MockKafkaCluster cluster(3);
    if (!cluster.isValid()) {
        QTextStream(stderr) << cluster.error() << '\n';
        return 1;
    }
    if (app.arguments().contains(u"--sample-only"_s)) {
        sampleFigures(cluster, {500, 2000, 5000});
        return 0;
    }
    sampleFigures(cluster, quick ? QList<int>{50} : QList<int>{50, 200, 500, 2000, 5000});
    chartFigure(quick ? 3600 : 86400);
    stallFigure(cluster, quick ? 50 : 500, quick ? 10 : 30);
    return 0;
}
