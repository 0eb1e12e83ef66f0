// DLQ scan throughput against kcat, memory of a scanned index, time to first rows, and the longest stall of
// the UI thread (the console's entry table shows the browser model, offscreen) while the scan fills it and
// while a filter runs over it.
//
// The mock cluster runs in a child process (this program with --serve), so the figures measure the
// scanner alone. librdkafka's mock keeps 5 MB per partition: the topic gets enough partitions to hold
// every record. Usage: bench_dlq [--quick] [--records N] [--property librdkafka-key=value ...]
// [--stock-delegate] [--scans-only K | --stalls-only K] [--bootstrap B --mock-pid P]

#include "benchcluster.h"
#include "benchfigure.h"
#include "benchdeadletters.h"
#include "models/dlqbrowsermodel.h"
#include "services/demo/mockkafkacluster.h"
#include "services/dlq/dlqscanner.h"
#include "services/kafka/kafkaproducer.h"
#include "services/support/memorypolicy.h"
#include "views/dlqbrowserview.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QTimer>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include <sys/resource.h>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace {
const QString kTopic = u"bench-dlt"_s;
qint64 mockPid = 0; // the child serving the cluster
KafkaProperties extraProperties;

double rssMb()
{
    QFile status(u"/proc/self/status"_s);
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').first().toDouble() / 1024.0;
    }
    return -1;
}

// CPU seconds used so far by this process (who) or by its waited-for children (RUSAGE_CHILDREN). The
// machine may be shared: CPU time says what a scan costs when wall time is skewed by other load.
double cpuSeconds(int who)
{
    rusage u{};
    getrusage(who, &u);
    const auto seconds = [](const timeval &t) { return double(t.tv_sec) + double(t.tv_usec) / 1e6; };
    return seconds(u.ru_utime) + seconds(u.ru_stime);
}

// CPU seconds a running process has used (the mock cluster child, which is not reaped until the end).
double cpuSecondsOf(qint64 pid)
{
    QFile stat(u"/proc/"_s + QString::number(pid) + u"/stat"_s);
    if (!stat.open(QIODevice::ReadOnly))
        return -1;
    const QByteArray line = stat.readAll();
    // Fields after the command name (which may hold spaces); utime and stime are the 12th and 13th.
    const QList<QByteArray> fields = line.mid(line.lastIndexOf(')') + 2).split(' ');
    if (fields.size() < 13)
        return -1;
    return double(fields.at(11).toLongLong() + fields.at(12).toLongLong()) / double(sysconf(_SC_CLK_TCK));
}

// Seconds the mock cluster's threads have spent runnable but waiting for a core (Linux schedstat): the
// cluster is what bounds a scan, so its waits show how much the reader's own threads get in its way.
double queueSecondsOf(qint64 pid)
{
    double total = 0;
    const QString tasks = u"/proc/"_s + QString::number(pid) + u"/task/"_s;
    for (const QString &tid : QDir(tasks).entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        QFile stat(tasks + tid + u"/schedstat"_s);
        if (stat.open(QIODevice::ReadOnly))
            total += stat.readAll().split(' ').value(1).toDouble() / 1e9;
    }
    return total;
}

