// The approval queue: live across desks (NOTIFY, no manual refresh), four eyes in the view *and* in the
// database, the database's refusal shown word for word, the diff of an edited payload, plain text.
#include "app/remediationdesk.h"
#include "models/approvalqueuemodel.h"
#include "models/payloaddiff.h"
#include "services/audit/auditwatcher.h"
#include "services/policy/policyloader.h"
#include "services/remediation/reclaimplanner.h"
#include "support/auditfixture.h"
#include "views/approvalqueueview.h"

#include <QAbstractItemModelTester>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTableWidget>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {
RemediationRequest pending(qint64 id, const QString &by, int approvals = 0)
{
    RemediationRequest r;
    r.id = id;
    r.requestedBy = by;
    r.createdAt = QDateTime::currentDateTimeUtc().addSecs(-60);
    r.expiresAt = QDateTime::currentDateTimeUtc().addSecs(3600);
    r.approvalCount = approvals;
    r.itemCount = 1;
    return r;
}

QList<qint64> ids(const ApprovalQueueModel &model)
{
    QList<qint64> out;
    for (int row = 0; row < model.rowCount(); ++row)
        out << model.index(row, ApprovalQueueModel::Id).data(ApprovalQueueModel::RequestIdRole).toLongLong();
    return out;
}

ConnectionProfile deskProfile(const QString &conninfo)
{
    ConnectionProfile profile;
    profile.databaseConninfo = conninfo;
    return profile; // no cluster: the diff reports that it cannot read originals
}

// A desk whose queue shows `requestId`, with that request selected and its detail loaded.
bool selectWhenListed(RemediationDesk &desk, qint64 requestId)
{
    if (!QTest::qWaitFor([&] { return desk.queueModel()->rowOf(requestId) >= 0; }, 10000))
        return false;
    desk.queueView()->selectRequest(requestId);
    return QTest::qWaitFor(
        [&] { return desk.queueView()->summaryText()->toPlainText().contains(u"Requested by"); }, 10000);
}
} // namespace

namespace {
// Two rows of order-projection stuck for over half an hour: one without a record, one whose record is
// behind the group's committed offset.
ReclaimPlan projectionReclaim(const QString &withoutRecord, const QString &committedPast)
{
    ReclaimPlan plan;
    plan.consumer = u"order-projection"_s;
    plan.topic = u"orders"_s;
    plan.olderThanMs = 1'800'000;
    plan.releaseTo = u"FAILED_RETRYABLE"_s;
    plan.rows = {{committedPast, u"IN_PROGRESS"_s, {}, {u"orders"_s, 0, 7}, true},
                 {withoutRecord, u"IN_PROGRESS"_s, {}, {u"orders"_s, -1, -1}, false}};
    return plan;
}

} // namespace

class TestApprovalQueue final : public QObject {
    Q_OBJECT
    AuditFixture m_db;

private Q_SLOTS:
    // The approver reads whom the replay is for and what it releases, in words, not as leftover JSON.
    void dryRunDetailsNameTheConsumerAndTheReleases()
    {
        DryRunResult dry;
        dry.count = 3;
        dry.targetConsumer = u"order-projection"_s;
        dry.alsoReceives = {u"connect-warehouse-sink"_s};
        dry.release = true;
        dry.releases = 2;
        const QString text = ApprovalQueueModel::dryRunDetails(dry.toJson());
        QVERIFY2(text.contains(u"for consumer: order-projection"_s), qPrintable(text));
        QVERIFY2(text.contains(u"also receives: connect-warehouse-sink"_s), qPrintable(text));
        QVERIFY2(text.contains(u"Release and replay: 2"_s), qPrintable(text));
        QVERIFY2(!text.contains(u"Other:"_s), qPrintable(text));
    }

    // A reclaim's plan is said in the approver's words, not left as raw JSON.
    void dryRunDetailsSayWhatAReclaimReleases()
    {
        const ReclaimPlan plan = projectionReclaim(u"k-2"_s, u"k-1"_s);
        DryRunResult dry;
        dry.count = 1;
        dry.release = true;
        dry.releases = 1;
        dry.reclaim = plan.toJson();
        const QString text = ApprovalQueueModel::dryRunDetails(dry.toJson());
        QVERIFY2(
            text.contains(u"Reclaim of stuck rows: 2 row(s) of order-projection in progress for over 1800 s, "
                          u"released for retry (FAILED_RETRYABLE) right before their records from orders "
                          u"are replayed; 1 record(s) are behind the group's committed offset"_s),
            qPrintable(text));
        QVERIFY2(text.contains(u"1 row(s) have no record"_s), qPrintable(text));
        QVERIFY2(!text.contains(u"Release and replay"_s), qPrintable(text));
        QVERIFY2(!text.contains(u"Other:"_s), qPrintable(text));
    }

