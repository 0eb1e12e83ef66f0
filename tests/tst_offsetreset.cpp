#include "services/audit/auditchain.h"
#include "services/kafka/clusterinspector.h"
#include "services/kafka/kafkaproducer.h"
#include "services/kafka/offsetcommitter.h"
#include "services/remediation/offsetresetplanner.h"
#include "support/berthcli.h"
#include "support/replayworld.h"
#include "support/testsupport.h"

#include <QDateTime>
#include <QFile>
#include <QJsonArray>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

// Offset reset with preview, end to end: a consumer group of the demo's order-projection (its policy, its
// inbox `processed_message`), the command line filing, approving and executing the reset, kcat consuming as
// the group afterwards, a consumer in the test holding another group, and the audit chain.
namespace {
const QString Orders = QString::fromLatin1(ReplayWorld::OriginalTopic);
const QString Group = u"order-projection"_s;
constexpr int Partitions = 3;
constexpr int PerPartition = 6;

// A member of the group: joins, consumes everything, commits, and stays until closed.
class GroupMember final {
public:
    bool join(const KafkaProperties &cluster, const QString &group, int records, QString *error)
    {
        KafkaProperties props = cluster;
        props.append({u"group.id"_s, group});
        props.append({u"auto.offset.reset"_s, u"earliest"_s});
        props.append({u"enable.auto.commit"_s, u"false"_s});
        props.append({u"session.timeout.ms"_s, u"6000"_s});
        m_rk = KafkaConfig::createClient(RD_KAFKA_CONSUMER, props, error);
        if (!m_rk)
            return false;
        rd_kafka_poll_set_consumer(m_rk.get());
        PartitionList topics(rd_kafka_topic_partition_list_new(1));
        rd_kafka_topic_partition_list_add(topics.get(), Orders.toUtf8().constData(), RD_KAFKA_PARTITION_UA);
        if (const rd_kafka_resp_err_t err = rd_kafka_subscribe(m_rk.get(), topics.get())) {
            *error = KafkaConfig::errorText(err);
            return false;
        }
        int read = 0;
        QDeadlineTimer deadline(30'000);
        while (read < records && !deadline.hasExpired()) {
            rd_kafka_message_t *m = rd_kafka_consumer_poll(m_rk.get(), 100);
            if (m && !m->err)
                ++read;
            if (m)
                rd_kafka_message_destroy(m);
        }
        if (read < records) {
            *error = u"the group member read "_s + QString::number(read) + u" of "_s + QString::number(records);
            return false;
        }
        if (const rd_kafka_resp_err_t err = rd_kafka_commit(m_rk.get(), nullptr, 0)) {
            *error = u"commit: "_s + KafkaConfig::errorText(err);
            return false;
        }
        return true;
    }
    void close()
    {
        if (m_rk)
            rd_kafka_consumer_close(m_rk.get());
        m_rk.reset();
    }
    ~GroupMember() { close(); }

private:
    KafkaHandle m_rk;
};
} // namespace

class TestOffsetReset final : public QObject {
    Q_OBJECT
    std::unique_ptr<ReplayWorld> m_world;
    QTemporaryDir m_dir;
    QString m_policyPath;
    qint64 m_base = 0; // the first record's timestamp; record i of a partition is m_base + i seconds

    QStringList connection(const QString &who) const
    {
        return {u"--json"_s,       u"--db"_s,
                m_world->conninfo(who), u"--inbox-db"_s,
                m_world->postgres().conninfo(u"postgres"_s, u"reset"_s), u"--bootstrap"_s,
                m_world->bootstrap(),   u"--policy"_s,
                m_policyPath};
    }

