// The alert rules of services/monitor/alertrules.h on a fake clock: each fires, holds, clears with
// hysteresis, and has a control that must not fire.
#include "services/monitor/alertrules.h"
#include "services/policy/policyloader.h"

#include <QSignalSpy>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {
constexpr qint64 second = 1000;
constexpr qint64 minute = 60 * second;
constexpr qint64 t0 = 1'700'000'000'000; // an arbitrary epoch for the fake clock

LagSnapshot lagAt(qint64 t, const QString &group, qint64 timeLagMs, LagStatus status = LagStatus::Ok)
{
    LagSnapshot s;
    s.reachable = true;
    s.takenAt = QDateTime::fromMSecsSinceEpoch(t0 + t, Qt::UTC);
    GroupLag g;
    g.group = group;
    g.maxTimeLagMs = timeLagMs;
    g.lag = timeLagMs / 100;
    g.status = status;
    g.statusReason = u"committed offset unchanged"_s;
    s.groupRows.append(g);
    return s;
}

LagSnapshot dlqAt(qint64 t, const QString &topic, qint64 end)
{
    LagSnapshot s;
    s.reachable = true;
    s.takenAt = QDateTime::fromMSecsSinceEpoch(t0 + t, Qt::UTC);
    s.endOffsets.insert({topic, 0}, end);
    return s;
}

InboxBoard boardAt(qint64 t, const QString &mapping)
{
    InboxBoard b;
    b.mappingName = mapping;
    b.table = u"public.processed_message"_s;
    b.takenAt = QDateTime::fromMSecsSinceEpoch(t0 + t, Qt::UTC);
    b.stuckAfterSeconds = 300;
    b.consumers.append({u"order-projection"_s, {}});
    return b;
}

AlertPolicy policyOf(const char *yaml)
{
    const PolicyLoadResult r = loadPolicy(QByteArray(yaml), u"test"_s);
    if (!r.ok())
        qWarning() << r.messages();
    return AlertPolicy::from(r.policy);
}

const char *const policyYaml = R"(deliverySemantics:
  consumers:
    order-projection:
      topics: [orders]
      dlq: {enabled: true, topic: orders-dlt, owner: team-orders}
      poison: {maxAttemptsBeforePark: 3}
      lagSlo: {maxLagSeconds: 30}
    payment-capture:
      topics: [payments]
      dlq: {enabled: true, topic: payments-dlq, owner: team-payments, critical: true}
    email-sender:
      topics: [notifications]
      dlq: {topic: emails-dlq, alert: {count: 3, windowMinutes: 5}}
)";

struct Rig {
    AlertEngine engine;
    AlertRuleSet rules{engine};
    QSignalSpy fired{&engine, &AlertEngine::fired};
    QSignalSpy cleared{&engine, &AlertEngine::cleared};
    Rig() { rules.setPolicy(policyOf(policyYaml)); }
    QList<Alert> firedOf(const QString &rule) const
    {
        QList<Alert> out;
        for (const auto &args : fired) {
            const Alert a = args.at(0).value<Alert>();
            if (a.rule == rule)
                out.append(a);
        }
        return out;
    }
    int clearedOf(const QString &rule) const
    {
        int n = 0;
        for (const auto &args : cleared)
            n += args.at(0).value<Alert>().rule == rule;
        return n;
    }
};
} // namespace

class TestAlertRules : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void policyKeysReachTheRules();
    void lagSloFiresHoldsAndClearsWithHysteresis();
    void lagSloBelowTenTimesSNeverPages();
    void lagSloSecondPageWithinAnHourSaysRollback();
    void lagSloP95IsOverFifteenMinutes();
    void commitStallFiresOnStopAndStall();
    void idlePartitionIgnoresQuietDlqs();
    void dlqCountFiresWithoutSustain();
    void dlqSparseArrivalsAddUp();
    void dlqFewerThanTheCountNeverFires();
    void dlqCriticalFiresOnAnyArrival();
    void dlqBaselineAndRecreatedTopicAreNotArrivals();
    void retriesExhaustedFromDeadLetterHeaders();
    void retriesExhaustedFromInboxAttempts();
    void deserializationFailuresByExceptionClass();
    void duplicateSpikeSustainedAndHysteresis();
    void stuckInProgressPerMapping();
    void outboxGrowingHoldsAndClears();
    void accountingUnaccountedAndOrderBreaks();
    void accountingExampleKeysAreMasked();
    void liveOrderTailBreaksFireAndClear();
    void snoozeNeedsAReasonAndSilencesRepeats();
    void thresholdsNameTheirSource();
};