    // A reclaim's rows without a record are listed by message id, an idempotency key of the plan's topic:
    // where the policy masks those, the plan as shown and stored (masked()) lists them masked.
    void reclaimSummaryMasksTheRowsMessageIds()
    {
        ReclaimPlan plan = projectionReclaim(u"k-stuck-secret-1"_s, u"k-stuck-secret-2"_s);
        QVERIFY(plan.summary().contains(u"k-stuck-secret-1"_s)); // the control: no rule
        const PolicyLoadResult policy =
            loadPolicy("deliverySemantics:\n  consumers:\n    order-projection:\n      topics: [orders]\n"
                       "masking:\n  - topic: orders\n    headers: [idempotency-key]\n  - topic: refunds\n    "
                       "key: true\n",
                       u"test"_s);
        QVERIFY2(policy.ok(), qPrintable(policy.messages().join(u"; "_s)));
        const ReclaimPlan shown = plan.masked(KeyMask(policy.policy));
        const QString summary = shown.summary();
        QVERIFY2(!summary.contains(u"k-stuck-secret"_s), qPrintable(summary));
        QVERIFY2(summary.contains(u"(replay them from the DLQ or the accounting view): (masked)"_s),
                 qPrintable(summary));
        QVERIFY(!QJsonDocument(shown.toJson()).toJson().contains("k-stuck-secret"));
        QCOMPARE(plan.rows.last().messageId, u"k-stuck-secret-1"_s); // the plan as read keeps its ids
        // A topic no rule masks keeps its ids in view.
        plan.topic = u"shipments"_s;
        QVERIFY(plan.masked(KeyMask(policy.policy)).summary().contains(u"k-stuck-secret-1"_s));
    }

    void modelMergesUpdatesAndAnswersWhoMayDecide()
    {
        ApprovalQueueModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setIdentity({u"bob"_s, true, true});
        model.setRequests({pending(3, u"alice"_s), pending(1, u"bob"_s), pending(2, u"alice"_s)});
        QCOMPARE(ids(model), (QList<qint64>{3, 2, 1}));

        // A live refresh: 2 decided elsewhere, 5 and 4 new, 3 got an approval. Rows move, not reset.
        QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.setRequests({pending(5, u"carol"_s), pending(4, u"alice"_s), pending(3, u"alice"_s, 1),
                           pending(1, u"bob"_s)});
        QCOMPARE(ids(model), (QList<qint64>{5, 4, 3, 1}));
        QCOMPARE(resets.size(), 0);
        QCOMPARE(inserted.size(), 1); // 5 and 4 in one contiguous insert
        QCOMPARE(removed.size(), 1);
        QVERIFY(!changed.isEmpty());
        QCOMPARE(model.index(2, ApprovalQueueModel::Approvals).data().toString(), u"1 of 1"_s);
        model.setRequests({});
        QCOMPARE(model.rowCount(), 0);

        // Who may decide: never one's own request, only approvers, only before expiry.
        QVERIFY(model.mayDecide(pending(7, u"alice"_s)).allowed);
        const ApprovalQueueModel::Permission own = model.mayDecide(pending(7, u"bob"_s));
        QVERIFY(!own.allowed);
        QVERIFY(own.why.contains(u"yourself"));
        RemediationRequest overdue = pending(8, u"alice"_s);
        overdue.expiresAt = QDateTime::currentDateTimeUtc().addSecs(-1);
        QVERIFY(!model.mayDecide(overdue).allowed);
        model.setIdentity({u"carol"_s, true, false});
        QVERIFY(!model.mayDecide(pending(7, u"alice"_s)).allowed);
    }

