// Delivery accounting of a consumer's window against kcat's raw read of the same records, its memory, and
// the longest stall of the UI thread while it runs beside the Accounting view (offscreen) and the view
// takes the result.
//
// The mock cluster runs in a child process (this program with --serve) holding the source topic (each
// record with an idempotency-key header), a DLQ topic naming a thousandth of them by coordinates, and the
// group's committed offsets; a throwaway PostgreSQL holds an inbox row for every record. librdkafka's mock
// keeps 5 MB per partition: the topic gets enough partitions to hold every record.
// The inbox is set up as Berth asks of a table this large (InboxBoardQuery::indexRequirements): its key
// index covers the status and updated time, and the table is vacuumed as autovacuum keeps a live one, so
// each key look-up is an index-only probe. --plain-inbox leaves it a bare primary key on a table never
// vacuumed (every probe visits the heap, and the first reads set its hint bits).
// Usage: bench_account [--quick] [--records N] [--plain-inbox]

#include "benchcluster.h"
#include "benchfigure.h"
#include "models/accountingmodel.h"
#include "services/accounting/accountingservice.h"
#include "services/demo/mockkafkacluster.h"
#include "services/demo/temppostgres.h"
#include "services/dlq/dlqheadercodec.h"
#include "services/kafka/kafkaproducer.h"
#include "services/kafka/offsetcommitter.h"
#include "views/accountingview.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTimer>

#include <cstdio>
#include <iostream>
#include <string>

#include <sys/resource.h>

using namespace Qt::StringLiterals;

namespace {
const QString kTopic = u"bench-orders"_s;
const QString kDlq = u"bench-orders-dlt"_s;
const QString kGroup = u"bench-projection"_s;

// Peak resident memory of this process, in MB (the kernel's high-water mark).
double peakRssMb()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_maxrss) / 1024.0;
}

QByteArray idOf(qint64 i)
{
    return "evt-" + QByteArray::number(i);
}

