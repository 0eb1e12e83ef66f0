// Requests a planner finds, from the console: "Reset offsets…" (Lag view) and "Reclaim stuck rows…" (Inbox
// view) open a dialog whose preview is the command line's dry run; filed, approved by another person and
// executed through the Execution panel behind the one confirmation. Against the mock cluster, a throwaway
// PostgreSQL and the demo's inbox schema and policy; nothing is mocked.

#include "app/console.h"
#include "app/remediationdesk.h"
#include "models/approvalqueuemodel.h"
#include "models/inboxboardmodel.h"
#include "services/audit/auditwatcher.h"
#include "services/kafka/clusterinspector.h"
#include "services/kafka/kafkaproducer.h"
#include "services/kafka/offsetcommitter.h"
#include "services/policy/policyloader.h"
#include "services/remediation/offsetresetexecutor.h"
#include "services/remediation/offsetresetplanner.h"
#include "services/remediation/replayjob.h"
#include "support/replayworld.h"
#include "views/actionconfirmation.h"
#include "views/inboxboardview.h"
#include "views/lagview.h"
#include "views/mainwindow.h"
#include "views/plannedrequestdialog.h"
#include "views/replayexecutionpanel.h"

#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {
const QString Orders = QString::fromLatin1(ReplayWorld::OriginalTopic);
const QString Projection = u"order-projection"_s;
} // namespace

class TestPlannedRequestUi final : public QObject {
    Q_OBJECT
    std::unique_ptr<ReplayWorld> m_world;
    QTemporaryDir m_dir;
    QString m_policyPath;
    InboxMappingSet m_mappings;

    RemediationSetup setup(const QString &who) const
    {
        RemediationSetup s;
        s.cluster = m_world->kafka();
        s.auditConninfo = m_world->conninfo(who);
        s.inboxConninfo = m_world->postgres().conninfo(u"postgres"_s, u"planned"_s);
        s.policyPath = m_policyPath;
        s.inboxMappings = m_mappings;
        return s;
    }

    // Commits `offset` on each of the three partitions of the orders topic for the group.
    bool commitEach(const QString &group, qint64 offset, QString *error) const
    {
        return OffsetCommitter::commit(m_world->kafka(), group,
                                       {{{Orders, 0}, offset}, {{Orders, 1}, offset}, {{Orders, 2}, offset}},
                                       error);
    }

    // The remediation desk of one person, logged in as themselves.
    std::unique_ptr<RemediationDesk> deskOf(const QString &who) const
    {
        ConnectionProfile profile;
        profile.name = u"test"_s;
        profile.cluster = m_world->kafka();
        profile.databaseConninfo = m_world->conninfo(who);
        return std::make_unique<RemediationDesk>(profile);
    }