    void payloadDiffShowsOnlyTheEdit()
    {
        using PayloadDiff::Kind;
        // Re-formatting is no change; a changed field is one line out, one line in.
        const QList<PayloadDiff::Line> none =
            PayloadDiff::compare(R"({"b":1,"a":"x"})", "{\n  \"a\": \"x\",\n  \"b\": 1\n}");
        QVERIFY(std::all_of(none.cbegin(), none.cend(), [](const auto &l) { return l.kind == Kind::Same; }));
        const QList<PayloadDiff::Line> edit = PayloadDiff::compare(
            R"({"amount":10,"currency":"EUR","id":7})", R"({"amount":12,"currency":"EUR","id":7})");
        QCOMPARE(
            std::count_if(edit.cbegin(), edit.cend(), [](const auto &l) { return l.kind == Kind::Removed; }),
            1);
        QCOMPARE(
            std::count_if(edit.cbegin(), edit.cend(), [](const auto &l) { return l.kind == Kind::Added; }),
            1);
        const QString text = PayloadDiff::unified(edit);
        QVERIFY(text.contains(u"-     \"amount\": 10,"));
        QVERIFY(text.contains(u"+     \"amount\": 12,"));
        QVERIFY(text.indexOf(u"- ") < text.indexOf(u"+ "));
        // Not JSON: compared as text lines, control characters made visible.
        QCOMPARE(PayloadDiff::unified(PayloadDiff::compare("a\nb\x1b", "a\nc")), u"  a\n- b\u241B\n+ c"_s);
    }