void TestAlertRules::policyKeysReachTheRules()
{
    const AlertPolicy p = policyOf(policyYaml);
    QCOMPARE(p.sloSeconds(u"order-projection"_s), 30);
    QCOMPARE(p.sloSeconds(u"unknown-group"_s), AlertPolicy::defaultSloSeconds);
    QVERIFY(p.dlqTopics.value(u"payments-dlq"_s).critical);
    QCOMPARE(p.dlqTopics.value(u"emails-dlq"_s).count.value_or(0), 3);
    QCOMPARE(p.dlqTopics.value(u"emails-dlq"_s).windowMinutes.value_or(0), 5);
    QCOMPARE(p.ownerOfTopic(u"orders-dlt"_s), u"team-orders"_s);
    QCOMPARE(p.ownerOfTopic(u"orders"_s), u"team-orders"_s);
    QCOMPARE(p.maxAttemptsBeforePark(u"order-projection"_s), 3);
}

void TestAlertRules::lagSloFiresHoldsAndClearsWithHysteresis()
{
    Rig rig; // order-projection: S = 30 s, page above 300 s, clear below 240 s
    qint64 t = 0;
    auto feed = [&](qint64 timeLagMs, qint64 forMs) {
        for (const qint64 end = t + forMs; t < end; t += 5 * second)
            rig.rules.observeLag(lagAt(t, u"order-projection"_s, timeLagMs));
    };
    feed(301 * second, 115 * second); // above 10·S, not yet 2 min
    QCOMPARE(rig.firedOf(AlertRules::lagSlo).size(), 0);
    feed(301 * second, 10 * second); // 2 min reached
    QCOMPARE(rig.firedOf(AlertRules::lagSlo).size(), 1);
    const Alert alert = rig.firedOf(AlertRules::lagSlo).first();
    QCOMPARE(alert.subject, u"order-projection"_s);
    QCOMPARE(alert.owner, u"team-orders"_s);
    QCOMPARE(alert.view, u"charts"_s);
    QVERIFY(alert.note.isEmpty());
    feed(250 * second, 10 * minute); // between 8·S and 10·S: held, not cleared
    QCOMPARE(rig.clearedOf(AlertRules::lagSlo), 0);
    feed(200 * second, 55 * second); // below 8·S, under a minute
    QCOMPARE(rig.clearedOf(AlertRules::lagSlo), 0);
    feed(200 * second, 10 * second);
    QCOMPARE(rig.clearedOf(AlertRules::lagSlo), 1);
    QCOMPARE(rig.firedOf(AlertRules::lagSlo).size(), 1);
}

void TestAlertRules::lagSloBelowTenTimesSNeverPages()
{
    Rig rig;
    // An hour just under 10·S (and an unknown time lag now and then): never a page.
    for (qint64 t = 0; t < 60 * minute; t += 5 * second)
        rig.rules.observeLag(lagAt(t, u"order-projection"_s, (t / second) % 7 == 0 ? -1 : 299 * second));
    // A group the policy does not name gets S = 60 s: 590 s of lag is fine, 610 s pages.
    for (qint64 t = 0; t < 10 * minute; t += 5 * second)
        rig.rules.observeLag(lagAt(t, u"other-group"_s, 590 * second));
    QCOMPARE(rig.firedOf(AlertRules::lagSlo).size(), 0);
    for (qint64 t = 10 * minute; t <= 12 * minute; t += 5 * second)
        rig.rules.observeLag(lagAt(t, u"other-group"_s, 610 * second));
    QCOMPARE(rig.firedOf(AlertRules::lagSlo).size(), 1);
}

void TestAlertRules::lagSloSecondPageWithinAnHourSaysRollback()
{
    Rig rig;
    qint64 t = 0;
    auto page = [&] {
        for (const qint64 end = t + 2 * minute; t <= end; t += 5 * second)
            rig.rules.observeLag(lagAt(t, u"order-projection"_s, 400 * second));
        for (const qint64 end = t + 2 * minute; t <= end; t += 5 * second)
            rig.rules.observeLag(lagAt(t, u"order-projection"_s, 0));
    };
    page();
    t += 20 * minute;
    page(); // second page, within the hour
    t += 70 * minute;
    page(); // more than an hour after the last one: investigate again
    const QList<Alert> pages = rig.firedOf(AlertRules::lagSlo);
    QCOMPARE(pages.size(), 3);
    QCOMPARE(rig.clearedOf(AlertRules::lagSlo), 3);
    QVERIFY(pages.at(0).note.isEmpty());
    QCOMPARE(pages.at(1).note, u"rollback the last deploy"_s);
    QVERIFY(pages.at(2).note.isEmpty());
}