// Child: the cluster and the records; prints READY and lives until its stdin closes.
int serve(qint64 records)
{
    MockKafkaCluster cluster(3);
    if (!cluster.isValid()) {
        std::cerr << "mock cluster: " << qPrintable(cluster.error()) << std::endl;
        return 1;
    }
    const int partitions = int(qMax<qint64>(6, (records + 2399) / 2400));
    cluster.createTopic(kTopic, partitions);
    QString error;
    auto producer = BenchDeadLetters::bulkProducer(cluster.bootstrapServers());
    if (!producer)
        return 1;
    QElapsedTimer clock;
    clock.start();
    for (qint64 i = 0; i < records; ++i) {
        const BenchDeadLetters::Letter l = BenchDeadLetters::letter(i);
        if (!producer->produce({kTopic, int(i % partitions), l.key, false, l.value, l.headers, 0}, &error)) {
            std::cerr << "produce: " << qPrintable(error) << std::endl;
            return 1;
        }
    }
    if (!producer->flush(600'000, &error)) {
        std::cerr << "flush: " << qPrintable(error) << std::endl;
        return 1;
    }
    std::cerr << "# produced " << records << " records in " << partitions << " partitions in "
              << clock.elapsed() << " ms" << std::endl;
    return BenchCluster::serveUntilStdinCloses(cluster.bootstrapServers());
}

struct KcatFigures {
    double seconds = -1;
    double cpuSeconds = -1;
    double mockCpuSeconds = -1;   // the mock cluster's, serving this run
    double mockQueueSeconds = -1; // of it waiting for a core
};

KcatFigures kcatOnce(const QString &bootstrap)
{
    QProcess kcat;
    kcat.setStandardOutputFile(QProcess::nullDevice());
    // kcat as installed: malloc tunables or allocators tried on the scan are not kcat's.
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(u"GLIBC_TUNABLES"_s);
    env.remove(u"LD_PRELOAD"_s);
    kcat.setProcessEnvironment(env);
    const double cpuBefore = cpuSeconds(RUSAGE_CHILDREN);
    const double mockBefore = cpuSecondsOf(mockPid);
    const double queueBefore = queueSecondsOf(mockPid);
    QElapsedTimer clock;
    clock.start();
    kcat.start(u"kcat"_s,
               {u"-C"_s, u"-b"_s, bootstrap, u"-t"_s, kTopic, u"-e"_s, u"-o"_s, u"beginning"_s, u"-q"_s});
    if (!kcat.waitForFinished(1'800'000) || kcat.exitCode() != 0)
        return {};
    KcatFigures f;
    f.seconds = double(clock.nsecsElapsed()) / 1e9;
    f.cpuSeconds = cpuSeconds(RUSAGE_CHILDREN) - cpuBefore; // the mock cluster child is not reaped yet
    f.mockCpuSeconds = cpuSecondsOf(mockPid) - mockBefore;
    f.mockQueueSeconds = queueSecondsOf(mockPid) - queueBefore;
    return f;
}

struct ScanFigures {
    double seconds = -1;
    double cpuSeconds = -1; // this process's, over the scan (the mock cluster runs in the child)
    double mockCpuSeconds = -1;
    double mockQueueSeconds = -1;
    double firstRowsMs = -1;
    qint64 records = 0;
};

// The UI thread's longest gap between 5 ms heartbeats, while it runs: what an operator would feel as a
// freeze.
class StallMeter {
public:
    StallMeter()
    {
        m_beat.setInterval(5);
        QObject::connect(&m_beat, &QTimer::timeout, [this] {
            const qint64 gap = m_since.elapsed() - 5;
            const double cpu = threadCpuMs();
            const double wait = runQueueMs();
            if (gap > m_worst) {
                m_worst = gap;
                m_worstAtMs = m_running.elapsed();
                m_worstCpuMs = cpu - m_cpuAtBeat;
                m_worstQueueMs = wait - m_queueAtBeat;
            }
            m_since.restart();
            m_cpuAtBeat = cpu;
            m_queueAtBeat = wait;
        });
    }
    void start()
    {
        m_schedstat.open(QIODevice::ReadOnly | QIODevice::Unbuffered);
        m_running.start();
        m_since.start();
        m_cpuAtBeat = threadCpuMs();
        m_queueAtBeat = runQueueMs();
        m_beat.start();
    }
    void stop() { m_beat.stop(); }
    qint64 worstMs() const { return std::max<qint64>(0, m_worst); }
    qint64 worstAtMs() const { return m_worstAtMs; } // when it ended, from start()
    // How much of the longest gap this thread spent running: the rest it waited (for a core or a lock).
    double worstCpuMs() const { return m_worstCpuMs; }
    double worstQueueMs() const { return m_worstQueueMs; } // of it runnable, waiting for a core

private:
    QTimer m_beat;
    QElapsedTimer m_running;
    QElapsedTimer m_since;
    qint64 m_worst = 0;
    qint64 m_worstAtMs = 0;
    double m_worstCpuMs = 0;
    double m_cpuAtBeat = 0;
    double m_worstQueueMs = 0;
    double m_queueAtBeat = 0;
    // Opened once by start(), on the thread it describes: each beat only rereads it.
    QFile m_schedstat{u"/proc/thread-self/schedstat"_s};
    // Linux schedstat's second field: nanoseconds this thread has spent runnable but not running. Read
    // without allocating: a beat must not queue for malloc's locks behind the threads it measures.
    double runQueueMs()
    {
        char text[128];
        if (!m_schedstat.isOpen() || !m_schedstat.seek(0))
            return 0;
        const qint64 n = m_schedstat.read(text, sizeof text - 1);
        if (n <= 0)
            return 0;
        text[n] = '\0';
        const char *second = std::strchr(text, ' ');
        return second ? std::strtod(second + 1, nullptr) / 1e6 : 0;
    }
    static double threadCpuMs() { return cpuSeconds(RUSAGE_THREAD) * 1e3; }
};

// Shows a table set up as the console's browser is; stockDelegate compares Qt's own item painting.
void showTable(QTableView &table, DlqBrowserModel &model, bool stockDelegate)
{
    table.resize(1400, 800);
    DlqBrowserView::setUpEntryTable(&table, &model);
    if (stockDelegate)
        table.setItemDelegate(new QStyledItemDelegate(&table));
    table.show();
    // The window's first exposure and paint are not the scan's: let them happen before measuring.
    QElapsedTimer settle;
    settle.start();
    while (settle.elapsed() < 300)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
}

// A scan as the console runs it: scanner thread, batches into the browser model on this thread.
ScanFigures scanOnce(const QString &bootstrap, DlqBrowserModel &model)
{
    DlqScanner scanner;
    ScanFigures f;
    bool done = false;
    QElapsedTimer clock;
    QObject::connect(&scanner, &DlqScanner::scanStarted, &model, &DlqBrowserModel::beginScan);
    QObject::connect(&scanner, &DlqScanner::batchReady, &model, [&](const DlqScanBatch &batch) {
        if (f.firstRowsMs < 0 && !batch.entries.isEmpty())
            f.firstRowsMs = double(clock.nsecsElapsed()) / 1e6;
        model.appendBatch(batch);
    });
    double cpuBefore = 0, mockBefore = 0, queueBefore = 0;
    QObject::connect(&scanner, &DlqScanner::scanFinished, &model, [&](const DlqScanResult &r) {
        f.seconds = double(clock.nsecsElapsed()) / 1e9;
        f.cpuSeconds = cpuSeconds(RUSAGE_SELF) - cpuBefore;
        f.mockCpuSeconds = cpuSecondsOf(mockPid) - mockBefore;
        f.mockQueueSeconds = queueSecondsOf(mockPid) - queueBefore;
        f.records = r.progress.records;
        if (!r.error.isEmpty())
            std::cerr << "scan: " << qPrintable(r.error) << std::endl;
        done = true;
    });
    DlqScanRequest request;
    request.cluster = {{u"bootstrap.servers"_s, bootstrap}};
    request.cluster += extraProperties; // --property k=v: try consumer settings
    request.topic = kTopic;
    cpuBefore = cpuSeconds(RUSAGE_SELF);
    mockBefore = cpuSecondsOf(mockPid);
    queueBefore = queueSecondsOf(mockPid);
    clock.start();
    scanner.start(request);
    while (!done)
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
    return f;
}
} // namespace

