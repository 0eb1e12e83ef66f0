// Crash harness: `berth replay execute` killed with SIGKILL at random moments of 10,000-item replays and
// resumed until done, then every replay id counted in the destination with kcat: none lost, none twice.
// BERTH_CRASH_ROUNDS sets the number of replays (default 3 for CI; the closing figures use 50).
// Also PostgreSQL restarted in the middle of an approval and of an execution: no partial state, and the
// audit chain still verifies. And release and replay killed likewise: each release and each produce once.
#include "services/audit/auditchain.h"
#include "services/audit/auditstore.h"
#include "services/inbox/pgsession.h"
#include "services/policy/policyloader.h"
#include "support/berthcli.h"
#include "support/replayworld.h"

#include <QElapsedTimer>
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
        QProcess child;
        child.start(BerthCli::executable(), executeArgs(id));
        QVERIFY(child.waitForStarted());
        const QString delivered =
            u"SELECT count(*) FROM berth.intent_states WHERE request_id = $1 AND state = 'delivered'"_s;
        QTRY_VERIFY_WITH_TIMEOUT(m_world->scalar(delivered, {id}).toInt() > 0, 30'000);
        ::kill(pid_t(child.processId()), SIGKILL);
        QVERIFY(child.waitForFinished());
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