void TestAlertRules::lagSloP95IsOverFifteenMinutes()
{
    Rig rig;
    // 20 minutes: the first five at 500 s, then 180 samples of 1..180 s (15 min at 5 s).
    qint64 t = 0;
    for (; t < 5 * minute; t += 5 * second)
        rig.rules.observeLag(lagAt(t, u"g"_s, 500 * second));
    for (int i = 1; i <= 180; ++i, t += 5 * second)
        rig.rules.observeLag(lagAt(t, u"g"_s, i * second));
    // The 500 s samples are older than 15 min and gone; nearest rank 95 % of 180 = the 171st value.
    QCOMPARE(rig.rules.lagSlo().p95Ms(u"g"_s), 171 * second);
    QCOMPARE(rig.rules.lagSlo().p95Ms(u"never-seen"_s), -1);
    // The page's evidence carries the p95 against S.
    for (qint64 end = t + 3 * minute; t < end; t += 5 * second)
        rig.rules.observeLag(lagAt(t, u"g"_s, 700 * second));
    QCOMPARE(rig.firedOf(AlertRules::lagSlo).size(), 1);
    QVERIFY2(rig.firedOf(AlertRules::lagSlo).first().message.contains(u"p95 over 15 min"_s),
             qPrintable(rig.firedOf(AlertRules::lagSlo).first().message));
}

void TestAlertRules::commitStallFiresOnStopAndStall()
{
    Rig rig;
    qint64 t = 0;
    for (; t < 10 * minute; t += 5 * second) // control: lag rising (WARN) is not a commit stall
        rig.rules.observeLag(lagAt(t, u"order-projection"_s, 0, LagStatus::Warn));
    QCOMPARE(rig.firedOf(AlertRules::commitStall).size(), 0);
    for (const qint64 end = t + 55 * second; t < end; t += 5 * second)
        rig.rules.observeLag(lagAt(t, u"order-projection"_s, 0, LagStatus::Stop));
    QCOMPARE(rig.firedOf(AlertRules::commitStall).size(), 0);
    for (const qint64 end = t + 10 * second; t < end; t += 5 * second)
        rig.rules.observeLag(lagAt(t, u"order-projection"_s, 0, LagStatus::Stall));
    QCOMPARE(rig.firedOf(AlertRules::commitStall).size(), 1);
    for (const qint64 end = t + 65 * second; t < end; t += 5 * second)
        rig.rules.observeLag(lagAt(t, u"order-projection"_s, 0, LagStatus::Ok));
    QCOMPARE(rig.clearedOf(AlertRules::commitStall), 1);
}

void TestAlertRules::idlePartitionIgnoresQuietDlqs()
{
    Rig rig;
    LagSnapshot s = dlqAt(0, u"orders"_s, 100);
    s.endOffsets.insert({u"orders-dlt"_s, 0}, 5);
    s.idlePartitions = {{u"orders-dlt"_s, 0}};
    rig.rules.observeLag(s);
    QCOMPARE(rig.firedOf(AlertRules::idlePartition).size(), 0); // a quiet DLQ is good news
    s.idlePartitions = {{u"orders"_s, 0}, {u"orders-dlt"_s, 0}};
    rig.rules.observeLag(s);
    QCOMPARE(rig.firedOf(AlertRules::idlePartition).size(), 1);
    QCOMPARE(rig.firedOf(AlertRules::idlePartition).first().subject, u"orders[0]"_s);
    QCOMPARE(rig.firedOf(AlertRules::idlePartition).first().owner, u"team-orders"_s);
}

void TestAlertRules::dlqCountFiresWithoutSustain()
{
    Rig rig;
    rig.rules.observeLag(dlqAt(0, u"orders-dlt"_s, 50)); // baseline
    rig.rules.observeLag(dlqAt(5 * second, u"orders-dlt"_s, 59));
    QCOMPARE(rig.firedOf(AlertRules::dlqArrivals).size(), 0); // 9 < 10
    rig.rules.observeLag(dlqAt(10 * second, u"orders-dlt"_s, 60));
    QCOMPARE(rig.firedOf(AlertRules::dlqArrivals).size(), 1); // the tenth: at once
    const Alert a = rig.firedOf(AlertRules::dlqArrivals).first();
    QCOMPARE(a.owner, u"team-orders"_s);
    QCOMPARE(a.view, u"dlq"_s);
    QCOMPARE(rig.rules.dlqArrivals().arrivalsTotal(u"orders-dlt"_s), 10);
    // Hysteresis: still ≥ half the count in the window → held; fewer than half for a minute → cleared.
    qint64 t = 10 * second;
    for (; t < 14 * minute; t += 5 * second)
        rig.rules.observeLag(dlqAt(t, u"orders-dlt"_s, 60));
    QCOMPARE(rig.clearedOf(AlertRules::dlqArrivals), 0);
    for (; t < 17 * minute; t += 5 * second)
        rig.rules.observeLag(dlqAt(t, u"orders-dlt"_s, 60));
    QCOMPARE(rig.clearedOf(AlertRules::dlqArrivals), 1);
}

