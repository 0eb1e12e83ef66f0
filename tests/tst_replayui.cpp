// The operator's side of remediation: the request dialog opened from the DLQ browser (dry run off the UI
// thread, submit, refusals shown) and the execution panel beside the approval queue (execute, pause and
// resume, the database's refusal), against the mock cluster and a throwaway PostgreSQL. Nothing is mocked.

#include "app/remediationdesk.h"
#include "models/approvalqueuemodel.h"
#include "models/dlqbrowsermodel.h"
#include "models/inboxrowsmodel.h"
#include "services/audit/auditstore.h"
#include "services/audit/auditwatcher.h"
#include "services/dlq/dlqscanner.h"
#include "services/inbox/inboxrowsquery.h"
#include "services/kafka/offsetcommitter.h"
#include "services/payload/confluentwireformat.h"
#include "services/payload/schemacatalog.h"
#include "services/payload/schemaregistryclient.h"
#include "services/remediation/replayexecutor.h"
#include "services/remediation/replayjob.h"
#include "services/remediation/replayverifier.h"
#include "services/remediation/topicrangereader.h"
#include "support/fakeschemaregistry.h"
#include "support/referenceencoder.h"
#include "support/replayworld.h"
#include "support/schemafixtures.h"
#include "views/actionconfirmation.h"
#include "views/dlqbrowserview.h"
#include "views/inboxrowsview.h"
#include "views/refreshclock.h"
#include "views/replayexecutionpanel.h"
#include "views/replayrequestdialog.h"

#include <QComboBox>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryFile>

using namespace Qt::StringLiterals;

namespace {
ConnectionProfile deskProfile(const ReplayWorld &world, const QString &user)
{
    ConnectionProfile profile;
    profile.name = u"test"_s;
    profile.cluster = world.kafka();
    profile.databaseConninfo = world.conninfo(user);
    return profile;
}

// The replayed records of one request in the destination, read by kcat (the independent client).
QList<QJsonObject> replayedBy(const ReplayWorld &world, qint64 requestId)
{
    QString error;
    QList<QJsonObject> out;
    const QList<QJsonObject> records =
        world.kcatRead(QString::fromLatin1(ReplayWorld::OriginalTopic), &error);
    if (!error.isEmpty())
        qWarning().noquote() << error;
    for (const QJsonObject &record : records) {
        if (kcatHeaders(record).value(QString::fromLatin1(RemediationHeaders::RequestId))
            == QString::number(requestId))
            out << record;
    }
    return out;
}
} // namespace

