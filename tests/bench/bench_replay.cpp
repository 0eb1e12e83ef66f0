// Approved replay throughput, journal included, against kcat reading and producing the same records in the
// same run; then the verification of every replayed item at its consumer. Usage: bench_replay [--quick]
// [--messages N] [--payload BYTES] [--batch ITEMS-PER-JOURNAL-STATEMENT] [--pg-stats]
// [--shared-buffers SIZE]
//
// One mock cluster and one throwaway PostgreSQL. The DLQ is seeded with N dead letters (headers as the
// demo services write them); alice files a request for all of them and bob approves it (not timed). Timed:
// ReplayExecutor::run, i.e. pinning checks (re-read + SHA-256), intents journaled before producing,
// idempotent acks=all produce, delivery recorded per item, dispositions, completion. Then `kcat -P` produces
// the same keys and payloads into a fresh topic with as many partitions (timed as a whole process), and
// `kcat -C` reads the dead letters back (the re-read a pinned replay cannot skip, timed the same way).
//
// What bounds Berth's figure: CPU, shared by the bench process (Berth and librdkafka's in-process mock
// broker) and the audit database. Two audited row writes per item: the intent journaled before producing
// (the one write on the path to producing) and the delivery, recorded as the item's replayed disposition
// with where the record went (audit schema 011: the intent is not updated on success). Each statement pays
// its rows' index inserts, its statement-level checks (a batch's items and intents read as one key range,
// audit schema 013) and one hash-chained audit event. The executor overlaps the rest:
// three batches in flight (one produced, the next journaled, the one after it re-read and checked against
// its pins), the batch just produced settled while the next one goes out (replay_phase_reports_s is what
// the producer still waits for its reports), and two settle sessions beside the journal session.
// replay_phase_* say where the time went (ReplayTimings: summed per kind of work, overlapping): the
// producer waits mostly for the batch prepared ahead (replay_phase_ahead_wait_s: its re-read, whose copies
// of each record and its headers are the largest Berth-side cost, and its journal INSERT).
// replay_phase_setup_s is the serial start, execute until the first batch starts (lock, request, status,
// items, journal, marks, sessions); replay_phase_items_s is its largest part, the request's items read in
// a first page of 10,000 and then pages of 100,000 (AuditStore::items, binary results decoded without a
// QVariant per cell).
//
// --pg-stats: after the replay, the server's time per trigger function (track_functions), the rows each
// berth table took, and the plans of statements over 150 ms (auto_explain, nested statements included: a
// chain-lock wait shows as a slow pg_advisory_xact_lock). --shared-buffers SIZE sets the server's
// shared_buffers.
//
// replay_ratio_vs_kcat_read_and_produce: what kcat needs to do the same work without pins or journal
// (read the N dead letters, `kcat -C -e`, then produce them, `kcat -P`), divided by Berth's approved replay
// time from execute to the last delivery report (replay_berth_to_last_delivery_s; ReplayOutcome::
// lastDeliveryMs). replay_berth_s and replay_rate_msgs_s are the whole run, its last settle and the
// request's completion included.
//
// replay_verify_100k_s: the consumer's side is then made to look finished (the group's offsets committed
// at the ends; an inbox row per key: most completed after the run began, every tenth completed and every
// tenth parked before it; one item in a hundred back in the DLQ with its replay id), and ReplayVerifier
// follows every item once; the per-outcome counts are printed and sum to N.

