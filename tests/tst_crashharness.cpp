// Crash harness: `berth replay execute` killed with SIGKILL at random moments of 10,000-item replays and
// resumed until done, then every replay id counted in the destination with kcat: none lost, none twice.
// BERTH_CRASH_ROUNDS sets the number of replays (default 3 for CI; the closing figures use 50).
// Also PostgreSQL restarted in the middle of an approval and of an execution: no partial state, and the
// audit chain still verifies. And release and replay killed likewise: each release and each produce once.
// And an offset reset killed at each of its steps: each commit once or recognised as done.
#include "services/audit/auditchain.h"
#include "services/audit/auditstore.h"
#include "services/inbox/pgsession.h"
#include "services/kafka/clusterinspector.h"
#include "services/kafka/offsetcommitter.h"
#include "services/policy/policyloader.h"
#include "support/berthcli.h"
#include "support/replayworld.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

using namespace Qt::StringLiterals;

namespace {
constexpr int Items = 10'000;

int rounds()
{
    bool ok = false;
    const int n = qEnvironmentVariableIntValue("BERTH_CRASH_ROUNDS", &ok);
    return ok && n > 0 ? n : 3;
}
} // namespace

class TestCrashHarness final : public QObject {
    Q_OBJECT
    std::unique_ptr<ReplayWorld> m_world;

    QStringList executeArgs(qint64 requestId) const
    {
        return {u"replay"_s, u"execute"_s, u"--db"_s, m_world->conninfo(u"alice"_s), u"--request"_s,
                QString::number(requestId), u"--quiet"_s, u"--bootstrap"_s, m_world->bootstrap()};
    }

    // An approved replay of the whole DLQ into a topic of its own.
    qint64 approvedReplayInto(const QString &topic, double rate, QString *error)
    {
        if (!m_world->cluster().createTopic(topic, 3)) {
            *error = u"cannot create "_s + topic;
            return 0;
        }
        RequestDraft draft;
        draft.action = RemediationAction::Replay;
        draft.selection = m_world->dlqRange(0, Items);
        draft.destinationTopic = topic;
        draft.rateLimit = rate;
        draft.reasonCode = u"poison-fixed"_s;
        draft.reason = u"crash harness"_s;
        const qint64 id = m_world->request(draft, error);
        return id != 0 && m_world->approve(id, error) ? id : 0;
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_world = std::make_unique<ReplayWorld>();
        QString error;
        QVERIFY2(m_world->start(u"crash_harness"_s, &error), qPrintable(error));
        QVERIFY2(m_world->seedDlq(0, Items, 500, &error, 200), qPrintable(error));
    }

    void randomKillsLoseAndDuplicateNothing()
    {
        auto *random = QRandomGenerator::global();
        int kills = 0, finishedBeforeKill = 0;
        QElapsedTimer total;
        total.start();
        for (int round = 1; round <= rounds(); ++round) {
            QString error;
            const QString topic = u"crash-round-"_s + QString::number(round);
            const qint64 id = approvedReplayInto(topic, 0, &error);
            QVERIFY2(id > 0, qPrintable(error));
            // One to three kills at random moments of the run (the first ones may land while the process
            // starts, connects or journals), then as many plain resumes as it takes.
            const int killsThisRound = 1 + int(random->bounded(3));
            for (int k = 0; k < killsThisRound; ++k) {
                QProcess child;
                child.start(BerthCli::executable(), executeArgs(id));
                QVERIFY(child.waitForStarted());
                QTest::qWait(int(random->bounded(50, 2500)));
                if (child.state() != QProcess::Running) {
                    ++finishedBeforeKill;
                    child.waitForFinished();
                    break;
                }
                ::kill(pid_t(child.processId()), SIGKILL);
                QVERIFY(child.waitForFinished());
                ++kills;
            }
            // Resumed until the request says completed (a run that beat its kill may have finished it).
            QString status;
            for (int attempt = 0; attempt < 5 && status != u"completed"; ++attempt) {
                const BerthCli::Result s = BerthCli::run({u"replay"_s, u"status"_s, u"--db"_s, m_world->conninfo(u"bob"_s),
                                                          u"--request"_s, QString::number(id), u"--json"_s});
                QVERIFY2(s.exitCode == 0, qPrintable(s.err));
                status = s.json().value(u"status"_s).toString();
                if (status != u"completed") {
                    const BerthCli::Result r = BerthCli::run(executeArgs(id) + QStringList{u"--json"_s});
                    QVERIFY2(r.exitCode == 0, qPrintable(r.err + QString::fromUtf8(r.out)));
                }
            }
            QCOMPARE(status, u"completed"_s);
            const QList<QJsonObject> records = m_world->kcatRead(topic, &error);
            QVERIFY2(error.isEmpty(), qPrintable(error));
            QVERIFY2(BerthCli::exactlyOnce(records, id, Items, &error), qPrintable(u"round %1: "_s.arg(round) + error));
            QCOMPARE(records.size(), Items);
        }
        qInfo("FIGURE crash_rounds %d runs", rounds());
        qInfo("FIGURE crash_kills %d SIGKILLs (%d runs finished before their kill)", kills, finishedBeforeKill);
        qInfo("FIGURE crash_lost_or_duplicated 0 replay ids (%lld s)", total.elapsed() / 1000);
    }