void TestAlertRules::dlqSparseArrivalsAddUp()
{
    Rig rig;
    // One dead letter a minute, sampled every 5 s: most samples see nothing arrive, yet ten within
    // 15 min must page.
    qint64 end = 0;
    int firedAtArrival = -1;
    for (qint64 t = 0; t <= 12 * minute; t += 5 * second) {
        if (t > 0 && t % minute == 0)
            ++end;
        rig.rules.observeLag(dlqAt(t, u"orders-dlt"_s, end));
        if (firedAtArrival < 0 && !rig.firedOf(AlertRules::dlqArrivals).isEmpty())
            firedAtArrival = int(end);
    }
    QCOMPARE(firedAtArrival, 10);
}

void TestAlertRules::dlqFewerThanTheCountNeverFires()
{
    Rig rig;
    // One every two minutes: never more than 8 within 15 min.
    qint64 end = 0;
    for (qint64 t = 0; t <= 2 * 60 * minute; t += 5 * second) {
        if (t > 0 && t % (2 * minute) == 0)
            ++end;
        rig.rules.observeLag(dlqAt(t, u"orders-dlt"_s, end));
    }
    QCOMPARE(rig.firedOf(AlertRules::dlqArrivals).size(), 0);
    // The policy's own count and window: 3 within 5 min on emails-dlq.
    rig.rules.observeLag(dlqAt(0, u"emails-dlq"_s, 0));
    rig.rules.observeLag(dlqAt(minute, u"emails-dlq"_s, 2));
    QCOMPARE(rig.firedOf(AlertRules::dlqArrivals).size(), 0);
    rig.rules.observeLag(dlqAt(2 * minute, u"emails-dlq"_s, 3));
    QCOMPARE(rig.firedOf(AlertRules::dlqArrivals).size(), 1);
}

void TestAlertRules::dlqCriticalFiresOnAnyArrival()
{
    Rig rig;
    qint64 t = 0;
    for (; t < 10 * minute; t += 5 * second)
        rig.rules.observeLag(dlqAt(t, u"payments-dlq"_s, 7)); // nothing new
    QCOMPARE(rig.firedOf(AlertRules::dlqArrivals).size(), 0);
    rig.rules.observeLag(dlqAt(t, u"payments-dlq"_s, 8));
    QCOMPARE(rig.firedOf(AlertRules::dlqArrivals).size(), 1);
    QCOMPARE(rig.firedOf(AlertRules::dlqArrivals).first().owner, u"team-payments"_s);
    // Clears a minute after the arrival leaves the 15-minute window.
    const qint64 arrival = t;
    for (; t < arrival + 15 * minute + 55 * second; t += 5 * second)
        rig.rules.observeLag(dlqAt(t, u"payments-dlq"_s, 8));
    QCOMPARE(rig.clearedOf(AlertRules::dlqArrivals), 0);
    for (; t < arrival + 16 * minute + 5 * second; t += 5 * second)
        rig.rules.observeLag(dlqAt(t, u"payments-dlq"_s, 8));
    QCOMPARE(rig.clearedOf(AlertRules::dlqArrivals), 1);
}

void TestAlertRules::dlqBaselineAndRecreatedTopicAreNotArrivals()
{
    Rig rig;
    rig.rules.observeLag(dlqAt(0, u"payments-dlq"_s, 100000)); // a full DLQ when Berth starts
    rig.rules.observeLag(dlqAt(5 * second, u"payments-dlq"_s, 100000));
    rig.rules.observeLag(dlqAt(10 * second, u"payments-dlq"_s, 3)); // recreated
    rig.rules.observeLag(dlqAt(15 * second, u"payments-dlq"_s, 3));
    LagSnapshot unreachable = dlqAt(20 * second, u"payments-dlq"_s, 9);
    unreachable.reachable = false;
    rig.rules.observeLag(unreachable);
    QCOMPARE(rig.firedOf(AlertRules::dlqArrivals).size(), 0);
    QCOMPARE(rig.rules.dlqArrivals().arrivalsTotal(u"payments-dlq"_s), 0);
}

