#include "services/audit/auditchain.h"
#include "services/audit/auditstore.h"
#include "services/demo/orderprojection.h"
#include "services/dlq/dlqheadercodec.h"
#include "services/kafka/kafkaproducer.h"
#include "services/policy/policyloader.h"
#include "services/remediation/reclaimplanner.h"
#include "services/remediation/replayexecutor.h"
#include "services/remediation/replayverifier.h"
#include "services/remediation/requestbuilder.h"
#include "services/remediation/requestitemdigests.h"
#include "services/remediation/topicrangereader.h"
#include "services/support/digest.h"
#include "support/berthcli.h"
#include "support/replayworld.h"
#include "support/testsupport.h"

#include <QFile>
#include <QJsonArray>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

// Verification after execution, end to end through the demo's real order-projection consumer (its inbox
// `processed_message`, its claim that skips rows it does not take again, its dead-lettering): what the
// dry run predicts, what the replay did at the consumer, and the audit chain that records it.
namespace {
const QString Orders = QString::fromLatin1(ReplayWorld::OriginalTopic);
const QString Dlq = QString::fromLatin1(ReplayWorld::DlqTopic);
const QString Projection = u"order-projection"_s;

QByteArray order(const QString &type, const QString &orderId, double amount)
{
    return QJsonDocument(QJsonObject{{u"type"_s, type},
                                     {u"orderId"_s, orderId},
                                     {u"customer"_s, u"c-1"_s},
                                     {u"amount"_s, amount}})
        .toJson(QJsonDocument::Compact);
}
} // namespace

class TestReplayVerify final : public QObject {
    Q_OBJECT
    std::unique_ptr<ReplayWorld> m_world;
    std::unique_ptr<KafkaProducer> m_producer;
    std::unique_ptr<OrderProjection> m_consumer;
    QTemporaryDir m_dir;
    QString m_policyPath;
    DeliveryPolicy m_policy;
    InboxMappingSet m_mappings;

    void startConsumer()
    {
        m_consumer = std::make_unique<OrderProjection>(
            ReferenceConsumer::Config{Projection, Orders, Dlq, m_world->kafka(),
                                      m_world->postgres().conninfo(u"postgres"_s, u"verify"_s)});
        m_consumer->start();
    }

