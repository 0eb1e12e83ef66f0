// What an execution's confirmation says, from a stored request and its dry run: a release and replay (and
// a reclaim) names the inbox rows it changes besides the records it produces.
#include "models/actionsummary.h"
#include "services/remediation/dryrun.h"

#include <QTest>

using namespace Qt::StringLiterals;

namespace {
RemediationRequest replayOf(const DryRunResult &dry)
{
    RemediationRequest r;
    r.id = 2;
    r.action = RemediationAction::Replay;
    r.requestedBy = u"bob"_s;
    r.reasonCode = u"poison-fixed"_s;
    r.reason = u"replay the orders it rejected"_s;
    r.dryRun = dry.toJson();
    r.itemCount = dry.count;
    return r;
}

DryRunResult dryRun(int count)
{
    DryRunResult dry;
    dry.count = count;
    dry.destinationTopics = {u"orders"_s};
    dry.consumersAffected = {u"connect-warehouse-sink"_s, u"order-projection"_s};
    dry.targetConsumer = u"order-projection"_s;
    return dry;
}
} // namespace

class TestActionSummary final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void releaseAndReplayNamesTheRowsItReleases()
    {
        DryRunResult dry = dryRun(4);
        dry.release = true;
        dry.releases = 3;
        const ActionSummary s = ActionSummary::forRequest(replayOf(dry));
        QCOMPARE(s.destination, u"Produces to orders"_s);
        QCOMPARE(s.count, 4);
        const QString notes = s.notes.join(u'\n');
        QVERIFY2(notes.contains(u"Releases 3 parked or failed inbox row(s) of order-projection"_s),
                 qPrintable(notes));

        dry.reclaim = QJsonObject{{u"behindCommitted"_s, 0}};
        const QString reclaim = ActionSummary::forRequest(replayOf(dry)).notes.join(u'\n');
        QVERIFY2(reclaim.contains(u"Releases 3 stuck in-progress inbox row(s) of order-projection"_s),
                 qPrintable(reclaim));

        // A plain replay, or a release no row needs (none parked, or no releaseTo): nothing to say.
        dry = dryRun(2);
        QVERIFY(!ActionSummary::forRequest(replayOf(dry)).notes.join(u'\n').contains(u"Releases"_s));
        dry.release = true;
        QVERIFY(!ActionSummary::forRequest(replayOf(dry)).notes.join(u'\n').contains(u"Releases"_s));
    }
};

QTEST_GUILESS_MAIN(TestActionSummary)
#include "tst_actionsummary.moc"