int serve(qint64 records)
{
    MockKafkaCluster cluster(3);
    if (!cluster.isValid())
        return 1;
    const int partitions = int(qMax<qint64>(6, (records + 2399) / 2400));
    cluster.createTopic(kTopic, partitions);
    cluster.createTopic(kDlq, 1);
    QString error;
    auto producer = KafkaProducer::create({{u"bootstrap.servers"_s, cluster.bootstrapServers()},
                                           {u"linger.ms"_s, u"20"_s},
                                           {u"batch.num.messages"_s, u"5000"_s},
                                           {u"queue.buffering.max.kbytes"_s, u"1048576"_s}},
                                          &error);
    if (!producer)
        return 1;
    QHash<int, qint64> perPartition;
    for (qint64 i = 0; i < records; ++i) {
        const int p = int(i % partitions);
        const QByteArray value = R"({"orderId":"order-)" + QByteArray::number(i % 50'000) + R"(","amount":)"
                                 + QByteArray::number(i % 997) + R"(,"currency":"EUR","status":"captured"})";
        if (!producer->produce({kTopic,
                                p,
                                "order-" + QByteArray::number(i % 50'000),
                                false,
                                value,
                                {{"idempotency-key", idOf(i), false}},
                                0},
                               &error))
            return 1;
        ++perPartition[p];
        if (i % 1000 == 7) { // a dead letter naming this record's coordinates
            DlqMetadata m;
            m.originalTopic = kTopic;
            m.originalPartition = p;
            m.originalOffset = perPartition[p] - 1;
            m.reason = u"declined"_s;
            if (!producer->produce(
                    {kDlq, 0, "order", false, value, encodeDlqHeaders(DlqDialect::BerthCanonical, m), 0},
                    &error))
                return 1;
        }
    }
    if (!producer->flush(600'000, &error))
        return 1;
    PartitionOffsets committed;
    for (auto it = perPartition.cbegin(); it != perPartition.cend(); ++it)
        committed.insert({kTopic, it.key()}, it.value());
    if (!OffsetCommitter::commit(cluster.clientProperties(), kGroup, committed, &error)) {
        std::cerr << "commit: " << qPrintable(error) << std::endl;
        return 1;
    }
    return BenchCluster::serveUntilStdinCloses(cluster.bootstrapServers());
}

} // namespace

int main(int argc, char **argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const QStringList args = app.arguments();
    const qint64 records = recordCount(args, 50'000, 1'000'000);
    if (const qsizetype i = args.indexOf(u"--serve"_s); i >= 0 && i + 1 < args.size())
        return serve(args.at(i + 1).toLongLong());

    TempPostgres pg;
    QString error;
    if (!pg.start(&error)) {
        std::cerr << "postgres: " << qPrintable(error) << std::endl;
        return 1;
    }
    // Every record has its inbox row (one row per key: duplicates are rows, not records).
    const bool plainInbox = args.contains(u"--plain-inbox"_s);
    if (!pg.exec(
            u"CREATE TABLE inbox (id text NOT NULL, status text NOT NULL, updated_at timestamptz NOT NULL "
            u"DEFAULT now()); INSERT INTO inbox (id, status) SELECT 'evt-' || g, 'DONE' FROM "
            u"generate_series(0, %1) g; "_s.arg(records - 1)
                + (plainInbox ? u"ALTER TABLE inbox ADD PRIMARY KEY (id); ANALYZE inbox;"_s
                              : u"ALTER TABLE inbox ADD PRIMARY KEY (id) INCLUDE (status, updated_at);"_s),
            &error)
        || (!plainInbox && !pg.exec(u"VACUUM (FREEZE, ANALYZE) inbox"_s, &error))) {
        std::cerr << "inbox: " << qPrintable(error) << std::endl;
        return 1;
    }

    QProcess server;
    const QString bootstrap =
        BenchCluster::startChild(server, app.applicationFilePath(), {u"--serve"_s, QString::number(records)});
    if (bootstrap.isEmpty())
        return 1;

    InboxMapping inbox;
    inbox.name = kGroup;
    inbox.table = u"inbox"_s;
    inbox.messageIdColumn = u"id"_s;
    inbox.statusColumn = u"status"_s;
    inbox.updatedColumn = u"updated_at"_s;
    inbox.statuses = {{u"DONE"_s, InboxState::Completed}, {u"WORKING"_s, InboxState::InProgress}};
    AccountingRequest request;
    request.cluster = {{u"bootstrap.servers"_s, bootstrap}};
    request.group = kGroup;
    request.topic = kTopic;
    request.dlqTopics = {kDlq};
    request.idempotencyKey = {RecordField::Kind::Header, u"idempotency-key"_s};
    request.inbox = inbox;
    request.inboxes = InboxMappingSet::resolve({inbox}, {}, pg.conninfo());

    // The run as the console runs it: the service's job, the view and its model on this thread.
    AccountingModel model;
    AccountingView view(&model);
    view.resize(1400, 900);
    view.show();
    AccountingService service;
    AccountingResultPtr result;
    QObject::connect(&service, &AccountingService::finished, &view, [&](const AccountingResultPtr &r) {
        view.setResult(r);
        result = r;
    });
    QElapsedTimer since;
    qint64 worstGap = 0;
    QTimer beat;
    beat.setInterval(5);
    QObject::connect(&beat, &QTimer::timeout, [&] {
        worstGap = std::max(worstGap, since.elapsed() - 5);
        since.restart();
    });
    const double kcatBefore =
        QStandardPaths::findExecutable(u"kcat"_s).isEmpty() ? -1 : BenchCluster::kcatReadSeconds(bootstrap, kTopic);
    QElapsedTimer clock;
    clock.start();
    since.start();
    beat.start();
    service.start(request);
    while (!result)
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
    const double seconds = double(clock.nsecsElapsed()) / 1e9;
    // The view's own work on the result (model reset, counts, chart) is part of the stall.
    QElapsedTimer settle;
    settle.start();
    while (settle.elapsed() < 300)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    beat.stop();
    const double kcatAfter = kcatBefore < 0 ? -1 : BenchCluster::kcatReadSeconds(bootstrap, kTopic);
    const double kcat = kcatAfter > 0 && (kcatBefore < 0 || kcatAfter < kcatBefore) ? kcatAfter : kcatBefore;

    if (!result->error.isEmpty()) {
        std::cerr << "accounting: " << qPrintable(result->error) << std::endl;
        return 1;
    }
    std::cerr << "# " << result->records.size() << " records: processed "
              << result->count(AccountClass::Processed) << ", dead-lettered "
              << result->count(AccountClass::DeadLettered) << ", unaccounted "
              << result->count(AccountClass::Unaccounted) << "; accounting " << seconds << " s, kcat " << kcat
              << " s" << std::endl;
    for (const QString &message : result->messages)
        std::cerr << "# " << qPrintable(message) << std::endl;
    if (kcat > 0)
        figure("account_1m_ratio_vs_kcat", seconds / kcat, "x");
    figure("account_s", seconds, "s");
    figure("account_rss_1m_mb", peakRssMb(), "MB");
    figure("account_ui_stall_max_ms", double(worstGap), "ms");
    server.closeWriteChannel();
    server.waitForFinished(30'000);
    return qint64(result->records.size()) == records ? 0 : 1;
}