    QList<qint64> committed(const QString &group)
    {
        KafkaProperties props = m_world->kafka();
        props.append({u"group.id"_s, group});
        QString error;
        KafkaHandle rk = KafkaConfig::createClient(RD_KAFKA_CONSUMER, props, &error);
        PartitionList list(rd_kafka_topic_partition_list_new(3));
        for (int p = 0; p < 3; ++p)
            rd_kafka_topic_partition_list_add(list.get(), Orders.toUtf8().constData(), p);
        QList<qint64> out;
        if (!rk || rd_kafka_committed(rk.get(), list.get(), 10'000))
            return out;
        for (int i = 0; i < list->cnt; ++i)
            out << list->elems[i].offset;
        return out;
    }

    static bool selectListed(ReplayExecutionPanel *panel, qint64 id)
    {
        const bool listed = QTest::qWaitFor(
            [&] {
                for (int row = 0; row < panel->table()->rowCount(); ++row) {
                    if (panel->table()->item(row, 0)->text() == QString::number(id))
                        return true;
                }
                return false;
            },
            15000);
        panel->selectRequest(id);
        return listed && panel->currentRequestId() == id;
    }

private Q_SLOTS:
    void initTestCase()
    {
        Q_INIT_RESOURCE(services);
        QVERIFY(m_dir.isValid());
        m_world = std::make_unique<ReplayWorld>();
        QString error;
        QVERIFY2(m_world->start(u"planned"_s, &error, 1, 3), qPrintable(error));
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
        m_mappings = InboxMappingSet::resolve(loadPolicy(yaml, u"policy.yaml"_s).policy.inboxMappings(), {}, {});
        QVERIFY(m_mappings.find(Projection));

        // Four records a partition; k-stuck on partition 2 is the one a dead projection holds in progress.
        std::unique_ptr<KafkaProducer> producer = KafkaProducer::create(m_world->kafka(), &error);
        QVERIFY2(producer, qPrintable(error));
        for (int p = 0; p < 3; ++p) {
            for (int i = 0; i < 4; ++i) {
                const QByteArray key = p == 2 && i == 3 ? QByteArray("k-stuck") : QByteArray("k-" + QByteArray::number(p * 10 + i));
                OutgoingRecord r{Orders, p, key, false, "{}", {{"idempotency-key", key, false}}, 0};
                QVERIFY2(producer->produce(r, &error), qPrintable(error));
            }
        }
        QVERIFY2(producer->flush(10'000, &error), qPrintable(error));
    }

    // Reset offsets… : earliest, previewed (each partition 4 -> 0, 12 records processed again), filed,
    // approved by bob, executed from the Execution panel after a confirmation that names the group and its
    // partitions; the panel says it was committed, read back and verified, and the group starts over.
    void offsetResetFromTheDialogThroughThePanel()
    {
        const QString group = u"reset-ui"_s;
        QString error;
        QVERIFY2(commitEach(group, 4, &error), qPrintable(error));
        PlannedRequestDialog *dialog = PlannedRequestDialog::offsetReset(setup(u"alice"_s), group, {Orders});
        dialog->targetBox()->setCurrentIndex(PlannedRequestDialog::Earliest);
        QCOMPARE(dialog->targetText(), u"earliest"_s);
        QVERIFY(!dialog->submitButton()->isEnabled());
        QSignalSpy previews(dialog, &PlannedRequestDialog::previewFinished);
        dialog->startPreview();
        QTRY_COMPARE_WITH_TIMEOUT(previews.size(), 1, 30000);
        QVERIFY2(previews.at(0).at(0).toBool(), qPrintable(dialog->statusLabel()->text()));
        const QString preview = dialog->previewText()->toPlainText();
        QVERIFY2(preview.contains(u"partition 1: committed 4 -> 0"_s), qPrintable(preview));
        QVERIFY2(preview.contains(u"12 record(s) processed again"_s), qPrintable(preview));
        QVERIFY(!dialog->submitButton()->isEnabled()); // no reason yet
        dialog->reasonEdit()->setText(u"reprocess after the projection fix"_s);
        QVERIFY(dialog->submitButton()->isEnabled());
        // A changed input asks for a new preview before anything can be filed.
        dialog->targetBox()->setCurrentIndex(PlannedRequestDialog::Latest);
        QVERIFY(!dialog->submitButton()->isEnabled());
        dialog->targetBox()->setCurrentIndex(PlannedRequestDialog::Earliest);
        dialog->startPreview();
        QTRY_COMPARE_WITH_TIMEOUT(previews.size(), 2, 30000);
        QSignalSpy submitted(dialog, &PlannedRequestDialog::submitted);
        QTest::mouseClick(dialog->submitButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(submitted.size(), 1, 15000);
        const qint64 id = dialog->submittedId();
        QVERIFY(id > 0);
        // The approver reads the plan: each partition's move and what it means.
        const QString approverSees = ApprovalQueueModel::dryRunDetails(dialog->built().request.dryRun);
        QVERIFY2(approverSees.contains(u"Offset reset of group reset-ui on orders to earliest: 12 record(s) "
                                       u"processed again, 0 skipped"_s),
                 qPrintable(approverSees));
        QVERIFY2(approverSees.contains(u"partition 2: committed 4 -> 0"_s), qPrintable(approverSees));
        dialog->close();
        QVERIFY2(m_world->approve(id, &error), qPrintable(error));

        const std::unique_ptr<RemediationDesk> alice = deskOf(u"alice"_s);
        QTRY_COMPARE_WITH_TIMEOUT(alice->watcher()->state(), AuditWatcher::State::Connected, 15000);
        ReplayExecutionPanel *panel = alice->executionPanel();
        QVERIFY(selectListed(panel, id));
        QSignalSpy finished(alice->replayJob(), &ReplayJob::finished);
        QTest::mouseClick(panel->executeButton(), Qt::LeftButton);
        auto *asked = panel->findChild<ActionConfirmation *>();
        QVERIFY(asked);
        QVERIFY2(asked->text().contains(group), qPrintable(asked->text()));
        QVERIFY2(asked->text().contains(u"1: 4 \u2192 0"_s), qPrintable(asked->text()));
        QVERIFY2(asked->text().contains(u"12 record(s) will be processed again"_s), qPrintable(asked->text()));
        QTest::mouseClick(asked->confirmButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 30000);
        QVERIFY2(panel->resultLabel()->text().contains(u"verified"_s), qPrintable(panel->resultLabel()->text()));
        QVERIFY2(panel->outcomesText()->toPlainText().contains(u"partition 1: 4 \u2192 0, committed 0"_s),
                 qPrintable(panel->outcomesText()->toPlainText()));
        QVERIFY(panel->problemsText()->toPlainText().isEmpty());
        QCOMPARE(committed(group), (QList<qint64>{0, 0, 0}));
        QCOMPARE(m_world->statusOf(id), u"completed"_s);
    }

    // Reclaim stuck rows… : the Inbox view's button names the consumer shown; the dialog's preview is the
    // reclaim's dry run (the row, its record behind the committed offset), and the request it files is the
    // release-and-replay the command line files.
    void reclaimFromTheInboxView()
    {
        InboxBoardModel model;
        InboxBoardView view(&model);
        view.setMappings(m_mappings.mappings);
        QSignalSpy asked(&view, &InboxBoardView::reclaimRequested);
        auto *button = view.findChild<QPushButton *>(u"reclaimStuckRows"_s);
        QVERIFY(button);
        QTest::mouseClick(button, Qt::LeftButton);
        QCOMPARE(asked.size(), 1);
        const QString consumer = asked.at(0).at(0).toString();
        QVERIFY(!consumer.isEmpty());

        QVERIFY(m_world->admin()
                    .exec(u"INSERT INTO processed_message (consumer_name, message_id, status, updated_at) "
                          u"VALUES ($1, 'k-stuck', 'IN_PROGRESS', now() - interval '1 hour')"_s,
                          {Projection})
                    .ok);
        QString error;
        QVERIFY2(commitEach(Projection, 4, &error), qPrintable(error));
        PlannedRequestDialog *dialog = PlannedRequestDialog::reclaim(setup(u"alice"_s), Projection);
        dialog->olderThanBox()->setValue(30);
        QSignalSpy previews(dialog, &PlannedRequestDialog::previewFinished);
        dialog->startPreview();
        QTRY_COMPARE_WITH_TIMEOUT(previews.size(), 1, 30000);
        QVERIFY2(previews.at(0).at(0).toBool(), qPrintable(dialog->statusLabel()->text()));
        const QString preview = dialog->previewText()->toPlainText();
        QVERIFY2(preview.contains(u"will not see them again"_s), qPrintable(preview));
        dialog->reasonEdit()->setText(u"projection died mid-message"_s);
        QSignalSpy submitted(dialog, &PlannedRequestDialog::submitted);
        dialog->submit();
        QTRY_COMPARE_WITH_TIMEOUT(submitted.size(), 1, 15000);
        const qint64 id = dialog->submittedId();
        dialog->close();
        QCOMPARE(m_world->scalar(u"SELECT action FROM berth.requests WHERE id = $1"_s, {id}).toString(),
                 u"replay"_s);
        QVERIFY(m_world->scalar(u"SELECT dry_run->'reclaim'->>'consumer' FROM berth.requests WHERE id = $1"_s, {id})
                    .toString()
                == Projection);
        QCOMPARE(m_world->scalar(u"SELECT count(*) FROM berth.request_items WHERE request_id = $1 "
                                 u"AND inbox_ref->>'messageId' = 'k-stuck'"_s,
                                 {id})
                     .toInt(),
                 1);
    }

    // An offset reset executed elsewhere (the command line, another desk): selecting it in the Execution
    // panel shows the verification its offsets.verified event holds, each partition's move, the committed
    // offset read back and whether it is at its target, like a replay's recorded verification.
    void recordedOffsetResetVerificationInThePanel()
    {
        const QString group = u"reset-recorded"_s;
        QString error;
        QVERIFY2(commitEach(group, 4, &error), qPrintable(error));
        OffsetResetInput input;
        input.group = group;
        input.topic = Orders;
        const std::optional<OffsetResetTo> to = OffsetResetTo::parse(u"shift:-3"_s, &error);
        QVERIFY2(to, qPrintable(error));
        input.to = *to;
        RequestDraft draft;
        draft.reason = u"reprocess the last three"_s;
        const BuiltRequest built =
            RemediationTasks::planOffsetReset(input, draft, setup(u"alice"_s), JobControl());
        QVERIFY2(built.ok(), qPrintable(built.error));
        const RemediationTasks::Submitted filed =
            RemediationTasks::submit(m_world->conninfo(u"alice"_s), built);
        QVERIFY2(filed.requestId > 0, qPrintable(filed.error));
        QVERIFY2(m_world->approve(filed.requestId, &error), qPrintable(error));
        const OffsetResetOutcome done =
            OffsetResetExecutor::run(m_world->alice(), m_world->kafka(), filed.requestId);
        QVERIFY2(done.error.isEmpty() && done.verified, qPrintable(done.error));

        const std::unique_ptr<RemediationDesk> bob = deskOf(u"bob"_s);
        QTRY_COMPARE_WITH_TIMEOUT(bob->watcher()->state(), AuditWatcher::State::Connected, 15000);
        ReplayExecutionPanel *panel = bob->executionPanel();
        QVERIFY(selectListed(panel, filed.requestId));
        QTRY_VERIFY2_WITH_TIMEOUT(panel->verificationLabel()->text().contains(u"Recorded"_s),
                                  qPrintable(panel->verificationLabel()->text()), 15000);
        const QString said = panel->verificationLabel()->text();
        QVERIFY2(said.contains(u"offset reset of group reset-recorded on orders: verified"_s),
                 qPrintable(said));
        const QString lines = panel->outcomesText()->toPlainText();
        for (int p = 0; p < 3; ++p)
            QVERIFY2(lines.contains(u"partition %1: 4 \u2192 1, committed 1 \u2014 verified"_s.arg(p)),
                     qPrintable(lines));
    }

    // "Reset offsets…" on a group of the Lag view, filed in the console: its approval queue and its
    // Execution panel list the request at once, with no refresh asked for.
    void requestFiledInTheConsoleIsListedAtOnce()
    {
        const QString group = u"listed-at-once"_s;
        QString error;
        QVERIFY2(commitEach(group, 2, &error), qPrintable(error));
        ConnectionProfile profile;
        profile.name = u"test"_s;
        profile.cluster = m_world->kafka();
        profile.databaseConninfo = m_world->conninfo(u"alice"_s);
        profile.policyPath = m_policyPath;
        Console console(profile);
        console.window()->show();
        auto *queue = console.findChild<ApprovalQueueModel *>();
        auto *panel = console.window()->findChild<ReplayExecutionPanel *>();
        auto *lag = console.window()->findChild<LagView *>();
        auto *watcher = console.findChild<AuditWatcher *>();
        auto *desk = console.findChild<RemediationDesk *>();
        QVERIFY(queue && panel && lag && watcher && desk);
        QSignalSpy filed(desk, &RemediationDesk::requestFiled);
        QTRY_COMPARE_WITH_TIMEOUT(watcher->state(), AuditWatcher::State::Connected, 15000);

        Q_EMIT lag->resetOffsetsRequested(group, {Orders});
        auto *dialog = console.window()->findChild<PlannedRequestDialog *>();
        QVERIFY(dialog);
        dialog->targetBox()->setCurrentIndex(PlannedRequestDialog::Earliest);
        QSignalSpy previews(dialog, &PlannedRequestDialog::previewFinished);
        dialog->startPreview();
        QTRY_COMPARE_WITH_TIMEOUT(previews.size(), 1, 30000);
        QVERIFY2(previews.at(0).at(0).toBool(), qPrintable(dialog->statusLabel()->text()));
        dialog->reasonEdit()->setText(u"reprocess the warehouse table"_s);
        QSignalSpy submitted(dialog, &PlannedRequestDialog::submitted);
        QTest::mouseClick(dialog->submitButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(submitted.size(), 1, 15000);
        const qint64 id = dialog->submittedId();
        QVERIFY(id > 0);
        // The one signal every filing path ends in, which the lists follow.
        QCOMPARE(filed.size(), 1);
        QCOMPARE(filed.at(0).at(0).toLongLong(), id);
        const auto listed = [panel, id] {
            for (int row = 0; row < panel->table()->rowCount(); ++row) {
                if (panel->table()->item(row, 0)->text() == QString::number(id))
                    return true;
            }
            return false;
        };
        QTRY_VERIFY_WITH_TIMEOUT(queue->rowOf(id) >= 0, 5000);
        QTRY_VERIFY_WITH_TIMEOUT(listed(), 5000);
        dialog->close();
    }

    void cleanupTestCase() { m_world.reset(); }
};

QTEST_MAIN(TestPlannedRequestUi)
#include "tst_plannedrequestui.moc"