    // The group's committed offsets, read on a handle of the test's own.
    QList<qint64> committed(const QString &group)
    {
        KafkaProperties props = m_world->kafka();
        props.append({u"group.id"_s, group});
        QString error;
        KafkaHandle rk = KafkaConfig::createClient(RD_KAFKA_CONSUMER, props, &error);
        PartitionList list(rd_kafka_topic_partition_list_new(Partitions));
        for (int p = 0; p < Partitions; ++p)
            rd_kafka_topic_partition_list_add(list.get(), Orders.toUtf8().constData(), p);
        QList<qint64> out;
        if (!rk || rd_kafka_committed(rk.get(), list.get(), 10'000))
            return out;
        for (int i = 0; i < list->cnt; ++i)
            out << list->elems[i].offset;
        return out;
    }

    QStringList eventsOf(qint64 id)
    {
        const PgResult r = m_world->admin().exec(
            u"SELECT action FROM berth.audit_events WHERE request_id = $1 ORDER BY seq"_s, {id});
        QStringList out;
        for (const QVariantList &row : r.rows)
            out << row.value(0).toString();
        return out;
    }

private Q_SLOTS:
    void initTestCase()
    {
        Q_INIT_RESOURCE(services);
        QVERIFY(m_dir.isValid());
        m_world = std::make_unique<ReplayWorld>();
        QString error;
        QVERIFY2(m_world->start(u"reset"_s, &error, 1, Partitions), qPrintable(error));
        QFile schema(u":/berth/sql/demo_schema.sql"_s);
        QVERIFY(schema.open(QIODevice::ReadOnly));
        QVERIFY2(m_world->admin().execScript(QString::fromUtf8(schema.readAll()), &error), qPrintable(error));
        QFile policy(u":/berth/policy/demo-policy.yaml"_s);
        QVERIFY(policy.open(QIODevice::ReadOnly));
        m_policyPath = m_dir.filePath(u"policy.yaml"_s);
        QFile copy(m_policyPath);
        QVERIFY(copy.open(QIODevice::WriteOnly));
        copy.write(policy.readAll());
        copy.close();

        // Record i of each partition at m_base + i s, key k-<p>-<i> in the idempotency-key header.
        std::unique_ptr<KafkaProducer> producer = KafkaProducer::create(m_world->kafka(), &error);
        QVERIFY2(producer, qPrintable(error));
        m_base = QDateTime::currentMSecsSinceEpoch() - 3'600'000;
        for (int p = 0; p < Partitions; ++p) {
            for (int i = 0; i < PerPartition; ++i) {
                const QByteArray key = "k-" + QByteArray::number(p) + '-' + QByteArray::number(i);
                OutgoingRecord r{Orders, p, key, false, "{\"n\":" + QByteArray::number(i) + '}',
                                 {{"idempotency-key", key, false}}, m_base + i * 1000};
                QVERIFY2(producer->produce(r, &error), qPrintable(error));
            }
        }
        QVERIFY2(producer->flush(10'000, &error), qPrintable(error));
    }

    // A reset to a time: the dry run shows each partition's committed and target offsets, the records
    // processed again and the no-op rate the inbox predicts; executed, it commits, reads back and verifies;
    // the group then reprocesses exactly the records at or after the time (kcat consuming as the group);
    // every step is in the audit chain, the chain verifies, the runbook names the commands.
    void resetToTimeReprocessesExactlyTheRecordsAfterIt()
    {
        // Rows the inbox already has: k-*-3 and k-*-4 completed (no-ops), k-0-5 failed retryable (retaken).
        for (int p = 0; p < Partitions; ++p) {
            for (int i : {3, 4})
                QVERIFY(m_world->admin()
                            .exec(u"INSERT INTO processed_message (consumer_name, message_id, status) "
                                  u"VALUES ($1, $2, 'COMPLETED')"_s,
                                  {Group, u"k-%1-%2"_s.arg(p).arg(i)})
                            .ok);
        }
        QVERIFY(m_world->admin()
                    .exec(u"INSERT INTO processed_message (consumer_name, message_id, status) "
                          u"VALUES ($1, 'k-0-5', 'FAILED_RETRYABLE')"_s,
                          {Group})
                    .ok);
        // The projection processed everything and stopped (its progress committed as it would have).
        QString error;
        QVERIFY2(OffsetCommitter::commit(m_world->kafka(), Group,
                                         {{{Orders, 0}, PerPartition}, {{Orders, 1}, PerPartition},
                                          {{Orders, 2}, PerPartition}},
                                         &error),
                 qPrintable(error));
        QCOMPARE(committed(Group), (QList<qint64>{PerPartition, PerPartition, PerPartition}));

        const QString at =
            QDateTime::fromMSecsSinceEpoch(m_base + 3000, Qt::UTC).toString(Qt::ISODateWithMs);
        const BerthCli::Result filed = BerthCli::run(
            QStringList{u"replay"_s, u"request"_s, u"--reset-offsets"_s, u"--group"_s, Group, u"--topic"_s,
                        Orders, u"--to"_s, u"time:"_s + at, u"--reason"_s, u"reprocess after the fix"_s}
            + connection(u"alice"_s));
        QVERIFY2(filed.exitCode == 0, qPrintable(filed.err));
        const qint64 id = filed.json().value(u"requestId"_s).toInteger();
        QVERIFY(id > 0);
        QCOMPARE(filed.json().value(u"items"_s).toInt(), Partitions);
        const QJsonObject dry = filed.json().value(u"dryRun"_s).toObject();
        const OffsetResetPlan plan = OffsetResetPlan::fromJson(dry.value(u"offsetReset"_s).toObject());
        QCOMPARE(plan.partitions.size(), Partitions);
        for (const OffsetResetPartition &p : plan.partitions) {
            QCOMPARE(p.current, qint64(PerPartition));
            QCOMPARE(p.target, qint64(3));
        }
        QCOMPARE(plan.reprocessed(), qint64(9));
        QCOMPARE(plan.skipped(), qint64(0));
        QVERIFY(plan.inboxChecked);
        QCOMPARE(plan.predictedNoOps, qint64(6)); // k-*-3, k-*-4; k-0-5 is retaken, the rest unknown
        QCOMPARE(plan.keyedRecords, qint64(9));
        QVERIFY(qFuzzyCompare(plan.predictedNoOpRate(), 6.0 / 9.0));
        QCOMPARE(dry.value(u"predictedNoOps"_s).toInt(), 6);
        QVERIFY(!plan.orderingNotes.isEmpty());
        QString why;
        QVERIFY2(m_world->approve(id, &why), qPrintable(why));

        const BerthCli::Result done =
            BerthCli::run(QStringList{u"replay"_s, u"execute"_s, QString::number(id)} + connection(u"alice"_s));
        QVERIFY2(done.exitCode == 0, qPrintable(done.err + QString::fromUtf8(done.out)));
        QVERIFY(done.json().value(u"verified"_s).toBool());
        QCOMPARE(m_world->statusOf(id), u"completed"_s);
        QCOMPARE(committed(Group), (QList<qint64>{3, 3, 3}));
        const BerthCli::Result verified =
            BerthCli::run(QStringList{u"replay"_s, u"verify"_s, QString::number(id)} + connection(u"bob"_s));
        QVERIFY2(verified.exitCode == 0, qPrintable(verified.err));
        // The command reads the verification the one reader of offsets.verified returns: the event's shape
        // with the result, when and where in the chain it was recorded.
        const QJsonObject verifiedJson = verified.json();
        QVERIFY(verifiedJson.value(u"verified"_s).toBool());
        QCOMPARE(verifiedJson.value(u"result"_s).toString(), u"verified"_s);
        QCOMPARE(verifiedJson.value(u"requestId"_s).toInteger(), id);
        QCOMPARE(verifiedJson.value(u"group"_s).toString(), Group);
        QCOMPARE(verifiedJson.value(u"topic"_s).toString(), Orders);
        QCOMPARE(verifiedJson.value(u"auditSeq"_s).toInteger(),
                 m_world
                     ->scalar(u"SELECT max(seq) FROM berth.audit_events WHERE request_id = $1 "
                              u"AND action = 'offsets.verified'"_s,
                              {id})
                     .toLongLong());
        QVERIFY(QDateTime::fromString(verifiedJson.value(u"recordedAt"_s).toString(), Qt::ISODateWithMs)
                    .isValid());
        const QJsonArray verifiedPartitions = verifiedJson.value(u"partitions"_s).toArray();
        QCOMPARE(verifiedPartitions.size(), Partitions);
        for (const QJsonValue &p : verifiedPartitions) {
            QCOMPARE(p.toObject().value(u"to"_s).toInteger(), 3);
            QCOMPARE(p.toObject().value(u"committed"_s).toInteger(), 3);
            QCOMPARE(p.toObject().value(u"from"_s).toInteger(), PerPartition);
        }

        // kcat, consuming as the group, is handed exactly the records at or after the time.
        QProcess kcat;
        kcat.start(u"kcat"_s, {u"-b"_s, m_world->bootstrap(), u"-G"_s, Group, Orders, u"-e"_s, u"-J"_s,
                               u"-q"_s, u"-X"_s, u"enable.auto.commit=false"_s});
        QVERIFY(kcat.waitForFinished(60'000));
        QSet<QString> seen;
        for (const QByteArray &line : kcat.readAllStandardOutput().split('\n')) {
            const QJsonObject o = QJsonDocument::fromJson(line).object();
            if (!o.isEmpty())
                seen.insert(o.value(u"key"_s).toString());
        }
        QSet<QString> expected;
        for (int p = 0; p < Partitions; ++p)
            for (int i = 3; i < PerPartition; ++i)
                expected.insert(u"k-%1-%2"_s.arg(p).arg(i));
        QCOMPARE(seen, expected);

        // Every step in the chain, and the chain verifies.
        const QStringList events = eventsOf(id);
        for (const QString &action :
             {u"request.items_added"_s, u"offsets.reset_intent"_s,
              u"offsets.reset"_s, u"offsets.verified"_s})
            QVERIFY2(events.contains(action), qPrintable(events.join(u", "_s)));
        QVERIFY(m_world
                    ->scalar(u"SELECT details::text FROM berth.audit_events WHERE request_id = $1 "
                             u"AND action = 'request.items_added'"_s,
                             {id})
                    .toString()
                    .contains(u"\"offset_reset\""_s));
        const ChainVerification chain = AuditChain::verify(m_world->admin());
        QVERIFY2(chain.ok, qPrintable(chain.error + chain.problem));

        const BerthCli::Result runbook = BerthCli::run(
            {u"replay"_s, u"runbook"_s, QString::number(id), u"--db"_s, m_world->conninfo(u"bob"_s)});
        QVERIFY2(runbook.exitCode == 0, qPrintable(runbook.err));
        const QByteArray command = "replay request --reset-offsets --group 'order-projection' --topic "
                                   "'orders' --to 'time:"
                                   + at.toUtf8() + "'";
        QVERIFY2(runbook.out.contains(command), runbook.out.constData());
        QVERIFY2(runbook.out.contains("replay verify "), runbook.out.constData());
    }

    // A group with an active member: the execution is refused with the reason, nothing moves, the refusal
    // is in the audit chain and the request can be executed again. (The mock cluster refuses a commit from
    // outside a group that ever had members for as long as it runs; a real broker accepts it once the group
    // is empty, so the retry after the consumers stop is not shown here.)
    void refusedWhileTheGroupHasAnActiveMember()
    {
        const QString busy = u"orders-busy"_s;
        GroupMember member;
        QString error;
        QVERIFY2(member.join(m_world->kafka(), busy, Partitions * PerPartition, &error), qPrintable(error));
        QCOMPARE(committed(busy), (QList<qint64>{PerPartition, PerPartition, PerPartition}));
        const BerthCli::Result filed = BerthCli::run(
            QStringList{u"replay"_s, u"request"_s, u"--reset-offsets"_s, u"--group"_s, busy, u"--topic"_s, Orders,
                        u"--to"_s, u"earliest"_s, u"--reason"_s, u"start over"_s}
            + connection(u"alice"_s));
        QVERIFY2(filed.exitCode == 0, qPrintable(filed.err));
        const qint64 id = filed.json().value(u"requestId"_s).toInteger();
        QVERIFY(id > 0);
        QVERIFY2(m_world->approve(id, &error), qPrintable(error));

        const BerthCli::Result refused =
            BerthCli::run(QStringList{u"replay"_s, u"execute"_s, QString::number(id)} + connection(u"alice"_s));
        QVERIFY2(refused.exitCode == 3, refused.out.constData());
        QVERIFY(refused.json().value(u"refused"_s).toBool());
        QVERIFY2(refused.json().value(u"refusal"_s).toString().contains(u"active member"_s),
                 refused.out.constData());
        QCOMPARE(committed(busy), (QList<qint64>{PerPartition, PerPartition, PerPartition}));
        QCOMPARE(m_world->statusOf(id), u"partially_failed"_s);
        const QStringList events = eventsOf(id);
        QVERIFY2(events.contains(u"offsets.reset_refused"_s), qPrintable(events.join(u", "_s)));
        QVERIFY(!events.contains(u"offsets.reset"_s));
        QVERIFY(m_world
                    ->scalar(u"SELECT details->>'reason' FROM berth.audit_events WHERE request_id = $1 "
                             u"AND action = 'offsets.reset_refused'"_s,
                             {id})
                    .toString()
                    .contains(u"active member"_s));
        // Nothing to verify: it has not moved anything.
        const BerthCli::Result verify =
            BerthCli::run(QStringList{u"replay"_s, u"verify"_s, QString::number(id)} + connection(u"bob"_s));
        QCOMPARE(verify.exitCode, 2);
        const ChainVerification chain = AuditChain::verify(m_world->admin());
        QVERIFY2(chain.ok, qPrintable(chain.error + chain.problem));
    }

    // A commit the broker refused (UNKNOWN_MEMBER_ID, here injected on a group without members) moved
    // nothing: its intent is no earlier commit. Executed again after the group's consumers ran on, the reset
    // commits its targets from where the group is now instead of taking the partitions for "moved since the
    // reset".
    void executedAgainAfterARefusedCommitMovesTheGroup()
    {
        const QString group = u"orders-refused-once"_s;
        constexpr int OffsetCommitApi = 8; // Kafka protocol: OffsetCommit
        QString error;
        QVERIFY2(OffsetCommitter::commit(
                     m_world->kafka(), group,
                     {{{Orders, 0}, PerPartition}, {{Orders, 1}, PerPartition}, {{Orders, 2}, PerPartition}},
                     &error),
                 qPrintable(error));
        const BerthCli::Result filed = BerthCli::run(
            QStringList{u"replay"_s, u"request"_s, u"--reset-offsets"_s, u"--group"_s, group, u"--topic"_s,
                        Orders, u"--to"_s, u"earliest"_s, u"--reason"_s, u"start over"_s}
            + connection(u"alice"_s));
        QVERIFY2(filed.exitCode == 0, qPrintable(filed.err));
        const qint64 id = filed.json().value(u"requestId"_s).toInteger();
        QVERIFY2(id > 0 && m_world->approve(id, &error), qPrintable(error));

        m_world->cluster().pushRequestErrors(OffsetCommitApi, {RD_KAFKA_RESP_ERR_UNKNOWN_MEMBER_ID});
        const BerthCli::Result refused = BerthCli::run(
            QStringList{u"replay"_s, u"execute"_s, QString::number(id)} + connection(u"alice"_s));
        m_world->cluster().clearRequestErrors(OffsetCommitApi);
        QVERIFY2(refused.exitCode == 3, refused.out.constData());
        QCOMPARE(committed(group), (QList<qint64>{PerPartition, PerPartition, PerPartition}));
        QCOMPARE(eventsOf(id).count(u"offsets.reset_intent"_s), 1);

        // The consumers ran on (here: back to 4) before they were stopped.
        QVERIFY2(OffsetCommitter::commit(m_world->kafka(), group,
                                         {{{Orders, 0}, 4}, {{Orders, 1}, 4}, {{Orders, 2}, 4}}, &error),
                 qPrintable(error));
        const BerthCli::Result done = BerthCli::run(
            QStringList{u"replay"_s, u"execute"_s, QString::number(id)} + connection(u"alice"_s));
        QVERIFY2(done.exitCode == 0, done.out.constData());
        QVERIFY(done.json().value(u"verified"_s).toBool());
        QCOMPARE(committed(group), (QList<qint64>{0, 0, 0}));
        QCOMPARE(m_world->statusOf(id), u"completed"_s);
    }

    // Bad input is said on the command line and files nothing: an unreadable position (usage, 2), an offset
    // the partition does not hold (1); a reset to where the group already is files nothing (0). The database
    // refuses reset items on another action and the reset's journal outside an executing reset.
    void badInputFilesNothing()
    {
        const qint64 before = m_world->scalar(u"SELECT count(*) FROM berth.requests"_s).toLongLong();
        const QStringList base{u"replay"_s, u"request"_s, u"--reset-offsets"_s, u"--group"_s, Group,
                               u"--topic"_s, Orders, u"--reason"_s, u"test"_s};
        const BerthCli::Result unreadable =
            BerthCli::run(base + QStringList{u"--to"_s, u"yesterday"_s} + connection(u"alice"_s));
        QCOMPARE(unreadable.exitCode, 2);
        QVERIFY(unreadable.err.contains(u"cannot read --to"_s));
        const BerthCli::Result outside =
            BerthCli::run(base + QStringList{u"--to"_s, u"1=999"_s} + connection(u"alice"_s));
        QCOMPARE(outside.exitCode, 1);
        QVERIFY2(outside.err.contains(u"outside partition 1"_s), qPrintable(outside.err));
        QString error;
        QVERIFY2(OffsetCommitter::commit(m_world->kafka(), u"orders-idle"_s, {{{Orders, 0}, 2}}, &error),
                 qPrintable(error));
        const BerthCli::Result same = BerthCli::run(
            QStringList{u"replay"_s, u"request"_s, u"--reset-offsets"_s, u"--group"_s, u"orders-idle"_s,
                        u"--topic"_s, Orders, u"--reason"_s, u"test"_s, u"--to"_s, u"0=2"_s}
            + connection(u"alice"_s));
        QCOMPARE(same.exitCode, 0);
        QCOMPARE(same.json().value(u"requestId"_s).toInteger(), 0);
        QCOMPARE(m_world->scalar(u"SELECT count(*) FROM berth.requests"_s).toLongLong(), before);

        // A replay request cannot carry a reset item, nor log the reset's journal.
        QVERIFY(m_world->alice().exec(u"INSERT INTO berth.requests (action, reason) VALUES ('replay', 'x')"_s).ok);
        const qint64 replay = m_world->scalar(u"SELECT max(id) FROM berth.requests"_s).toLongLong();
        const PgResult item = m_world->alice().exec(
            u"INSERT INTO berth.request_items (request_id, item_no, offset_reset) VALUES ($1, 1, "
            u"'{\"group\":\"g\",\"topic\":\"t\",\"partition\":0,\"from\":1,\"to\":0}')"_s,
            {replay});
        QVERIFY(!item.ok);
        const PgResult event = m_world->alice().exec(
            u"INSERT INTO berth.audit_events (action, request_id, details) VALUES ('offsets.reset', $1, '{}')"_s,
            {replay});
        QVERIFY(!event.ok);
        QVERIFY2(event.error.contains(u"reset_offsets"_s), qPrintable(event.error));
    }

    void cleanupTestCase() { m_world.reset(); }
};

QTEST_GUILESS_MAIN(TestOffsetReset)
#include "tst_offsetreset.moc"