void TestAlertRules::retriesExhaustedFromDeadLetterHeaders()
{
    Rig rig;
    DeadLetterArrival early{u"orders-dlt"_s, t0, 2, u"java.net.SocketTimeoutException"_s, {}, {}};
    rig.rules.observeDeadLetters({early}, t0); // 2 < maxAttemptsBeforePark 3: a control
    DeadLetterArrival noAttempts{u"orders-dlt"_s, t0, -1, u"x"_s, {}, u"order-projection"_s};
    rig.rules.observeDeadLetters({noAttempts}, t0 + second);
    QCOMPARE(rig.firedOf(AlertRules::retriesExhausted).size(), 0);
    // The consumer comes from the DLQ topic's policy when the headers name none.
    DeadLetterArrival exhausted{u"orders-dlt"_s, t0, 3, u"java.net.SocketTimeoutException"_s, {}, {}};
    rig.rules.observeDeadLetters({exhausted}, t0 + 2 * second);
    QCOMPARE(rig.firedOf(AlertRules::retriesExhausted).size(), 1);
    const Alert a = rig.firedOf(AlertRules::retriesExhausted).first();
    QCOMPARE(a.subject, u"order-projection"_s);
    QCOMPARE(a.owner, u"team-orders"_s);
    QVERIFY2(a.message.contains(u"3 attempts"_s), qPrintable(a.message));
    // Quiet for 15 min: cleared.
    rig.rules.observeDeadLetters({}, t0 + 10 * minute);
    QCOMPARE(rig.clearedOf(AlertRules::retriesExhausted), 0);
    rig.rules.observeDeadLetters({}, t0 + 16 * minute);
    QCOMPARE(rig.clearedOf(AlertRules::retriesExhausted), 1);
}

void TestAlertRules::retriesExhaustedFromInboxAttempts()
{
    Rig rig;
    InboxBoard b = boardAt(0, u"orders-inbox"_s);
    b.hasAttempts = true;
    b.attemptsHistogram = {100, 5, 0, 0, 0};
    rig.rules.observeInbox(b.mappingName, b);
    b.takenAt = b.takenAt.addSecs(15);
    b.attemptsHistogram = {120, 9, 0, 0, 0}; // more rows at 2 attempts: under the limit of 3
    rig.rules.observeInbox(b.mappingName, b);
    QCOMPARE(rig.firedOf(AlertRules::retriesExhausted).size(), 0);
    b.takenAt = b.takenAt.addSecs(15);
    b.attemptsHistogram = {120, 9, 1, 0, 0}; // one row reached 3
    rig.rules.observeInbox(b.mappingName, b);
    QCOMPARE(rig.firedOf(AlertRules::retriesExhausted).size(), 1);
    QCOMPARE(rig.firedOf(AlertRules::retriesExhausted).first().view, u"parked"_s);
    QCOMPARE(RetriesExhaustedRule::rowsAtOrAbove(b, 3), 1);
    b.attemptsHistogram = {0, 0, 2, 3, 4};
    QCOMPARE(RetriesExhaustedRule::rowsAtOrAbove(b, 4), 7);
    QCOMPARE(RetriesExhaustedRule::rowsAtOrAbove(b, 6), 4);
}

void TestAlertRules::deserializationFailuresByExceptionClass()
{
    Rig rig;
    const DeadLetterArrival business{u"orders-dlt"_s, t0, 1, u"com.acme.OrderRejectedException"_s,
                                     u"java.lang.IllegalStateException"_s, {}};
    rig.rules.observeDeadLetters({business, business}, t0);
    QCOMPARE(rig.firedOf(AlertRules::deserialization).size(), 0);
    QVERIFY(DeserializationRule::isDeserialization(u"org.apache.kafka.common.errors.SerializationException"_s));
    QVERIFY(DeserializationRule::isDeserialization(u"com.fasterxml.jackson.core.JsonParseException"_s));
    QVERIFY(DeserializationRule::isDeserialization(u"org.apache.kafka.connect.errors.DataException"_s));
    QVERIFY(!DeserializationRule::isDeserialization(u"java.lang.NullPointerException"_s));
    // The cause class counts too (Spring wraps it in a ListenerExecutionFailedException).
    const DeadLetterArrival wrapped{u"orders-dlt"_s, t0, 1,
                                    u"org.springframework.kafka.listener.ListenerExecutionFailedException"_s,
                                    u"org.springframework.kafka.support.serializer.DeserializationException"_s, {}};
    rig.rules.observeDeadLetters({wrapped}, t0 + minute);
    QCOMPARE(rig.firedOf(AlertRules::deserialization).size(), 1);
    const Alert a = rig.firedOf(AlertRules::deserialization).first();
    QCOMPARE(a.subject, u"orders-dlt"_s);
    QVERIFY2(a.message.contains(u"DeserializationException"_s), qPrintable(a.message));
    rig.rules.observeDeadLetters({business}, t0 + 17 * minute);
    QCOMPARE(rig.clearedOf(AlertRules::deserialization), 1);
}

