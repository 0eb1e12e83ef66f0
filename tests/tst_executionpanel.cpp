// The Execution panel on its own, offscreen: what it shows belongs to the request selected. The detail pane
// names the request the Execute button acts on, a finished run's progress and result leave when another
// request is selected, an offset reset offers no canary, and each verified item says its outcome once.
#include "views/replayexecutionpanel.h"
#include "views/wrappinglabel.h"

#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QHeaderView>
#include <QSplitter>
#include <QTableWidget>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {
RemediationRequest request(qint64 id, RemediationAction action)
{
    RemediationRequest r;
    r.id = id;
    r.action = action;
    r.status = RequestStatus::Approved;
    r.requestedBy = u"bob"_s;
    r.createdAt = QDateTime::currentDateTimeUtc();
    r.reasonCode = u"poison-fixed"_s;
    r.reason = u"request "_s + QString::number(id);
    r.itemCount = 4;
    r.approvalCount = 1;
    return r;
}

AuditIdentity operatorIdentity()
{
    AuditIdentity who;
    who.role = u"alice"_s;
    who.isOperator = true;
    who.isApprover = true;
    return who;
}

// A verification of request `id` at `consumer`, without items yet.
ReplayVerification verificationOf(qint64 id, const QString &consumer, VerificationResult result)
{
    ReplayVerification v;
    v.requestId = id;
    v.consumer = consumer;
    v.result = result;
    return v;
}

WrappingLabel *detailPane(ReplayExecutionPanel &panel)
{
    return panel.findChild<WrappingLabel *>(u"tableDetailPane"_s);
}
} // namespace