    // A delivery is recorded as its replayed disposition after the batch's reports come in, while the next
    // batch goes out: killed right after a settle, the process leaves a batch produced but not recorded.
    // The resume finds those records by their replay ids (reconciled), produces none of them again, and the
    // journal then says where each went.
    void killBetweenProduceAndSettleReconcilesByReplayId()
    {
        QString error;
        const QString topic = u"crash-settle"_s;
        // Paced, so batches (half a second's worth each) go out one after another while the test watches.
        const qint64 id = approvedReplayInto(topic, 4000, &error);
        QVERIFY2(id > 0, qPrintable(error));
        // The server's sessions before the child: after the kill, the child's are the others.
        const QString before = m_world->scalar(u"SELECT string_agg(pid::text, ',') FROM pg_stat_activity "
                                               u"WHERE backend_type = 'client backend'"_s)
                                   .toString();
        QProcess child;
        child.start(BerthCli::executable(), executeArgs(id));
        QVERIFY(child.waitForStarted());
        const QString delivered =
            u"SELECT count(*) FROM berth.intent_states WHERE request_id = $1 AND state = 'delivered'"_s;
        QTRY_VERIFY_WITH_TIMEOUT(m_world->scalar(delivered, {id}).toInt() > 0, 30'000);
        ::kill(pid_t(child.processId()), SIGKILL);
        QVERIFY(child.waitForFinished());
        // A COMMIT the child sent before it died still completes on the server: count the deliveries once
        // its sessions are gone, or a late settle would count as reconciled work that never was.
        QTRY_COMPARE_WITH_TIMEOUT(m_world
                                      ->scalar(u"SELECT count(*) FROM pg_stat_activity WHERE backend_type = "
                                               u"'client backend' AND pid::text <> ALL (string_to_array($1, ','))"_s,
                                               {before})
                                      .toInt(),
                                  0, 15'000);
        const int recorded = m_world->scalar(delivered, {id}).toInt();
        QList<QJsonObject> records = m_world->kcatRead(topic, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY2(records.size() > recorded, qPrintable(u"%1 records, %2 recorded"_s.arg(records.size()).arg(recorded)));
        QVERIFY(records.size() < Items);

        const BerthCli::Result r = BerthCli::run(executeArgs(id) + QStringList{u"--json"_s});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + QString::fromUtf8(r.out)));
        QCOMPARE(m_world->statusOf(id), u"completed"_s);
        QVERIFY2(r.json().value(u"reconciled"_s).toInt() >= records.size() - recorded, r.out.constData());
        records = m_world->kcatRead(topic, &error);
        QVERIFY2(BerthCli::exactlyOnce(records, id, Items, &error), qPrintable(error));
        QCOMPARE(m_world->scalar(delivered, {id}).toInt(), Items);
        QCOMPARE(m_world->scalar(u"SELECT count(*) FROM berth.dispositions WHERE request_id = $1 AND "
                                 u"disposition = 'replayed' AND dest_offset IS NOT NULL"_s,
                                 {id})
                     .toInt(),
                 Items);
    }

    // Release and replay of 10,000 items, 2,000 of whose inbox rows are parked, SIGKILLed at random moments
    // and resumed: every replay id once in the destination, every parked row released exactly once (a
    // trigger logs each status change), and the audit chain verifies.
    void randomKillsDuringReleaseAndReplayReleaseEachRowOnce()
    {
        constexpr int Parked = 2000;
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QByteArray policyYaml =
            "deliverySemantics:\n  consumers:\n    orders-projector:\n      dlq: {topic: orders-dlt}\n"
            "      inbox:\n        table: processed_message\n"
            "        columns: {messageId: message_id, status: status, updated: updated_at, consumer: consumer_name}\n"
            "        statuses: {IN_PROGRESS: inProgress, COMPLETED: completed, FAILED_RETRYABLE: failedRetryable, PARKED: parked}\n"
            "        releaseTo: FAILED_RETRYABLE\n";
        const QString policyPath = dir.filePath(u"policy.yaml"_s);
        QFile policyFile(policyPath);
        QVERIFY(policyFile.open(QIODevice::WriteOnly));
        policyFile.write(policyYaml);
        policyFile.close();
        const PolicyLoadResult policy = loadPolicy(policyYaml, u"policy.yaml"_s);
        QVERIFY2(policy.ok() && policy.policy.inboxMappings().size() == 1, qPrintable(policy.messages().join(u"\n"_s)));
        QString error;
        QVERIFY2(m_world->admin().execScript(
                     u"CREATE TABLE processed_message (consumer_name text NOT NULL, message_id text NOT NULL, "
                     u"status text NOT NULL, updated_at timestamptz NOT NULL DEFAULT now(), "
                     u"PRIMARY KEY (consumer_name, message_id));"
                     u"CREATE TABLE release_log (message_id text NOT NULL, status text NOT NULL);"
                     u"CREATE FUNCTION log_release() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER AS $$ BEGIN "
                     u"INSERT INTO release_log VALUES (NEW.message_id, NEW.status); RETURN NULL; END $$;"
                     u"CREATE TRIGGER log_release AFTER UPDATE ON processed_message FOR EACH ROW "
                     u"WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION log_release();"
                     u"GRANT SELECT, UPDATE ON processed_message TO alice;"
                     u"INSERT INTO processed_message (consumer_name, message_id, status) "
                     u"SELECT 'orders-projector', 'idem-' || i, 'PARKED' FROM generate_series(0, 1999) AS i;"_s,
                     &error),
                 qPrintable(error));
        const QString topic = u"crash-release"_s;
        QVERIFY(m_world->cluster().createTopic(topic, 3));
        RequestDraft draft;
        draft.selection = m_world->dlqRange(0, Items);
        draft.destinationTopic = topic;
        draft.release = true;
        draft.reasonCode = u"poison-fixed"_s;
        draft.reason = u"crash harness: release and replay"_s;
        RequestBuilderContext context;
        context.cluster = m_world->kafka();
        context.inboxDb = &m_world->admin();
        context.policy = policy.policy;
        context.inboxMappings = InboxMappingSet::resolve(policy.policy.inboxMappings(), {}, {});
        const BuiltRequest built = RequestBuilder::build(draft, context);
        QVERIFY2(built.ok(), qPrintable(built.error));
        QVERIFY2(built.dryRun.releases == Parked, qPrintable(built.dryRun.summary()));
        AuditStore store(m_world->alice());
        const qint64 id = RequestBuilder::submit(store, built, &error);
        QVERIFY2(id > 0 && m_world->approve(id, &error), qPrintable(error));

        const QStringList execute = executeArgs(id) + QStringList{u"--policy"_s, policyPath};
        auto *random = QRandomGenerator::global();
        for (int k = 0; k < 2; ++k) {
            QProcess child;
            child.start(BerthCli::executable(), execute);
            QVERIFY(child.waitForStarted());
            QTest::qWait(int(random->bounded(50, 2500)));
            if (child.state() != QProcess::Running) {
                child.waitForFinished();
                break;
            }
            ::kill(pid_t(child.processId()), SIGKILL);
            QVERIFY(child.waitForFinished());
        }
        // Resumed until completed (a run that beat its kill may have finished it).
        for (int attempt = 0; attempt < 5 && m_world->statusOf(id) != u"completed"; ++attempt) {
            const BerthCli::Result r = BerthCli::run(execute + QStringList{u"--json"_s});
            QVERIFY2(r.exitCode == 0, qPrintable(r.err + QString::fromUtf8(r.out)));
        }
        QCOMPARE(m_world->statusOf(id), u"completed"_s);
        const QList<QJsonObject> records = m_world->kcatRead(topic, &error);
        QVERIFY2(BerthCli::exactlyOnce(records, id, Items, &error), qPrintable(error));
        QCOMPARE(m_world->scalar(u"SELECT count(*) FROM release_log"_s).toInt(), Parked);
        QCOMPARE(m_world->scalar(u"SELECT count(DISTINCT message_id) FROM release_log"_s).toInt(), Parked);
        QCOMPARE(m_world->scalar(u"SELECT count(*) FROM processed_message WHERE status = 'FAILED_RETRYABLE'"_s)
                     .toInt(),
                 Parked);
        const BerthCli::Result verify = BerthCli::run({u"audit"_s, u"verify"_s, u"--db"_s, m_world->conninfo(u"bob"_s), u"--json"_s});
        QVERIFY2(verify.exitCode == 0 && verify.json().value(u"ok"_s).toBool(), qPrintable(verify.err + QString::fromUtf8(verify.out)));
    }

    // An approved offset reset SIGKILLed at each of its steps, then executed again: after its intent is
    // journaled (before the commit), after its commit (before offsets.reset) and before its verification
    // event. The group ends at its targets, the commit happens once or is recognised as done (no second
    // intent, every partition "recognised"), the request ends completed and verified, the chain verifies.
    // A step is held by a gate: a trigger makes the chosen audit event's insert wait for an advisory lock
    // the test holds, so the child is killed exactly there (its waiting statement then ended by the test, as
    // the server would once it noticed the dead client). To kill after the intent, the brokers go down while
    // the gate lets the intent through, so the commit cannot reach them.
    void offsetResetKilledAtEachStepResumesOnce()
    {
        const QString topic = QString::fromLatin1(ReplayWorld::DlqTopic);
        constexpr qint64 From = 5000;
        constexpr qint64 Target = 4900;
        constexpr qint64 GateKey = 2727;
        QString error;
        QVERIFY2(
            m_world->admin().execScript(
                u"CREATE TABLE crash_gate (action text PRIMARY KEY);"
                u"CREATE FUNCTION crash_gate_wait() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER AS $$ "
                u"BEGIN IF EXISTS (SELECT 1 FROM public.crash_gate WHERE action = NEW.action) THEN "
                u"PERFORM pg_advisory_xact_lock(2727); END IF; RETURN NEW; END $$;"
                u"CREATE TRIGGER a_crash_gate BEFORE INSERT ON berth.audit_events FOR EACH ROW "
                u"EXECUTE FUNCTION crash_gate_wait();"_s,
                &error),
            qPrintable(error));
        const auto eventsOf = [this](qint64 id, const QString &action) {
            return m_world
                ->scalar(u"SELECT count(*) FROM berth.audit_events WHERE request_id = $1 AND action = $2"_s,
                         {id, action})
                .toInt();
        };
        const auto waitingAtGate = [this] {
            return m_world
                       ->scalar(
                           u"SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"_s)
                       .toInt()
                   > 0;
        };
        const auto committed = [this, &topic](const QString &group) {
            KafkaProperties props = m_world->kafka();
            props.append({u"group.id"_s, group});
            QString why;
            KafkaHandle rk = KafkaConfig::createClient(RD_KAFKA_CONSUMER, props, &why);
            PartitionList list(rd_kafka_topic_partition_list_new(1));
            rd_kafka_topic_partition_list_add(list.get(), topic.toUtf8().constData(), 0);
            if (!rk || rd_kafka_committed(rk.get(), list.get(), 10'000))
                return qint64(-2);
            return qint64(list->elems[0].offset);
        };
        const auto setBrokers = [this](bool up) {
            for (int b = 1; b <= m_world->cluster().brokerCount(); ++b)
                up ? m_world->cluster().setBrokerUp(b) : m_world->cluster().setBrokerDown(b);
        };

        // Each step, and once more killed after the commit with the group's consumers then running on past
        // the target before the resume: that partition has moved since the reset and is not committed again.
        struct Case {
            QString step;
            bool consumersMoveOn;
        };
        const QList<Case> cases{{u"offsets.reset_intent"_s, false},
                                {u"offsets.reset"_s, false},
                                {u"offsets.verified"_s, false},
                                {u"offsets.reset"_s, true}};
        constexpr qint64 MovedOn = Target + 40;
        for (const auto &[step, consumersMoveOn] : cases) {
            const QString group = u"crash-reset-"_s + QString(step).remove(u"offsets."_s)
                                  + (consumersMoveOn ? u"-moved"_s : QString());
            QVERIFY2(OffsetCommitter::commit(m_world->kafka(), group, {{{topic, 0}, From}}, &error),
                     qPrintable(error));
            const BerthCli::Result filed = BerthCli::run(
                {u"replay"_s, u"request"_s, u"--reset-offsets"_s, u"--group"_s, group, u"--topic"_s, topic,
                 u"--to"_s, u"shift:-100"_s, u"--reason"_s, u"crash harness: offset reset"_s, u"--db"_s,
                 m_world->conninfo(u"alice"_s), u"--bootstrap"_s, m_world->bootstrap(), u"--json"_s});
            QVERIFY2(filed.exitCode == 0, qPrintable(filed.err + QString::fromUtf8(filed.out)));
            const qint64 id = filed.json().value(u"requestId"_s).toInteger();
            QVERIFY2(id > 0 && m_world->approve(id, &error), qPrintable(error));

            QVERIFY(m_world->admin().exec(u"INSERT INTO crash_gate VALUES ($1)"_s, {step}).ok);
            QVERIFY(m_world->admin().exec(u"SELECT pg_advisory_lock($1)"_s, {GateKey}).ok);
            QProcess child;
            child.start(BerthCli::executable(), executeArgs(id));
            QVERIFY(child.waitForStarted());
            QTRY_VERIFY2_WITH_TIMEOUT(waitingAtGate(), qPrintable(step), 30000);
            if (step == u"offsets.reset_intent"_s) {
                setBrokers(false);
                QVERIFY(m_world->admin().exec(u"SELECT pg_advisory_unlock($1)"_s, {GateKey}).ok);
                QTRY_COMPARE_WITH_TIMEOUT(eventsOf(id, step), 1, 15000);
            }
            QCOMPARE(child.state(), QProcess::Running);
            ::kill(pid_t(child.processId()), SIGKILL);
            QVERIFY(child.waitForFinished());
            // The killed client's statement ends without committing, as the server ends it once it notices.
            QVERIFY(m_world->admin()
                        .exec(u"SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' "
                              u"AND NOT granted"_s)
                        .ok);
            QVERIFY(m_world->admin().exec(u"SELECT pg_advisory_unlock_all()"_s).ok);
            QVERIFY(m_world->admin().exec(u"DELETE FROM crash_gate"_s).ok);
            setBrokers(true);

            // Where each kill left it: before the commit nothing moved; after it the group is at its target.
            const bool killedBeforeCommit = step == u"offsets.reset_intent"_s;
            QCOMPARE(committed(group), killedBeforeCommit ? From : Target);
            QCOMPARE(eventsOf(id, u"offsets.reset_intent"_s), 1);
            QCOMPARE(eventsOf(id, u"offsets.reset"_s), step == u"offsets.verified"_s ? 1 : 0);
            QCOMPARE(eventsOf(id, u"offsets.verified"_s), 0);
            QCOMPARE(m_world->statusOf(id), u"executing"_s);

            if (consumersMoveOn) {
                // The consumers process from the target on and commit as they go, before anyone resumes.
                QVERIFY2(OffsetCommitter::commit(m_world->kafka(), group, {{{topic, 0}, MovedOn}}, &error),
                         qPrintable(error));
                const BerthCli::Result resumed = BerthCli::run(executeArgs(id) + QStringList{u"--json"_s});
                QCOMPARE(resumed.exitCode, 4); // executed, read back elsewhere than the target
                QVERIFY(!resumed.json().value(u"verified"_s).toBool());
                // No second commit: the group stays where its consumers left it, no new intent.
                QCOMPARE(committed(group), MovedOn);
                QCOMPARE(eventsOf(id, u"offsets.reset_intent"_s), 1);
                QCOMPARE(m_world->statusOf(id), u"partially_failed"_s);
                QCOMPARE(eventsOf(id, u"offsets.verified"_s), 1);
                const BerthCli::Result verified = BerthCli::run(
                    {u"replay"_s, u"verify"_s, QString::number(id), u"--db"_s, m_world->conninfo(u"bob"_s),
                     u"--bootstrap"_s, m_world->bootstrap(), u"--json"_s});
                QCOMPARE(verified.exitCode, 1);
                QCOMPARE(verified.json().value(u"result"_s).toString(), u"verified_with_failures"_s);
                const QJsonObject p = verified.json().value(u"partitions"_s).toArray().at(0).toObject();
                QVERIFY(p.value(u"movedSince"_s).toBool());
                QVERIFY(!p.value(u"recognised"_s).toBool());
                QCOMPARE(p.value(u"committed"_s).toInteger(), MovedOn);
                QCOMPARE(p.value(u"to"_s).toInteger(), Target);
                continue;
            }
            const BerthCli::Result resumed = BerthCli::run(executeArgs(id) + QStringList{u"--json"_s});
            QVERIFY2(resumed.exitCode == 0,
                     qPrintable(step + u": "_s + resumed.err + QString::fromUtf8(resumed.out)));
            QCOMPARE(resumed.json().value(u"status"_s).toString(), u"completed"_s);
            QVERIFY(resumed.json().value(u"verified"_s).toBool());
            QCOMPARE(committed(group), Target);
            QCOMPARE(m_world->statusOf(id), u"completed"_s);
            // Committed once: a commit the killed run made is recognised, not journaled and made again.
            QCOMPARE(eventsOf(id, u"offsets.reset_intent"_s), killedBeforeCommit ? 2 : 1);
            const QJsonObject reset =
                QJsonDocument::fromJson(
                    m_world
                        ->scalar(u"SELECT details::text FROM berth.audit_events WHERE "
                                 u"request_id = $1 AND action = 'offsets.reset' ORDER BY seq "
                                 u"DESC LIMIT 1"_s,
                                 {id})
                        .toString()
                        .toUtf8())
                    .object();
            const QJsonArray partitions = reset.value(u"partitions"_s).toArray();
            QCOMPARE(partitions.size(), 1);
            QCOMPARE(partitions.at(0).toObject().value(u"recognised"_s).toBool(), !killedBeforeCommit);
            QCOMPARE(eventsOf(id, u"offsets.verified"_s), 1);
            const BerthCli::Result verified = BerthCli::run(
                {u"replay"_s, u"verify"_s, QString::number(id), u"--db"_s, m_world->conninfo(u"bob"_s),
                 u"--bootstrap"_s, m_world->bootstrap(), u"--json"_s});
            QVERIFY2(verified.exitCode == 0, qPrintable(verified.err + QString::fromUtf8(verified.out)));
        }
        QVERIFY(m_world->admin().exec(u"DROP TRIGGER a_crash_gate ON berth.audit_events"_s).ok);
        const BerthCli::Result chain =
            BerthCli::run({u"audit"_s, u"verify"_s, u"--db"_s, m_world->conninfo(u"bob"_s), u"--json"_s});
        QVERIFY2(chain.exitCode == 0 && chain.json().value(u"ok"_s).toBool(),
                 qPrintable(chain.err + QString::fromUtf8(chain.out)));
    }

    void postgresRestartMidApprovalLeavesNoPartialState()
    {
        QString error;
        const qint64 id = approvedReplayInto(u"restart-approval"_s, 0, &error); // approved: a known-good baseline
        QVERIFY2(id > 0, qPrintable(error));
        RequestDraft draft;
        draft.selection = m_world->dlqRange(0, 100);
        draft.reasonCode = u"poison-fixed"_s;
        draft.reason = u"approval interrupted"_s;
        const qint64 pending = m_world->request(draft, &error);
        QVERIFY2(pending > 0, qPrintable(error));

        // bob's approval and a server restart race; whichever wins, the request is whole.
        QProcess approve;
        approve.start(BerthCli::executable(), {u"replay"_s, u"approve"_s, u"--db"_s, m_world->conninfo(u"bob"_s),
                                               u"--request"_s, QString::number(pending), u"--json"_s});
        QVERIFY2(m_world->postgres().restart(&error), qPrintable(error));
        QVERIFY(approve.waitForFinished(60000));

        PgSession admin;
        QVERIFY2(admin.connect(m_world->conninfo(u"postgres"_s), &error), qPrintable(error));
        const PgResult state = admin.exec(
            u"SELECT r.status, (SELECT count(*) FROM berth.approvals a WHERE a.request_id = r.id) AS approvals "
            "FROM berth.requests r WHERE r.id = $1"_s,
            {pending});
        QVERIFY2(state.ok, qPrintable(state.error));
        const QString status = state.value(0, u"status").toString();
        const qint64 approvals = state.value(0, u"approvals").toLongLong();
        QVERIFY2((status == u"pending" && approvals == 0) || (status == u"approved" && approvals == 1),
                 qPrintable(u"%1 with %2 approval(s)"_s.arg(status).arg(approvals)));
        if (status == u"pending") { // the approval was cut off: it can simply be given again
            const BerthCli::Result again = BerthCli::run({u"replay"_s, u"approve"_s, u"--db"_s, m_world->conninfo(u"bob"_s),
                                                          u"--request"_s, QString::number(pending)});
            QVERIFY2(again.exitCode == 0, qPrintable(again.err));
        }
        const BerthCli::Result verify = BerthCli::run({u"audit"_s, u"verify"_s, u"--db"_s, m_world->conninfo(u"bob"_s), u"--json"_s});
        QVERIFY2(verify.exitCode == 0 && verify.json().value(u"ok"_s).toBool(), qPrintable(verify.err + QString::fromUtf8(verify.out)));
    }

    void postgresRestartMidExecutionResumesExactlyOnce()
    {
        QString error;
        // Rate-limited so the restart lands while records are being produced.
        const qint64 id = approvedReplayInto(u"restart-execution"_s, 2500, &error);
        QVERIFY2(id > 0, qPrintable(error));
        QProcess child;
        child.start(BerthCli::executable(), executeArgs(id));
        QVERIFY(child.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(m_world->endOffsetSum(u"restart-execution"_s, &error) > Items / 5, 30000);
        QVERIFY2(m_world->postgres().restart(&error), qPrintable(error));
        QVERIFY(child.waitForFinished(120000));
        // The interrupted run either stopped with the database's words or carried on; either way a resume
        // (needed or not) completes the request, and every replay id is there exactly once.
        const BerthCli::Result r = BerthCli::run(executeArgs(id) + QStringList{u"--json"_s});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + QString::fromUtf8(r.out)));
        QCOMPARE(r.json().value(u"status"_s).toString(), u"completed"_s);
        const QList<QJsonObject> records = m_world->kcatRead(u"restart-execution"_s, &error);
        QVERIFY2(BerthCli::exactlyOnce(records, id, Items, &error), qPrintable(error));
        const BerthCli::Result verify = BerthCli::run({u"audit"_s, u"verify"_s, u"--db"_s, m_world->conninfo(u"bob"_s), u"--json"_s});
        QVERIFY2(verify.exitCode == 0 && verify.json().value(u"ok"_s).toBool(), qPrintable(verify.err + QString::fromUtf8(verify.out)));
    }
};

QTEST_GUILESS_MAIN(TestCrashHarness)
#include "tst_crashharness.moc"