void TestAlertRules::duplicateSpikeSustainedAndHysteresis()
{
    Rig rig;
    auto stats = [](double percent) {
        DuplicateStats s;
        s.ready = true;
        s.topics[u"orders"_s].duplicatePercent = percent;
        s.topics[u"orders"_s].duplicateRatePerMinute = percent * 10;
        return s;
    };
    qint64 t = 0;
    for (; t < 30 * minute; t += second) // control: just under 5 %
        rig.rules.observeDuplicates(stats(4.9), t0 + t);
    QCOMPARE(rig.firedOf(AlertRules::duplicateSpike).size(), 0);
    for (const qint64 end = t + 119 * second; t < end; t += second)
        rig.rules.observeDuplicates(stats(8), t0 + t);
    QCOMPARE(rig.firedOf(AlertRules::duplicateSpike).size(), 0);
    for (const qint64 end = t + 2 * second; t < end; t += second)
        rig.rules.observeDuplicates(stats(8), t0 + t);
    QCOMPARE(rig.firedOf(AlertRules::duplicateSpike).size(), 1);
    QCOMPARE(rig.firedOf(AlertRules::duplicateSpike).first().owner, u"team-orders"_s);
    for (const qint64 end = t + 10 * minute; t < end; t += second)
        rig.rules.observeDuplicates(stats(4.5), t0 + t); // between: held
    QCOMPARE(rig.clearedOf(AlertRules::duplicateSpike), 0);
    for (const qint64 end = t + 61 * second; t < end; t += second)
        rig.rules.observeDuplicates(stats(1), t0 + t);
    QCOMPARE(rig.clearedOf(AlertRules::duplicateSpike), 1);
}

void TestAlertRules::stuckInProgressPerMapping()
{
    Rig rig;
    InboxBoard healthy = boardAt(0, u"orders-inbox"_s);
    rig.rules.observeInbox(u"orders-inbox"_s, healthy);
    QCOMPARE(rig.firedOf(AlertRules::stuckInProgress).size(), 0);
    InboxBoard stuck = boardAt(15 * second, u"payments-inbox"_s);
    stuck.hasStuck = true;
    stuck.stuckCount = 2;
    stuck.oldestStuck = {u"order-projection"_s, u"m-7"_s, u"IN_PROGRESS"_s, {}, {}, 412};
    rig.rules.observeInbox(u"payments-inbox"_s, stuck);
    rig.rules.observeInbox(u"orders-inbox"_s, healthy); // another mapping: its own subject
    QCOMPARE(rig.firedOf(AlertRules::stuckInProgress).size(), 1);
    const Alert a = rig.firedOf(AlertRules::stuckInProgress).first();
    QCOMPARE(a.subject, u"payments-inbox"_s);
    QVERIFY2(a.message.contains(u"300 s"_s) && a.message.contains(u"m-7"_s), qPrintable(a.message));
    InboxBoard fixed = boardAt(30 * second, u"payments-inbox"_s);
    rig.rules.observeInbox(u"payments-inbox"_s, fixed);
    fixed.takenAt = fixed.takenAt.addSecs(45);
    rig.rules.observeInbox(u"payments-inbox"_s, fixed);
    QCOMPARE(rig.clearedOf(AlertRules::stuckInProgress), 0);
    fixed.takenAt = fixed.takenAt.addSecs(15);
    rig.rules.observeInbox(u"payments-inbox"_s, fixed);
    QCOMPARE(rig.clearedOf(AlertRules::stuckInProgress), 1);
}

void TestAlertRules::accountingUnaccountedAndOrderBreaks()
{
    Rig rig;
    AccountingResult run;
    run.group = u"order-projection"_s;
    run.topic = u"orders"_s;
    run.keys = {QByteArray(), "e-6", "order-9"};
    AccountedRecord fine;
    fine.cls = AccountClass::Processed;
    fine.idempotencyKey = 1;
    run.records = {fine};
    run.counts[size_t(AccountClass::Processed)] = 1;
    rig.rules.observeAccounting(run, t0); // control: nothing lost, nothing out of order
    QCOMPARE(rig.firedOf(AlertRules::unaccountedRecord).size(), 0);
    QCOMPARE(rig.firedOf(AlertRules::orderBreak).size(), 0);

    AccountingResult bad = run;
    bad.records[0].cls = AccountClass::Unaccounted;
    bad.counts = {};
    bad.counts[size_t(AccountClass::Unaccounted)] = 1;
    SequenceFinding gap;
    gap.kind = SequenceFinding::Kind::Gap;
    gap.key = 2;
    bad.sequence = {gap};
    AccountingResult failed = bad;
    failed.error = u"broker down"_s;
    rig.rules.observeAccounting(failed, t0 + second); // a failed run says nothing
    QCOMPARE(rig.firedOf(AlertRules::unaccountedRecord).size(), 0);
    rig.rules.observeAccounting(bad, t0 + 2 * second);
    QCOMPARE(rig.firedOf(AlertRules::unaccountedRecord).size(), 1);
    const Alert lost = rig.firedOf(AlertRules::unaccountedRecord).first();
    QCOMPARE(lost.subject, u"order-projection/orders"_s);
    QVERIFY2(lost.message.contains(u"e-6"_s), qPrintable(lost.message));
    QCOMPARE(lost.owner, u"team-orders"_s);
    QCOMPARE(rig.firedOf(AlertRules::orderBreak).size(), 1);
    QVERIFY2(rig.firedOf(AlertRules::orderBreak).first().message.contains(u"order-9"_s),
             qPrintable(rig.firedOf(AlertRules::orderBreak).first().message));

    rig.rules.observeAccounting(run, t0 + 3 * second); // the next run finds none: both clear
    QCOMPARE(rig.clearedOf(AlertRules::unaccountedRecord), 1);
    QCOMPARE(rig.clearedOf(AlertRules::orderBreak), 1);
}

