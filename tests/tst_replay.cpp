#include "services/audit/auditchain.h"
#include "services/audit/auditstore.h"
#include "services/dlq/dlqheadercodec.h"
#include "services/inbox/inboxmapping.h"
#include "services/kafka/kafkaproducer.h"
#include "services/payload/keymask.h"
#include "services/policy/policyloader.h"
#include "services/remediation/dryrun.h"
#include "services/remediation/replayexecutor.h"
#include "services/remediation/replayjob.h"
#include "services/remediation/replayrunbook.h"
#include "services/remediation/requestbuilder.h"
#include "support/berthcli.h"
#include "support/fakeschemaregistry.h"
#include "support/referenceencoder.h"
#include "support/replayworld.h"
#include "support/schemafixtures.h"
#include "support/testsupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <thread>

using namespace Qt::StringLiterals;

// Replay, skip and the dry run against a real Kafka protocol server (librdkafka's mock cluster) and a
// throwaway PostgreSQL, checked with kcat as the independent client. alice requests and executes, bob
// approves; the database decides what may run.
namespace {
const QString Dlq = QString::fromLatin1(ReplayWorld::DlqTopic);
const QString Orders = QString::fromLatin1(ReplayWorld::OriginalTopic);
constexpr int ProduceApiKey = 0; // Kafka protocol: Produce (librdkafka's RD_KAFKAP_Produce is internal)

// The CLI as a child process, shared with the crash harness.
using CliResult = BerthCli::Result;
using BerthCli::replayIdCounts;

CliResult runBerth(const QStringList &arguments, int timeoutMs = 120'000)
{
    return BerthCli::run(arguments, timeoutMs);
}

QString berthExecutable()
{
    return BerthCli::executable();
}

const char16_t InboxTable[] = uR"(
CREATE TABLE processed_message (
    consumer_name text NOT NULL,
    message_id    text NOT NULL,
    status        text NOT NULL,
    first_seen_at timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now(),
    error_code    text,
    PRIMARY KEY (consumer_name, message_id)
);
)";

RequestDraft replayDraft(const ReplayWorld &world, qint64 from, qint64 to, double rate = 0)
{
    RequestDraft d;
    d.action = RemediationAction::Replay;
    d.selection = world.dlqRange(from, to);
    d.rateLimit = rate;
    d.reasonCode = u"poison-fixed"_s;
    d.reason = u"projection bug fixed in v2.3"_s;
    d.ticket = u"OPS-77"_s;
    return d;
}

int payloadOrder(const QJsonObject &record)
{
    return QJsonDocument::fromJson(record.value(u"payload"_s).toString().toUtf8())
        .object()
        .value(u"order"_s)
        .toInt(-1);
}
} // namespace

class TestReplay final : public QObject {
    Q_OBJECT
    std::unique_ptr<ReplayWorld> m_world;

    ReplayOutcome execute(qint64 requestId, ReplayOptions options = {},
                          const ReplayExecutor::ProgressFn &progress = {}, ReplayControl *control = nullptr)
    {
        options.producerProperties.append({u"retry.backoff.ms"_s, u"50"_s});
        options.inboxMappings = InboxMappingSet::resolve({}, InboxMapping::presets(), {});
        ReplayControl own;
        ReplayExecutor executor(m_world->alice(), m_world->kafka(), &m_world->admin());
        return executor.run(requestId, options, control ? *control : own, progress);
    }

    qint64 approvedRequest(const RequestDraft &draft)
    {
        QString error;
        const qint64 id = m_world->request(draft, &error);
        if (id == 0 || !m_world->approve(id, &error)) {
            qWarning().noquote() << error;
            return 0;
        }
        return id;
    }

    QList<QJsonObject> readTopic(const QString &topic)
    {
        QString error;
        const QList<QJsonObject> records = m_world->kcatRead(topic, &error);
        if (!error.isEmpty())
            qWarning().noquote() << error;
        return records;
    }

    // Every item 1..count appears exactly once in the topic, and nothing else of this request.
    bool exactlyOnce(const QString &topic, qint64 requestId, int count, QString *why)
    {
        const QList<QJsonObject> records = readTopic(topic);
        const QHash<QString, int> ids = replayIdCounts(records);
        for (int item = 1; item <= count; ++item) {
            const QString id = QString::number(requestId) + u'-' + QString::number(item);
            if (ids.value(id) != 1) {
                *why = id + u" appears "_s + QString::number(ids.value(id)) + u" times"_s;
                // Where each copy is and what the journal says of the item: the first thing to know of a
                // duplicate.
                for (const QJsonObject &r : records) {
                    if (kcatHeaders(r).values(u"berth-replay-id"_s).contains(id))
                        *why += u", at "_s + QString::number(r.value(u"partition"_s).toInt()) + u'/'
                                + QString::number(r.value(u"offset"_s).toInteger());
                }
                *why += u"; journal: "_s
                        + m_world
                              ->scalar(u"SELECT concat_ws(' ', state, dest_partition, dest_offset, error) "
                                       u"FROM berth.intent_states WHERE request_id = $1 AND item_no = $2"_s,
                                       {requestId, item})
                              .toString();
                return false;
            }
        }
        if (ids.size() != count) {
            *why =
                QString::number(ids.size()) + u" distinct replay ids, expected "_s + QString::number(count);
            return false;
        }
        return true;
    }