class TestReplayUi : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<ReplayWorld> m_world;

    RequestDraft replayDraft(qint64 from, qint64 to, double rate = 0)
    {
        RequestDraft draft;
        draft.selection = m_world->dlqRange(from, to);
        draft.reasonCode = u"poison-fixed"_s;
        draft.reason = u"consumer fixed"_s;
        draft.rateLimit = rate;
        return draft;
    }

    // Waits until the desk's execution panel lists the request, and selects it.
    static bool selectListed(RemediationDesk &desk, qint64 id)
    {
        ReplayExecutionPanel *panel = desk.executionPanel();
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

    void refresh(RemediationDesk &desk) { Q_EMIT desk.executionPanel()->refreshRequested(); }

    // The Parked tab as the console wires it, reading as alice.
    void wireRows(InboxRowsView &view, InboxRowsQuery &query, InboxRowsModel &rows)
    {
        query.setConninfo(m_world->conninfo(u"alice"_s));
        connect(&view, &InboxRowsView::refreshRequested, &query,
                [&query](const InboxMapping &mapping, const QList<InboxState> &states, const QString &text) {
                    query.fetch(mapping, states, text);
                });
        connect(&query, &InboxRowsQuery::pageReady, &rows, &InboxRowsModel::setPage);
    }

    // A seed-000 shaped inbox table with rows (consumer, id, status, error) alice may use as granted.
    bool createInbox(const QString &table, const QString &rows, const QString &grants, QString *error)
    {
        return m_world->admin().execScript(
            u"CREATE TABLE %1 (consumer_name text NOT NULL, message_id text NOT NULL, "
            u"status text NOT NULL, first_seen_at timestamptz NOT NULL DEFAULT now(), "
            u"updated_at timestamptz NOT NULL DEFAULT now(), error_code text, "
            u"PRIMARY KEY (consumer_name, message_id));"
            u"INSERT INTO %1 (consumer_name, message_id, status, error_code) VALUES %2;"
            u"GRANT %3 ON %1 TO alice;"_s.arg(table, rows, grants),
            error);
    }

    // The group commits at the ends of the original topic, as a consumer that read everything would.
    bool commitEnds(const QString &group, QString *error)
    {
        PartitionOffsets ends;
        std::unique_ptr<TopicRangeReader> reader = TopicRangeReader::create(m_world->kafka(), error);
        for (int p = 0; reader && p < 3; ++p) {
            qint64 low = 0;
            qint64 high = 0;
            if (!reader->watermarks(QString::fromLatin1(ReplayWorld::OriginalTopic), p, &low, &high, 10'000,
                                    error))
                return false;
            ends.insert({QString::fromLatin1(ReplayWorld::OriginalTopic), p}, high);
        }
        return reader && OffsetCommitter::commit(m_world->kafka(), group, ends, error);
    }

    // Execute as the operator does it: the button, then the confirmation's own button.
    static ActionConfirmation *clickExecute(ReplayExecutionPanel *panel)
    {
        QTest::mouseClick(panel->executeButton(), Qt::LeftButton);
        return panel->findChild<ActionConfirmation *>();
    }
    static bool executeConfirmed(ReplayExecutionPanel *panel)
    {
        ActionConfirmation *confirmation = clickExecute(panel);
        if (!confirmation)
            return false;
        QTest::mouseClick(confirmation->confirmButton(), Qt::LeftButton);
        return true;
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_world = std::make_unique<ReplayWorld>();
        QString error;
        QVERIFY2(m_world->start(u"replayui"_s, &error), qPrintable(error));
        // 0..9: the dialog's tests; 10..14: a plain execution; 20..319: pause and resume; 400..409: refusals;
        // 410..413: a verification recorded earlier.
        QVERIFY2(m_world->seedDlq(0, 420, 50, &error), qPrintable(error));
    }

    void cleanupTestCase() { m_world.reset(); }

    void dialogDryRunsSelectedRowsAndSubmits()
    {
        RemediationDesk desk(deskProfile(*m_world, u"alice"_s));
        auto *scanner = new DlqScanner(&desk);
        DlqBrowserView view(scanner);
        desk.attachDlqBrowser(&view);
        view.setCluster(m_world->kafka());
        view.setTopics(
            {QString::fromLatin1(ReplayWorld::DlqTopic), QString::fromLatin1(ReplayWorld::OriginalTopic)});
        view.setTopic(QString::fromLatin1(ReplayWorld::DlqTopic));
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.startScan();
        QTRY_COMPARE_WITH_TIMEOUT(view.model()->rowCount(), 420, 20000);

        // Rows 2, 3 and 4 (offsets 2..4) picked, then Ctrl+R.
        QItemSelection picked(view.model()->index(2, 0), view.model()->index(4, 0));
        view.table()->selectionModel()->select(picked, QItemSelectionModel::ClearAndSelect
                                                           | QItemSelectionModel::Rows);
        view.table()->setFocus();
        view.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&view));
        QTest::keyClick(view.table(), Qt::Key_R, Qt::ControlModifier);
        QTRY_VERIFY(desk.requestDialog());
        ReplayRequestDialog *dialog = desk.requestDialog();
        QCOMPARE(dialog->action(), RemediationAction::Replay);

        // Nothing may be submitted before the dry run is seen.
        QVERIFY(!dialog->submitButton()->isEnabled());
        dialog->reasonEdit()->setText(u"projection fixed in 2.4.1"_s);
        dialog->ticketEdit()->setText(u"OPS-77"_s);
        QVERIFY(!dialog->submitButton()->isEnabled());
        QSignalSpy dryRuns(dialog, &ReplayRequestDialog::dryRunFinished);
        QTest::mouseClick(dialog->dryRunButton(), Qt::LeftButton);
        QVERIFY(!dialog->dryRunButton()->isEnabled()); // running, off the UI thread
        QTRY_COMPARE_WITH_TIMEOUT(dryRuns.size(), 1, 30000);
        QVERIFY(dryRuns.at(0).at(0).toBool());
        const QString shown = dialog->dryRunText()->toPlainText();
        QVERIFY2(shown.contains(u"Blast radius: 3 item(s) to orders"), qPrintable(shown));
        QVERIFY2(shown.contains(u"Expected no-op rate"), qPrintable(shown));
        QVERIFY2(shown.contains(u"Ordering risk"), qPrintable(shown));
        QVERIFY2(shown.contains(u"Policy: allowed"), qPrintable(shown));
        QVERIFY(dialog->submitButton()->isEnabled());

        // Changing the destination makes the dry run stale: submit waits for a new one.
        dialog->chosenTopicButton()->setChecked(true);
        QVERIFY(!dialog->submitButton()->isEnabled());
        QVERIFY(dialog->destinationBox()->isEnabled());
        dialog->originalTopicButton()->setChecked(true);
        QTest::mouseClick(dialog->dryRunButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(dryRuns.size(), 2, 30000);
        QVERIFY(dialog->submitButton()->isEnabled());

        QSignalSpy submitted(dialog, &ReplayRequestDialog::submitted);
        QTest::mouseClick(dialog->submitButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(submitted.size(), 1, 15000);
        const qint64 id = submitted.at(0).at(0).toLongLong();
        QVERIFY(id > 0);
        QVERIFY2(dialog->statusLabel()->text().contains(QString::number(id)),
                 qPrintable(dialog->statusLabel()->text()));
        QVERIFY(!dialog->submitButton()->isEnabled());

        // In the audit database as alice's, with the three records pinned by position and SHA-256.
        QString error;
        const std::optional<RequestDetail> detail = AuditStore(m_world->bob()).requestDetail(id, &error);
        QVERIFY2(detail, qPrintable(error));
        QCOMPARE(detail->request.requestedBy, u"alice"_s);
        QCOMPARE(detail->request.status, RequestStatus::Pending);
        QCOMPARE(detail->request.ticket, u"OPS-77"_s);
        QCOMPARE(detail->request.reason, u"projection fixed in 2.4.1"_s);
        QCOMPARE(detail->items.size(), 3);
        for (int i = 0; i < 3; ++i) {
            const RequestItem &item = detail->items.at(i);
            QCOMPARE(item.sourceTopic, QString::fromLatin1(ReplayWorld::DlqTopic));
            QCOMPARE(item.sourceOffset, qint64(2 + i));
            QCOMPARE(item.payloadSha256,
                     QCryptographicHash::hash(ReplayWorld::payloadFor(2 + i, 0), QCryptographicHash::Sha256));
        }
        QCOMPARE(detail->request.dryRun.value(u"count"_s).toInt(), 3);
        // The approval queue of the same desk learns of it.
        QTRY_VERIFY_WITH_TIMEOUT(desk.queueModel()->rowOf(id) >= 0, 10000);
        dialog->close();
    }

    void invalidJsonBlocksSubmit()
    {
        RemediationDesk desk(deskProfile(*m_world, u"alice"_s));
        ReplayRequestDialog *dialog = desk.openRequestDialog(m_world->dlqRange(5, 6));
        QVERIFY(dialog->setAction(RemediationAction::EditReplay));
        // The editor starts from the record as it is now.
        QTRY_COMPARE_WITH_TIMEOUT(dialog->payloadEdit()->toPlainText(),
                                  QString::fromUtf8(ReplayWorld::payloadFor(5, 0)), 15000);
        QVERIFY(dialog->payloadError()->text().isEmpty());
        dialog->reasonEdit()->setText(u"fix the amount"_s);
        dialog->payloadEdit()->setPlainText(u"{\"order\": 5,\n \"note\": \"ok\"\n"_s); // no closing brace
        QVERIFY2(dialog->payloadError()->text().contains(u"line 3"),
                 qPrintable(dialog->payloadError()->text()));
        QVERIFY(dialog->payloadError()->isVisible());
        QVERIFY(!dialog->submitButton()->isEnabled());
        QString why;
        QVERIFY(!dialog->maySubmit(&why));
        QVERIFY2(why.contains(u"JSON"), qPrintable(why));
        // Neither the dry run nor a forced submit gets past it.
        dialog->startDryRun();
        QVERIFY(dialog->statusLabel()->text().contains(u"payload"));
        dialog->submit();
        QTest::qWait(300);
        QCOMPARE(dialog->submittedId(), 0);

        // Fixed: the error goes, the dry run runs, and the edit is filed.
        dialog->payloadEdit()->setPlainText(u"{\"order\": 5, \"note\": \"fixed\"}"_s);
        QVERIFY(dialog->payloadError()->text().isEmpty());
        QSignalSpy dryRuns(dialog, &ReplayRequestDialog::dryRunFinished);
        dialog->startDryRun();
        QTRY_COMPARE_WITH_TIMEOUT(dryRuns.size(), 1, 30000);
        QVERIFY(dialog->submitButton()->isEnabled());
        QSignalSpy submitted(dialog, &ReplayRequestDialog::submitted);
        dialog->submit();
        QTRY_COMPARE_WITH_TIMEOUT(submitted.size(), 1, 15000);
        const qint64 id = submitted.at(0).at(0).toLongLong();
        QCOMPARE(
            m_world
                ->scalar(
                    u"SELECT convert_from(edited_payload, 'UTF8') FROM berth.request_items WHERE request_id = $1"_s,
                    {id})
                .toString(),
            u"{\"order\": 5, \"note\": \"fixed\"}"_s);
        dialog->close();
    }

    // The edit dialog offers the newer versions of an Avro record's subject (the registry's
    // /subjects/{subject}/versions); the one chosen encodes the edit, checked by the dry run before it can
    // be filed, and its id frames the bytes the approver is shown and the replay produces.
    void editEncodesWithANewerSchemaVersion()
    {
        QString error;
        if (!ReferenceEncoder::available(&error))
            QSKIP(qPrintable(error));
        const QString avsc = ReferenceEncoder::fixturePath(u"payment.avsc"_s);
        const QJsonObject payment = QJsonDocument::fromJson(R"({"id":"6f1c2a52-8f4e-4b59-9d3a-0c5e1f2a3b4c",
            "amount":"19.99","fee":"0.250","createdAt":"2024-02-29T13:45:00.123Z","bookedOn":"2024-02-29",
            "sequence":12,"status":"DECLINED","customer":{"id":"c-42","email":null,"tier":null},"card":null,
            "lines":[],"tags":{},"approved":false,"ratio":1.25,"note":null})")
                                        .object();
        const QByteArray framed = ReferenceEncoder::avro(avsc, 7, QJsonArray{payment}, &error).value(0);
        QVERIFY2(!framed.isEmpty(), qPrintable(error));
        const qint64 offset = m_world->produceDeadLetter("pay-1", framed, 7000, &error);
        QVERIFY2(offset >= 420, qPrintable(error));

        // Version 4 adds a field with a default; the registry answers on this thread, as the console's does.
        const QByteArray v4 = SchemaFixtures::paymentAvscWithChannel();
        FakeSchemaRegistry registry;
        QVERIFY(registry.listen());
        registry.addSchema(7, u"payments-value"_s, 3, ReferenceEncoder::fixture(u"payment.avsc"_s));
        registry.addSchema(9, u"payments-value"_s, 4, v4);
        auto catalog = std::make_shared<SchemaCatalog>();
        SchemaRegistryConfig config;
        config.url = registry.url();
        SchemaRegistryClient client(config, catalog.get());

        RemediationDesk desk(deskProfile(*m_world, u"alice"_s));
        desk.setSchemaCatalog(catalog);
        ReplayRequestDialog *dialog =
            desk.openRequestDialog({{QString::fromLatin1(ReplayWorld::DlqTopic), 0, offset}});
        QVERIFY(dialog->setAction(RemediationAction::EditReplay));
        QTRY_VERIFY_WITH_TIMEOUT(!dialog->payloadEdit()->toPlainText().isEmpty(), 15000);
        QTRY_COMPARE_WITH_TIMEOUT(dialog->schemaVersionBox()->count(), 2, 15000);
        QVERIFY2(dialog->schemaVersionBox()->itemText(0).contains(u"v3"_s),
                 qPrintable(dialog->schemaVersionBox()->itemText(0)));
        QVERIFY2(dialog->schemaVersionBox()->itemText(1).contains(u"id 9"_s),
                 qPrintable(dialog->schemaVersionBox()->itemText(1)));
        QVERIFY(!dialog->schemaVersionBox()->isHidden());
        dialog->schemaVersionBox()->setCurrentIndex(1);
        QJsonObject edit = QJsonDocument::fromJson(dialog->payloadEdit()->toPlainText().toUtf8()).object();
        QCOMPARE(edit.value(u"amount"_s).toString(), u"19.99"_s);
        edit.insert(u"amount"_s, u"21.50"_s);
        edit.insert(u"channel"_s, u"app"_s);
        dialog->payloadEdit()->setPlainText(QString::fromUtf8(QJsonDocument(edit).toJson()));
        dialog->reasonEdit()->setText(u"amount fixed, channel recorded"_s);
        QSignalSpy dryRuns(dialog, &ReplayRequestDialog::dryRunFinished);
        dialog->startDryRun();
        QTRY_COMPARE_WITH_TIMEOUT(dryRuns.size(), 1, 30000);
        QVERIFY2(dryRuns.at(0).at(0).toBool(), qPrintable(dialog->statusLabel()->text()));
        QSignalSpy submitted(dialog, &ReplayRequestDialog::submitted);
        dialog->submit();
        QTRY_COMPARE_WITH_TIMEOUT(submitted.size(), 1, 15000);
        const qint64 id = submitted.at(0).at(0).toLongLong();
        const QByteArray stored =
            m_world->scalar(u"SELECT edited_payload FROM berth.request_items WHERE request_id = $1"_s, {id})
                .toByteArray();
        QCOMPARE(ConfluentWireFormat::readHeader(stored).schemaId, 9u);
        QTemporaryFile v4File;
        QVERIFY(v4File.open());
        v4File.write(v4);
        v4File.close();
        const QList<QJsonObject> back = ReferenceEncoder::decodeAvro(v4File.fileName(), {stored}, &error);
        QVERIFY2(back.size() == 1, qPrintable(error));
        QCOMPARE(back[0].value(u"value"_s).toObject().value(u"amount"_s).toString(), u"21.50"_s);
        QCOMPARE(back[0].value(u"value"_s).toObject().value(u"channel"_s).toString(), u"app"_s);

        // A value v4 does not allow: the dry run refuses it with its path, so it cannot be filed.
        edit.insert(u"status"_s, u"REFUNDED"_s);
        dialog->payloadEdit()->setPlainText(QString::fromUtf8(QJsonDocument(edit).toJson()));
        dialog->startDryRun();
        QTRY_COMPARE_WITH_TIMEOUT(dryRuns.size(), 2, 30000);
        QVERIFY(!dryRuns.at(1).at(0).toBool());
        QVERIFY2(dialog->statusLabel()->text().contains(u"$.status"_s),
                 qPrintable(dialog->statusLabel()->text()));
        QVERIFY(!dialog->submitButton()->isEnabled());
        dialog->close();
    }

    void blockedVerdictCannotBeSubmitted()
    {
        QTemporaryFile policy;
        QVERIFY(policy.open());
        policy.write("deliverySemantics:\n  consumers:\n    orders-projector:\n      topics: [orders]\n"
                     "      replay:\n        allowed: false\n");
        policy.close();
        RemediationSetup setup;
        setup.cluster = m_world->kafka();
        setup.auditConninfo = m_world->conninfo(u"alice"_s);
        setup.policyPath = policy.fileName();
        ReplayRequestDialog dialog(setup, m_world->dlqRange(6, 8));
        dialog.reasonEdit()->setText(u"try anyway"_s);
        const qint64 before = m_world->scalar(u"SELECT count(*) FROM berth.requests"_s).toLongLong();
        QSignalSpy dryRuns(&dialog, &ReplayRequestDialog::dryRunFinished);
        dialog.startDryRun();
        QTRY_COMPARE_WITH_TIMEOUT(dryRuns.size(), 1, 30000);
        QVERIFY(!dryRuns.at(0).at(0).toBool());
        QVERIFY2(dialog.dryRunText()->toPlainText().contains(u"Policy: blocked"),
                 qPrintable(dialog.dryRunText()->toPlainText()));
        QVERIFY2(dialog.statusLabel()->text().contains(u"replay.allowed is false"),
                 qPrintable(dialog.statusLabel()->text()));
        QVERIFY(!dialog.submitButton()->isEnabled());
        QString why;
        QVERIFY(!dialog.maySubmit(&why));
        QVERIFY2(why.contains(u"policy blocks"), qPrintable(why));
        dialog.submit();
        QTest::qWait(300);
        QCOMPARE(m_world->scalar(u"SELECT count(*) FROM berth.requests"_s).toLongLong(), before);
    }

    void executesApprovedRequestThroughPanel()
    {
        QString error;
        const qint64 id = m_world->request(replayDraft(10, 15), &error);
        QVERIFY2(id > 0, qPrintable(error));
        QVERIFY2(m_world->approve(id, &error), qPrintable(error));

        RemediationDesk desk(deskProfile(*m_world, u"alice"_s));
        QTRY_COMPARE_WITH_TIMEOUT(desk.watcher()->state(), AuditWatcher::State::Connected, 15000);
        QVERIFY(selectListed(desk, id));
        ReplayExecutionPanel *panel = desk.executionPanel();
        QVERIFY2(panel->executeButton()->isEnabled(), qPrintable(panel->executeButton()->toolTip()));
        QVERIFY(!panel->pauseButton()->isEnabled());
        QSignalSpy finished(desk.replayJob(), &ReplayJob::finished);

        // A focus frame is not a selection: nothing selected, nothing to execute.
        panel->table()->clearSelection();
        QVERIFY(!panel->executeButton()->isEnabled());
        QVERIFY(panel->executeButton()->toolTip().contains(u"Select"_s));
        QVERIFY(selectListed(desk, id));

        // Execute asks first, naming the request, the destination and the count; Cancel runs nothing.
        ActionConfirmation *asked = clickExecute(panel);
        QVERIFY(asked);
        QVERIFY2(asked->text().contains(u"request "_s + QString::number(id)), qPrintable(asked->text()));
        QVERIFY2(asked->text().contains(QString::fromLatin1(ReplayWorld::OriginalTopic)), qPrintable(asked->text()));
        QVERIFY2(asked->text().contains(u"5 item"_s), qPrintable(asked->text()));
        QVERIFY(asked->cancelButton()->isDefault());
        QTest::mouseClick(asked->cancelButton(), Qt::LeftButton);
        QTest::qWait(200);
        QCOMPARE(finished.size(), 0);
        QCOMPARE(m_world->statusOf(id), u"approved"_s);
        QVERIFY(panel->executeButton()->isEnabled());

        QVERIFY(executeConfirmed(panel));
        QVERIFY(!panel->executeButton()->isEnabled());
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 30000);
        QVERIFY2(panel->resultLabel()->text().contains(u"ended completed"),
                 qPrintable(panel->resultLabel()->text()));
        QCOMPARE(panel->progressBar()->value(), 5);
        QVERIFY(panel->problemsText()->toPlainText().isEmpty());
        QCOMPARE(m_world->statusOf(id), u"completed"_s);

        // kcat sees each record once, with its key and Berth's replay headers.
        const QList<QJsonObject> records = replayedBy(*m_world, id);
        QCOMPARE(records.size(), 5);
        QSet<QString> replayIds;
        for (const QJsonObject &record : records) {
            const QMultiHash<QString, QString> headers = kcatHeaders(record);
            replayIds.insert(headers.value(QString::fromLatin1(RemediationHeaders::ReplayId)));
            QVERIFY(record.value(u"key"_s).toString().startsWith(u"order-"));
        }
        QCOMPARE(replayIds.size(), 5);

        // The desk follows the replay to its consumer (the records' consumer header): each item pending
        // until the group commits past it, then consumed (this consumer has no inbox mapping to say more).
        QTRY_VERIFY_WITH_TIMEOUT(panel->verificationLabel()->text().contains(u"orders-projector"), 15000);
        QVERIFY2(panel->outcomesText()->toPlainText().contains(u"pending"),
                 qPrintable(panel->outcomesText()->toPlainText()));
        QVERIFY2(commitEnds(u"orders-projector"_s, &error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(panel->verificationLabel()->text().contains(u": verified \u2014"_s), 20000);
        QVERIFY(panel->outcomesText()->toPlainText().contains(u"consumed"));
        QVERIFY(!panel->outcomesText()->toPlainText().contains(u"pending"));

        // Completed: nothing left to execute, and the list says so once read again.
        QTRY_VERIFY_WITH_TIMEOUT(
            panel->table()->item(panel->table()->currentRow(), 2)->text() == u"completed"_s, 10000);
        QVERIFY(!panel->executeButton()->isEnabled());

        // The runbook, as the command line writes it.
        QTemporaryDir dir;
        const QString path = dir.filePath(u"runbook.md"_s);
        panel->exportRunbook(path);
        QTRY_VERIFY_WITH_TIMEOUT(panel->resultLabel()->text().contains(u"Runbook written"), 10000);
        QFile runbook(path);
        QVERIFY(runbook.open(QIODevice::ReadOnly));
        const QByteArray markdown = runbook.readAll();
        QVERIFY(markdown.contains("replay execute"));
        QVERIFY(markdown.contains(QByteArray::number(id)));
    }

    // A request executed and verified earlier (from the command line, on another desk): selecting it shows
    // the verification the audit chain holds; a request never verified says so; back again, the recorded
    // one returns.
    void storedVerificationShownWhenSelected()
    {
        QString error;
        const qint64 id = m_world->request(replayDraft(410, 413), &error);
        QVERIFY2(id > 0, qPrintable(error));
        QVERIFY2(m_world->approve(id, &error), qPrintable(error));
        const qint64 other = m_world->request(replayDraft(413, 414), &error);
        QVERIFY2(other > 0, qPrintable(error));
        ReplayControl control;
        QCOMPARE(ReplayExecutor(m_world->alice(), m_world->kafka()).run(id, {}, control).delivered, 3);
        QVERIFY2(commitEnds(u"orders-projector"_s, &error), qPrintable(error));
        VerifyOptions options;
        options.timeoutMs = 20'000;
        options.pollMs = 100;
        const ReplayVerification v = ReplayVerifier(m_world->alice(), m_world->kafka()).verify(id, options);
        QCOMPARE(v.result, VerificationResult::Verified);
        QVERIFY(v.eventSeq > 0);

        RemediationDesk desk(deskProfile(*m_world, u"bob"_s));
        QTRY_COMPARE_WITH_TIMEOUT(desk.watcher()->state(), AuditWatcher::State::Connected, 15000);
        ReplayExecutionPanel *panel = desk.executionPanel();
        const auto label = [panel] { return panel->verificationLabel()->text(); };
        QVERIFY(selectListed(desk, id));
        QTRY_VERIFY_WITH_TIMEOUT(label().startsWith(u"Recorded "_s), 15000);
        QVERIFY2(label().contains(u"audit event "_s + QString::number(v.eventSeq)), qPrintable(label()));
        QVERIFY2(label().contains(u"orders-projector: verified \u2014 3 consumed"_s), qPrintable(label()));
        QVERIFY(selectListed(desk, other));
        QTRY_COMPARE_WITH_TIMEOUT(
            label(), u"No verification recorded for request "_s + QString::number(other) + u'.', 15000);
        QVERIFY(selectListed(desk, id));
        QTRY_VERIFY_WITH_TIMEOUT(label().startsWith(u"Recorded "_s), 15000);
    }

    // From the Parked tab: a parked inbox row chosen, "Skip / delete…", Delete, approved by bob, executed
    // from the panel. The row is gone, its content is kept in the audit, the row not chosen is untouched.
    void parkedRowDeletedThroughTheDesk()
    {
        QString error;
        QVERIFY2(createInbox(u"processed_message"_s,
                             u"('orders-projector', 'idem-700', 'PARKED', 'E_SCHEMA'), "
                             u"('orders-projector', 'idem-701', 'FAILED_TERMINAL', 'E_LIMIT')"_s,
                             u"SELECT, UPDATE, DELETE"_s, &error),
                 qPrintable(error));

        ConnectionProfile profile = deskProfile(*m_world, u"alice"_s);
        profile.inboxMappings = InboxMapping::presets(); // what a profile's mapping editor saved
        RemediationDesk desk(profile);
        InboxRowsModel rows;
        InboxRowsView view(&rows);
        InboxRowsQuery query;
        wireRows(view, query, rows);
        desk.attachInboxRows(&view);
        view.setMappings(InboxMapping::presets()); // seed 000's processed_message first
        view.show();
        view.requestRefresh();
        QTRY_COMPARE_WITH_TIMEOUT(rows.rowCount(), 2, 15000);

        // Only the parked row.
        QAbstractItemModel *shown = view.table()->model();
        int parkedRow = -1;
        for (int r = 0; r < shown->rowCount(); ++r) {
            if (shown->index(r, InboxRowsModel::MessageId).data().toString() == u"idem-700")
                parkedRow = r;
        }
        QVERIFY(parkedRow >= 0);
        view.table()->selectionModel()->select(shown->index(parkedRow, 0),
                                               QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        QCOMPARE(view.selectedRows().size(), 1);
        view.requestRemediation();
        QTRY_VERIFY(desk.requestDialog());
        ReplayRequestDialog *dialog = desk.requestDialog();
        QVERIFY(!dialog->setAction(RemediationAction::Replay)); // an inbox row has nothing to replay
        QVERIFY(dialog->setAction(RemediationAction::Delete));
        // A delete is not a fix: the proposed reason code fits the action.
        QCOMPARE(dialog->reasonCodeBox()->currentData().toString(), u"obsolete"_s);
        dialog->reasonEdit()->setText(u"poison row, order cancelled"_s);
        dialog->ticketEdit()->setText(u"OPS-91"_s);
        QSignalSpy dryRuns(dialog, &ReplayRequestDialog::dryRunFinished);
        QTest::mouseClick(dialog->dryRunButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(dryRuns.size(), 1, 30000);
        QVERIFY2(dryRuns.at(0).at(0).toBool(), qPrintable(dialog->dryRunText()->toPlainText()));
        QSignalSpy submitted(dialog, &ReplayRequestDialog::submitted);
        QTRY_VERIFY(dialog->submitButton()->isEnabled());
        QTest::mouseClick(dialog->submitButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(submitted.size(), 1, 15000);
        const qint64 id = submitted.at(0).at(0).toLongLong();
        QVERIFY(id > 0);
        dialog->close();
        QVERIFY2(m_world->approve(id, &error), qPrintable(error));

        Q_EMIT desk.executionPanel()->refreshRequested();
        QVERIFY(selectListed(desk, id));
        ReplayExecutionPanel *panel = desk.executionPanel();
        QSignalSpy finished(desk.replayJob(), &ReplayJob::finished);
        QTRY_VERIFY(panel->executeButton()->isEnabled());
        QVERIFY(executeConfirmed(panel));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 30000);
        QVERIFY2(panel->resultLabel()->text().contains(u"ended completed"),
                 qPrintable(panel->resultLabel()->text() + panel->problemsText()->toPlainText()));

        QCOMPARE(m_world->scalar(u"SELECT count(*) FROM processed_message WHERE message_id = 'idem-700'"_s)
                     .toInt(),
                 0);
        QCOMPARE(m_world->scalar(u"SELECT status FROM processed_message WHERE message_id = 'idem-701'"_s)
                     .toString(),
                 u"FAILED_TERMINAL"_s);
        // The deleted row's content is kept with its disposition, and in the audit log.
        QCOMPARE(m_world
                     ->scalar(u"SELECT count(*) FROM berth.dispositions WHERE request_id = $1 AND "
                              u"disposition = 'deleted' AND details::text LIKE '%E_SCHEMA%'"_s,
                              {id})
                     .toInt(),
                 1);
        QVERIFY(m_world
                    ->scalar(u"SELECT count(*) FROM berth.audit_events WHERE request_id = $1 AND "
                             u"action = 'disposition.recorded' AND details::text LIKE '%E_SCHEMA%'"_s,
                             {id})
                    .toInt()
                == 1);
    }

    // The Parked tab follows its table on a clock: rows parked after it was opened appear without a click,
    // matching SQL written here, the status line says when it was read, and a selected row stays selected.
    void parkedTabFollowsTheTableWithoutAClick()
    {
        // p-2 is completed for now: not listed until it is parked below.
        const QString firstRows = u"('orders-projector', 'p-1', 'PARKED', 'E1'), "
                                  u"('orders-projector', 'p-2', 'COMPLETED', NULL)"_s;
        QString error;
        QVERIFY2(createInbox(u"parked_probe"_s, firstRows, u"SELECT"_s, &error), qPrintable(error));
        InboxMapping mapping = InboxMapping::seed000ProcessedMessage();
        mapping.name = u"probe"_s;
        mapping.table = u"parked_probe"_s;
        InboxRowsModel rows;
        InboxRowsView view(&rows);
        InboxRowsQuery query;
        wireRows(view, query, rows);
        view.refreshClock()->setInterval(300);
        view.setMappings({mapping});
        view.show();
        const auto shownIds = [&] {
            QStringList ids;
            for (int r = 0; r < rows.rowCount(); ++r)
                ids << rows.index(r, InboxRowsModel::MessageId).data().toString();
            ids.sort();
            return ids;
        };
        const auto sqlIds = [&] {
            return m_world
                ->scalar(u"SELECT string_agg(message_id, ',' ORDER BY message_id) FROM parked_probe "
                         u"WHERE status IN ('PARKED', 'FAILED_TERMINAL')"_s)
                .toString()
                .split(u',');
        };
        QTRY_COMPARE_WITH_TIMEOUT(shownIds(), sqlIds(), 15000); // the first read: no click either
        QVERIFY2(view.statusLabel()->text().contains(u"read "_s), qPrintable(view.statusLabel()->text()));
        view.table()->selectRow(0);
        QCOMPARE(view.selectedRows().size(), 1);

        QVERIFY2(m_world->admin().execScript(
                     u"INSERT INTO parked_probe (consumer_name, message_id, status, error_code) VALUES "
                     u"('orders-projector', 'p-3', 'FAILED_TERMINAL', 'E3'), "
                     u"('orders-projector', 'p-4', 'PARKED', 'E4'); "
                     u"UPDATE parked_probe SET status = 'PARKED' WHERE message_id = 'p-2';"_s,
                     &error),
                 qPrintable(error));
        QCOMPARE(sqlIds().size(), 4);
        QTRY_COMPARE_WITH_TIMEOUT(shownIds(), sqlIds(), 15000);
        QCOMPARE(view.selectedRows().size(), 1);
        QCOMPARE(view.selectedRows().first().value(u"messageId"_s).toString(), u"p-1"_s);
    }

    void pauseThenResume()
    {
        QString error;
        const qint64 id = m_world->request(replayDraft(20, 320, 150), &error); // 300 items, 2 s at 150/s
        QVERIFY2(id > 0, qPrintable(error));
        QVERIFY2(m_world->approve(id, &error), qPrintable(error));
        RemediationDesk desk(deskProfile(*m_world, u"alice"_s));
        QVERIFY(selectListed(desk, id));
        ReplayExecutionPanel *panel = desk.executionPanel();
        QSignalSpy progress(desk.replayJob(), &ReplayJob::progressed);
        QSignalSpy finished(desk.replayJob(), &ReplayJob::finished);
        panel->execute();
        QTRY_VERIFY_WITH_TIMEOUT(panel->progressBar()->value() > 10, 20000);
        QVERIFY(panel->pauseButton()->isEnabled());
        QTest::mouseClick(panel->pauseButton(), Qt::LeftButton);
        QVERIFY(panel->resumeButton()->isEnabled());
        QVERIFY(!panel->pauseButton()->isEnabled());
        // Paused: once the records handed to the producer before the pause are delivered (however long a
        // loaded machine takes), the count stands still and nothing finishes. Unpaused, at 150/s, no two
        // samples 250 ms apart would agree.
        const auto produced = [&] {
            return m_world->endOffsetSum(QString::fromLatin1(ReplayWorld::OriginalTopic), &error);
        };
        qint64 producedAtPause = produced();
        QElapsedTimer settling;
        settling.start();
        while (settling.elapsed() < 10'000) {
            QTest::qWait(250);
            const qint64 now = produced();
            if (now == producedAtPause)
                break;
            producedAtPause = now;
        }
        QTest::qWait(1000);
        QCOMPARE(m_world->endOffsetSum(QString::fromLatin1(ReplayWorld::OriginalTopic), &error),
                 producedAtPause);
        QCOMPARE(finished.size(), 0);
        QVERIFY(panel->progressBar()->value() < 300);
        QVERIFY2(panel->progressLabel()->text().contains(u"msgs/s"),
                 qPrintable(panel->progressLabel()->text()));
        QVERIFY2(panel->progressLabel()->text().contains(u"ETA"), qPrintable(panel->progressLabel()->text()));

        QTest::mouseClick(panel->resumeButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 30000);
        QVERIFY2(panel->resultLabel()->text().contains(u"ended completed"),
                 qPrintable(panel->resultLabel()->text()));
        QCOMPARE(replayedBy(*m_world, id).size(), 300);
    }

    void ownUnapprovedRequestIsRefused()
    {
        QString error;
        const qint64 id = m_world->request(replayDraft(400, 405), &error);
        QVERIFY2(id > 0, qPrintable(error));
        RemediationDesk desk(deskProfile(*m_world, u"alice"_s));
        QVERIFY(selectListed(desk, id));
        ReplayExecutionPanel *panel = desk.executionPanel();
        QVERIFY(!panel->executeButton()->isEnabled());
        QVERIFY2(panel->executeButton()->toolTip().contains(u"pending"),
                 qPrintable(panel->executeButton()->toolTip()));

        // As a stale or tampered-with button would send it: the database refuses, in its own words.
        QSignalSpy finished(desk.replayJob(), &ReplayJob::finished);
        panel->execute();
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 20000);
        const auto outcome = finished.at(0).at(0).value<ReplayOutcome>();
        QVERIFY(!outcome.started);
        QVERIFY(!outcome.error.isEmpty());
        const QString shown = panel->resultLabel()->text();
        QVERIFY2(shown.contains(DlqBrowserModel::visibleText(outcome.error)), qPrintable(shown));
        QVERIFY2(shown.contains(u"did not start"), qPrintable(shown));
        qInfo().noquote() << "refusal shown:" << shown;
        QCOMPARE(m_world->statusOf(id), u"pending"_s);
        QCOMPARE(replayedBy(*m_world, id).size(), 0);

        // Approved but overdue: the button follows the status, and the database itself refuses the run.
        RequestDraft shortLived = replayDraft(405, 410);
        shortLived.expiresAt = QDateTime::currentDateTimeUtc().addMSecs(2500);
        const qint64 overdue = m_world->request(shortLived, &error);
        QVERIFY2(overdue > 0, qPrintable(error));
        QVERIFY2(m_world->approve(overdue, &error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(QDateTime::currentDateTimeUtc() > shortLived.expiresAt.addMSecs(200), 5000);
        refresh(desk);
        QVERIFY(selectListed(desk, overdue));
        QTRY_VERIFY(panel->executeButton()->isEnabled());
        QVERIFY(executeConfirmed(panel));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 2, 20000);
        const auto refused = finished.at(1).at(0).value<ReplayOutcome>();
        QVERIFY(!refused.started);
        QVERIFY2(refused.error.contains(u"expire"), qPrintable(refused.error));
        QVERIFY2(panel->resultLabel()->text().contains(DlqBrowserModel::visibleText(refused.error)),
                 qPrintable(panel->resultLabel()->text()));
        qInfo().noquote() << "database refusal shown:" << panel->resultLabel()->text();
        QCOMPARE(replayedBy(*m_world, overdue).size(), 0);
    }
};

QTEST_MAIN(TestReplayUi)
#include "tst_replayui.moc"