    void requestAppearsLiveOnEveryDesk()
    {
        QVERIFY(m_db.prepare());
        RemediationDesk aliceDesk(deskProfile(m_db.conninfo(u"alice"_s)));
        RemediationDesk bobDesk(deskProfile(m_db.conninfo(u"bob"_s)));
        QAbstractItemModelTester tester(bobDesk.queueModel(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        for (RemediationDesk *desk : {&aliceDesk, &bobDesk})
            QTRY_COMPARE_WITH_TIMEOUT(desk->watcher()->state(), AuditWatcher::State::Connected, 15000);
        QCOMPARE(bobDesk.queueModel()->rowCount(), 0);
        QSignalSpy notified(bobDesk.watcher(), &AuditWatcher::requestsChanged);

        // Alice asks; nobody refreshes anything: bob's queue learns it from the database's NOTIFY.
        const qint64 id = m_db.createRequest(u"alice"_s, AuditFixture::sampleRequest(3));
        QVERIFY(id > 0);
        QTRY_COMPARE_WITH_TIMEOUT(bobDesk.queueModel()->rowOf(id), 0, 10000);
        QVERIFY(!notified.isEmpty());
        const QModelIndex row = bobDesk.queueModel()->index(0, 0);
        QCOMPARE(row.siblingAtColumn(ApprovalQueueModel::Requester).data().toString(), u"alice"_s);
        QCOMPARE(row.siblingAtColumn(ApprovalQueueModel::Items).data().toString(), u"3"_s);
        QVERIFY(row.siblingAtColumn(ApprovalQueueModel::Expires).data().toString().startsWith(u"in "));
        QVERIFY(row.siblingAtColumn(ApprovalQueueModel::DryRun).data().toString().contains(u"no-op 33.3 %"));

        // Bob may decide it; alice sees her own request with both buttons disabled, and why.
        QVERIFY(selectWhenListed(bobDesk, id));
        QVERIFY(bobDesk.queueView()->approveButton()->isEnabled());
        QVERIFY(selectWhenListed(aliceDesk, id));
        QVERIFY(!aliceDesk.queueView()->approveButton()->isEnabled());
        QVERIFY(!aliceDesk.queueView()->rejectButton()->isEnabled());
        QVERIFY(aliceDesk.queueView()->whyLabel()->text().contains(u"yourself"));
        QVERIFY(aliceDesk.queueView()->summaryText()->toPlainText().contains(u"Predicted no-ops: 1 of 3"));
    }

    void approverDecidesThroughTheView()
    {
        QVERIFY(m_db.prepare());
        const qint64 id = m_db.createRequest(u"alice"_s, AuditFixture::sampleRequest());
        QVERIFY(id > 0);
        RemediationDesk aliceDesk(deskProfile(m_db.conninfo(u"alice"_s)));
        RemediationDesk bobDesk(deskProfile(m_db.conninfo(u"bob"_s)));
        QVERIFY(selectWhenListed(bobDesk, id));
        QVERIFY(selectWhenListed(aliceDesk, id));

        ApprovalQueueView *view = bobDesk.queueView();
        view->commentEdit()->setText(u"checked the schema fix <b>ok</b>"_s);
        QTest::mouseClick(view->approveButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(view->resultLabel()->text(), u"Request %1 approved."_s.arg(id), 10000);

        // The database recorded bob's decision, with his comment as typed, and approved the request.
        const PgResult approvals = m_db.admin().exec(
            u"SELECT approver, decision, comment FROM berth.approvals WHERE request_id = $1"_s, {id});
        QVERIFY2(approvals.ok, qPrintable(approvals.error));
        QCOMPARE(approvals.rows.size(), 1);
        QCOMPARE(approvals.rows.at(0).value(0).toString(), u"bob"_s);
        QCOMPARE(approvals.rows.at(0).value(1).toString(), u"approve"_s);
        QCOMPARE(approvals.rows.at(0).value(2).toString(), u"checked the schema fix <b>ok</b>"_s);
        QCOMPARE(m_db.scalar(u"SELECT status FROM berth.requests WHERE id = $1"_s, {id}).toString(),
                 u"approved"_s);

        // It leaves both queues, live; alice's view says so instead of selecting another request.
        QTRY_COMPARE_WITH_TIMEOUT(bobDesk.queueModel()->rowCount(), 0, 10000);
        QTRY_COMPARE_WITH_TIMEOUT(aliceDesk.queueModel()->rowCount(), 0, 10000);
        QCOMPARE(aliceDesk.queueView()->currentRequestId(), 0);
        // It says what happened, as the database has it: approved, and by whom.
        QTRY_COMPARE_WITH_TIMEOUT(
            aliceDesk.queueView()->resultLabel()->text(),
            u"Request %1 left the queue: it is approved now (approved by bob)."_s.arg(id), 10000);
        QVERIFY(!aliceDesk.queueView()->approveButton()->isEnabled());
    }

    void selfApprovalIsRefusedByTheDatabase()
    {
        QVERIFY(m_db.prepare());
        const qint64 id = m_db.createRequest(u"alice"_s, AuditFixture::sampleRequest());
        QVERIFY(id > 0);

        // Straight to the database, as raw code would: refused, with the database's reason.
        PgSession session;
        QString error;
        QVERIFY2(session.connect(m_db.conninfo(u"alice"_s), &error), qPrintable(error));
        AuditStore store(session);
        QString refusal;
        QVERIFY(!store.approve(id, u"lgtm"_s, &refusal));
        QCOMPARE(store.lastSqlState(), u"42501"_s);
        QVERIFY2(refusal.contains(u"approver must differ from the requester"), qPrintable(refusal));

        // Through the desk, as a stale or tampered-with button would send it: the same words reach the view.
        RemediationDesk aliceDesk(deskProfile(m_db.conninfo(u"alice"_s)));
        QVERIFY(selectWhenListed(aliceDesk, id));
        QVERIFY(!aliceDesk.queueView()->approveButton()->isEnabled());
        QSignalSpy outcomes(aliceDesk.watcher(), &AuditWatcher::decisionFinished);
        aliceDesk.queueView()->submitDecision(true);
        QTRY_COMPARE_WITH_TIMEOUT(outcomes.size(), 1, 10000);
        const auto outcome = outcomes.at(0).at(0).value<AuditDecisionOutcome>();
        QVERIFY(!outcome.ok);
        QCOMPARE(outcome.sqlState, u"42501"_s);
        QCOMPARE(outcome.error, refusal);
        const QString shown = aliceDesk.queueView()->resultLabel()->text();
        QVERIFY2(shown.contains(refusal), qPrintable(shown));
        QCOMPARE(m_db.scalar(u"SELECT count(*) FROM berth.approvals WHERE request_id = $1"_s, {id}).toInt(),
                 0);
        QCOMPARE(m_db.scalar(u"SELECT status FROM berth.requests WHERE id = $1"_s, {id}).toString(),
                 u"pending"_s);
    }

    // The policy masks the key and idempotency key of the payments topic's records (a rule stated for the
    // DLQ topic) and the key of the cards topic's (stated for the original topic; the consumer's dlq.topic
    // says the cards DLQ holds them): the approver's item table and summary never show them, not even from
    // a dry run stored with them in its words; the orders topic's keys still show.
    void maskedKeysNeverReachTheApprover()
    {
        QVERIFY(m_db.prepare());
        NewRemediationRequest request = AuditFixture::sampleRequest(3);
        const QList<std::tuple<QString, QByteArray, QString>> items = {
            {u"payments-dlt"_s, "cust-4711-secret", u"pay-idem-4711"_s},
            {u"cards-dlt"_s, "4111-1111-card", u"card-idem-77"_s},
            {u"orders-dlt"_s, "order-visible-5", u"idem-visible-5"_s}};
        for (qsizetype i = 0; i < items.size(); ++i) {
            request.items[i].sourceTopic = std::get<0>(items.at(i));
            request.items[i].key = std::get<1>(items.at(i));
            request.items[i].idempotencyKey = std::get<2>(items.at(i));
        }
        request.dryRun.insert(u"sourcePartitions"_s,
                              QJsonArray{u"cards-dlt/1"_s, u"orders-dlt/2"_s, u"payments-dlt/0"_s});
        request.dryRun.insert(u"orderingChecked"_s, true);
        request.dryRun.insert(u"orderingRiskItems"_s, 2);
        request.dryRun.insert(u"orderingRiskSamples"_s,
                              QJsonArray{u"payments/0/4 key=cust-4711-secret (later at 9)"_s,
                                         u"orders/0/5 key=order-visible-5 (later at 8)"_s});
        const qint64 id = m_db.createRequest(u"alice"_s, request);
        QVERIFY(id > 0);

        const PolicyLoadResult policy =
            loadPolicy("deliverySemantics:\n  consumers:\n    card-capture:\n      topics: [cards]\n"
                       "      dlq: {enabled: true, topic: cards-dlt}\n"
                       "masking:\n  - topic: payments-dlt\n    key: true\n    headers: [idempotency-key]\n"
                       "  - topic: cards\n    key: true\n",
                       u"test"_s);
        QVERIFY2(policy.ok(), qPrintable(policy.messages().join(u"; "_s)));
        RemediationDesk bobDesk(deskProfile(m_db.conninfo(u"bob"_s)));
        bobDesk.setMasking(policy.policy);
        QVERIFY(selectWhenListed(bobDesk, id));
        QTableWidget *table = bobDesk.queueView()->itemsTable();
        QTRY_COMPARE(table->rowCount(), 3);
        QString shown = bobDesk.queueView()->summaryText()->toPlainText();
        for (int row = 0; row < table->rowCount(); ++row) {
            for (int column = 0; column < table->columnCount(); ++column)
                shown += u'\n' + table->item(row, column)->text();
        }
        for (const QString &secret : {u"cust-4711"_s, u"pay-idem-4711"_s, u"4111-1111"_s})
            QVERIFY2(!shown.contains(secret), qPrintable(shown));
        QCOMPARE(table->item(0, 2)->text(), u"(masked)"_s);
        QCOMPARE(table->item(0, 3)->text(), u"(masked)"_s);
        QCOMPARE(table->item(1, 2)->text(), u"(masked)"_s);
        QCOMPARE(table->item(1, 3)->text(), u"card-idem-77"_s); // the cards rule masks the key only
        QCOMPARE(table->item(2, 2)->text(), u"order-visible-5"_s);
        QCOMPARE(table->item(2, 3)->text(), u"idem-visible-5"_s);
        QVERIFY2(shown.contains(u"payments/0/4 key=(masked) (later at 9)"_s), qPrintable(shown));
        // (The orders sample is masked too: a stored sample names its original topic only, so the rules of
        // every DLQ topic of the request apply to it.)
        // The queue's own tooltip of the dry run, read from the list without the items, masks it too.
        const QString tip = bobDesk.queueModel()
                                ->index(bobDesk.queueModel()->rowOf(id), ApprovalQueueModel::DryRun)
                                .data(Qt::ToolTipRole)
                                .toString();
        QVERIFY2(tip.contains(u"key=(masked)"_s) && !tip.contains(u"cust-4711"_s), qPrintable(tip));
        // The stored request keeps the real keys: the executor reads those.
        QCOMPARE(m_db.scalar(u"SELECT count(*) FROM berth.request_items WHERE request_id = $1 AND "
                             u"idempotency_key = 'pay-idem-4711'"_s,
                             {id})
                     .toInt(),
                 1);

        // An edit of a payments record holds the original's masked field again: while the original is
        // unavailable (no cluster), the edit shown is masked too.
        NewRemediationRequest edit = AuditFixture::sampleRequest(1);
        edit.action = RemediationAction::EditReplay;
        edit.items[0].sourceTopic = u"payments-dlt"_s;
        edit.items[0].editedPayload = R"({"card":"4111-2222-3333-4444","amount":12})";
        const qint64 editId = m_db.createRequest(u"alice"_s, edit);
        QVERIFY(editId > 0);
        DeliveryPolicy fields = policy.policy;
        fields.masking.append(MaskRule{u"payments-dlt"_s, {u"$.card"_s}, {}, false, 0});
        bobDesk.setMasking(fields);
        QVERIFY(selectWhenListed(bobDesk, editId));
        QTRY_VERIFY(bobDesk.queueView()->diffText()->toPlainText().contains(u"unavailable"));
        const QString diff = bobDesk.queueView()->diffText()->toPlainText();
        QVERIFY2(!diff.contains(u"4111-2222"_s) && diff.contains(u"(masked)"_s) && diff.contains(u"12"_s),
                 qPrintable(diff));
    }

    void editedPayloadIsShownAsPlainTextDiff()
    {
        QVERIFY(m_db.prepare());
        const QByteArray original = R"({"id":7,"note":"<b>bold</b>","amount":10})";
        const QByteArray edited = R"({"id":7,"note":"<b>bold</b>","amount":12})";
        NewRemediationRequest request = AuditFixture::sampleRequest(1, u"fix <i>amount</i>\u202E"_s);
        request.action = RemediationAction::EditReplay;
        request.items[0].payloadSha256 = AuditFixture::sha256(original);
        request.items[0].editedPayload = edited;
        const qint64 id = m_db.createRequest(u"alice"_s, request);
        QVERIFY(id > 0);

        RemediationDesk bobDesk(deskProfile(m_db.conninfo(u"bob"_s)));
        QSignalSpy wanted(bobDesk.queueView(), &ApprovalQueueView::originalPayloadWanted);
        QVERIFY(selectWhenListed(bobDesk, id));
        // An edit_replay request opens on its first item's diff, and asks for the original record.
        QTRY_COMPARE_WITH_TIMEOUT(wanted.size(), 1, 5000);
        QCOMPARE(wanted.at(0).at(0).toString(), u"orders-dlt"_s);
        QCOMPARE(wanted.at(0).at(2).toLongLong(), 100);
        // Without a cluster the desk answers that it cannot read it; the edited payload is still shown.
        QTRY_VERIFY(bobDesk.queueView()->diffText()->toPlainText().contains(u"unavailable"));

        // With the original in hand (as the Kafka fetch delivers it): the diff, and the pin checked.
        bobDesk.queueView()->setOriginalPayload(u"orders-dlt"_s, 0, 100, original, {});
        QVERIFY(wanted.size() == 1);
        bobDesk.queueView()->selectItem(0);
        const QString diff = bobDesk.queueView()->diffText()->toPlainText();
        QVERIFY2(diff.contains(u"-     \"amount\": 10,"), qPrintable(diff));
        QVERIFY2(diff.contains(u"+     \"amount\": 12,"), qPrintable(diff));
        QVERIFY(diff.contains(u"matches the pinned SHA-256"));
        QVERIFY(diff.contains(u"\"note\": \"<b>bold</b>\"")); // markup stays text
        // A record that no longer matches its pin is called out.
        bobDesk.queueView()->setOriginalPayload(u"orders-dlt"_s, 0, 100, "{}", {});
        QVERIFY(
            bobDesk.queueView()->diffText()->toPlainText().contains(u"does not match the pinned SHA-256"));

        // The reason as typed, with the bidi control neutralised, in the table and the summary.
        const QString reason = bobDesk.queueModel()->index(0, ApprovalQueueModel::Reason).data().toString();
        QVERIFY2(reason.contains(u"fix <i>amount</i>\uFFFD"), qPrintable(reason));
        QVERIFY(bobDesk.queueView()->summaryText()->toPlainText().contains(u"fix <i>amount</i>"));
        QVERIFY(bobDesk.queueView()->itemsTable()->item(0, 5)->text().startsWith(
            u"edited (%1 byte"_s.arg(edited.size())));
    }
};

QTEST_MAIN(TestApprovalQueue)
#include "tst_approvalqueue.moc"