    // The original partition: offsets 0..9, keys order-0..order-4 twice.
    bool produceOriginals(QString *error)
    {
        std::unique_ptr<KafkaProducer> producer = KafkaProducer::create(m_world->kafka(), error);
        if (!producer)
            return false;
        for (int i = 0; i < 10; ++i) {
            OutgoingRecord r;
            r.topic = Orders;
            r.partition = 0;
            r.key = "order-" + QByteArray::number(i % 5);
            r.value = ReplayWorld::payloadFor(i, 0);
            if (!producer->produce(r, error))
                return false;
        }
        return producer->flush(10'000, error);
    }

private Q_SLOTS:
    void init()
    {
        QVERIFY2(TestSupport::haveExecutable(u"kcat"_s), "kcat is the independent client of these tests");
        m_world = std::make_unique<ReplayWorld>();
        QString error;
        const QString database = u"t_"_s + QString::fromLatin1(QTest::currentTestFunction()).toLower();
        QVERIFY2(m_world->start(database, &error), qPrintable(error));
    }

    void cleanup() { m_world.reset(); }

    void dryRunReportsBlastRadiusNoOpsOrderingAndPolicy()
    {
        // The original partition: offsets 0..9, keys order-0..order-4 twice. DLQ item i was original offset
        // i.
        QString error;
        QVERIFY2(produceOriginals(&error), qPrintable(error));
        QVERIFY2(m_world->seedDlq(0, 6, 5, &error), qPrintable(error));
        QVERIFY2(m_world->admin().execScript(QString::fromUtf16(InboxTable), &error), qPrintable(error));
        QVERIFY(m_world->admin()
                    .exec(u"INSERT INTO processed_message (consumer_name, message_id, status) VALUES "
                          u"('orders-projector', 'idem-0', 'COMPLETED'), ('orders-projector', 'idem-1', "
                          u"'COMPLETED'), "
                          u"('orders-projector', 'idem-2', 'PARKED')"_s)
                    .ok);

        RequestBuilderContext context;
        context.cluster = m_world->kafka();
        context.inboxDb = &m_world->admin();
        // The items' consumer header names orders-projector: its mapping answers, for its rows only.
        InboxMapping projector = InboxMapping::seed000ProcessedMessage();
        projector.name = projector.consumerValue = u"orders-projector"_s;
        context.inboxMappings = InboxMappingSet::resolve({}, {projector}, {});
        const BuiltRequest built = RequestBuilder::build(replayDraft(*m_world, 0, 6), context);
        QVERIFY2(built.ok(), qPrintable(built.error));
        const DryRunResult &dry = built.dryRun;
        QCOMPARE(dry.count, 6);
        QCOMPARE(dry.destinationTopics, QStringList{Orders});
        QCOMPARE(dry.sourcePartitions, QStringList{Dlq + u"/0"_s});
        QCOMPARE(dry.distinctKeys, 5);
        QCOMPARE(dry.consumersAffected, QStringList{u"orders-projector"_s});
        QVERIFY(dry.inboxChecked);
        // COMPLETED and PARKED rows are not taken again (retakes: failedRetryable only): three no-ops.
        QCOMPARE(dry.predictedNoOps, 3);
        QCOMPARE(dry.predictedNoOpRate, 3.0 / 6.0);
        // Items 0..4 have a later record with their key (at i + 5); item 5 (order-0 at 5) has none after it.
        QVERIFY2(dry.orderingChecked, qPrintable(dry.orderingError));
        QCOMPARE(dry.orderingRiskItems, 5);
        QCOMPARE(dry.verdict, PolicyVerdict::Allowed);
        QCOMPARE(dry.requiredApprovals, 1);

        // Stored with the request, as the approver will see it.
        AuditStore store(m_world->alice());
        const qint64 id = RequestBuilder::submit(store, built, &error);
        QVERIFY2(id > 0, qPrintable(error));
        const QJsonObject stored =
            QJsonDocument::fromJson(
                m_world->scalar(u"SELECT dry_run::text FROM berth.requests WHERE id = $1"_s, {id})
                    .toString()
                    .toUtf8())
                .object();
        QCOMPARE(stored.value(u"predictedNoOps"_s).toInt(), 3);
        QCOMPARE(stored.value(u"orderingRiskItems"_s).toInt(), 5);
        QCOMPARE(
            m_world->scalar(u"SELECT policy_verdict FROM berth.requests WHERE id = $1"_s, {id}).toString(),
            u"allowed"_s);

        // The policy: replay.allowed false blocks (nothing is filed); false-for-side-effect needs two
        // approvers.
        const auto withPolicy = [&](const QByteArray &allowed) {
            const PolicyLoadResult policy =
                loadPolicy("deliverySemantics:\n  consumers:\n    orders-projector:\n"
                           "      topics: [orders]\n      replay:\n        allowed: "
                               + allowed + "\n",
                           u"test"_s);
            RequestBuilderContext c = context;
            c.policy = policy.policy;
            return RequestBuilder::build(replayDraft(*m_world, 0, 6), c);
        };
        const BuiltRequest blocked = withPolicy("false");
        QCOMPARE(blocked.dryRun.verdict, PolicyVerdict::Blocked);
        QVERIFY(!blocked.ok());
        QVERIFY(blocked.error.contains(u"replay.allowed is false"_s));
        const qint64 before = m_world->scalar(u"SELECT count(*) FROM berth.requests"_s).toLongLong();
        QCOMPARE(RequestBuilder::submit(store, blocked, &error), 0);
        QCOMPARE(m_world->scalar(u"SELECT count(*) FROM berth.requests"_s).toLongLong(), before);
        const BuiltRequest twoPersons = withPolicy("false-for-side-effect");
        QVERIFY(twoPersons.ok());
        QCOMPARE(twoPersons.dryRun.verdict, PolicyVerdict::NeedsTwoPersons);
        QCOMPARE(twoPersons.request.requiredApprovals, 2);
    }

    // orders/0/1 dead-lettered twice (the same payload) is one item; orders/0/2 dead-lettered again with
    // another payload is a different record: kept, and its shared idempotency key is flagged in the dry
    // run, the stored request and the runbook.
    void copiesOfOneOriginalRecordAreFiledOnce()
    {
        QString error;
        QVERIFY2(m_world->seedDlq(0, 3, 3, &error), qPrintable(error));
        QVERIFY2(m_world->seedDlq(1, 1, 3, &error), qPrintable(error));      // DLQ offset 3: a copy of 1
        QVERIFY2(m_world->seedDlq(2, 1, 3, &error, 300), qPrintable(error)); // DLQ offset 4: idem-2 again
        RequestBuilderContext context;
        context.cluster = m_world->kafka();
        BuiltRequest built;
        const qint64 id = m_world->request(replayDraft(*m_world, 0, 5), &error, &built);
        QVERIFY2(id > 0, qPrintable(error));
        QCOMPARE(built.request.items.size(), 4);
        QList<qint64> offsets;
        for (const RequestItem &item : std::as_const(built.request.items))
            offsets << item.sourceOffset;
        QCOMPARE(offsets, (QList<qint64>{0, 1, 2, 4}));
        const DryRunResult &dry = built.dryRun;
        QCOMPARE(dry.count, 4);
        QCOMPARE(dry.mergedCopies, 1);
        QCOMPARE(dry.mergedCopySamples, QStringList{Dlq + u"/0/3 = copy of "_s + Orders + u"/0/1"_s});
        QCOMPARE(dry.sharedIdempotencyItems, 2);
        QCOMPARE(dry.sharedIdempotencyKeys, QStringList{u"idem-2"_s});
        QVERIFY2(dry.summary().contains(u"Copies merged: 1"_s), qPrintable(dry.summary()));
        QVERIFY2(dry.summary().contains(u"Shared idempotency keys: 2"_s), qPrintable(dry.summary()));
        QCOMPARE(m_world->scalar(u"SELECT count(*) FROM berth.request_items WHERE request_id = $1"_s, {id})
                     .toInt(),
                 4);

        AuditStore store(m_world->alice());
        const std::optional<RequestDetail> detail = store.requestDetail(id, &error);
        QVERIFY2(detail, qPrintable(error));
        const DryRunResult stored = DryRunResult::fromJson(detail->request.dryRun);
        QCOMPARE(stored.mergedCopies, 1);
        QCOMPARE(stored.sharedIdempotencyKeys, QStringList{u"idem-2"_s});
        const QString runbook = ReplayRunbook::markdown(*detail, {});
        QVERIFY2(runbook.contains(u"Copies merged"_s), qPrintable(runbook));
        QVERIFY2(runbook.contains(u"`idem-2`"_s), qPrintable(runbook));
    }

    // A policy that masks the key and the idempotency-key header of the orders topic's records: the dry
    // run's samples, the stored request, the runbook and `berth replay status --json` never say them, also
    // for a request stored before (its dry run written with the keys in it); another topic's keys show.
    void maskedKeysStayOutOfDryRunRunbookAndStatus()
    {
        QString error;
        QVERIFY2(produceOriginals(&error), qPrintable(error));
        QVERIFY2(m_world->seedDlq(0, 4, 5, &error), qPrintable(error));
        QVERIFY2(m_world->seedDlq(2, 1, 5, &error, 300), qPrintable(error)); // idem-2 again: a shared key
        // The rule is stated for the original topic; the consumer's dlq.topic finds it for stored items.
        const QByteArray yaml =
            "deliverySemantics:\n  consumers:\n    orders-projector:\n"
            "      topics: [orders]\n      dlq: {enabled: true, topic: orders-dlt}\n"
            "masking:\n  - topic: orders\n    key: true\n    headers: [idempotency-key]\n";
        const PolicyLoadResult policy = loadPolicy(yaml, u"test"_s);
        QVERIFY2(policy.ok(), qPrintable(policy.messages().join(u"; "_s)));
        RequestBuilderContext context;
        context.cluster = m_world->kafka();
        context.policy = policy.policy;

        // Without the rule the samples name the keys (the control)...
        RequestBuilderContext unmasked;
        unmasked.cluster = m_world->kafka();
        const BuiltRequest plain = RequestBuilder::build(replayDraft(*m_world, 0, 5), unmasked);
        QVERIFY2(plain.dryRun.orderingRiskItems > 0, qPrintable(plain.dryRun.orderingError));
        QVERIFY(plain.dryRun.orderingRiskSamples.join(u' ').contains(u"key=order-"_s));
        QCOMPARE(plain.dryRun.sharedIdempotencyKeys, QStringList{u"idem-2"_s});
        // ...with it, they are masked where the dry run makes them.
        const BuiltRequest built = RequestBuilder::build(replayDraft(*m_world, 0, 5), context);
        QVERIFY2(built.ok(), qPrintable(built.error));
        QCOMPARE(built.dryRun.orderingRiskItems, plain.dryRun.orderingRiskItems);
        const QString samples = built.dryRun.orderingRiskSamples.join(u' ');
        QVERIFY2(samples.contains(u"key=(masked)"_s) && !samples.contains(u"order-"_s), qPrintable(samples));
        QCOMPARE(built.dryRun.sharedIdempotencyKeys, QStringList{u"(masked)"_s});
        AuditStore store(m_world->alice());
        const qint64 id = RequestBuilder::submit(store, built, &error);
        QVERIFY2(id > 0, qPrintable(error));
        const QString dryRun =
            m_world->scalar(u"SELECT dry_run::text FROM berth.requests WHERE id = $1"_s, {id}).toString();
        QVERIFY2(!dryRun.contains(u"order-"_s) && !dryRun.contains(u"idem-"_s), qPrintable(dryRun));

        // A request stored as an older Berth wrote it: the keys in its dry run's words. One item of another
        // DLQ topic, which no rule masks.
        NewRemediationRequest old;
        old.reasonCode = u"poison-fixed"_s;
        old.reason = u"stored before masking"_s;
        old.dryRun = QJsonObject{
            {u"count"_s, 2},
            {u"sourcePartitions"_s, QJsonArray{QString(Dlq + u"/0"_s), u"refunds-dlt/0"_s}},
            {u"orderingChecked"_s, true},
            {u"orderingRiskItems"_s, 2},
            {u"orderingRiskSamples"_s, QJsonArray{u"orders/0/1 key=order-1 (later at 6)"_s,
                                                  u"refunds/0/3 key=refund-3 (later at 8)"_s}},
            {u"sharedIdempotencyItems"_s, 2},
            {u"sharedIdempotencyKeys"_s, QJsonArray{u"idem-1"_s, u"idem-r3"_s}},
            {u"reclaim"_s,
             QJsonObject{{u"topic"_s, Orders},
                         {u"rows"_s, QJsonArray{QJsonObject{{u"messageId"_s, u"stuck-8842"_s}}}}}}};
        for (const auto &[topic, key, idem] : {std::tuple{Dlq, "order-1"_ba, u"idem-1"_s},
                                               std::tuple{u"refunds-dlt"_s, "refund-3"_ba, u"idem-r3"_s}}) {
            RequestItem item;
            item.sourceTopic = topic;
            item.sourcePartition = 0;
            item.sourceOffset = 1;
            item.payloadSha256 = QByteArray(32, 'x');
            item.key = key;
            item.idempotencyKey = idem;
            old.items << item;
        }
        const qint64 oldId = store.createRequest(old, &error);
        QVERIFY2(oldId > 0, qPrintable(error));

        QTemporaryDir dir;
        const QString policyFile = dir.filePath(u"policy.yaml"_s);
        QFile file(policyFile);
        QVERIFY(file.open(QIODevice::WriteOnly) && file.write(yaml) == yaml.size());
        file.close();
        for (const qint64 request : {id, oldId}) {
            std::optional<RequestDetail> detail = store.requestDetail(request, &error, 0);
            QVERIFY2(detail, qPrintable(error));
            RunbookContext runbookContext;
            runbookContext.mask = KeyMask(policy.policy);
            const QString runbook = ReplayRunbook::markdown(*detail, runbookContext);
            QVERIFY2(!runbook.contains(u"order-"_s) && !runbook.contains(u"idem-1"_s)
                         && !runbook.contains(u"idem-2"_s),
                     qPrintable(runbook));
            QVERIFY2(runbook.contains(u"`(masked)`"_s), qPrintable(runbook));
            for (const QString &verb : {u"status"_s, u"runbook"_s}) {
                const CliResult r =
                    runBerth({u"replay"_s, verb, u"--db"_s, m_world->conninfo(u"bob"_s),
                              QString::number(request), u"--policy"_s, policyFile, u"--json"_s});
                QVERIFY2(r.exitCode == 0, qPrintable(r.err));
                QVERIFY2(!r.out.contains("order-") && !r.out.contains("idem-1") && !r.out.contains("idem-2")
                             && !r.out.contains("stuck-8842"),
                         r.out.constData());
                QVERIFY2(r.out.contains("(masked)"), r.out.constData());
                // The unmasked topic's key still shows in its sample. (A shared idempotency key is masked
                // when any of the request's DLQ topics masks them: the stored dry run does not say whose it
                // is.)
                if (request == oldId && verb == u"status"_s)
                    QVERIFY2(r.out.contains("key=refund-3"), r.out.constData());
            }
        }
    }

    void unapprovedRejectedAndExpiredProduceNothing()
    {
        QString error;
        QVERIFY2(m_world->seedDlq(0, 5, 5, &error), qPrintable(error));
        const qint64 pending = m_world->request(replayDraft(*m_world, 0, 5), &error);
        QVERIFY2(pending > 0, qPrintable(error));
        const qint64 rejected = m_world->request(replayDraft(*m_world, 0, 5), &error);
        QVERIFY2(rejected > 0, qPrintable(error));
        QVERIFY2(AuditStore(m_world->bob()).reject(rejected, u"not during the freeze"_s, &error),
                 qPrintable(error));
        RequestDraft shortLived = replayDraft(*m_world, 0, 5);
        shortLived.expiresAt = QDateTime::currentDateTimeUtc().addMSecs(2500);
        const qint64 expired = m_world->request(shortLived, &error);
        QVERIFY2(expired > 0, qPrintable(error));
        QVERIFY2(m_world->approve(expired, &error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(QDateTime::currentDateTimeUtc() > shortLived.expiresAt.addMSecs(200), 5000);

        for (const qint64 id : {pending, rejected, expired}) {
            const ReplayOutcome outcome = execute(id);
            QVERIFY(!outcome.started);
            QVERIFY(!outcome.error.isEmpty());
            QCOMPARE(outcome.producedThisRun, 0);
        }
        QVERIFY(m_world->statusOf(expired) == u"approved"_s); // overdue: the database refused to start it

        // The command line refuses the same way, with its own exit code and a reason on stderr.
        const CliResult cli =
            runBerth({u"replay"_s, u"execute"_s, u"--bootstrap"_s, m_world->bootstrap(), u"--db"_s,
                      m_world->conninfo(u"alice"_s), u"--request"_s, QString::number(rejected)});
        QCOMPARE(cli.exitCode, 3);
        QVERIFY2(cli.err.contains(u"rejected"_s), qPrintable(cli.err));

        QCOMPARE(readTopic(Orders).size(), 0);
        QCOMPARE(m_world->scalar(u"SELECT count(*) FROM berth.intents"_s).toLongLong(), 0);
    }

    void approvedReplayArrivesOnceWithHeadersAndKeyOrder()
    {
        QString error;
        QVERIFY2(m_world->seedDlq(0, 40, 4, &error), qPrintable(error));
        const qint64 id = approvedRequest(replayDraft(*m_world, 0, 40));
        QVERIFY(id > 0);
        const ReplayOutcome outcome = execute(id);
        QVERIFY2(outcome.error.isEmpty(), qPrintable(outcome.error));
        QCOMPARE(outcome.finalStatus, RequestStatus::Completed);
        QCOMPARE(outcome.delivered, 40);
        QCOMPARE(m_world->statusOf(id), u"completed"_s);

        const QList<QJsonObject> records = readTopic(Orders);
        QCOMPARE(records.size(), 40);
        QSet<int> orders;
        QHash<QString, int> partitionOfKey;
        QHash<QString, int> lastOrderOfKey;
        for (const QJsonObject &r : records) {
            const int n = payloadOrder(r);
            QVERIFY(n >= 0 && n < 40);
            orders.insert(n);
            const QString key = r.value(u"key"_s).toString();
            QCOMPARE(key, u"order-"_s + QString::number(n % 4));
            const QMultiHash<QString, QString> h = kcatHeaders(r);
            // Original headers kept, diagnostic DLQ headers dropped, Berth's replay headers added.
            QCOMPARE(h.value(u"trace-id"_s), u"trace-"_s + QString::number(n));
            QCOMPARE(h.value(u"idempotency-key"_s), u"idem-"_s + QString::number(n));
            for (auto it = h.cbegin(); it != h.cend(); ++it)
                QVERIFY2(!it.key().startsWith(u"dlq-"_s), qPrintable(it.key()));
            QCOMPARE(h.values(u"berth-replay-id"_s),
                     QStringList{QString::number(id) + u'-' + QString::number(n + 1)});
            QCOMPARE(h.value(u"berth-request-id"_s), QString::number(id));
            QCOMPARE(h.value(u"berth-replayed-from"_s), Dlq + u"/0/"_s + QString::number(n));
            QCOMPARE(h.value(u"berth-replay-count"_s), u"1"_s);
            // Order per key: one partition per key, and in it the key's records in their original order.
            const int partition = r.value(u"partition"_s).toInt();
            QCOMPARE(partitionOfKey.value(key, partition), partition);
            partitionOfKey.insert(key, partition);
            QVERIFY2(n > lastOrderOfKey.value(key, -1), qPrintable(key));
            lastOrderOfKey.insert(key, n);
            // The journal names exactly where it went.
            QCOMPARE(m_world
                         ->scalar(u"SELECT dest_partition || '/' || dest_offset FROM berth.intent_states "
                                  u"WHERE request_id = $1 AND item_no = $2 AND state = 'delivered'"_s,
                                  {id, n + 1})
                         .toString(),
                     QString::number(partition) + u'/' + QString::number(r.value(u"offset"_s).toInteger()));
        }
        QCOMPARE(orders.size(), 40);
        QCOMPARE(m_world
                     ->scalar(u"SELECT count(*) FROM berth.dispositions WHERE request_id = $1 AND "
                              u"disposition = 'replayed'"_s,
                              {id})
                     .toLongLong(),
                 40);
        const ChainVerification chain = AuditChain::verify(m_world->admin());
        QVERIFY2(chain.ok, qPrintable(chain.problem + chain.error));
    }

    // The canary goes out first and the DLQ is watched for its replay ids: one coming back (the consumer
    // dead-lettered it again) pauses the run before the rest is produced; a later run sends the rest.
    void canaryThatComesBackPausesTheRest()
    {
        QString error;
        QVERIFY2(m_world->seedDlq(0, 30, 3, &error), qPrintable(error));
        const qint64 id = approvedRequest(replayDraft(*m_world, 0, 30));
        QVERIFY(id > 0);
        auto consumer = KafkaProducer::create(m_world->kafka(), &error);
        QVERIFY2(consumer, qPrintable(error));
        ReplayOptions options;
        options.canaryCount = 5;
        options.canaryWatchMs = 10'000;
        options.stopWhenPaused = true;
        options.batchSize = 10;
        bool deadLettered = false;
        const ReplayOutcome outcome = execute(id, options, [&](const ReplayProgress &p) {
            if (p.phase != ReplayPhase::CanaryWatch || deadLettered)
                return;
            // The consumer fails canary item 2 again and dead-letters it, replay headers and all.
            OutgoingRecord again;
            again.topic = Dlq;
            again.key = "order-1";
            again.value = "{\"again\":true}";
            again.headers.append({"berth-replay-id", QByteArray::number(id) + "-2"});
            deadLettered = consumer->produce(again) && consumer->flush(5000);
        });
        QVERIFY(deadLettered);
        QVERIFY2(outcome.error.isEmpty(), qPrintable(outcome.error));
        QVERIFY(outcome.canaryTripped);
        QVERIFY(outcome.pausedStop);
        QCOMPARE(outcome.delivered, 5);
        QCOMPARE(outcome.finalStatus, RequestStatus::Executing);
        QCOMPARE(readTopic(Orders).size(), 5); // the canary only
        QCOMPARE(m_world
                     ->scalar(u"SELECT count(*) FROM berth.audit_events WHERE request_id = $1 "
                              u"AND action = 'replay.canary_tripped'"_s,
                              {id})
                     .toInt(),
                 1);

        // After a look, the operator runs it again without a canary: the rest goes, nothing twice.
        const ReplayOutcome rest = execute(id);
        QVERIFY2(rest.error.isEmpty(), qPrintable(rest.error));
        QCOMPARE(rest.finalStatus, RequestStatus::Completed);
        QString why;
        QVERIFY2(exactlyOnce(Orders, id, 30, &why), qPrintable(why));
    }

    void quietCanaryLetsTheRestFollow()
    {
        QString error;
        QVERIFY2(m_world->seedDlq(0, 30, 3, &error), qPrintable(error));
        const qint64 id = approvedRequest(replayDraft(*m_world, 0, 30));
        QVERIFY(id > 0);
        ReplayOptions options;
        options.canaryCount = 5;
        options.canaryWatchMs = 1500;
        options.batchSize = 10;
        bool watched = false;
        const ReplayOutcome outcome = execute(id, options, [&](const ReplayProgress &p) {
            watched = watched || p.phase == ReplayPhase::CanaryWatch;
        });
        QVERIFY2(outcome.error.isEmpty(), qPrintable(outcome.error));
        QVERIFY(watched);
        QVERIFY(!outcome.canaryTripped);
        QCOMPARE(outcome.finalStatus, RequestStatus::Completed);
        QString why;
        QVERIFY2(exactlyOnce(Orders, id, 30, &why), qPrintable(why));
    }

    // Batches are read two ahead of the one being produced (ARCHITECTURE.md, Data flows: Remediation). A
    // pause in the middle of a batch moves where the next one starts, so what was read ahead is for other
    // items: every record still goes out once, and each with its own item's payload.
    void pausesMidBatchKeepEachRecordItsOwnPayload()
    {
        QString error;
        QVERIFY2(m_world->seedDlq(0, 60, 60, &error), qPrintable(error));
        const qint64 id = approvedRequest(replayDraft(*m_world, 0, 60, 100)); // 100 msgs/s: reports mid-batch
        QVERIFY(id > 0);
        ReplayControl control;
        ReplayOptions options;
        options.batchSize = 7;
        int pauses = 0;
        const ReplayOutcome outcome = execute(
            id, options,
            [&](const ReplayProgress &p) {
                if (p.phase == ReplayPhase::Paused)
                    control.resume(); // before the executor waits: it goes on at once
                else if (p.phase == ReplayPhase::Producing && p.done > 0 && pauses < 4
                         && !control.isPaused()) {
                    control.pause();
                    ++pauses;
                }
            },
            &control);
        QVERIFY2(outcome.error.isEmpty(), qPrintable(outcome.error));
        QCOMPARE(outcome.finalStatus, RequestStatus::Completed);
        QVERIFY(pauses > 0);
        QString why;
        QVERIFY2(exactlyOnce(Orders, id, 60, &why), qPrintable(why));
        // Item k is the dead letter of order k - 1.
        for (const QJsonObject &r : readTopic(Orders)) {
            const QString replayId = kcatHeaders(r).value(u"berth-replay-id"_s);
            QCOMPARE(payloadOrder(r), replayId.section(u'-', 1).toInt() - 1);
        }
    }

    // Cancel mid-run: the request ends cancelled, what went out is journaled as delivered, nothing else
    // went out, and the cancelled request can never run again.
    void cancelStopsProducingAndKeepsTheJournalTrue()
    {
        QString error;
        QVERIFY2(m_world->seedDlq(0, 200, 5, &error), qPrintable(error));
        const qint64 id = approvedRequest(replayDraft(*m_world, 0, 200, 100)); // 100 msgs/s: two seconds
        QVERIFY(id > 0);
        ReplayControl control;
        ReplayOptions options;
        options.batchSize = 20;
        const ReplayOutcome outcome = execute(
            id, options,
            [&](const ReplayProgress &p) {
                if (p.done >= 60)
                    control.cancel();
            },
            &control);
        QVERIFY2(outcome.error.isEmpty(), qPrintable(outcome.error));
        QVERIFY(outcome.cancelled);
        QCOMPARE(outcome.finalStatus, RequestStatus::Cancelled);
        QCOMPARE(m_world->statusOf(id), u"cancelled"_s);
        const QList<QJsonObject> records = readTopic(Orders);
        QVERIFY2(records.size() >= 60 && records.size() < 200, qPrintable(QString::number(records.size())));
        QCOMPARE(m_world
                     ->scalar(u"SELECT count(*) FROM berth.intent_states WHERE request_id = $1 AND state = 'delivered'"_s,
                              {id})
                     .toInt(),
                 int(records.size()));
        const QHash<QString, int> ids = replayIdCounts(records);
        for (auto it = ids.cbegin(); it != ids.cend(); ++it)
            QCOMPARE(it.value(), 1);
        const ReplayOutcome again = execute(id);
        QVERIFY(!again.started);
        QCOMPARE(readTopic(Orders).size(), records.size());
        const ChainVerification chain = AuditChain::verify(m_world->admin());
        QVERIFY2(chain.ok, qPrintable(chain.problem + chain.error));
    }

    // The console's job: a second start is refused while a run goes, and destroying the job mid-run cancels
    // the run and waits for it, so the request is cancelled, not left executing, once the destructor returns.
    void replayJobDestroyedMidRunCancelsAndWaits()
    {
        QString error;
        QVERIFY2(m_world->seedDlq(0, 200, 5, &error), qPrintable(error));
        const qint64 id = approvedRequest(replayDraft(*m_world, 0, 200, 100)); // 100 msgs/s: two seconds
        QVERIFY(id > 0);
        ReplayOptions options;
        options.batchSize = 20;
        auto job = std::make_unique<ReplayJob>();
        QSignalSpy progressed(job.get(), &ReplayJob::progressed);
        QVERIFY(job->start(m_world->conninfo(u"alice"_s), m_world->kafka(), id, options));
        QVERIFY(job->isRunning());
        QVERIFY(!job->start(m_world->conninfo(u"alice"_s), m_world->kafka(), id, options));
        QTRY_VERIFY_WITH_TIMEOUT(
            !progressed.isEmpty() && progressed.last().at(0).value<ReplayProgress>().done >= 20, 30'000);
        job.reset();
        QCOMPARE(m_world->statusOf(id), u"cancelled"_s);
        const QList<QJsonObject> records = readTopic(Orders);
        QVERIFY2(records.size() >= 20 && records.size() < 200, qPrintable(QString::number(records.size())));
        for (const int count : replayIdCounts(records))
            QCOMPARE(count, 1);
    }

    void changedSourceRecordIsRefused()
    {
        QString error;
        QVERIFY2(m_world->seedDlq(0, 10, 5, &error), qPrintable(error));
        RequestBuilderContext context;
        context.cluster = m_world->kafka();
        BuiltRequest built = RequestBuilder::build(replayDraft(*m_world, 0, 10), context);
        QVERIFY2(built.ok(), qPrintable(built.error));
        // What the pin says item 4 looked like no longer matches the record at its offset (a topic recreated
        // and refilled, or a wrong pin): the executor must refuse it and replay the rest.
        built.request.items[3].payloadSha256[0] = char(built.request.items[3].payloadSha256.at(0) ^ 0x5a);
        AuditStore store(m_world->alice());
        const qint64 id = RequestBuilder::submit(store, built, &error);
        QVERIFY2(id > 0, qPrintable(error));
        QVERIFY2(m_world->approve(id, &error), qPrintable(error));
        const ReplayOutcome outcome = execute(id);
        QCOMPARE(outcome.refused, 1);
        QCOMPARE(outcome.delivered, 9);
        QCOMPARE(outcome.finalStatus, RequestStatus::PartiallyFailed);
        QVERIFY(
            m_world
                ->scalar(
                    u"SELECT error FROM berth.intent_states WHERE request_id = $1 AND item_no = 4 AND state = 'failed'"_s,
                    {id})
                .toString()
                .contains(u"SHA-256"_s));
        const QHash<QString, int> ids = replayIdCounts(readTopic(Orders));
        QCOMPARE(ids.size(), 9);
        QVERIFY(!ids.contains(QString::number(id) + u"-4"_s));
        // The command line shows the item that did not get through, and why.
        const CliResult status = runBerth({u"replay"_s, u"status"_s, u"--db"_s, m_world->conninfo(u"bob"_s),
                                           u"--request"_s, QString::number(id), u"--json"_s});
        QCOMPARE(status.exitCode, 0);
        QCOMPARE(status.json().value(u"status"_s).toString(), u"partially_failed"_s);
        const QJsonArray unfinished = status.json().value(u"unfinished"_s).toArray();
        QCOMPARE(unfinished.size(), 1);
        QCOMPARE(unfinished.at(0).toObject().value(u"item"_s).toInt(), 4);
        QVERIFY(unfinished.at(0).toObject().value(u"error"_s).toString().contains(u"SHA-256"_s));
    }

    void editAndReplaySendsTheEditedPayload()
    {
        QString error;
        QVERIFY2(m_world->seedDlq(0, 3, 3, &error), qPrintable(error));
        RequestDraft draft = replayDraft(*m_world, 0, 3);
        draft.action = RemediationAction::EditReplay;
        // The original is JSON, so the edit must be too.
        draft.editedPayloads.insert(1, "{\"order\":1,\"note\":\"fixed");
        RequestBuilderContext context;
        context.cluster = m_world->kafka();
        const BuiltRequest broken = RequestBuilder::build(draft, context);
        QVERIFY(!broken.ok());
        QVERIFY2(broken.error.contains(u"not valid JSON"_s), qPrintable(broken.error));
        const QByteArray edited = R"({"order":1,"note":"fixed by hand"})";
        draft.editedPayloads.insert(1, edited);
        const qint64 id = approvedRequest(draft);
        QVERIFY(id > 0);
        const ReplayOutcome outcome = execute(id);
        QCOMPARE(outcome.finalStatus, RequestStatus::Completed);
        const QList<QJsonObject> records = readTopic(Orders);
        QCOMPARE(records.size(), 3);
        for (const QJsonObject &r : records) {
            const QString replayId = kcatHeaders(r).value(u"berth-replay-id"_s);
            const QByteArray payload = r.value(u"payload"_s).toString().toUtf8();
            if (replayId == QString::number(id) + u"-2"_s)
                QCOMPARE(payload, edited);
            else
                QCOMPARE(payload, ReplayWorld::payloadFor(payloadOrder(r), 0));
        }
    }

    void resumeReconcilesPendingIntentsAndProducesEachOnce()
    {
        QString error;
        QVERIFY2(m_world->seedDlq(0, 100, 10, &error), qPrintable(error));
        const qint64 id = approvedRequest(replayDraft(*m_world, 0, 100, 200));
        QVERIFY(id > 0);
        // Interrupted once records are going out (reports come at most every tenth of a second, about 20
        // records at 200/s): the run stops, the request stays executing, the rest of the batch stays
        // journaled as pending. Paced by what happened, not by the clock, so a slow start cannot finish
        // the run first or stop it before anything went out.
        ReplayControl control;
        ReplayOptions options;
        options.stopWhenPaused = true;
        const auto pauseAfterFirstDeliveries = [&control](const ReplayProgress &p) {
            if (p.phase == ReplayPhase::Producing && p.ratePerSecond > 0)
                control.pause();
        };
        const ReplayOutcome first = execute(id, options, pauseAfterFirstDeliveries, &control);
        QVERIFY2(first.error.isEmpty(), qPrintable(first.error));
        QVERIFY(first.pausedStop);
        QCOMPARE(m_world->statusOf(id), u"executing"_s);
        QVERIFY2(first.delivered > 0 && first.delivered < 100, qPrintable(QString::number(first.delivered)));
        const int pendingItem =
            m_world
                ->scalar(
                    u"SELECT min(item_no) FROM berth.intent_states WHERE request_id = $1 AND state = 'pending'"_s,
                    {id})
                .toInt();
        QVERIFY(pendingItem > 0);

        // As if a crashed run had sent that pending item before it could record the delivery report.
        QProcess kcat;
        kcat.start(u"kcat"_s,
                   {u"-P"_s, u"-b"_s, m_world->bootstrap(), u"-t"_s, Orders, u"-K"_s, u"\t"_s, u"-H"_s,
                    u"berth-replay-id="_s + QString::number(id) + u'-' + QString::number(pendingItem)});
        kcat.write("order-" + QByteArray::number((pendingItem - 1) % 10) + '\t'
                   + ReplayWorld::payloadFor(pendingItem - 1, 0) + '\n');
        kcat.closeWriteChannel();
        QVERIFY(kcat.waitForFinished(30'000) && kcat.exitCode() == 0);

        ReplayOptions fast;
        fast.rateLimit = 0;
        const ReplayOutcome second = execute(id, fast);
        QVERIFY2(second.error.isEmpty(), qPrintable(second.error));
        QCOMPARE(second.finalStatus, RequestStatus::Completed);
        QCOMPARE(second.reconciled, 1);
        QCOMPARE(second.producedThisRun, qint64(100 - first.delivered - 1));
        QVERIFY2(exactlyOnce(Orders, id, 100, &error), qPrintable(error));
        QCOMPARE(m_world
                     ->scalar(u"SELECT error FROM berth.intent_states WHERE request_id = $1 AND item_no = $2"_s,
                              {id, pendingItem})
                     .toString(),
                 u"reconciled"_s);
    }

    void produceErrorsAndBrokerDownLoseAndDuplicateNothing()
    {
        QString error;
        constexpr int Items = 3000;
        QVERIFY2(m_world->seedDlq(0, Items, 30, &error), qPrintable(error));
        const qint64 id = approvedRequest(replayDraft(*m_world, 0, Items, 1500));
        QVERIFY(id > 0);
        // Retriable produce errors for the first requests, then one broker down for 1.5 s mid-run, shut down
        // as a cluster does it: its partitions' leadership moves first (the producer gets "not leader" and
        // follows), then the broker stops; once back, it leads every partition of the topic.
        // Why not a crash with acknowledgements in flight: the mock cluster checks the sequence numbers of
        // transactional producers only, so it appends an idempotent producer's retry of a batch whose
        // acknowledgement it lost a second time (seen: 10,000 extra records in one of seven runs of a
        // bare librdkafka producer against a flapping mock broker). A real broker keeps the last five
        // batches' sequences per producer and acknowledges such a retry without writing it.
        m_world->cluster().pushRequestErrors(
            ProduceApiKey, {RD_KAFKA_RESP_ERR_NOT_LEADER_FOR_PARTITION, RD_KAFKA_RESP_ERR_REQUEST_TIMED_OUT,
                            RD_KAFKA_RESP_ERR_NOT_ENOUGH_REPLICAS, RD_KAFKA_RESP_ERR_LEADER_NOT_AVAILABLE,
                            RD_KAFKA_RESP_ERR_REQUEST_TIMED_OUT, RD_KAFKA_RESP_ERR_NOT_LEADER_FOR_PARTITION});
        bool moved = true; // read after join()
        std::thread faults([this, &moved] {
            MockKafkaCluster &cluster = m_world->cluster();
            std::this_thread::sleep_for(std::chrono::milliseconds(700));
            for (int p = 0; p < 3; ++p)
                moved = cluster.setPartitionLeader(Orders, p, 1) && moved;
            std::this_thread::sleep_for(std::chrono::milliseconds(200)); // the answers to broker 2 arrive
            cluster.setBrokerDown(2);
            std::this_thread::sleep_for(std::chrono::milliseconds(1500));
            cluster.setBrokerUp(2);
            for (int p = 0; p < 3; ++p)
                moved = cluster.setPartitionLeader(Orders, p, 2) && moved;
        });
        const ReplayOutcome outcome = execute(id);
        faults.join();
        QVERIFY(moved); // else the broker went down with its leadership, the case this test avoids
        QVERIFY2(outcome.error.isEmpty(), qPrintable(outcome.error));
        QCOMPARE(outcome.finalStatus, RequestStatus::Completed);
        QCOMPARE(outcome.delivered, Items);
        QVERIFY2(exactlyOnce(Orders, id, Items, &error), qPrintable(error));
        QCOMPARE(readTopic(Orders).size(), Items);
    }

    // Non-retriable produce errors: the items they hit fail (never silently dropped), a retry round
    // reconciles them first and sends them again, and in the end every item is in the destination once.
    void fatalProduceErrorsFailItemsThatARetryDelivers()
    {
        QString error;
        constexpr int Items = 300;
        QVERIFY2(m_world->seedDlq(0, Items, 10, &error), qPrintable(error));
        const qint64 id = approvedRequest(replayDraft(*m_world, 0, Items));
        QVERIFY(id > 0);
        m_world->cluster().pushRequestErrors(ProduceApiKey, {RD_KAFKA_RESP_ERR_TOPIC_AUTHORIZATION_FAILED,
                                                             RD_KAFKA_RESP_ERR_INVALID_RECORD,
                                                             RD_KAFKA_RESP_ERR_TOPIC_AUTHORIZATION_FAILED});
        ReplayOutcome outcome = execute(id);
        // An idempotent producer may also give up for good after a permanent error: then the run ends with
        // the request still executing, and the next run (a new producer) reconciles and finishes it.
        if (outcome.finalStatus != RequestStatus::Completed)
            outcome = execute(id);
        QVERIFY2(outcome.error.isEmpty(), qPrintable(outcome.error));
        QCOMPARE(outcome.finalStatus, RequestStatus::Completed);
        QVERIFY(outcome.problems.isEmpty()); // every item ended delivered
        QVERIFY2(exactlyOnce(Orders, id, Items, &error), qPrintable(error));
        // The errors did hit: some items needed more than one produce attempt, and the journal says why.
        QVERIFY(m_world
                    ->scalar(u"SELECT count(*) FROM berth.intent_states WHERE request_id = $1 AND attempts > 1"_s, {id})
                    .toInt()
                > 0);
        QVERIFY(m_world
                    ->scalar(u"SELECT count(*) FROM berth.audit_events WHERE request_id = $1 AND action = "
                             u"'intent.updated' AND details::text ILIKE '%authorization%'"_s,
                             {id})
                    .toInt()
                > 0);
    }

    void skipWritesTheInboxSkippedStatus()
    {
        QString error;
        QVERIFY2(m_world->seedDlq(0, 5, 5, &error), qPrintable(error));
        QVERIFY2(m_world->admin().execScript(QString::fromUtf16(InboxTable), &error), qPrintable(error));
        QVERIFY(m_world->admin()
                    .exec(u"INSERT INTO processed_message (consumer_name, message_id, status) VALUES "
                          u"('orders-projector', 'idem-3', 'PARKED'), ('orders-projector', 'idem-4', "
                          u"'FAILED_TERMINAL'), "
                          u"('orders-projector', 'idem-9', 'COMPLETED')"_s)
                    .ok);
        const QString mapping = InboxMapping::seed000ProcessedMessage().name;
        RequestDraft draft;
        draft.action = RemediationAction::Skip;
        draft.selection = m_world->dlqRange(3, 4);
        draft.inboxRows = {inboxRefFor(mapping, u"idem-3"_s, u"orders-projector"_s),
                           inboxRefFor(mapping, u"idem-4"_s, u"orders-projector"_s)};
        draft.reasonCode = u"duplicate-charge"_s;
        draft.reason = u"customer refunded by hand"_s;
        draft.ticket = u"OPS-12"_s;
        const qint64 id = approvedRequest(draft);
        QVERIFY(id > 0);
        const ReplayOutcome outcome = execute(id);
        QVERIFY2(outcome.error.isEmpty(), qPrintable(outcome.error));
        QCOMPARE(outcome.finalStatus, RequestStatus::Completed);
        QCOMPARE(outcome.skipped, 3);
        const auto statusOf = [&](const QString &messageId) {
            return m_world
                ->scalar(u"SELECT status FROM processed_message WHERE message_id = $1"_s, {messageId})
                .toString();
        };
        QCOMPARE(statusOf(u"idem-3"_s), u"SKIPPED"_s);
        QCOMPARE(statusOf(u"idem-4"_s), u"SKIPPED"_s);
        QCOMPARE(statusOf(u"idem-9"_s), u"COMPLETED"_s); // not selected, not touched
        QCOMPARE(
            m_world
                ->scalar(u"SELECT count(*) FROM berth.dispositions WHERE request_id = $1 AND disposition = "
                         u"'skipped' AND details->>'reason_code' = 'duplicate-charge'"_s,
                         {id})
                .toLongLong(),
            3);
        QCOMPARE(m_world
                     ->scalar(u"SELECT source_topic || '/' || source_offset FROM berth.dispositions WHERE "
                              u"request_id = $1 AND source_topic IS NOT NULL"_s,
                              {id})
                     .toString(),
                 Dlq + u"/3"_s);
        QCOMPARE(readTopic(Orders).size(), 0); // a skip produces nothing
    }

    void rateLimitHoldsWithinTenPercent()
    {
        QString error;
        constexpr int Items = 300;
        constexpr double Rate = 200;
        QVERIFY2(m_world->seedDlq(0, Items, 10, &error), qPrintable(error));
        const qint64 id = approvedRequest(replayDraft(*m_world, 0, Items, Rate));
        QVERIFY(id > 0);
        const ReplayOutcome outcome = execute(id);
        QCOMPARE(outcome.finalStatus, RequestStatus::Completed);
        // The records' create times are taken when each is handed to the producer: the pace itself.
        const QList<QJsonObject> records = readTopic(Orders);
        QCOMPARE(records.size(), Items);
        qint64 first = std::numeric_limits<qint64>::max();
        qint64 last = 0;
        for (const QJsonObject &r : records) {
            first = std::min(first, r.value(u"ts"_s).toInteger());
            last = std::max(last, r.value(u"ts"_s).toInteger());
        }
        const double measured = double(Items - 1) * 1000.0 / double(std::max<qint64>(last - first, 1));
        QVERIFY2(std::abs(measured - Rate) <= Rate * 0.10, qPrintable(u"measured %1 msgs/s"_s.arg(measured)));
    }

    // `berth replay request --edit` of an Avro dead letter: the schema comes from --schema-registry (the
    // options `berth dlq scan` takes, one definition), the edit is encoded like the original (the same
    // schema id) and read back by python3-avro; an edit that does not fit the schema is refused with its
    // field path and exit 2 (bad input), nothing filed.
    void cliEditReencodesSchemaPayloads()
    {
        QString error;
        if (!ReferenceEncoder::available(&error))
            QSKIP(qPrintable(error));
        const QString avsc = ReferenceEncoder::fixturePath(u"payment.avsc"_s);
        QJsonObject payment = jsonObject(R"({"id":"6f1c2a52-8f4e-4b59-9d3a-0c5e1f2a3b4c","amount":"19.99",
            "fee":"0.250","createdAt":"2024-02-29T13:45:00.123Z","bookedOn":"2024-02-29","sequence":12,
            "status":"DECLINED","customer":{"id":"c-42","email":null,"tier":null},"card":null,"lines":[],
            "tags":{},"approved":false,"ratio":1.25,"note":null})");
        const QByteArray framed = ReferenceEncoder::avro(avsc, 7, QJsonArray{payment}, &error).value(0);
        QVERIFY2(!framed.isEmpty(), qPrintable(error));
        QCOMPARE(m_world->produceDeadLetter("pay-1", framed, 5, &error), 0);

        // The registry answers on its own thread: this one waits for the command. Version 4 of the subject
        // adds a field with a default (a compatible evolution).
        const QByteArray v4 = SchemaFixtures::paymentAvscWithChannel();
        QTemporaryDir dir;
        const QString v4File = dir.filePath(u"payment-v4.avsc"_s);
        QFile v4Out(v4File);
        QVERIFY(v4Out.open(QIODevice::WriteOnly));
        v4Out.write(v4);
        v4Out.close();
        FakeSchemaRegistryThread registry;
        registry.registry().addSchema(7, u"payments-value"_s, 3,
                                      ReferenceEncoder::fixture(u"payment.avsc"_s));
        registry.registry().addSchema(9, u"payments-value"_s, 4, v4);
        const QString url = registry.start();
        QVERIFY(!url.isEmpty());

        const auto request = [&](const QJsonObject &edit, const QStringList &more = {}) {
            QFile file(dir.filePath(u"edit.json"_s));
            if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
                return CliResult{};
            file.write(QJsonDocument(edit).toJson());
            file.close();
            return runBerth(QStringList{u"replay"_s, u"request"_s, u"--db"_s, m_world->conninfo(u"alice"_s),
                                        u"--bootstrap"_s, m_world->bootstrap(), u"--action"_s,
                                        u"edit_replay"_s, u"--select"_s, Dlq + u"/0/0"_s, u"--edit"_s,
                                        u"1="_s + file.fileName(), u"--schema-registry"_s, url, u"--reason"_s,
                                        u"amount fixed by hand"_s, u"--json"_s}
                            + more);
        };
        QJsonObject edit = payment;
        edit.insert(u"amount"_s, u"21.50"_s);
        edit.insert(u"status"_s, u"CAPTURED"_s);
        CliResult filed = request(edit);
        QVERIFY2(filed.exitCode == 0, qPrintable(filed.err));
        const qint64 id = filed.json().value(u"requestId"_s).toInteger();
        QVERIFY(id > 0);
        const QByteArray stored =
            m_world->scalar(u"SELECT edited_payload FROM berth.request_items WHERE request_id = $1"_s, {id})
                .toByteArray();
        const QList<QJsonObject> back = ReferenceEncoder::decodeAvro(avsc, {stored}, &error);
        QVERIFY2(back.size() == 1, qPrintable(error + u" / "_s + QString::fromLatin1(stored.toHex())));
        QCOMPARE(back[0].value(u"schemaId"_s).toInt(), 7);
        const QJsonObject value = back[0].value(u"value"_s).toObject();
        QCOMPARE(value.value(u"amount"_s).toString(), u"21.50"_s);
        QCOMPARE(value.value(u"status"_s).toString(), u"CAPTURED"_s);
        QCOMPARE(value.value(u"customer"_s).toObject().value(u"id"_s).toString(), u"c-42"_s);

        // A newer version of the subject chosen (--edit-schema-id, as the edit dialog's "Encode with"): the
        // edit is encoded with it and framed with its id.
        edit.insert(u"channel"_s, u"app"_s);
        filed = request(edit, {u"--edit-schema-id"_s, u"1=9"_s});
        QVERIFY2(filed.exitCode == 0, qPrintable(filed.err));
        const qint64 newer = filed.json().value(u"requestId"_s).toInteger();
        const QByteArray reframed =
            m_world
                ->scalar(u"SELECT edited_payload FROM berth.request_items WHERE request_id = $1"_s, {newer})
                .toByteArray();
        const QList<QJsonObject> backNewer = ReferenceEncoder::decodeAvro(v4File, {reframed}, &error);
        QVERIFY2(backNewer.size() == 1, qPrintable(error));
        QCOMPARE(backNewer[0].value(u"schemaId"_s).toInt(), 9);
        QCOMPARE(backNewer[0].value(u"value"_s).toObject().value(u"channel"_s).toString(), u"app"_s);

        // Not a symbol of the enum, or a version that is not newer: refused (the field's path, the version),
        // exit 2, nothing filed.
        const qint64 before = m_world->scalar(u"SELECT count(*) FROM berth.requests"_s).toLongLong();
        edit.remove(u"channel"_s);
        edit.insert(u"status"_s, u"REFUNDED"_s);
        const CliResult refused = request(edit, {});
        QCOMPARE(refused.exitCode, 2);
        QVERIFY2(refused.err.contains(u"$.status"_s), qPrintable(refused.err));
        edit.insert(u"status"_s, u"CAPTURED"_s);
        const CliResult older = request(edit, {u"--edit-schema-id"_s, u"1=7"_s});
        QCOMPARE(older.exitCode, 2);
        QVERIFY2(older.err.contains(u"not a newer version"_s), qPrintable(older.err));
        QCOMPARE(m_world->scalar(u"SELECT count(*) FROM berth.requests"_s).toLongLong(), before);
    }

    void killedExecutionResumesWithEveryReplayIdOnce()
    {
        QString error;
        constexpr int Items = 10'000;
        QVERIFY2(m_world->seedDlq(0, Items, 100, &error), qPrintable(error));
        const QString alice = m_world->conninfo(u"alice"_s);
        const QString bob = m_world->conninfo(u"bob"_s);
        const QStringList cluster{u"--bootstrap"_s, m_world->bootstrap()};

        // Filed and approved on the command line, by two different people.
        CliResult r = runBerth(QStringList{u"replay"_s, u"request"_s, u"--db"_s, alice, u"--range"_s,
                                           Dlq + u"/0/0-"_s + QString::number(Items), u"--rate"_s, u"4000"_s,
                                           u"--reason"_s, u"bulk redrive after the fix"_s, u"--json"_s}
                               + cluster);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const qint64 id = r.json().value(u"requestId"_s).toInteger();
        QVERIFY(id > 0);
        QCOMPARE(r.json().value(u"items"_s).toInt(), Items);
        r = runBerth({u"replay"_s, u"approve"_s, u"--db"_s, alice, u"--request"_s, QString::number(id)});
        QCOMPARE(r.exitCode, 3); // the requester cannot approve
        r = runBerth(
            {u"replay"_s, u"approve"_s, u"--db"_s, bob, u"--request"_s, QString::number(id), u"--json"_s});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(r.json().value(u"status"_s).toString(), u"approved"_s);
        // A verb without Kafka options reads none of them (Qt warns on stderr for an undefined option).
        QVERIFY2(!r.err.contains(u"option not defined"_s), qPrintable(r.err));

        // Killed with SIGKILL early (setting up or journaling), then at about a quarter and at about 60%.
        const QStringList execute = QStringList{u"replay"_s,    u"execute"_s,        u"--db"_s,   alice,
                                                u"--request"_s, QString::number(id), u"--quiet"_s}
                                    + cluster;
        const QList<qint64> killAt{-1, Items / 4, Items * 6 / 10};
        qint64 written = 0;
        for (const qint64 threshold : killAt) {
            QProcess child;
            child.start(berthExecutable(), execute);
            QVERIFY(child.waitForStarted());
            QElapsedTimer t;
            t.start();
            if (threshold < 0) {
                QTest::qWait(400);
            } else {
                while (child.state() == QProcess::Running && t.elapsed() < 60'000) {
                    written = m_world->endOffsetSum(Orders, &error);
                    if (written >= threshold)
                        break;
                    QTest::qWait(10);
                }
            }
            QVERIFY2(child.state() == QProcess::Running,
                     qPrintable(u"the run ended before the kill: "_s
                                + QString::fromUtf8(child.readAllStandardError())));
            ::kill(pid_t(child.processId()), SIGKILL);
            QVERIFY(child.waitForFinished());
            QCOMPARE(child.exitStatus(), QProcess::CrashExit);
        }
        QVERIFY2(written >= Items * 6 / 10 && written < Items, qPrintable(QString::number(written)));

        r = runBerth(QStringList{u"replay"_s, u"execute"_s, u"--db"_s, alice, u"--request"_s,
                                 QString::number(id), u"--quiet"_s, u"--json"_s}
                     + cluster);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + QString::fromUtf8(r.out)));
        QCOMPARE(r.json().value(u"status"_s).toString(), u"completed"_s);
        QVERIFY2(exactlyOnce(Orders, id, Items, &error), qPrintable(error));
        QCOMPARE(readTopic(Orders).size(), Items);

        r = runBerth(
            {u"replay"_s, u"status"_s, u"--db"_s, bob, u"--request"_s, QString::number(id), u"--json"_s});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.json().value(u"intents"_s).toObject().value(u"delivered"_s).toInt(), Items);
        r = runBerth(
            QStringList{u"replay"_s, u"runbook"_s, u"--db"_s, bob, u"--request"_s, QString::number(id)}
            + cluster);
        QCOMPARE(r.exitCode, 0);
        const QString runbook = QString::fromUtf8(r.out);
        QVERIFY(runbook.startsWith(u"# Runbook: remediation request "_s + QString::number(id)));
        QVERIFY(runbook.contains(u"berth replay execute --bootstrap '"_s + m_world->bootstrap()));
        QVERIFY(runbook.contains(u"Expected no-op rate"_s));
        QVERIFY(runbook.contains(u"`bob` approved"_s));
        QVERIFY(runbook.contains(u"Requested by | `alice`"_s));
        r = runBerth({u"audit"_s, u"verify"_s, u"--db"_s, bob, u"--json"_s});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(r.json().value(u"ok"_s).toBool());
    }
};

QTEST_GUILESS_MAIN(TestReplay)
#include "tst_replay.moc"