int main(int argc, char **argv)
{
    MemoryPolicy::apply(); // as berth does
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const QStringList args = app.arguments();
    const qint64 records = recordCount(args, 50'000, 1'000'000);
    for (qsizetype i = args.indexOf(u"--property"_s); i >= 0 && i + 1 < args.size();
         i = args.indexOf(u"--property"_s, i + 2)) {
        const QString kv = args.at(i + 1);
        extraProperties.append({kv.section(u'=', 0, 0), kv.section(u'=', 1)});
    }
    if (const qsizetype i = args.indexOf(u"--serve"_s); i >= 0 && i + 1 < args.size())
        return serve(args.at(i + 1).toLongLong());

    // --bootstrap B --mock-pid P: use a cluster already serving (started with --serve), to tune without
    // producing the records again for every try.
    QString bootstrap;
    if (const qsizetype i = args.indexOf(u"--bootstrap"_s); i >= 0 && i + 1 < args.size())
        bootstrap = args.at(i + 1);
    if (const qsizetype i = args.indexOf(u"--mock-pid"_s); i >= 0 && i + 1 < args.size())
        mockPid = args.at(i + 1).toLongLong();
    QProcess server;
    if (bootstrap.isEmpty())
        bootstrap = BenchCluster::startChild(server, app.applicationFilePath(),
                                             {u"--serve"_s, QString::number(records)});
    if (bootstrap.isEmpty())
        return 1;
    if (server.state() != QProcess::NotRunning)
        mockPid = server.processId();

    // --scans-only K: K headless scans, each after a kcat run, and nothing else (for tuning the reader).
    if (const qsizetype i = args.indexOf(u"--scans-only"_s); i >= 0 && i + 1 < args.size()) {
        for (int k = 0; k < args.at(i + 1).toInt(); ++k) {
            const KcatFigures kc = kcatOnce(bootstrap);
            DlqBrowserModel model;
            const ScanFigures f = scanOnce(bootstrap, model);
            std::cerr << "# kcat " << kc.seconds << " s, CPU " << kc.cpuSeconds << " s, mock "
                      << kc.mockCpuSeconds << " s (waited " << kc.mockQueueSeconds << " s) | scan "
                      << f.seconds << " s, CPU " << f.cpuSeconds << " s, mock " << f.mockCpuSeconds
                      << " s (waited " << f.mockQueueSeconds << " s) | ratio " << f.seconds / kc.seconds
                      << std::endl;
        }
        server.closeWriteChannel();
        server.waitForFinished(30'000);
        return 0;
    }

    // --stalls-only K: K scans into a visible table, each with its longest interface gap (for tuning that).
    if (const qsizetype i = args.indexOf(u"--stalls-only"_s); i >= 0 && i + 1 < args.size()) {
        for (int k = 0; k < args.at(i + 1).toInt(); ++k) {
            DlqBrowserModel model;
            QTableView table;
            showTable(table, model, false);
            StallMeter stall;
            stall.start();
            const ScanFigures f = scanOnce(bootstrap, model);
            stall.stop();
            std::cerr << "# scan " << f.seconds << " s, CPU " << f.cpuSeconds << " s | longest UI gap "
                      << stall.worstMs() << " ms (" << stall.worstCpuMs() << " ms on the CPU, "
                      << stall.worstQueueMs() << " ms waiting for one) at " << stall.worstAtMs() / 1000.0
                      << " s" << std::endl;
        }
        server.closeWriteChannel();
        server.waitForFinished(30'000);
        return 0;
    }

    const double baseRss = rssMb();
    DlqBrowserModel model;
    // The first scan and the filter fill a visible table set up as the console's browser is.
    QTableView table;
    showTable(table, model, args.contains(u"--stock-delegate"_s));
    StallMeter stall;
    stall.start();
    const ScanFigures first = scanOnce(bootstrap, model);
    const double rss = rssMb();
    QElapsedTimer filterClock;
    filterClock.start();
    bool filtered = false;
    QObject::connect(&model, &DlqBrowserModel::filterApplied, &model, [&] { filtered = true; });
    DlqFilter filter;
    filter.text = u"declined"_s;
    model.setFilter(filter);
    while (!filtered)
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
    const double filterMs = double(filterClock.nsecsElapsed()) / 1e6;
    stall.stop();
    model.setFilter({});

    // Scans and kcat runs alternate, twice; each figure is the better of its two runs.
    const bool haveKcat = !QStandardPaths::findExecutable(u"kcat"_s).isEmpty();
    const KcatFigures k1 = haveKcat ? kcatOnce(bootstrap) : KcatFigures{};
    DlqBrowserModel second;
    const ScanFigures again = scanOnce(bootstrap, second);
    const KcatFigures k2 = haveKcat ? kcatOnce(bootstrap) : KcatFigures{};
    const KcatFigures &kcat = k1.seconds < 0 || (k2.seconds > 0 && k2.seconds < k1.seconds) ? k2 : k1;
    const ScanFigures &best = first.seconds <= again.seconds ? first : again;
    const double scan = best.seconds;

    std::cerr << "# " << first.records << " records; index " << model.memoryBytes() / (1024 * 1024)
              << " MB; RSS before scan " << baseRss << " MB" << std::endl;
    // CPU seconds beside wall times: on a shared machine they show what each reader costs.
    for (const ScanFigures *f : {&first, &again})
        std::cerr << "# scan " << f->seconds << " s; CPU " << f->cpuSeconds << " s, mock cluster "
                  << f->mockCpuSeconds << " s" << std::endl;
    std::cerr << "# longest UI gap " << stall.worstMs() << " ms (" << stall.worstCpuMs()
              << " ms of it on the CPU, " << stall.worstQueueMs() << " ms waiting for one), ending "
              << stall.worstAtMs() / 1000.0 << " s after the scan began (scan " << first.seconds
              << " s, then the filter)" << std::endl;
    for (const KcatFigures *k : {&k1, &k2})
        std::cerr << "# kcat " << k->seconds << " s; CPU " << k->cpuSeconds << " s, mock cluster "
                  << k->mockCpuSeconds << " s" << std::endl;
    // Berth's time over kcat's: <= 1 means the scan is at least as fast as kcat reading the same topic.
    if (kcat.seconds > 0)
        figure("dlq_scan_ratio_vs_kcat", scan / kcat.seconds, "x");
    figure("dlq_scan_s", scan, "s");
    if (kcat.seconds > 0)
        figure("dlq_kcat_s", kcat.seconds, "s");
    figure("dlq_rss_1m_mb", rss, "MB");
    figure("dlq_first_rows_ms", first.firstRowsMs, "ms");
    figure("dlq_scan_records_per_s", double(best.records) / best.seconds, "records/s");
    figure("dlq_filter_ms", filterMs, "ms");
    figure("dlq_ui_stall_max_ms", double(stall.worstMs()), "ms");
    server.closeWriteChannel();
    server.waitForFinished(30'000);
    return first.records == records ? 0 : 1;
}