    bool produce(const QString &topic, int partition, const QByteArray &key, const QByteArray &value,
                 const RecordHeaders &headers)
    {
        QString error;
        OutgoingRecord r{topic, partition, key, false, value, headers, 0};
        if (!m_producer->produce(r, &error) || !m_producer->flush(10'000, &error)) {
            qWarning().noquote() << error;
            return false;
        }
        return true;
    }

    // A dead letter as the projection writes it (Spring DLT headers naming its group), for a record it
    // never failed on: a replay candidate whose inbox state the test chooses.
    bool deadLetter(int partition, const QByteArray &key, const QByteArray &value,
                    const QString &idempotencyKey)
    {
        DlqMetadata m;
        m.originalTopic = Orders;
        m.originalPartition = partition;
        m.originalOffset = 0;
        m.consumerGroup = Projection;
        m.exceptionClass = u"org.springframework.kafka.listener.ListenerExecutionFailedException"_s;
        m.reason = u"Projection update timed out after 3000 ms"_s;
        m.attempts = 3;
        RecordHeaders headers{{"idempotency-key", idempotencyKey.toUtf8(), false}};
        headers.append(encodeDlqHeaders(DlqDialect::SpringDlt, m));
        return produce(Dlq, partition, key, value, headers);
    }

    // A dead letter of order o-<name> (key k-<name>) whose inbox row an earlier consumer version parked:
    // the record itself is one the consumer handles now.
    bool parkedDeadLetter(int partition, const QByteArray &orderId, double amount)
    {
        const QString id = QString::fromUtf8(orderId);
        const QString key = u"k-"_s + id.mid(2);
        return deadLetter(partition, orderId, order(u"OrderPlaced"_s, id, amount), key)
               && m_world->admin()
                      .exec(u"INSERT INTO processed_message (consumer_name, message_id, status, error_code) "
                            u"VALUES ($1, $2, 'PARKED', 'UNKNOWN_EVENT_TYPE')"_s,
                            {Projection, key})
                      .ok;
    }

    qint64 dlqEnd()
    {
        QString error;
        return m_world->endOffsetSum(Dlq, &error);
    }

    // The DLQ records with this idempotency key header (withoutKey: with none), not replayed ones. Read
    // here rather than through kcat -J: Spring's binary headers are not text.
    QList<DlqSelection> dlqRecords(const QString &idempotencyKey, bool withoutKey = false)
    {
        QString error;
        QList<DlqSelection> out;
        std::unique_ptr<TopicRangeReader> reader = TopicRangeReader::create(m_world->kafka(), &error);
        QList<TopicRangeReader::Range> ranges;
        for (int p = 0; reader && p < 3; ++p) {
            qint64 low = 0;
            qint64 high = 0;
            if (reader->watermarks(Dlq, p, &low, &high, 10'000, &error))
                ranges.append({Dlq, p, low, high});
        }
        if (reader)
            reader->read(
                ranges,
                [&](const rd_kafka_message_t *m) {
                    const KafkaRecord r = KafkaRecord::fromMessage(m);
                    const QByteArray key = r.header("idempotency-key");
                    const bool match = withoutKey ? key.isEmpty() : key == idempotencyKey.toUtf8();
                    if (match && r.header("berth-replay-id").isEmpty())
                        out.append({Dlq, r.partition, r.offset});
                    return true;
                },
                10'000, &error);
        if (!error.isEmpty())
            qWarning().noquote() << error;
        return out;
    }

    qint64 approvedReplay(const QList<DlqSelection> &selection, BuiltRequest *built, bool release = false,
                          bool submit = true)
    {
        RequestDraft draft;
        draft.action = RemediationAction::Replay;
        draft.release = release;
        draft.selection = selection;
        return approved(draft, built, submit);
    }

    qint64 approved(RequestDraft draft, BuiltRequest *built, bool submit = true)
    {
        draft.reasonCode = u"poison-fixed"_s;
        draft.reason = u"projection fixed"_s;
        RequestBuilderContext context;
        context.cluster = m_world->kafka();
        context.inboxDb = &m_world->admin();
        context.inboxMappings = m_mappings;
        context.policy = m_policy;
        *built = RequestBuilder::build(draft, context);
        if (!built->ok()) {
            qWarning().noquote() << built->error;
            return 0;
        }
        if (!submit)
            return 0;
        AuditStore store(m_world->alice());
        QString error;
        const qint64 id = RequestBuilder::submit(store, *built, &error);
        if (id == 0 || !m_world->approve(id, &error)) {
            qWarning().noquote() << error;
            return 0;
        }
        return id;
    }

    ReplayOutcome execute(qint64 id)
    {
        ReplayOptions options;
        options.producerProperties.append({u"retry.backoff.ms"_s, u"50"_s});
        options.inboxMappings = m_mappings;
        ReplayControl control;
        ReplayExecutor executor(m_world->alice(), m_world->kafka(), &m_world->admin());
        return executor.run(id, options, control);
    }

    ReplayVerification verify(qint64 id, int timeoutMs)
    {
        VerifyOptions options;
        options.timeoutMs = timeoutMs;
        options.pollMs = 100;
        options.policy = m_policy;
        options.inboxMappings = m_mappings;
        ReplayVerifier verifier(m_world->alice(), m_world->kafka(), &m_world->admin());
        return verifier.verify(id, options);
    }

    int projectionRows(const QString &orderId)
    {
        return m_world->scalar(u"SELECT count(*) FROM order_projection WHERE order_id = $1"_s, {orderId})
            .toInt();
    }

    // The projection's rows in progress for over half an hour.
    ReclaimInput reclaimInput() const
    {
        ReclaimInput input;
        input.consumer = Projection;
        input.olderThanMs = 30 * 60'000;
        input.cluster = m_world->kafka();
        input.policy = m_policy;
        input.inboxMappings = m_mappings;
        return input;
    }

    // A reclaim of the one stuck row the group has committed past, filed with its release and approved: the
    // request id, 0 when the plan never found that row or the dry run does not release it.
    qint64 approvedReclaim(BuiltRequest *built)
    {
        RequestDraft draft;
        if (!QTest::qWaitFor(
                [&] {
                    draft.reclaim = ReclaimPlanner::plan(reclaimInput(), &m_world->admin());
                    return draft.reclaim.committedPast() == 1;
                },
                30'000))
            return 0;
        draft.selection = draft.reclaim.selection();
        draft.destinationTopic = draft.reclaim.topic;
        const qint64 id = approved(draft, built);
        return built->dryRun.releases == 1 ? id : 0;
    }

    // Executes an approved single-item release that is refused for `why`: nothing produced, the row of
    // `key` left at `status`.
    void releaseRefused(qint64 id, const QString &why, const QString &key, const QString &status)
    {
        const ReplayOutcome outcome = execute(id);
        QCOMPARE(outcome.delivered, 0);
        QCOMPARE(outcome.refused, 1);
        QVERIFY(!outcome.problems.isEmpty());
        QVERIFY2(outcome.problems.first().error.contains(why), qPrintable(outcome.problems.first().error));
        QCOMPARE(m_world->scalar(u"SELECT status FROM processed_message WHERE message_id = $1"_s, {key})
                     .toString(),
                 status);
    }

    // Executes an approved single-item request and verifies that the consumer processed its record once:
    // verified, the side effect there once, the inbox row completed.
    void processedOnce(qint64 id, const QString &orderId, const QString &key)
    {
        const ReplayOutcome outcome = execute(id);
        QVERIFY2(outcome.error.isEmpty(), qPrintable(outcome.error));
        QCOMPARE(outcome.delivered, 1);
        const ReplayVerification v = verify(id, 30'000);
        QCOMPARE(v.result, VerificationResult::Verified);
        QCOMPARE(v.count(VerifyOutcome::Processed), 1);
        QCOMPARE(projectionRows(orderId), 1);
        QCOMPARE(m_world->scalar(u"SELECT status FROM processed_message WHERE message_id = $1"_s, {key})
                     .toString(),
                 u"COMPLETED"_s);
    }

    // The demo policy with a rule masking the orders topic's record key and idempotency-key header, also
    // written to masked-policy.yaml (its path returned) for the command line.
    QString maskedPolicy(DeliveryPolicy *policy)
    {
        QFile policyFile(m_policyPath);
        if (!policyFile.open(QIODevice::ReadOnly))
            return {};
        const QByteArray yaml =
            policyFile.readAll()
            + "\nmasking:\n  - topic: orders\n    key: true\n    headers: [idempotency-key]\n";
        const PolicyLoadResult masked = loadPolicy(yaml, u"masked-policy.yaml"_s);
        if (!masked.ok()) {
            qWarning().noquote() << masked.messages().join(u"; "_s);
            return {};
        }
        const QString path = m_dir.filePath(u"masked-policy.yaml"_s);
        QFile maskedFile(path);
        if (!maskedFile.open(QIODevice::WriteOnly) || maskedFile.write(yaml) != yaml.size())
            return {};
        *policy = masked.policy;
        return path;
    }

    // Every row of every table of the audit schema, as text (bytea as hex).
    QString auditDump()
    {
        QString dump;
        const PgResult tables = m_world->admin().exec(
            u"SELECT table_name FROM information_schema.tables WHERE table_schema = 'berth' "
            u"AND table_type = 'BASE TABLE' ORDER BY 1"_s);
        if (!tables.ok || tables.rows.size() < 6) {
            qWarning().noquote() << tables.error;
            return {};
        }
        for (const QVariantList &row : tables.rows) {
            const QString table = row.value(0).toString();
            dump += m_world
                        ->scalar(u"SELECT coalesce(string_agg(t::text, E'\\n'), '') FROM berth."_s
                                 + m_world->admin().escapeIdentifier(table) + u" t"_s)
                        .toString();
        }
        return dump;
    }

private Q_SLOTS:
    void initTestCase()
    {
        Q_INIT_RESOURCE(services);
        QVERIFY(m_dir.isValid());
        m_world = std::make_unique<ReplayWorld>();
        QString error;
        // As many DLQ partitions as original ones: Spring's DLT keeps the original partition.
        QVERIFY2(m_world->start(u"verify"_s, &error, 3, 3), qPrintable(error));
        QFile schema(u":/berth/sql/demo_schema.sql"_s);
        QVERIFY(schema.open(QIODevice::ReadOnly));
        QVERIFY2(m_world->admin().execScript(QString::fromUtf8(schema.readAll()), &error), qPrintable(error));
        QFile policy(u":/berth/policy/demo-policy.yaml"_s);
        QVERIFY(policy.open(QIODevice::ReadOnly));
        const QByteArray yaml = policy.readAll();
        m_policyPath = m_dir.filePath(u"policy.yaml"_s);
        QFile copy(m_policyPath);
        QVERIFY(copy.open(QIODevice::WriteOnly));
        copy.write(yaml);
        copy.close();
        const PolicyLoadResult loaded = loadPolicy(yaml, u"demo-policy.yaml"_s);
        m_policy = loaded.policy;
        m_mappings = InboxMappingSet::resolve(m_policy.inboxMappings(), {}, {});
        QVERIFY(m_mappings.find(Projection));
        m_producer = KafkaProducer::create(m_world->kafka(), &error);
        QVERIFY2(m_producer, qPrintable(error));
        startConsumer();
    }

    // A record its consumer committed past without a trace (what the accounting calls unaccounted), replayed
    // from the accounting as that consumer's, into its own topic: the dry run looks its key up in that
    // consumer's inbox, and the verification follows it there to processed once.
    void lostRecordReplayedAsItsConsumers()
    {
        QString error;
        const std::unique_ptr<TopicRangeReader> reader = TopicRangeReader::create(m_world->kafka(), &error);
        qint64 low = 0;
        qint64 high = 0;
        QVERIFY2(reader && reader->watermarks(Orders, 2, &low, &high, 10'000, &error), qPrintable(error));
        QVERIFY(produce(Orders, 2, "o-lost", order(u"OrderPlaced"_s, u"o-lost"_s, 11),
                        {{"idempotency-key", "k-lost", false}}));
        QTRY_COMPARE_WITH_TIMEOUT(
            m_world->scalar(u"SELECT status FROM processed_message WHERE message_id = 'k-lost'"_s).toString(),
            u"COMPLETED"_s, 30'000);
        // Lost after all: neither its effect nor its inbox row survived.
        QVERIFY(m_world->admin().execScript(u"DELETE FROM order_projection WHERE order_id = 'o-lost';"
                                            u"DELETE FROM processed_message WHERE message_id = 'k-lost';"_s,
                                            &error));

        RequestDraft draft;
        draft.action = RemediationAction::Replay;
        draft.selection = {{Orders, 2, high}};
        draft.consumer = Projection;
        draft.destinationTopic = Orders;
        BuiltRequest built;
        const qint64 id = approved(draft, &built);
        QVERIFY(id > 0);
        QCOMPARE(built.dryRun.targetConsumer, Projection);
        QVERIFY(built.dryRun.inboxChecked);
        QCOMPARE(built.dryRun.notPredicted, 0);
        QCOMPARE(built.dryRun.predictedNoOps, 0);
        processedOnce(id, u"o-lost"_s, u"k-lost"_s);
    }

    // A parked poison message replayed without release: predicted and verified as a no-op; a COMPLETED key:
    // a verified no-op; a record that fails again: verified as returned to the DLQ; a new key: processed
    // once, its side effect there once. The verification is in the audit chain, and the chain verifies.
    void replayIsFollowedToItsOutcome()
    {
        // The consumer parks an unknown event type and dead-letters a record it cannot deduplicate.
        QVERIFY(produce(Orders, 0, "o-parked", order(u"OrderCancelled"_s, u"o-parked"_s, 5),
                        {{"idempotency-key", "k-parked", false}}));
        QVERIFY(produce(Orders, 1, "o-noid", order(u"OrderPlaced"_s, u"o-noid"_s, 5), {}));
        QVERIFY(produce(Orders, 2, "o-done", order(u"OrderPlaced"_s, u"o-done"_s, 7),
                        {{"idempotency-key", "k-done", false}}));
        QTRY_COMPARE_WITH_TIMEOUT(dlqEnd(), qint64(2), 30'000);
        QTRY_COMPARE_WITH_TIMEOUT(
            m_world->scalar(u"SELECT status FROM processed_message WHERE message_id = 'k-done'"_s).toString(),
            u"COMPLETED"_s, 30'000);
        QCOMPARE(m_world->scalar(u"SELECT status FROM processed_message WHERE message_id = 'k-parked'"_s)
                     .toString(),
                 u"PARKED"_s);
        // Dead letters of a completed key and of a key the inbox has never seen.
        QVERIFY(deadLetter(2, "o-done", order(u"OrderPlaced"_s, u"o-done"_s, 7), u"k-done"_s));
        QVERIFY(deadLetter(1, "o-fresh", order(u"OrderPlaced"_s, u"o-fresh"_s, 9), u"k-fresh"_s));

        QList<DlqSelection> selection = dlqRecords(u"k-parked"_s) + dlqRecords({}, true)
                                        + dlqRecords(u"k-done"_s) + dlqRecords(u"k-fresh"_s);
        QCOMPARE(selection.size(), 4);
        BuiltRequest built;
        const qint64 id = approvedReplay(selection, &built);
        QVERIFY(id > 0);
        // The dry run: the parked and the completed key are no-ops; the one without a key is not predicted.
        QCOMPARE(built.dryRun.targetConsumer, Projection);
        QVERIFY(built.dryRun.alsoReceives.contains(u"connect-warehouse-sink"_s));
        QVERIFY(built.dryRun.inboxChecked);
        QCOMPARE(built.dryRun.predictedNoOps, 2);
        QCOMPARE(built.dryRun.notPredicted, 1);

        const ReplayOutcome outcome = execute(id);
        QCOMPARE(outcome.delivered, 4);

        const ReplayVerification v = verify(id, 30'000);
        QVERIFY2(v.error.isEmpty(), qPrintable(v.error));
        QCOMPARE(v.consumer, Projection);
        QCOMPARE(v.items.size(), 4);
        const auto outcomeOf = [&](const QString &key) {
            for (const VerifiedItem &item : v.items) {
                if (item.idempotencyKey == key)
                    return item.outcome;
            }
            return VerifyOutcome::Pending;
        };
        QCOMPARE(outcomeOf(u"k-parked"_s), VerifyOutcome::NoOp);
        QCOMPARE(outcomeOf(u"k-done"_s), VerifyOutcome::NoOp);
        QCOMPARE(outcomeOf(u"k-fresh"_s), VerifyOutcome::Processed);
        QCOMPARE(outcomeOf(QString()), VerifyOutcome::ReturnedToDlq);
        // Its detail is where it came back (topic/partition/offset), not the outcome said twice.
        for (const VerifiedItem &item : v.items) {
            if (item.outcome == VerifyOutcome::ReturnedToDlq)
                QVERIFY2(QRegularExpression(u"^[^ /]+/\\d+/\\d+$"_s).match(item.detail).hasMatch(),
                         qPrintable(item.detail));
        }
        QCOMPARE(v.result, VerificationResult::VerifiedWithFailures);
        QCOMPARE(v.observedNoOpRate, 0.5);
        QCOMPARE(v.predictedNoOpRate, 0.5);
        // The replay's effects at the consumer: the fresh order once, the parked row untouched.
        QCOMPARE(projectionRows(u"o-fresh"_s), 1);
        QCOMPARE(projectionRows(u"o-parked"_s), 0);
        QCOMPARE(m_world->scalar(u"SELECT status FROM processed_message WHERE message_id = 'k-parked'"_s)
                     .toString(),
                 u"PARKED"_s);

        // The verification is an event of the chain, and the chain holds.
        QVERIFY(v.eventSeq > 0);
        const QJsonObject event =
            QJsonDocument::fromJson(
                m_world
                    ->scalar(u"SELECT details::text FROM berth.audit_events WHERE seq = $1 "
                             u"AND action = 'replay.verified' AND request_id = $2"_s,
                             {v.eventSeq, id})
                    .toString()
                    .toUtf8())
                .object();
        QCOMPARE(event.value(u"result"_s).toString(), u"verified_with_failures"_s);
        QCOMPARE(event.value(u"counts"_s).toObject().value(u"no_op"_s).toInt(), 2);
        QCOMPARE(event.value(u"observedNoOpRate"_s).toDouble(), 0.5);
        const ChainVerification chain = AuditChain::verify(m_world->admin());
        QVERIFY2(chain.ok, qPrintable(chain.error));

        // The command line says the same, with its exit code (1: verified with failures).
        const BerthCli::Result cli =
            BerthCli::run({u"replay"_s, u"verify"_s, QString::number(id), u"--json"_s, u"--db"_s,
                           m_world->conninfo(u"bob"_s), u"--inbox-db"_s,
                           m_world->postgres().conninfo(u"postgres"_s, u"verify"_s), u"--bootstrap"_s,
                           m_world->bootstrap(), u"--policy"_s, m_policyPath, u"--timeout"_s, u"20"_s});
        QVERIFY2(cli.exitCode == 1, qPrintable(cli.err));
        const QJsonObject json = cli.json();
        QCOMPARE(json.value(u"result"_s).toString(), u"verified_with_failures"_s);
        QCOMPARE(json.value(u"counts"_s).toObject().value(u"returned_to_dlq"_s).toInt(), 1);
        QCOMPARE(json.value(u"counts"_s).toObject().value(u"processed"_s).toInt(), 1);
    }

    // The consumer is down: the verification ends unverified with the item pending (exit 3), and a later
    // verification, once the consumer is back, finds it processed.
    void consumerDownEndsUnverifiedAndResumes()
    {
        QVERIFY(deadLetter(0, "o-later", order(u"OrderPlaced"_s, u"o-later"_s, 11), u"k-later"_s));
        const QList<DlqSelection> selection = dlqRecords(u"k-later"_s);
        QCOMPARE(selection.size(), 1);
        m_consumer->stop();
        m_consumer.reset();
        BuiltRequest built;
        const qint64 id = approvedReplay(selection, &built);
        QVERIFY(id > 0);
        QCOMPARE(built.dryRun.predictedNoOps, 0);
        QCOMPARE(execute(id).delivered, 1);

        const ReplayVerification down = verify(id, 1500);
        QVERIFY2(down.error.isEmpty(), qPrintable(down.error));
        QCOMPARE(down.result, VerificationResult::Unverified);
        QCOMPARE(down.count(VerifyOutcome::Pending), 1);
        QVERIFY(down.summary().contains(u"run `berth replay verify"_s));
        QCOMPARE(projectionRows(u"o-later"_s), 0);

        startConsumer();
        const ReplayVerification later = verify(id, 30'000);
        QCOMPARE(later.result, VerificationResult::Verified);
        QCOMPARE(later.count(VerifyOutcome::Processed), 1);
        QCOMPARE(projectionRows(u"o-later"_s), 1);
        // Both verifications are in the chain.
        QCOMPARE(m_world
                     ->scalar(u"SELECT count(*) FROM berth.audit_events WHERE action = 'replay.verified' "
                              u"AND request_id = $1"_s,
                              {id})
                     .toInt(),
                 2);
    }

    // Release and replay of a parked row whose record the consumer can now handle: without release a
    // predicted no-op; with it, released once right before the produce, processed once, the side effect
    // there once, and every step in the audit chain.
    void releaseAndReplayProcessesAParkedRowOnce()
    {
        QVERIFY(parkedDeadLetter(1, "o-rel", 4));
        const QList<DlqSelection> selection = dlqRecords(u"k-rel"_s);
        QCOMPARE(selection.size(), 1);
        BuiltRequest plain;
        approvedReplay(selection, &plain, false, false);
        QVERIFY2(plain.ok(), qPrintable(plain.error));
        QCOMPARE(plain.dryRun.predictedNoOps, 1);
        QCOMPARE(plain.dryRun.releases, 0);

        BuiltRequest built;
        const qint64 id = approvedReplay(selection, &built, true);
        QVERIFY(id > 0);
        QCOMPARE(built.dryRun.predictedNoOps, 0);
        QCOMPARE(built.dryRun.releases, 1);
        QVERIFY(built.dryRun.summary().contains(u"Release and replay: 1"_s));
        processedOnce(id, u"o-rel"_s, u"k-rel"_s);
        if (QTest::currentTestFailed())
            return;
        const auto events = [&](const QString &action) {
            return m_world
                ->scalar(
                    u"SELECT string_agg(details::text, ' ') FROM berth.audit_events WHERE request_id = $1 "
                    u"AND action = $2"_s,
                    {id, action})
                .toString();
        };
        QVERIFY(events(u"replay.release_intent"_s).contains(u"\"items\": [1]"_s));
        QVERIFY(events(u"replay.released"_s).contains(u"\"released\": [1]"_s));
        const ChainVerification chain = AuditChain::verify(m_world->admin());
        QVERIFY2(chain.ok, qPrintable(chain.error));
    }

    // A row that changed between the dry run and the execution is not released, and its record is not
    // produced: refused for that item, with the reason.
    void releaseOfAChangedRowIsRefused()
    {
        QVERIFY(parkedDeadLetter(2, "o-chg", 6));
        BuiltRequest built;
        const qint64 id = approvedReplay(dlqRecords(u"k-chg"_s), &built, true);
        QVERIFY(id > 0);
        QCOMPARE(built.dryRun.releases, 1);
        QVERIFY(
            m_world->admin()
                .exec(u"UPDATE processed_message SET status = 'FAILED_TERMINAL' WHERE message_id = 'k-chg'"_s)
                .ok);
        releaseRefused(id, u"changed since the dry run"_s, u"k-chg"_s, u"FAILED_TERMINAL"_s);
        if (QTest::currentTestFailed())
            return;
        const ReplayVerification v = verify(id, 5'000);
        QCOMPARE(v.count(VerifyOutcome::NotDelivered), 1);
        QCOMPARE(v.result, VerificationResult::VerifiedWithFailures);
    }

    // Reclaim of a stuck row (seed 000 §12): the projection died mid-message (the demo's fault on seq 13)
    // and its redelivery met its own in-progress row and was skipped, so the group committed past the
    // record. The dry run says the consumer will not see it again and replays it; executed, the row is
    // released once, the record processed once, the row completed, verified, and every step is in the
    // audit chain. A row in progress for less than the threshold is left alone.
    void reclaimCompletesAStuckRow()
    {
        QJsonObject stuck = QJsonDocument::fromJson(order(u"OrderPlaced"_s, u"o-stuck"_s, 8)).object();
        stuck.insert(u"seq"_s, 13);
        QVERIFY(produce(Orders, 2, "o-stuck", QJsonDocument(stuck).toJson(QJsonDocument::Compact),
                        {{"idempotency-key", "k-stuck", false}}));
        const ReclaimInput input = reclaimInput();
        // Stuck for an hour, by the clock of its row; committed past by the group.
        QTRY_VERIFY_WITH_TIMEOUT(
            m_world->admin()
                    .exec(u"UPDATE processed_message SET updated_at = now() - interval '1 hour' "
                          u"WHERE message_id = 'k-stuck' AND status = 'IN_PROGRESS'"_s)
                    .affected
                == 1,
            30'000);
        QVERIFY(m_world->admin()
                    .exec(u"INSERT INTO processed_message (consumer_name, message_id, status) "
                          u"VALUES ($1, 'k-busy', 'IN_PROGRESS')"_s,
                          {Projection})
                    .ok);
        ReclaimPlan plan;
        QTRY_VERIFY_WITH_TIMEOUT((plan = ReclaimPlanner::plan(input, &m_world->admin())).committedPast() == 1,
                                 30'000);
        QVERIFY2(plan.error.isEmpty(), qPrintable(plan.error));
        QCOMPARE(plan.rows.size(), 1);
        QCOMPARE(plan.rows.first().messageId, u"k-stuck"_s);
        QCOMPARE(plan.topic, Orders);
        QCOMPARE(plan.rows.first().record.partition, 2);

        // Filed from the command line, approved by another person.
        const BerthCli::Result filed =
            BerthCli::run({u"replay"_s, u"request"_s, u"--reclaim"_s, u"--consumer"_s, Projection,
                           u"--older-than"_s, u"30m"_s, u"--reason"_s, u"projection died mid-message"_s,
                           u"--json"_s, u"--db"_s, m_world->conninfo(u"alice"_s), u"--inbox-db"_s,
                           m_world->postgres().conninfo(u"postgres"_s, u"verify"_s), u"--bootstrap"_s,
                           m_world->bootstrap(), u"--policy"_s, m_policyPath});
        QVERIFY2(filed.exitCode == 0, qPrintable(filed.err));
        const qint64 id = filed.json().value(u"requestId"_s).toInteger();
        QVERIFY(id > 0);
        const DryRunResult dryRun = DryRunResult::fromJson(filed.json().value(u"dryRun"_s).toObject());
        QCOMPARE(dryRun.count, 1);
        QCOMPARE(dryRun.releases, 1);
        QCOMPARE(dryRun.predictedNoOps, 0);
        QCOMPARE(dryRun.targetConsumer, Projection);
        QVERIFY2(dryRun.summary().contains(u"will not see them again"_s), qPrintable(dryRun.summary()));
        // The runbook names the command that filed it.
        const BerthCli::Result runbook = BerthCli::run(
            {u"replay"_s, u"runbook"_s, QString::number(id), u"--db"_s, m_world->conninfo(u"bob"_s)});
        QVERIFY2(runbook.exitCode == 0, qPrintable(runbook.err));
        QVERIFY2(
            runbook.out.contains("replay request --reclaim --consumer 'order-projection' --topic 'orders' "
                                 "--older-than 1800s"),
            runbook.out.constData());
        QString error;
        QVERIFY2(m_world->approve(id, &error), qPrintable(error));

        processedOnce(id, u"o-stuck"_s, u"k-stuck"_s);
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(
            m_world->scalar(u"SELECT status FROM processed_message WHERE message_id = 'k-busy'"_s).toString(),
            u"IN_PROGRESS"_s);
        QVERIFY(m_world
                    ->scalar(u"SELECT details::text FROM berth.audit_events WHERE request_id = $1 "
                             u"AND action = 'replay.released'"_s,
                             {id})
                    .toString()
                    .contains(u"\"released\": [1]"_s));
        const ChainVerification chain = AuditChain::verify(m_world->admin());
        QVERIFY2(chain.ok, qPrintable(chain.error));
        QVERIFY(m_world->admin().exec(u"DELETE FROM processed_message WHERE message_id = 'k-busy'"_s).ok);
    }

    // A stuck row its consumer touches between the dry run and the execution was slow, not dead: its
    // release is refused, its record not replayed, the row left to its consumer.
    void reclaimOfARowTouchedSinceIsRefused()
    {
        // An instance holds k-slow in progress; the record's delivery here meets the row and is skipped.
        QVERIFY(m_world->admin()
                    .exec(u"INSERT INTO processed_message (consumer_name, message_id, status, updated_at) "
                          u"VALUES ($1, 'k-slow', 'IN_PROGRESS', now() - interval '1 hour')"_s,
                          {Projection})
                    .ok);
        QVERIFY(produce(Orders, 1, "o-slow", order(u"OrderPlaced"_s, u"o-slow"_s, 2),
                        {{"idempotency-key", "k-slow", false}}));
        BuiltRequest built;
        const qint64 id = approvedReclaim(&built);
        QVERIFY(id > 0);
        QVERIFY(m_world->admin()
                    .exec(u"UPDATE processed_message SET updated_at = now() WHERE message_id = 'k-slow'"_s)
                    .ok);

        releaseRefused(id, u"still working on it"_s, u"k-slow"_s, u"IN_PROGRESS"_s);
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(projectionRows(u"o-slow"_s), 0);
        QVERIFY(m_world->admin().exec(u"DELETE FROM processed_message WHERE message_id = 'k-slow'"_s).ok);
    }

    // A policy masking the orders topic's record key and idempotency key: a replay of two dead letters (one
    // fresh, one whose parked row is released first) is filed, approved, executed and verified, and the
    // audit database holds neither key's text nor hex anywhere, only their digests, while the keys of a topic
    // no rule masks are stored as they are. The executor and the verifier read the keys again from the
    // source records (the release finds the row, the inbox outcomes are found), the key digest still pins
    // the record, and nothing logged on the way says a key.
    void maskedKeysStayOutOfTheAuditDatabase()
    {
        DeliveryPolicy masked;
        const QString maskedPolicyPath = maskedPolicy(&masked);
        QVERIFY(!maskedPolicyPath.isEmpty());
        const DeliveryPolicy plain = m_policy;
        m_policy = masked;
        static QStringList logged;
        logged.clear();
        const QtMessageHandler previous = qInstallMessageHandler(
            [](QtMsgType, const QMessageLogContext &, const QString &message) { logged.append(message); });
        const auto restore = qScopeGuard([&] {
            qInstallMessageHandler(previous);
            m_policy = plain;
        });

        const QStringList secrets{u"rk-secret-8801"_s,       u"rk-secret-8802"_s, u"k-secret-fresh-7301"_s,
                                  u"k-secret-parked-7302"_s, u"rk-secret-8804"_s, u"k-secret-stuck-7304"_s};
        QVERIFY(
            deadLetter(1, "rk-secret-8801", order(u"OrderPlaced"_s, u"o-mask-fresh"_s, 4), secrets.at(2)));
        QVERIFY(
            deadLetter(2, "rk-secret-8802", order(u"OrderPlaced"_s, u"o-mask-parked"_s, 6), secrets.at(3)));
        QVERIFY(m_world->admin()
                    .exec(u"INSERT INTO processed_message (consumer_name, message_id, status, error_code) "
                          u"VALUES ($1, $2, 'PARKED', 'UNKNOWN_EVENT_TYPE')"_s,
                          {Projection, secrets.at(3)})
                    .ok);
        BuiltRequest built;
        const qint64 id = approvedReplay(dlqRecords(secrets.at(2)) + dlqRecords(secrets.at(3)), &built, true);
        QVERIFY(id > 0);
        QCOMPARE(built.dryRun.count, 2);
        QCOMPARE(built.dryRun.releases, 1);
        const ReplayOutcome outcome = execute(id);
        QVERIFY2(outcome.error.isEmpty(), qPrintable(outcome.error));
        QCOMPARE(outcome.delivered, 2);
        const ReplayVerification v = verify(id, 30'000);
        QVERIFY2(v.error.isEmpty(), qPrintable(v.error));
        QCOMPARE(v.count(VerifyOutcome::Processed), 2);
        QCOMPARE(v.result, VerificationResult::Verified);
        for (const VerifiedItem &item : v.items)
            QCOMPARE(item.idempotencyKey, u"(masked)"_s);
        QCOMPARE(projectionRows(u"o-mask-parked"_s), 1);

        // A reclaim of a stuck row of that topic: its release finds the row by the id read from the record.
        QJsonObject stuck = QJsonDocument::fromJson(order(u"OrderPlaced"_s, u"o-mask-stuck"_s, 8)).object();
        stuck.insert(u"seq"_s, 126); // the instance dies mid-message (DemoFaults::crashWhileInProgress)
        QVERIFY(produce(Orders, 0, "rk-secret-8804", QJsonDocument(stuck).toJson(QJsonDocument::Compact),
                        {{"idempotency-key", "k-secret-stuck-7304", false}}));
        QTRY_VERIFY_WITH_TIMEOUT(
            m_world->admin()
                    .exec(u"UPDATE processed_message SET updated_at = now() - interval '1 hour' "
                          u"WHERE message_id = 'k-secret-stuck-7304' AND status = 'IN_PROGRESS'"_s)
                    .affected
                == 1,
            30'000);
        BuiltRequest reclaimBuilt;
        const qint64 reclaimId = approvedReclaim(&reclaimBuilt);
        QVERIFY(reclaimId > 0);
        processedOnce(reclaimId, u"o-mask-stuck"_s, u"k-secret-stuck-7304"_s);
        if (QTest::currentTestFailed())
            return;

        // The same topic's dead letter filed under a policy without the rule: its keys are stored.
        QVERIFY(deadLetter(0, "rk-plain-8803", order(u"OrderPlaced"_s, u"o-plain"_s, 3), u"k-plain-8803"_s));
        m_policy = plain;
        BuiltRequest plainBuilt;
        const qint64 plainId = approvedReplay(dlqRecords(u"k-plain-8803"_s), &plainBuilt);
        QVERIFY(plainId > 0);
        QCOMPARE(m_world
                     ->scalar(u"SELECT convert_from(record_key, 'UTF8') || ' ' || idempotency_key "
                              u"FROM berth.request_items WHERE request_id = $1"_s,
                              {plainId})
                     .toString(),
                 u"rk-plain-8803 k-plain-8803"_s);

        const QString dump = auditDump();
        QVERIFY(dump.contains(u"rk-plain-8803"_s)
                || dump.contains(QString::fromLatin1("rk-plain-8803"_ba.toHex())));
        for (const QString &secret : secrets) {
            QVERIFY2(!dump.contains(secret), qPrintable(secret));
            QVERIFY2(!dump.contains(QString::fromLatin1(secret.toUtf8().toHex())), qPrintable(secret));
            QVERIFY2(dump.contains(QString::fromLatin1(Digest::sha256(secret.toUtf8()).toHex())),
                     qPrintable(secret));
        }

        // The digest pins the key: the record as filed matches, one keyed otherwise does not.
        QString error;
        const std::optional<RequestDetail> detail = AuditStore(m_world->alice()).requestDetail(id, &error);
        QVERIFY2(detail && detail->items.size() == 2, qPrintable(error));
        for (const RequestItem &item : detail->items) {
            QVERIFY(!item.key && item.idempotencyKey.isEmpty() && item.keySha256.size() == 32);
            KafkaRecord record;
            record.keyIsNull = false;
            record.key = item.keySha256 == Digest::sha256("rk-secret-8801") ? "rk-secret-8801"
                                                                                        : "rk-secret-8802";
            QVERIFY(RequestItemDigests::keyMatches(item, record));
            record.key = "rk-secret-8809";
            QVERIFY(!RequestItemDigests::keyMatches(item, record));
        }

        // Neither the command line's status nor its verification (with the policy) says a key.
        for (const QStringList &args :
             {QStringList{u"replay"_s, u"status"_s, QString::number(id), u"--json"_s, u"--db"_s,
                          m_world->conninfo(u"bob"_s)},
              QStringList{u"replay"_s, u"verify"_s, QString::number(id), u"--json"_s, u"--db"_s,
                          m_world->conninfo(u"bob"_s), u"--inbox-db"_s,
                          m_world->postgres().conninfo(u"postgres"_s, u"verify"_s), u"--bootstrap"_s,
                          m_world->bootstrap(), u"--policy"_s, maskedPolicyPath, u"--timeout"_s, u"20"_s}}) {
            const BerthCli::Result cli = BerthCli::run(args);
            QVERIFY2(cli.exitCode == 0, qPrintable(cli.err));
            for (const QString &secret : secrets)
                QVERIFY2(!cli.out.contains(secret.toUtf8()) && !cli.err.contains(secret),
                         cli.out.constData());
        }
        const QString log = logged.join(u'\n');
        for (const QString &secret : secrets)
            QVERIFY2(!log.contains(secret), qPrintable(log));
    }

    // Under the same masking, the Inbox view's skip of a failed row and delete of a parked row of the
    // masked consumer: the requests name the rows by their message ids' digests, the executor finds and
    // changes those rows, the delete's disposition keeps the row's status and times with
    // its id as a digest (also where another column quoted it), and the audit database holds neither id's
    // text nor hex. A request filed before digests (its key stored) is verified under the masking without
    // the key in its no-inbox-row detail or its replay.verified event.
    void maskedInboxRowsStayOutOfTheAuditDatabase()
    {
        DeliveryPolicy masked;
        QVERIFY(!maskedPolicy(&masked).isEmpty());
        const DeliveryPolicy plain = m_policy;
        const auto restore = qScopeGuard([&] { m_policy = plain; });
        const QString skipId = u"k-secret-skip-7401"_s;
        const QString deleteId = u"k-secret-delete-7402"_s;
        const QString oldId = u"k-secret-old-7403"_s;
        QVERIFY(
            m_world->admin()
                .exec(u"INSERT INTO processed_message (consumer_name, message_id, status, error_code) "
                      u"VALUES ($1, $2, 'FAILED_TERMINAL', 'TIMEOUT'), ($1, $3, 'PARKED', 'POISON ' || $3)"_s,
                      {Projection, skipId, deleteId})
                .ok);
        const auto disposeRow = [&](RemediationAction action, const QString &messageId) -> qint64 {
            RequestDraft draft;
            draft.action = action;
            draft.inboxRows = {inboxRefFor(Projection, messageId, Projection)};
            BuiltRequest built;
            const qint64 id = approved(draft, &built);
            if (id == 0 || built.request.items.size() != 1)
                return 0;
            const RequestItem &item = built.request.items.first();
            if (item.inboxRef.contains(u"messageId"_s) || !item.idempotencyKey.isEmpty()
                || item.idempotencyKeySha256 != Digest::sha256(messageId.toUtf8()))
                return 0;
            const ReplayOutcome outcome = execute(id);
            if (!outcome.error.isEmpty() || !outcome.problems.isEmpty()) {
                qWarning().noquote() << outcome.error
                                     << (outcome.problems.isEmpty() ? QString()
                                                                    : outcome.problems.first().error);
                return 0;
            }
            return id;
        };
        m_policy = masked;
        QVERIFY(disposeRow(RemediationAction::Skip, skipId) > 0);
        QCOMPARE(m_world->scalar(u"SELECT status FROM processed_message WHERE message_id = $1"_s, {skipId})
                     .toString(),
                 u"SKIPPED"_s);
        const qint64 deleteRequest = disposeRow(RemediationAction::Delete, deleteId);
        QVERIFY(deleteRequest > 0);
        QCOMPARE(
            m_world->scalar(u"SELECT count(*) FROM processed_message WHERE message_id = $1"_s, {deleteId})
                .toInt(),
            0);
        const QJsonObject deleted =
            QJsonDocument::fromJson(m_world
                                        ->scalar(u"SELECT details->'inbox_row' FROM berth.dispositions "
                                                 u"WHERE request_id = $1 AND disposition = 'deleted'"_s,
                                                 {deleteRequest})
                                        .toString()
                                        .toUtf8())
                .object();
        QCOMPARE(deleted.value(u"status"_s).toString(), u"PARKED"_s);
        QCOMPARE(deleted.value(u"consumer_name"_s).toString(), Projection);
        QCOMPARE(deleted.value(u"message_id"_s).toString(), u"(masked)"_s);
        QCOMPARE(deleted.value(u"error_code"_s).toString(), u"POISON (masked)"_s);
        QCOMPARE(deleted.value(u"messageIdSha256"_s).toString(),
                 QString::fromLatin1(Digest::sha256(deleteId.toUtf8()).toHex()));

        const QString dump = auditDump();
        QVERIFY(!dump.isEmpty());
        for (const QString &secret : {skipId, deleteId}) {
            QVERIFY2(!dump.contains(secret), qPrintable(secret));
            QVERIFY2(!dump.contains(QString::fromLatin1(secret.toUtf8().toHex())), qPrintable(secret));
            QVERIFY2(dump.contains(QString::fromLatin1(Digest::sha256(secret.toUtf8()).toHex())),
                     qPrintable(secret));
        }

        // Filed before the masking (its key stored as it is), its row gone when it is verified under it.
        m_policy = plain;
        QVERIFY(deadLetter(0, "o-old-mask", order(u"OrderPlaced"_s, u"o-old-mask"_s, 5), oldId));
        BuiltRequest oldBuilt;
        const qint64 oldRequest = approvedReplay(dlqRecords(oldId), &oldBuilt);
        QVERIFY(oldRequest > 0);
        QCOMPARE(execute(oldRequest).delivered, 1);
        QTRY_COMPARE_WITH_TIMEOUT(
            m_world->scalar(u"SELECT status FROM processed_message WHERE message_id = $1"_s, {oldId})
                .toString(),
            u"COMPLETED"_s, 30'000);
        QVERIFY(m_world->admin().exec(u"DELETE FROM processed_message WHERE message_id = $1"_s, {oldId}).ok);
        m_policy = masked;
        const ReplayVerification v = verify(oldRequest, 30'000);
        QVERIFY2(v.error.isEmpty(), qPrintable(v.error));
        QCOMPARE(v.count(VerifyOutcome::NoInboxRow), 1);
        QCOMPARE(v.items.first().idempotencyKey, u"(masked)"_s);
        QVERIFY2(v.items.first().detail.endsWith(u"no inbox row for (masked)"_s),
                 qPrintable(v.items.first().detail));
        const QString event =
            m_world
                ->scalar(u"SELECT details::text FROM berth.audit_events WHERE request_id = $1 "
                         u"AND action = 'replay.verified' ORDER BY seq DESC LIMIT 1"_s,
                         {oldRequest})
                .toString();
        QVERIFY(event.contains(u"no inbox row for (masked)"_s));
        QVERIFY2(!event.contains(oldId) && !event.contains(QString::fromLatin1(oldId.toUtf8().toHex())),
                 qPrintable(event));
    }

    // Nothing to verify before execution: an error, not a verdict.
    void unexecutedRequestIsAnError()
    {
        QVERIFY(deadLetter(0, "o-never", order(u"OrderPlaced"_s, u"o-never"_s, 3), u"k-never"_s));
        BuiltRequest built;
        const qint64 id = approvedReplay(dlqRecords(u"k-never"_s), &built);
        QVERIFY(id > 0);
        const ReplayVerification v = verify(id, 1000);
        QVERIFY(v.error.contains(u"has not been executed"_s));
    }

    void cleanupTestCase()
    {
        if (m_consumer)
            m_consumer->stop();
        m_consumer.reset();
        m_producer.reset();
        m_world.reset();
    }
};

QTEST_GUILESS_MAIN(TestReplayVerify)
#include "tst_replayverify.moc"