// Where the topic's rule masks its keys, the alerts' messages name them "(masked)".
void TestAlertRules::accountingExampleKeysAreMasked()
{
    Rig rig;
    AccountingResult run;
    run.group = u"order-projection"_s;
    run.topic = u"orders"_s;
    run.keys = {QByteArray(), "card-4111-1111", "card-4222-2222"};
    run.recordKeyMasked = true;
    run.idempotencyKeyMasked = true;
    AccountedRecord lost;
    lost.cls = AccountClass::Unaccounted;
    lost.idempotencyKey = 1;
    AccountedRecord keyed = lost;
    keyed.idempotencyKey = 0;
    keyed.recordKey = 2;
    run.records = {lost, keyed};
    run.counts[size_t(AccountClass::Unaccounted)] = 2;
    SequenceFinding gap;
    gap.kind = SequenceFinding::Kind::Gap;
    gap.key = 2;
    run.sequence = {gap};
    rig.rules.observeAccounting(run, t0);
    QCOMPARE(rig.firedOf(AlertRules::unaccountedRecord).size(), 1);
    QCOMPARE(rig.firedOf(AlertRules::orderBreak).size(), 1);
    for (const Alert &a : rig.firedOf(AlertRules::unaccountedRecord) + rig.firedOf(AlertRules::orderBreak)) {
        QVERIFY2(!a.message.contains(u"card-4"_s) && a.message.contains(u"(masked)"_s),
                 qPrintable(a.message));
        for (const QString &value : {a.subject, a.owner, a.note})
            QVERIFY2(!value.contains(u"card-4"_s), qPrintable(value));
    }
}

// The live order tail's counts per topic: a break within its window fires at once, naming the topic's
// example keys; a quiet topic (the control) never fires; the window passing without breaks clears.
void TestAlertRules::liveOrderTailBreaksFireAndClear()
{
    Rig rig;
    OrderTailStats stats;
    stats.topics[u"orders"_s].examined = 40;
    stats.topics[u"payments"_s].examined = 40;
    rig.rules.observeOrderTail(stats, t0);
    QCOMPARE(rig.firedOf(AlertRules::orderBreak).size(), 0);

    OrderTailStats::Topic &orders = stats.topics[u"orders"_s];
    orders.breaks[size_t(SequenceFinding::Kind::OutOfOrder)] = 1;
    orders.examples[size_t(SequenceFinding::Kind::OutOfOrder)] = {u"order-15"_s};
    orders.recentBreaks = 1;
    OrderTailStats failed = stats;
    failed.error = u"broker down"_s;
    rig.rules.observeOrderTail(failed, t0 + second); // a tail that cannot read says nothing
    QCOMPARE(rig.firedOf(AlertRules::orderBreak).size(), 0);
    rig.rules.observeOrderTail(stats, t0 + 2 * second);
    QCOMPARE(rig.firedOf(AlertRules::orderBreak).size(), 1);
    const Alert alert = rig.firedOf(AlertRules::orderBreak).first();
    QCOMPARE(alert.subject, u"orders"_s);
    QVERIFY2(alert.message.contains(u"order-15"_s), qPrintable(alert.message));
    QVERIFY(alert.message.contains(u"1 out of order"_s));
    QCOMPARE(alert.owner, u"team-orders"_s);

    orders.recentBreaks = 0; // the window passed
    rig.rules.observeOrderTail(stats, t0 + 16 * 60 * second);
    QCOMPARE(rig.clearedOf(AlertRules::orderBreak), 1);
    QCOMPARE(rig.firedOf(AlertRules::orderBreak).size(), 1);
}