#include "services/inbox/inboxmapping.h"
#include "services/kafka/kafkaproducer.h"
#include "services/kafka/offsetcommitter.h"
#include "services/remediation/remediationtypes.h"
#include "services/remediation/replayexecutor.h"
#include "services/remediation/replayverifier.h"
#include "services/remediation/topicrangereader.h"
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
    const bool pgStats = args.contains(u"--pg-stats"_s);
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
    // --shared-buffers SIZE: the server's shared_buffers (default TempPostgres's own, a few megabytes).
    QString sharedBuffers;
    if (const qsizetype i = args.indexOf(u"--shared-buffers"_s); i > 0 && i + 1 < args.size())
        sharedBuffers = args.at(i + 1);
    if (!world.start(u"bench_replay"_s, &error, Partitions, Partitions, sharedBuffers))
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

    // --pg-stats: the server's time per trigger function and per table write, printed after the replay.
    if (pgStats) {
        for (const QString &sql : {u"ALTER SYSTEM SET track_functions = 'all'"_s, u"LOAD 'auto_explain'"_s,
                                   u"ALTER SYSTEM SET session_preload_libraries = 'auto_explain'"_s,
                                   u"ALTER SYSTEM SET auto_explain.log_min_duration = 150"_s,
                                   u"ALTER SYSTEM SET auto_explain.log_analyze = on"_s,
                                   u"ALTER SYSTEM SET auto_explain.log_timing = off"_s,
                                   u"ALTER SYSTEM SET auto_explain.log_nested_statements = on"_s,
                                   u"SELECT pg_reload_conf()"_s, u"SELECT pg_stat_reset()"_s}) {
            if (const PgResult r = world.admin().exec(sql); !r.ok)
                return fail(r.error);
        }
    }
    ReplayControl control;
    ReplayExecutor executor(world.alice(), world.kafka());
    QElapsedTimer timer;
    timer.start();
    const ReplayOutcome outcome = executor.run(id, options, control);
    const double berthSeconds = double(timer.nsecsElapsed()) / 1e9;
    const double deliveredSeconds = double(outcome.lastDeliveryMs) / 1e3;
    if (outcome.finalStatus != RequestStatus::Completed || outcome.delivered != messages)
        return fail(u"the replay did not complete: "_s + outcome.error + u" ("_s
                    + QString::number(outcome.delivered) + u" delivered)"_s);

    if (pgStats) {
        const PgResult functions = world.admin().exec(
            u"SELECT funcname, calls, round(total_time), round(self_time) FROM pg_stat_user_functions "
            u"ORDER BY self_time DESC LIMIT 12"_s);
        for (const QVariantList &row : functions.rows)
            std::printf("pg function %s calls %s total %s ms self %s ms\n",
                        qPrintable(row.value(0).toString()), qPrintable(row.value(1).toString()),
                        qPrintable(row.value(2).toString()), qPrintable(row.value(3).toString()));
        // The plans of the slow statements, as auto_explain logged them (the server's log is beside its
        // data).
        const PgResult log = world.admin().exec(
            u"SELECT pg_read_file(current_setting('data_directory') || '/../server.log')"_s);
        std::printf("%s\n", qPrintable(log.rows.value(0).value(0).toString()));
        const PgResult tables = world.admin().exec(
            u"SELECT relname, n_tup_ins, n_tup_upd, n_tup_hot_upd, n_dead_tup FROM pg_stat_user_tables "
            u"WHERE schemaname = 'berth' ORDER BY relname"_s);
        for (const QVariantList &row : tables.rows)
            std::printf("pg table %s ins %s upd %s hot %s dead %s\n", qPrintable(row.value(0).toString()),
                        qPrintable(row.value(1).toString()), qPrintable(row.value(2).toString()),
                        qPrintable(row.value(3).toString()), qPrintable(row.value(4).toString()));
    }

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
    figure("replay_berth_to_last_delivery_s", deliveredSeconds, "s");
    figure("replay_kcat_s", kcatSeconds, "s");
    figure("replay_rate_msgs_s", berthRate, "msgs/s");
    figure("replay_kcat_rate_msgs_s", kcatRate, "msgs/s");
    figure("replay_source_read_kcat_s", readSeconds, "s");
    figure("replay_ratio_vs_kcat_read_and_produce", (readSeconds + kcatSeconds) / deliveredSeconds, "x");
    // Where Berth's time went (summed per kind of work; they overlap, see ReplayTimings).
    const ReplayTimings &t = outcome.timings;
    figure("replay_phase_setup_s", double(t.setupMs) / 1e3, "s");
    figure("replay_phase_items_s", double(t.itemsMs) / 1e3, "s");
    figure("replay_phase_read_s", double(t.readMs) / 1e3, "s");
    figure("replay_phase_journal_s", double(t.journalMs) / 1e3, "s");
    figure("replay_phase_ahead_wait_s", double(t.aheadWaitMs) / 1e3, "s");
    figure("replay_phase_produce_s", double(t.produceMs) / 1e3, "s");
    figure("replay_phase_reports_s", double(t.reportsMs) / 1e3, "s");
    figure("replay_phase_settle_s", double(t.settleMs) / 1e3, "s");
    figure("replay_phase_drain_s", double(t.drainMs) / 1e3, "s");

    // The consumer's side, made to look finished.
    const QString orders = QString::fromLatin1(ReplayWorld::OriginalTopic);
    const QString consumer = QString::fromLatin1(ReplayWorld::Consumer);
    PartitionOffsets ends;
    std::unique_ptr<TopicRangeReader> reader2 = TopicRangeReader::create(world.kafka(), &error);
    for (int p = 0; reader2 && p < Partitions; ++p) {
        qint64 low = 0;
        qint64 high = 0;
        if (!reader2->watermarks(orders, p, &low, &high, 10'000, &error))
            return fail(error);
        ends.insert({orders, p}, high);
    }
    if (!reader2 || !OffsetCommitter::commit(world.kafka(), consumer, ends, &error))
        return fail(u"cannot commit the consumer's offsets: "_s + error);
    if (!world.admin().execScript(
            u"CREATE TABLE processed_message (consumer_name text NOT NULL, message_id text NOT NULL, "
            u"status text NOT NULL, first_seen_at timestamptz NOT NULL DEFAULT now(), "
            u"updated_at timestamptz NOT NULL DEFAULT now(), error_code text, "
            u"PRIMARY KEY (consumer_name, message_id));"
            u"INSERT INTO processed_message (consumer_name, message_id, status, updated_at) "
            u"SELECT 'orders-projector', 'idem-' || i, CASE WHEN i % 10 = 1 THEN 'PARKED' ELSE 'COMPLETED' "
            u"END, "
            u"CASE WHEN i % 10 IN (0, 1) THEN now() - interval '1 day' ELSE now() END "
            u"FROM generate_series(0, "_s
                + QString::number(messages - 1) + u") AS i;ANALYZE processed_message;"_s,
            &error))
        return fail(error);
    std::unique_ptr<KafkaProducer> producer = KafkaProducer::create(world.kafka(), &error);
    if (!producer)
        return fail(error);
    int returned = 0;
    for (int item = 1; item <= messages; item += 100) {
        OutgoingRecord r{QString::fromLatin1(ReplayWorld::DlqTopic),
                         -1,
                         "k",
                         false,
                         "{}",
                         {{RemediationHeaders::ReplayId, replayIdFor(id, item).toUtf8(), false}},
                         0};
        if (!producer->produce(r, &error))
            return fail(error);
        ++returned;
    }
    if (!producer->flush(30'000, &error))
        return fail(error);
    InboxMapping mapping = InboxMapping::seed000ProcessedMessage();
    mapping.name = mapping.consumerValue = consumer;
    VerifyOptions verify;
    verify.timeoutMs = 0; // one pass: everything is decided already
    verify.inboxMappings = InboxMappingSet::resolve({}, {mapping}, {});
    timer.restart();
    const ReplayVerification v =
        ReplayVerifier(world.alice(), world.kafka(), &world.admin()).verify(id, verify);
    const double verifySeconds = double(timer.nsecsElapsed()) / 1e9;
    if (!v.error.isEmpty())
        return fail(u"verification: "_s + v.error);
    figure("replay_verify_100k_s", verifySeconds, "s");
    qint64 sum = 0;
    for (int o = 0; o < VerifyOutcomeCount; ++o) {
        const QByteArray name = "replay_verify_" + verifyOutcomeName(VerifyOutcome(o)).toLatin1();
        figure(name.constData(), v.counts[size_t(o)], "items");
        sum += v.counts[size_t(o)];
    }
    figure("replay_verify_items", double(sum), "items");
    if (sum != messages || v.count(VerifyOutcome::ReturnedToDlq) != returned)
        return fail(u"the verification's counts do not add up"_s);
    return 0;
}
