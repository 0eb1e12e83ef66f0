// Approved replay throughput, journal included, against kcat producing the same payloads in the same run.
// Usage: bench_replay [--quick] [--messages N] [--payload BYTES] [--batch ITEMS-PER-JOURNAL-STATEMENT]
//
// One mock cluster and one throwaway PostgreSQL. The DLQ is seeded with N dead letters (headers as the
// demo services write them); alice files a request for all of them and bob approves it (not timed). Timed:
// ReplayExecutor::run, i.e. pinning checks (re-read + SHA-256), intents journaled before producing,
// idempotent acks=all produce, delivery recorded per item, dispositions, completion. Then `kcat -P` produces
// the same keys and payloads into a fresh topic with as many partitions (timed as a whole process), and
// `kcat -C` reads the dead letters back (the re-read a pinned replay cannot skip, timed the same way).
//
// What bounds Berth's figure: three audited row writes per item (intent journaled, intent settled,
// disposition), each paying the audit schema's per-row triggers and foreign keys, plus a hash-chained audit
// event per statement. The executor overlaps them (source read-ahead, two settle sessions beside the
// journal session), so the rate follows the database's CPU, not Kafka's.

#include "services/remediation/replayexecutor.h"
#include "services/support/memorypolicy.h"
#include "support/replayworld.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryFile>

#include <cstdio>

using namespace Qt::StringLiterals;

namespace {
void figure(const char *name, double value, const char *unit)
{
    std::printf("FIGURE %s %.3f %s\n", name, value, unit);
    std::fflush(stdout);
}

int fail(const QString &why)
{
    std::fprintf(stderr, "bench_replay: %s\n", qPrintable(why));
    return 1;
}
} // namespace

int main(int argc, char **argv)
{
    MemoryPolicy::apply(); // as berth does
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    const bool quick = args.contains(u"--quick"_s);
    int messages = quick ? 10'000 : 100'000;
    int payloadBytes = 200;
    if (const qsizetype i = args.indexOf(u"--messages"_s); i > 0 && i + 1 < args.size())
        messages = args.at(i + 1).toInt();
    if (const qsizetype i = args.indexOf(u"--payload"_s); i > 0 && i + 1 < args.size())
        payloadBytes = args.at(i + 1).toInt();
    ReplayOptions options;
    if (const qsizetype i = args.indexOf(u"--batch"_s); i > 0 && i + 1 < args.size())
        options.batchSize = args.at(i + 1).toInt();
    constexpr int Keys = 1000;

    ReplayWorld world;
    QString error;
    // 24 partitions each side: the mock broker keeps about 5 MB per partition, and 100,000 records with
    // their headers are some 40 MB.
    constexpr int Partitions = 24;
    if (!world.start(u"bench_replay"_s, &error, Partitions, Partitions))
        return fail(error);
    if (!world.seedDlq(0, messages, Keys, &error, payloadBytes))
        return fail(error);
    RequestDraft draft;
    draft.selection = world.dlqRange(0, messages);
    draft.reasonCode = u"bench"_s;
    draft.reason = u"throughput benchmark"_s;
    const qint64 id = world.request(draft, &error);
    if (id == 0 || !world.approve(id, &error))
        return fail(error);

    ReplayControl control;
    ReplayExecutor executor(world.alice(), world.kafka());
    QElapsedTimer timer;
    timer.start();
    const ReplayOutcome outcome = executor.run(id, options, control);
    const double berthSeconds = double(timer.nsecsElapsed()) / 1e9;
    if (outcome.finalStatus != RequestStatus::Completed || outcome.delivered != messages)
        return fail(u"the replay did not complete: "_s + outcome.error + u" ("_s
                    + QString::number(outcome.delivered) + u" delivered)"_s);

    // kcat, same keys and payloads, same cluster, its own default producer settings.
    if (!world.cluster().createTopic(u"kcat-bench"_s, Partitions))
        return fail(u"cannot create the kcat topic"_s);
    QTemporaryFile input;
    if (!input.open())
        return fail(u"cannot write the kcat input"_s);
    input.write(ReplayWorld::payloadLines(0, messages, Keys, payloadBytes));
    input.flush();
    QProcess kcat;
    kcat.setStandardInputFile(input.fileName());
    timer.restart();
    kcat.start(u"kcat"_s, {u"-P"_s, u"-b"_s, world.bootstrap(), u"-t"_s, u"kcat-bench"_s, u"-K"_s, u"\t"_s});
    if (!kcat.waitForFinished(600'000) || kcat.exitCode() != 0)
        return fail(u"kcat failed: "_s + QString::fromUtf8(kcat.readAllStandardError()));
    const double kcatSeconds = double(timer.nsecsElapsed()) / 1e9;
    const qint64 kcatWritten = world.endOffsetSum(u"kcat-bench"_s, &error);
    if (kcatWritten != messages)
        return fail(u"kcat wrote "_s + QString::number(kcatWritten) + u" records"_s);

    // What any replay that checks its pins must do before producing a record: read it back. kcat reading
    // the same dead letters (to /dev/null, no decoding) is the floor of that part, on this machine, now.
    QProcess reader;
    reader.setStandardOutputFile(QProcess::nullDevice());
    timer.restart();
    reader.start(u"kcat"_s,
                 {u"-C"_s, u"-b"_s, world.bootstrap(), u"-t"_s, QString::fromLatin1(ReplayWorld::DlqTopic),
                  u"-o"_s, u"beginning"_s, u"-e"_s, u"-q"_s});
    if (!reader.waitForFinished(600'000) || reader.exitCode() != 0)
        return fail(u"kcat -C failed: "_s + QString::fromUtf8(reader.readAllStandardError()));
    const double readSeconds = double(timer.nsecsElapsed()) / 1e9;

    const double berthRate = double(messages) / berthSeconds;
    const double kcatRate = double(messages) / kcatSeconds;
    figure("replay_messages", messages, "msgs");
    figure("replay_berth_s", berthSeconds, "s");
    figure("replay_kcat_s", kcatSeconds, "s");
    figure("replay_rate_msgs_s", berthRate, "msgs/s");
    figure("replay_kcat_rate_msgs_s", kcatRate, "msgs/s");
    figure("replay_ratio_vs_kcat", berthRate / kcatRate, "x");
    figure("replay_source_read_kcat_s", readSeconds, "s");
    // The best ratio a replay could reach if reading its sources were all it did.
    figure("replay_source_read_bound_ratio", kcatSeconds / readSeconds, "x");
    return 0;
}