void TestAlertRules::outboxGrowingHoldsAndClears()
{
    Rig rig;
    InboxBoard b = boardAt(0, u"orders-inbox"_s);
    b.hasOutbox = true;
    b.outboxTable = u"outbox"_s;
    qint64 t = 0;
    auto reading = [&](qint64 pending) {
        b.takenAt = QDateTime::fromMSecsSinceEpoch(t0 + t, Qt::UTC);
        b.outbox.pending = pending;
        rig.rules.observeInbox(u"orders-inbox"_s, b);
        t += 15 * second;
    };
    for (int i = 0; i < 20; ++i) // control: a steady backlog is not growth
        reading(40);
    QCOMPARE(rig.firedOf(AlertRules::outboxGrowing).size(), 0);
    for (int i = 1; i <= 4; ++i) // 45 s of growth
        reading(40 + i * 10);
    QCOMPARE(rig.firedOf(AlertRules::outboxGrowing).size(), 0);
    reading(100); // a minute
    QCOMPARE(rig.firedOf(AlertRules::outboxGrowing).size(), 1);
    for (int i = 0; i < 10; ++i)
        reading(100); // pending but not growing: held
    QCOMPARE(rig.clearedOf(AlertRules::outboxGrowing), 0);
    for (int i = 0; i < 5; ++i)
        reading(0);
    QCOMPARE(rig.clearedOf(AlertRules::outboxGrowing), 1);
}

void TestAlertRules::snoozeNeedsAReasonAndSilencesRepeats()
{
    Rig rig;
    rig.rules.observeLag(dlqAt(0, u"payments-dlq"_s, 1));
    rig.rules.observeLag(dlqAt(5 * second, u"payments-dlq"_s, 2));
    QCOMPARE(rig.firedOf(AlertRules::dlqArrivals).size(), 1);
    const quint64 id = rig.firedOf(AlertRules::dlqArrivals).first().id;
    QVERIFY(!rig.engine.snooze(id, t0 + 60 * minute, u"  "_s));
    QVERIFY(rig.engine.snooze(id, t0 + 60 * minute, u"known: replaying INC-42"_s));
    QCOMPARE(rig.engine.alerts().first().snoozeReason, u"known: replaying INC-42"_s);
    QVERIFY(rig.engine.alerts().first().isSnoozed(t0 + 30 * minute));
    // Cleared, then back within the snooze: the new alert is born snoozed.
    for (qint64 t = 10 * second; t <= 17 * minute; t += 5 * second)
        rig.rules.observeLag(dlqAt(t, u"payments-dlq"_s, 2));
    QCOMPARE(rig.clearedOf(AlertRules::dlqArrivals), 1);
    rig.rules.observeLag(dlqAt(20 * minute, u"payments-dlq"_s, 3));
    QCOMPARE(rig.firedOf(AlertRules::dlqArrivals).size(), 2);
    QVERIFY(rig.firedOf(AlertRules::dlqArrivals).last().isSnoozed(t0 + 20 * minute));
    QVERIFY(!rig.firedOf(AlertRules::dlqArrivals).last().isSnoozed(t0 + 61 * minute));
}

void TestAlertRules::thresholdsNameTheirSource()
{
    Rig rig;
    const QList<AlertThreshold> all =
        rig.rules.thresholds({u"order-projection"_s, u"other"_s}, {u"orders-dlt"_s, u"payments-dlq"_s, u"emails-dlq"_s});
    auto find = [&](const QString &rule, const QString &subject) {
        for (const AlertThreshold &t : all) {
            if (t.rule == rule && t.subject == subject)
                return t;
        }
        return AlertThreshold{};
    };
    QCOMPARE(find(AlertRules::lagSlo, u"order-projection"_s).source, u"lagSlo.maxLagSeconds"_s);
    QVERIFY(find(AlertRules::lagSlo, u"order-projection"_s).text.contains(u"300 s"_s));
    QCOMPARE(find(AlertRules::lagSlo, u"other"_s).source, u"default"_s);
    QVERIFY(find(AlertRules::lagSlo, u"other"_s).text.contains(u"600 s"_s));
    QCOMPARE(find(AlertRules::dlqArrivals, u"orders-dlt"_s).text, u"10 within 15 min"_s);
    QCOMPARE(find(AlertRules::dlqArrivals, u"orders-dlt"_s).source, u"default"_s);
    QCOMPARE(find(AlertRules::dlqArrivals, u"payments-dlq"_s).source, u"dlq.critical"_s);
    QCOMPARE(find(AlertRules::dlqArrivals, u"emails-dlq"_s).text, u"3 within 5 min"_s);
    QCOMPARE(find(AlertRules::retriesExhausted, u"order-projection"_s).source, u"poison.maxAttemptsBeforePark"_s);
    for (const QString &rule : AlertRules::all()) {
        bool described = false;
        for (const AlertThreshold &t : all)
            described = described || t.rule == rule;
        QVERIFY2(described, qPrintable(rule));
    }
}

QTEST_GUILESS_MAIN(TestAlertRules)
#include "tst_alertrules.moc"