class TestExecutionPanel final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // A current cell without a selection (what a table shows after a refresh) is no request chosen: the
    // pane under the table shows nothing, as the Execute button acts on nothing.
    void detailPaneShowsTheSelectedRequestOnly()
    {
        ReplayExecutionPanel panel;
        panel.resize(1000, 800);
        panel.show();
        panel.setListing({request(3, RemediationAction::ResetOffsets), request(2, RemediationAction::Replay)},
                         operatorIdentity());
        panel.table()->setCurrentCell(1, 0);
        panel.table()->clearSelection();
        QCOMPARE(panel.currentRequestId(), 0);
        QVERIFY(!panel.executeButton()->isEnabled());
        QVERIFY(detailPane(panel));
        QVERIFY2(!detailPane(panel)->isVisible() || detailPane(panel)->text().isEmpty(),
                 qPrintable(detailPane(panel)->text()));

        panel.selectRequest(2);
        QCOMPARE(panel.currentRequestId(), 2);
        QVERIFY(panel.executeButton()->isEnabled());
        QVERIFY(detailPane(panel)->isVisible());
        QVERIFY2(detailPane(panel)->text().contains(u"Id: 2"_s), qPrintable(detailPane(panel)->text()));
    }

    void anotherRequestSelectedDropsTheLastRunsResult()
    {
        ReplayExecutionPanel panel;
        panel.setListing({request(3, RemediationAction::ResetOffsets), request(2, RemediationAction::Replay)},
                         operatorIdentity());
        QSignalSpy runs(&panel, &ReplayExecutionPanel::executeRequested);
        panel.selectRequest(2);
        QVERIFY(panel.canaryBox()->isEnabled());
        panel.execute();
        QCOMPARE(runs.size(), 1);
        ReplayOutcome outcome;
        outcome.started = true;
        outcome.finalStatus = RequestStatus::Completed;
        outcome.total = 4;
        outcome.delivered = 4;
        outcome.problems.append({1, u"2-1"_s, u"slow"_s});
        panel.setOutcome(outcome);
        QVERIFY(panel.resultLabel()->text().contains(u"Request 2"_s));
        QCOMPARE(panel.progressBar()->value(), 4);
        QVERIFY(!panel.problemsText()->toPlainText().isEmpty());

        // The same request selected again (a refresh) keeps them.
        panel.setListing({request(3, RemediationAction::ResetOffsets), request(2, RemediationAction::Replay)},
                         operatorIdentity());
        QVERIFY(panel.resultLabel()->text().contains(u"Request 2"_s));

        panel.selectRequest(3);
        QCOMPARE(panel.currentRequestId(), 3);
        QVERIFY2(panel.resultLabel()->text().isEmpty(), qPrintable(panel.resultLabel()->text()));
        QVERIFY(panel.progressLabel()->text().isEmpty());
        QCOMPARE(panel.progressBar()->value(), 0);
        QVERIFY(panel.problemsText()->toPlainText().isEmpty());
        QVERIFY(!panel.canaryBox()->isEnabled()); // an offset reset produces nothing
        QVERIFY(panel.executeButton()->isEnabled());
    }

    void itemBackInTheDlqSaysWhereOnce()
    {
        ReplayExecutionPanel panel;
        ReplayVerification v;
        v.requestId = 2;
        v.consumer = u"order-projection"_s;
        v.result = VerificationResult::VerifiedWithFailures;
        VerifiedItem item;
        item.itemNo = 1;
        item.replayId = u"2-1"_s;
        item.outcome = VerifyOutcome::ReturnedToDlq;
        item.detail = u"orders-dlt/3/9"_s;
        v.items = {item};
        v.counts[size_t(VerifyOutcome::ReturnedToDlq)] = 1;
        panel.setVerification(v, true);
        QCOMPARE(panel.outcomesText()->toPlainText(), u"item 1 (2-1): back in the DLQ at orders-dlt/3/9"_s);
    }

    // A verification read back from its audit event lists every item's outcome, not only the failures:
    // a request verified whole shows what became of each of its records.
    void storedVerificationListsEachItem()
    {
        ReplayVerification live =
            verificationOf(2, u"order-projection"_s, VerificationResult::VerifiedWithFailures);
        const VerifyOutcome outcomes[] = {VerifyOutcome::Processed, VerifyOutcome::Processed, VerifyOutcome::NoOp,
                                          VerifyOutcome::ReturnedToDlq, VerifyOutcome::Processed};
        for (int n = 1; n <= 5; ++n) {
            VerifiedItem item;
            item.itemNo = n;
            item.replayId = u"2-"_s + QString::number(n);
            item.outcome = outcomes[n - 1];
            item.detail = item.outcome == VerifyOutcome::ReturnedToDlq ? u"orders-dlt/1/7"_s : u"COMPLETED"_s;
            live.items.append(item);
            ++live.counts[size_t(item.outcome)];
        }
        const ReplayVerification stored = ReplayVerification::fromEventDetails(live.eventDetails());
        ReplayExecutionPanel panel;
        panel.setListing({request(2, RemediationAction::Replay)}, operatorIdentity());
        panel.selectRequest(2);
        panel.setStoredVerification(2, stored, QString());
        const QString text = panel.outcomesText()->toPlainText();
        QCOMPARE(text.split(u'\n').size(), 5);
        QVERIFY2(text.startsWith(u"item 4 (2-4): back in the DLQ at orders-dlt/1/7\n"_s), qPrintable(text));
        for (const QString &line : {u"item 1 (2-1): processed"_s, u"item 3 (2-3): no-op"_s, u"item 5 (2-5): processed"_s})
            QVERIFY2(text.contains(line), qPrintable(text));
    }

    // At the desk's size the request list keeps a good share of the height beside the run's area, and the
    // split the operator chose comes back with the saved state.
    void requestListKeepsItsShareAndItsSplit()
    {
        ReplayExecutionPanel panel;
        panel.resize(1400, 760);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QList<RemediationRequest> requests;
        for (qint64 id = 1; id <= 12; ++id)
            requests.append(request(id, RemediationAction::Replay));
        panel.setListing(requests, operatorIdentity());
        panel.selectRequest(12); // the detail pane under the list fills
        QCoreApplication::processEvents();
        const int rowHeight = panel.table()->verticalHeader()->defaultSectionSize();
        QVERIFY2(panel.table()->viewport()->height() >= 6 * rowHeight,
                 qPrintable(QString::number(panel.table()->viewport()->height())));

        panel.splitter()->setSizes({500, 200});
        const QList<int> chosen = panel.splitter()->sizes();
        const QByteArray state = panel.saveState();
        ReplayExecutionPanel again;
        again.resize(1400, 760);
        again.show();
        QVERIFY(QTest::qWaitForWindowExposed(&again));
        again.setListing(requests, operatorIdentity());
        again.selectRequest(12);
        again.restoreState(state);
        QCoreApplication::processEvents();
        QCOMPARE(again.splitter()->sizes(), chosen);
    }

    // A partition an interrupted reset found moved on when resumed is said as such, with both offsets.
    void resetPartitionMovedSinceIsSaid()
    {
        ReplayExecutionPanel panel;
        panel.setListing({request(3, RemediationAction::ResetOffsets)}, operatorIdentity());
        panel.selectRequest(3);
        ReplayVerification v = verificationOf(3, u"orders-sink"_s, VerificationResult::VerifiedWithFailures);
        v.resetTopic = u"orders"_s;
        OffsetResetPartitionOutcome moved;
        moved.partition = 0;
        moved.before = 4940;
        moved.target = 4900;
        moved.committed = 4940;
        moved.movedSince = true;
        OffsetResetPartitionOutcome done;
        done.partition = 1;
        done.before = 5000;
        done.target = 4900;
        done.committed = 4900;
        v.resetPartitions = {moved, done};
        panel.setStoredVerification(3, v, QString());
        const QString text = panel.outcomesText()->toPlainText();
        QVERIFY2(text.contains(u"partition 0: moved since the reset, committed 4940 (target 4900)"_s),
                 qPrintable(text));
        QVERIFY2(text.contains(u"partition 1: 5000 → 4900, committed 4900 — verified"_s), qPrintable(text));
        QVERIFY(panel.verificationLabel()->text().contains(u"verified with failures"_s));
    }
};

QTEST_MAIN(TestExecutionPanel)
#include "tst_executionpanel.moc"
