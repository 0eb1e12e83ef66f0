// Delivery accounting (ARCHITECTURE.md, Data flows: Delivery accounting). The classifier, the transaction
// rules and the order checks on windows this test arranges record by record; then `berth account` as a
// deploy pipeline runs it, against a mock cluster and a throwaway PostgreSQL where the truth of every
// record is known, with kcat as the independent count of the window.
#include "services/accounting/accountingclassifier.h"
#include "services/accounting/deliverysemantics.h"
#include "services/accounting/deliveryaccountant.h"
#include "services/accounting/inboxkeystage.h"
#include "services/accounting/sequencecheck.h"
#include "services/demo/mockkafkacluster.h"
#include "services/demo/temppostgres.h"
#include "services/dlq/dlqheadercodec.h"
#include "services/inbox/inboxboardquery.h"
#include "services/inbox/inboxsessions.h"
#include "services/inbox/pgsession.h"
#include "services/kafka/kafkaproducer.h"
#include "services/kafka/offsetcommitter.h"
#include "support/berthcli.h"
#include "support/testsupport.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <thread>

using namespace Qt::StringLiterals;

namespace {
// A window built by hand: records on partitions with keys, timestamps and sequence numbers.
struct Arranged {
    AccountingResult result;
    quint32 key(const QByteArray &bytes)
    {
        for (quint32 i = 1; i < result.keys.size(); ++i) {
            if (result.keys[i] == bytes)
                return i;
        }
        result.keys.push_back(bytes);
        return quint32(result.keys.size() - 1);
    }
    AccountedRecord &add(int partition, qint64 offset, const QByteArray &idKey, qint64 ts = 0,
                         const QByteArray &recordKey = {}, qint64 sequence = AccountedRecord::NoSequence)
    {
        AccountedRecord r;
        r.partition = partition;
        r.offset = offset;
        r.timestampMs = ts;
        r.idempotencyKey = idKey.isEmpty() ? 0 : key(idKey);
        r.recordKey = recordKey.isEmpty() ? 0 : key(recordKey);
        r.sequence = sequence;
        result.records.push_back(r);
        return result.records.back();
    }
    AccountClass classOf(int partition, qint64 offset) const
    {
        for (const AccountedRecord &r : result.records) {
            if (r.partition == partition && r.offset == offset)
                return r.cls;
        }
        return AccountClass::NotConsumed;
    }
};

InboxMapping inboxMapping(const QString &table)
{
    InboxMapping inbox;
    inbox.name = u"projection"_s;
    inbox.table = table;
    inbox.messageIdColumn = u"id"_s;
    inbox.statusColumn = u"status"_s;
    inbox.updatedColumn = u"updated_at"_s;
    inbox.statuses = {{u"DONE"_s, InboxState::Completed},
                      {u"WORKING"_s, InboxState::InProgress},
                      {u"PARKED"_s, InboxState::Parked},
                      {u"SKIP"_s, InboxState::Skipped}};
    return inbox;
}

// `count` records round-robin over `partitions` of `topic`, record i with the idempotency key prefix + i.
bool produceKeyed(const KafkaProperties &cluster, const QString &topic, int partitions, int count,
                  const QByteArray &prefix, QString *error)
{
    auto producer = KafkaProducer::create(cluster, error);
    if (!producer)
        return false;
    for (int i = 0; i < count; ++i) {
        if (!producer->produce({topic, i % partitions, "order", false, "{}",
                                {{"idempotency-key", prefix + QByteArray::number(i), false}}, 0},
                               error))
            return false;
    }
    return producer->flush(10000, error);
}

QList<QJsonObject> jsonLines(const QByteArray &out)
{
    QList<QJsonObject> lines;
    for (const QByteArray &line : out.split('\n')) {
        if (!line.trimmed().isEmpty())
            lines << QJsonDocument::fromJson(line).object();
    }
    return lines;
}
} // namespace

class TestAccounting final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void eachClassInPrecedence();
    void duplicateIsEveryRecordButTheFirstDelivered();
    void consumerWithoutInboxIsProcessedUnverified();
    void unreachableInboxIsANoteNotALoss();
    void abortedRecordsAreTheirOwnClassForReadCommitted();
    void trailingMarkerLagIsCaughtUp();
    void gapOutOfOrderAcrossMoveAndRepeat();
    void dlqAndContinueBreak();
    void semanticsFromPolicyAndEvidence();
    void cliAccountsForEveryArrangedRecord();
    void cliWindowByTimeIsFoundByReadingTimestamps();
    void cliErrorsExitTwo();
    void mappingTheLookUpCannotUseIsRefused();
    void cliJsonMasksTheKeysThePolicyMasks();
    void inboxJoinAnswersAlikeByProbeScanAndMerge();
    void largeInboxWithoutCoveringKeyIndexIsNoted();
    void keyTheIdColumnCannotHoldIsANoteOnItsRecord();
    void cancelDoesNotWaitForTheInboxInFlight();
    void cancelDuringTheReadKeepsWhatWasReadInOrder();

private:
    std::unique_ptr<MockKafkaCluster> m_cluster;
    std::unique_ptr<TempPostgres> m_pg;
    QTemporaryDir m_dir;
    QString m_policy;
    qint64 m_base = 0;
};

void TestAccounting::eachClassInPrecedence()
{
    Arranged a;
    a.add(0, 0, "done");
    a.add(0, 1, "working");
    a.add(0, 2, "retry");
    a.add(0, 3, "parked");
    a.add(0, 4, "dead");
    a.add(0, 5, "skip");
    a.add(0, 6, "dlq-by-offset");
    a.add(0, 7, "dlq-by-key");
    a.add(0, 8, "lost");
    a.add(0, 9, "parked-and-dlq"); // an inbox row wins over a dead letter
    a.add(0, 10, "later");
    AccountingEvidence e;
    e.hasInbox = true;
    e.inbox = {{a.key("done"), InboxState::Completed},        {a.key("working"), InboxState::InProgress},
               {a.key("retry"), InboxState::FailedRetryable}, {a.key("parked"), InboxState::Parked},
               {a.key("dead"), InboxState::FailedTerminal},   {a.key("skip"), InboxState::Skipped},
               {a.key("parked-and-dlq"), InboxState::Parked}};
    e.deadLetteredAt[0] = {6, 9};
    e.deadLetteredKeys = {a.key("dlq-by-key")};
    e.committed = {{0, 10}};
    AccountingClassifier::classify(a.result, e);
    const QList<AccountClass> expected{
        AccountClass::Processed,    AccountClass::InFlight,     AccountClass::InFlight,
        AccountClass::Parked,       AccountClass::Parked,       AccountClass::Skipped,
        AccountClass::DeadLettered, AccountClass::DeadLettered, AccountClass::Unaccounted,
        AccountClass::Parked,       AccountClass::NotConsumed};
    for (qsizetype i = 0; i < expected.size(); ++i)
        QCOMPARE(accountClassKey(a.classOf(0, i)), accountClassKey(expected[i]));
    QCOMPARE(a.result.count(AccountClass::Parked), 3);
    qint64 total = 0;
    for (const qint64 n : a.result.counts)
        total += n;
    QCOMPARE(total, qint64(a.result.records.size())); // the classes partition the window
}

void TestAccounting::duplicateIsEveryRecordButTheFirstDelivered()
{
    Arranged a;
    a.add(1, 5, "k", 2000); // on another partition, later by timestamp
    a.add(0, 7, "k", 1000); // the first delivered, though stored after
    a.add(0, 9, "k", 500);  // same partition, later offset: a duplicate despite an older timestamp
    AccountingEvidence e;
    e.hasInbox = true;
    e.inbox = {{a.key("k"), InboxState::Completed}};
    AccountingClassifier::classify(a.result, e);
    QCOMPARE(a.classOf(0, 7), AccountClass::Processed);
    QCOMPARE(a.classOf(1, 5), AccountClass::Duplicate);
    QCOMPARE(a.classOf(0, 9), AccountClass::Duplicate);
}

void TestAccounting::consumerWithoutInboxIsProcessedUnverified()
{
    Arranged a;
    a.add(0, 0, "a");
    a.add(0, 1, "b");
    a.add(0, 2, "c");
    AccountingEvidence e;
    e.deadLetteredAt[0] = {1};
    e.committed = {{0, 2}};
    AccountingClassifier::classify(a.result, e);
    QCOMPARE(a.classOf(0, 0), AccountClass::Processed);
    QVERIFY(a.result.records[0].notes & AccountNote::Unverified);
    QCOMPARE(a.classOf(0, 1), AccountClass::DeadLettered);
    QCOMPARE(a.classOf(0, 2), AccountClass::NotConsumed);
    QCOMPARE(a.result.count(AccountClass::Unaccounted), 0);
    QCOMPARE(a.result.notes, 1);
}

void TestAccounting::unreachableInboxIsANoteNotALoss()
{
    Arranged a;
    a.add(0, 0, "asked");
    a.add(0, 1, "unanswered");
    a.add(0, 2, {}); // no key at all
    AccountingEvidence e;
    e.hasInbox = true;
    e.inboxUnanswered = {a.key("unanswered")};
    e.committed = {{0, 3}};
    AccountingClassifier::classify(a.result, e);
    QCOMPARE(a.classOf(0, 0), AccountClass::Unaccounted);
    QCOMPARE(a.classOf(0, 1), AccountClass::Processed);
    QVERIFY(a.result.records[1].notes & AccountNote::InboxUnreachable);
    QCOMPARE(a.classOf(0, 2), AccountClass::Processed);
    QCOMPARE(a.result.noteCounts[3], 1); // inboxUnreachable
}

void TestAccounting::abortedRecordsAreTheirOwnClassForReadCommitted()
{
    // A transactional producer wrote offsets 0-4 and committed (marker at 5), then 6-8 and aborted
    // (marker at 9), then 10 and committed (marker at 11): offsets as a real broker lays them out.
    const QList<qint64> uncommitted{0, 1, 2, 3, 4, 6, 7, 8, 10};
    const QSet<qint64> committed{0, 1, 2, 3, 4, 10};
    const QSet<qint64> aborted = TransactionWindow::abortedOffsets(uncommitted, committed);
    QCOMPARE(aborted, (QSet<qint64>{6, 7, 8}));

    for (const bool readCommitted : {true, false}) {
        Arranged a;
        for (const qint64 o : uncommitted)
            a.add(0, o, "k" + QByteArray::number(o));
        AccountingEvidence e;
        e.hasInbox = true;
        e.readCommitted = readCommitted;
        e.aborted[0] = aborted;
        e.committed = {{0, 12}};
        for (const qint64 o : committed)
            e.inbox.insert(a.key("k" + QByteArray::number(o)), InboxState::Completed);
        AccountingClassifier::classify(a.result, e);
        // read_committed: never handed to the consumer; read_uncommitted: handed over and not processed.
        QCOMPARE(a.result.count(AccountClass::Aborted), readCommitted ? 3 : 0);
        QCOMPARE(a.result.count(AccountClass::Unaccounted), readCommitted ? 0 : 3);
        QCOMPARE(a.result.count(AccountClass::Processed), 6);
    }
}

void TestAccounting::trailingMarkerLagIsCaughtUp()
{
    // Last record at 10, its commit marker at 11, log end 12: a consumer committed at 11 has read everything.
    QVERIFY(TransactionWindow::caughtUpBehindMarkers(11, 12, 10));
    QVERIFY(!TransactionWindow::caughtUpBehindMarkers(10, 12, 10)); // record 10 is still to be read
    QVERIFY(!TransactionWindow::caughtUpBehindMarkers(12, 12, 10)); // no lag at all
    QVERIFY(!TransactionWindow::caughtUpBehindMarkers(-1, 12, 10)); // nothing committed
}

void TestAccounting::gapOutOfOrderAcrossMoveAndRepeat()
{
    Arranged a;
    // Key A on partition 0: 1, 2, 4 (3 is missing), 4 again (a repeat).
    a.add(0, 0, "a1", 100, "A", 1);
    a.add(0, 1, "a2", 200, "A", 2);
    a.add(0, 2, "a4", 300, "A", 4);
    a.add(0, 3, "a4b", 400, "A", 4);
    // Key B moved from partition 0 to 1: 5 on partition 1 arrives first, then 4 on partition 0.
    a.add(0, 4, "b4", 900, "B", 4);
    a.add(1, 0, "b5", 800, "B", 5);
    // Key C in order: no finding.
    a.add(1, 1, "c1", 100, "C", 1);
    a.add(1, 2, "c2", 200, "C", 2);
    AccountingEvidence e;
    AccountingClassifier::classify(a.result, e);
    const QList<SequenceFinding> found = SequenceCheck::run(a.result);
    QCOMPARE(found.size(), 3);
    const auto one = [&](SequenceFinding::Kind kind) {
        for (const SequenceFinding &f : found) {
            if (f.kind == kind)
                return f;
        }
        return SequenceFinding{};
    };
    const SequenceFinding gap = one(SequenceFinding::Kind::Gap);
    QCOMPARE(a.result.key(gap.key), "A");
    QCOMPARE(gap.expected, 3);
    QCOMPARE(gap.missing, 1);
    const SequenceFinding repeat = one(SequenceFinding::Kind::Repeat);
    QCOMPARE(a.result.key(repeat.key), "A");
    QCOMPARE(repeat.offset, 3);
    QCOMPARE(repeat.previousOffset, 2);
    const SequenceFinding late = one(SequenceFinding::Kind::OutOfOrder);
    QCOMPARE(a.result.key(late.key), "B");
    QCOMPARE(late.partition, 0);
    QCOMPARE(late.offset, 4);
    QCOMPARE(late.previousPartition, 1);
    QVERIFY(late.acrossPartitions);
    QCOMPARE(late.sequence, 4);
    QCOMPARE(late.expected, 5);
}

void TestAccounting::dlqAndContinueBreak()
{
    Arranged a;
    a.add(0, 0, "x1", 0, "X");
    a.add(0, 1, "x2", 0, "X"); // dead-lettered
    a.add(0, 2, "x3", 0, "X"); // processed after it: the break
    a.add(0, 3, "y1", 0, "Y"); // dead-lettered, nothing after: no break
    AccountingEvidence e;
    e.hasInbox = true;
    e.inbox = {{a.key("x1"), InboxState::Completed}, {a.key("x3"), InboxState::Completed}};
    e.deadLetteredAt[0] = {1, 3};
    AccountingClassifier::classify(a.result, e);
    const QList<SequenceFinding> found = SequenceCheck::run(a.result);
    QCOMPARE(found.size(), 1);
    QCOMPARE(found[0].kind, SequenceFinding::Kind::DlqAndContinue);
    QCOMPARE(a.result.key(found[0].key), "X");
    QCOMPARE(found[0].previousOffset, 1);
    QCOMPARE(found[0].offset, 2);
}

void TestAccounting::semanticsFromPolicyAndEvidence()
{
    // A consumer that commits before processing: at-most-once by its own policy, and the loss is listed.
    ConsumerPolicy early;
    early.name = u"mailer"_s;
    early.offsetCommitTiming = u"before-processing"_s;
    early.idempotencyStrategy = u"processed_message"_s;
    Arranged a;
    a.result.inboxChecked = true;
    a.add(0, 0, "m-1");
    a.add(0, 1, "m-2");
    AccountingEvidence e;
    e.hasInbox = true;
    e.inbox = {{a.key("m-1"), InboxState::Completed}};
    e.committed = {{0, 2}};
    AccountingClassifier::classify(a.result, e);
    DeliverySemanticsVerdict v = DeliverySemantics::classify(early, nullptr, &a.result);
    QCOMPARE(v.promised, DeliveryGuarantee::AtMostOnce);
    QCOMPARE(v.observed, DeliveryGuarantee::AtMostOnce);
    QCOMPARE(v.lostKeys, QStringList{u"m-2"_s});
    QVERIFY(!v.contradicted()); // it does what it says

    // The same evidence against a policy that promises effectively-once: contradicted, on the checklist.
    ConsumerPolicy careful = early;
    careful.offsetCommitTiming = u"after-db-transaction"_s;
    QCOMPARE(DeliverySemantics::promised(careful), DeliveryGuarantee::EffectivelyOnce);
    v = DeliverySemantics::classify(careful, nullptr, &a.result);
    QCOMPARE(v.observed, DeliveryGuarantee::AtMostOnce);
    QVERIFY(v.contradicted());
    QVERIFY2(v.contradictions.first().contains(u"m-2"_s), qPrintable(v.contradictions.first()));
    DeliveryPolicy policy;
    policy.consumers = {careful};
    policy.consumers[0].name = u"mailer"_s;
    ChecklistEvidence evidence;
    DeliverySemantics::addToEvidence(v, &evidence.groups[u"mailer"_s]);
    const QList<ConsumerChecklist> lists = evaluateChecklists(policy, evidence);
    bool found = false;
    for (const ChecklistItem &item : lists.first().items) {
        if (item.key == u"ackTiming"_s) {
            found = true;
            QCOMPARE(item.verdict, ChecklistItem::Verdict::Contradicted);
            QVERIFY2(item.evidence.contains(u"at-most-once"_s), qPrintable(item.evidence));
        }
    }
    QVERIFY(found);

    // No inbox and a key delivered twice: at-least-once at best, whatever the policy hopes.
    ConsumerPolicy sink = careful;
    sink.externalProviderIdempotency = false;
    QCOMPARE(DeliverySemantics::promised(sink), DeliveryGuarantee::AtLeastOnce);
    Arranged b;
    b.add(0, 0, "s-1");
    b.add(0, 1, "s-1");
    AccountingEvidence none;
    none.committed = {{0, 2}};
    AccountingClassifier::classify(b.result, none);
    v = DeliverySemantics::classify(careful, nullptr, &b.result);
    QCOMPARE(v.observed, DeliveryGuarantee::AtLeastOnce);
    QVERIFY(v.contradicted()); // effectively-once promised, a repeat reached a consumer with no inbox
}

void TestAccounting::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_cluster = std::make_unique<MockKafkaCluster>(1);
    QVERIFY2(m_cluster->isValid(), qPrintable(m_cluster->error()));
    QVERIFY(m_cluster->createTopic(u"orders"_s, 2));
    QVERIFY(m_cluster->createTopic(u"orders-dlt"_s, 1));
    m_pg = std::make_unique<TempPostgres>();
    QString error;
    QVERIFY2(m_pg->start(&error), qPrintable(error));
    QVERIFY2(
        m_pg->exec(
            u"CREATE TABLE inbox (id text PRIMARY KEY, status text NOT NULL, updated_at timestamptz NOT NULL "
            u"DEFAULT now());"
            u"INSERT INTO inbox (id, status) VALUES ('e-0', 'DONE'), ('e-2', 'WORKING'), ('e-4', 'PARKED'),"
            u" ('e-5', 'SKIP'), ('e-11', 'DONE');"_s,
            &error),
        qPrintable(error));

    auto producer = KafkaProducer::create(m_cluster->clientProperties(), &error);
    QVERIFY2(producer, qPrintable(error));
    m_base = QDateTime::currentMSecsSinceEpoch() - 3'600'000;
    // Partition 0, offsets 0-8; e-0 twice (a redelivery the inbox deduplicated); the last one is garbage.
    const QList<QByteArray> keys{"e-0", "e-0", "e-2", "e-3", "e-4", "e-5", "e-6", "e-7"};
    for (int i = 0; i < keys.size(); ++i) {
        OutgoingRecord r{u"orders"_s,
                         0,
                         "order-1",
                         false,
                         "{\"version\":" + QByteArray::number(i < 3 ? qMax(1, i) : i + 1) + "}",
                         {{"idempotency-key", keys[i], false}},
                         m_base + i * 1000};
        QVERIFY(producer->produce(r, &error));
    }
    QVERIFY(producer->produce({u"orders"_s, 0, "order-1", false, "not json", {}, m_base + 8000}, &error));
    // Partition 1: e-10 dead-lettered (found by key only), e-11 processed.
    QVERIFY(producer->produce(
        {u"orders"_s, 1, "order-2", false, "{\"version\":1}", {{"idempotency-key", "e-10", false}}, m_base},
        &error));
    QVERIFY(producer->produce({u"orders"_s,
                               1,
                               "order-2",
                               false,
                               "{\"version\":2}",
                               {{"idempotency-key", "e-11", false}},
                               m_base + 1000},
                              &error));
    // Dead letters: e-3 by its coordinates (Spring Kafka DLT headers), e-10 by its key (Berth's headers).
    DlqMetadata byOffset;
    byOffset.originalTopic = u"orders"_s;
    byOffset.originalPartition = 0;
    byOffset.originalOffset = 3;
    byOffset.exceptionClass = u"java.lang.IllegalStateException"_s;
    QVERIFY(producer->produce(
        {u"orders-dlt"_s, 0, "order-1", false, "{}", encodeDlqHeaders(DlqDialect::SpringDlt, byOffset), 0},
        &error));
    DlqMetadata byKey;
    byKey.originalTopic = u"orders"_s;
    byKey.reason = u"no such customer"_s;
    RecordHeaders keyed = encodeDlqHeaders(DlqDialect::BerthCanonical, byKey);
    keyed.append({"idempotency-key", "e-10", false});
    QVERIFY(producer->produce({u"orders-dlt"_s, 0, "order-2", false, "{}", keyed, 0}, &error));
    QVERIFY2(producer->flush(10000, &error), qPrintable(error));
    QVERIFY2(OffsetCommitter::commit(m_cluster->clientProperties(), u"projection"_s,
                                     {{{u"orders"_s, 0}, 7}, {{u"orders"_s, 1}, 2}}, &error),
             qPrintable(error));

    m_policy = m_dir.filePath(u"policy.yaml"_s);
    QFile file(m_policy);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("deliverySemantics:\n"
               "  topics:\n"
               "    orders:\n"
               "      key: orderId\n"
               "      sequence: {jsonPath: $.version}\n"
               "  consumers:\n"
               "    projection:\n"
               "      idempotencyKey: {header: idempotency-key}\n"
               "      idempotency: {strategy: inbox}\n"
               "      offsetCommit: {timing: after-db-transaction}\n"
               "      dlq: {enabled: true, topic: orders-dlt}\n"
               "      inbox:\n"
               "        database: \""
               + m_pg->conninfo().toUtf8().replace('"', "\\\"")
               + "\"\n"
                 "        table: inbox\n"
                 "        columns: {messageId: id, status: status, updated: updated_at}\n"
                 "        statuses: {DONE: completed, WORKING: inProgress, PARKED: parked, SKIP: skipped}\n");
}

void TestAccounting::cliAccountsForEveryArrangedRecord()
{
    const BerthCli::Result run =
        BerthCli::run({u"account"_s, u"--bootstrap"_s, m_cluster->bootstrapServers(), u"--group"_s,
                       u"projection"_s, u"--topic"_s, u"orders"_s, u"--policy"_s, m_policy, u"--json"_s});
    QVERIFY2(run.exitCode == 1,
             qPrintable(u"exit %1: "_s.arg(run.exitCode) + run.err + QString::fromUtf8(run.out).right(1500)));
    const QList<QJsonObject> lines = jsonLines(run.out);
    QVERIFY(!lines.isEmpty());
    const QJsonObject summary = lines.last();
    QCOMPARE(summary.value(u"type"_s).toString(), u"summary"_s);
    const QJsonObject classes = summary.value(u"classes"_s).toObject();
    const QHash<QString, int> expected{{u"processed"_s, 2},    {u"duplicate"_s, 1}, {u"inFlight"_s, 1},
                                       {u"deadLettered"_s, 2}, {u"parked"_s, 1},    {u"skipped"_s, 1},
                                       {u"notConsumed"_s, 2},  {u"aborted"_s, 0},   {u"unaccounted"_s, 1}};
    for (auto it = expected.cbegin(); it != expected.cend(); ++it)
        QVERIFY2(classes.value(it.key()).toInt(-1) == it.value(),
                 qPrintable(it.key() + u": "_s + QString::fromUtf8(run.out)));
    QCOMPARE(summary.value(u"notes"_s).toInt(), 1); // the record that is not JSON
    QCOMPARE(summary.value(u"noteKinds"_s).toObject().value(u"notJson"_s).toInt(), 1);

    // The one unaccounted record, with its coordinates and key.
    QList<QJsonObject> unaccounted;
    for (const QJsonObject &o : lines) {
        if (o.value(u"class"_s).toString() == u"unaccounted"_s)
            unaccounted << o;
    }
    QCOMPARE(unaccounted.size(), 1);
    QCOMPARE(unaccounted[0].value(u"partition"_s).toInt(), 0);
    QCOMPARE(unaccounted[0].value(u"offset"_s).toInt(), 6);
    QCOMPARE(unaccounted[0].value(u"idempotencyKey"_s).toString(), u"e-6"_s);

    // Versions on partition 0 run 1, 1, 2, 4, 5...: a repeat and a gap (3) for order-1.
    const QJsonObject order = summary.value(u"order"_s).toObject();
    QCOMPARE(order.value(u"repeat"_s).toInt(), 1);
    QCOMPARE(order.value(u"gap"_s).toInt(), 1);
    QCOMPARE(order.value(u"outOfOrder"_s).toInt(), 0);

    // The policy promises effectively-once; the lost record contradicts it.
    const QJsonObject semantics = summary.value(u"semantics"_s).toObject();
    QCOMPARE(semantics.value(u"promised"_s).toString(), u"effectively-once"_s);
    QCOMPARE(semantics.value(u"observed"_s).toString(), u"at-most-once"_s);
    QCOMPARE(semantics.value(u"lostKeys"_s).toArray(), QJsonArray{u"e-6"_s});
    QCOMPARE(semantics.value(u"contradictions"_s).toArray().size(), 1);

    // The window as kcat reads it: as many records as the summary accounted for.
    if (!TestSupport::haveExecutable(u"kcat"_s))
        QSKIP("kcat is not installed");
    QProcess kcat;
    kcat.start(u"kcat"_s, {u"-C"_s, u"-b"_s, m_cluster->bootstrapServers(), u"-t"_s, u"orders"_s, u"-e"_s,
                           u"-q"_s, u"-f"_s, u"%p %o\\n"_s});
    QVERIFY(kcat.waitForFinished(30000));
    const QByteArray listed = kcat.readAllStandardOutput();
    QCOMPARE(listed.count('\n'), summary.value(u"records"_s).toInt());
}

void TestAccounting::cliWindowByTimeIsFoundByReadingTimestamps()
{
    // The mock cluster cannot look offsets up by time: partition 0's records are a second apart, so
    // time base+4s starts it at offset 4, and --to offset:6 ends it before the unaccounted record.
    const BerthCli::Result run =
        BerthCli::run({u"account"_s, u"--bootstrap"_s, m_cluster->bootstrapServers(), u"--group"_s,
                       u"projection"_s, u"--topic"_s, u"orders"_s, u"--policy"_s, m_policy, u"--from"_s,
                       u"time:"_s + QString::number(m_base + 4000), u"--to"_s, u"offset:6"_s, u"--json"_s});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err + QString::fromUtf8(run.out)));
    const QJsonObject summary = jsonLines(run.out).last();
    const QJsonArray window = summary.value(u"window"_s).toArray();
    QCOMPARE(window.size(), 2);
    QCOMPARE(window[0].toObject().value(u"from"_s).toInt(), 4);
    QCOMPARE(window[0].toObject().value(u"to"_s).toInt(), 6);
    QCOMPARE(window[1].toObject().value(u"from"_s).toInt(), 2); // every record of partition 1 is older
    QCOMPARE(summary.value(u"classes"_s).toObject().value(u"unaccounted"_s).toInt(), 0);
    QCOMPARE(summary.value(u"records"_s).toInt(), 2);
}

void TestAccounting::cliErrorsExitTwo()
{
    const BerthCli::Result noTopic = BerthCli::run(
        {u"account"_s, u"--bootstrap"_s, m_cluster->bootstrapServers(), u"--group"_s, u"projection"_s,
         u"--topic"_s, u"no-such-topic"_s, u"--timeout"_s, u"3000"_s, u"--json"_s});
    QCOMPARE(noTopic.exitCode, 2);
    QVERIFY2(noTopic.err.contains(u"no-such-topic"_s), qPrintable(noTopic.err));
    const BerthCli::Result badFrom =
        BerthCli::run({u"account"_s, u"--bootstrap"_s, m_cluster->bootstrapServers(), u"--group"_s,
                       u"projection"_s, u"--topic"_s, u"orders"_s, u"--from"_s, u"yesterday"_s});
    QCOMPARE(badFrom.exitCode, 2);
    QVERIFY2(badFrom.err.contains(u"--from"_s), qPrintable(badFrom.err));
}

void TestAccounting::mappingTheLookUpCannotUseIsRefused()
{
    // A mapping without an in-progress word does not validate (the policy loader refuses one, but the
    // console's mappings come from the editor and profiles too); the look-up would skip it and every
    // record below the committed offset would look lost. The run says why and stops instead.
    InboxMapping inbox = inboxMapping(u"inbox"_s);
    inbox.statuses.remove(u"WORKING"_s);
    AccountingRequest request;
    request.cluster = m_cluster->clientProperties();
    request.group = u"projection"_s;
    request.topic = u"orders"_s;
    request.dlqTopics = {u"orders-dlt"_s};
    request.idempotencyKey = {RecordField::Kind::Header, u"idempotency-key"_s};
    request.inbox = inbox;
    request.inboxes = InboxMappingSet::resolve({inbox}, {}, m_pg->conninfo());
    const AccountingResultPtr refused = DeliveryAccountant::run(request);
    QVERIFY2(refused->error.contains(u"cannot be used"_s) && refused->error.contains(u"in progress"_s),
             qPrintable(refused->error));
    QCOMPARE(refused->count(AccountClass::Unaccounted), 0);
    QVERIFY(refused->records.empty());

    // With the word the same request runs, and the inbox answers through the stage's own probe.
    inbox.statuses.insert(u"WORKING"_s, InboxState::InProgress);
    request.inbox = inbox;
    request.inboxes = InboxMappingSet::resolve({inbox}, {}, m_pg->conninfo());
    const AccountingResultPtr ran = DeliveryAccountant::run(request);
    QVERIFY2(ran->error.isEmpty(), qPrintable(ran->error));
    QCOMPARE(ran->count(AccountClass::InFlight), 1);    // e-2: WORKING
    QCOMPARE(ran->count(AccountClass::Parked), 1);      // e-4: PARKED
    QCOMPARE(ran->count(AccountClass::Processed), 2);   // e-0 (first of two), e-11
    QCOMPARE(ran->count(AccountClass::Duplicate), 1);   // e-0's redelivery
}

void TestAccounting::cliJsonMasksTheKeysThePolicyMasks()
{
    // ARCHITECTURE.md, Contracts: masking. The policy masks the orders' record key and idempotency-key
    // header: no line of the JSON carries either, though the inbox join still used them (the classes are
    // the unmasked run's). A rule for another topic masks nothing of these.
    QFile original(m_policy);
    QVERIFY(original.open(QIODevice::ReadOnly));
    const QByteArray policy = original.readAll();
    const auto runWith = [&](const QByteArray &masking) {
        const QString path = m_dir.filePath(u"masked-policy.yaml"_s);
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly))
            return BerthCli::Result{};
        file.write(policy + masking);
        file.close();
        return BerthCli::run({u"account"_s, u"--bootstrap"_s, m_cluster->bootstrapServers(), u"--group"_s,
                              u"projection"_s, u"--topic"_s, u"orders"_s, u"--policy"_s, path, u"--json"_s});
    };
    const BerthCli::Result masked =
        runWith("masking:\n  - topic: orders\n    key: true\n    headers: [idempotency-key]\n");
    QVERIFY2(masked.exitCode == 1, qPrintable(masked.err + QString::fromUtf8(masked.out)));
    for (const char *real : {"order-1", "order-2", "e-2", "e-3", "e-4", "e-5", "e-6", "e-7", "e-10"}) {
        const QByteArray quoted = QByteArray("\"") + real + "\"";
        QVERIFY2(!masked.out.contains(quoted), qPrintable(QString::fromUtf8(quoted + '\n' + masked.out)));
    }
    const QList<QJsonObject> lines = jsonLines(masked.out);
    QList<QJsonObject> unaccounted;
    for (const QJsonObject &o : lines) {
        if (o.value(u"class"_s).toString() == u"unaccounted"_s)
            unaccounted << o;
    }
    QCOMPARE(unaccounted.size(), 1); // the same record as unmasked: the join used the real key
    QCOMPARE(unaccounted[0].value(u"offset"_s).toInt(), 6);
    QCOMPARE(unaccounted[0].value(u"idempotencyKey"_s).toString(), u"(masked)"_s);
    QCOMPARE(unaccounted[0].value(u"key"_s).toString(), u"(masked)"_s);
    const QJsonObject summary = lines.last();
    QCOMPARE(summary.value(u"semantics"_s).toObject().value(u"lostKeys"_s).toArray(),
             QJsonArray{u"(masked)"_s});

    const BerthCli::Result other = runWith("masking:\n  - topic: payments\n    key: true\n");
    QVERIFY2(other.exitCode == 1, qPrintable(other.err));
    QVERIFY(other.out.contains("\"e-6\""));
    QVERIFY(other.out.contains("\"order-1\""));
}

void TestAccounting::inboxJoinAnswersAlikeByProbeScanAndMerge()
{
    // ARCHITECTURE.md, Data flows: Delivery accounting. The stage reads the whole table for a window that
    // is a good part of its inbox and probes one that is small beside it (by the catalogue's estimate);
    // both answer each key with its row's state, a completed row winning over another row of the same key,
    // and a key without a row (or with bytes no text column holds) with nothing. Under a collation where
    // other bytes can be equal, the whole table is joined by the server (Merge), as the column compares.
    QString error;
    QVERIFY2(m_pg->exec(u"CREATE TABLE joined (id text NOT NULL, status text NOT NULL, updated_at timestamptz "
                        u"NOT NULL DEFAULT now()); CREATE INDEX ON joined (id) INCLUDE (status, updated_at);"
                        u"INSERT INTO joined (id, status) VALUES ('a', 'DONE'), ('b', 'WORKING'), ('c', 'PARKED'),"
                        u" ('c', 'DONE'), ('d', 'SKIP'), ('d', 'PARKED'), ('\u00e9', 'DONE'); ANALYZE joined;"_s,
                        &error),
             qPrintable(error));
    const InboxMapping mapping = inboxMapping(u"joined"_s);
    const InboxMappingSet set = InboxMappingSet::resolve({mapping}, {}, m_pg->conninfo());
    const KeyTable keys{{}, "a", "b", "c", "d", "missing", "\xc3\xa9", QByteArray("\xff\xfe"), QByteArray("a\0b", 3)};
    const auto answer = [&](qint64 estimatedRows, InboxKeyStage::Join join,
                            const InboxMapping &inbox) -> InboxKeyStates {
        QString sqlError;
        if (!m_pg->exec(u"UPDATE pg_class SET reltuples = %1 WHERE oid = '%2'::regclass"_s.arg(estimatedRows)
                            .arg(inbox.table),
                        &sqlError)) {
            qWarning() << sqlError;
            return {};
        }
        InboxKeyStage stage(InboxMappingSet::resolve({inbox}, {}, m_pg->conninfo()), inbox);
        QString openError;
        if (!stage.open(qint64(keys.size()), 3, &openError) || stage.join() != join) {
            qWarning() << "open:" << openError << "join:" << int(stage.join());
            return {};
        }
        // Two batches, as the window's reading hands them over.
        stage.enqueue({1, 2, 3, 4}, keys);
        stage.enqueue({5, 6, 7, 8}, keys);
        InboxKeyStage::Answers answers = stage.finish({});
        if (!answers.problems.isEmpty() || !answers.unanswered.isEmpty())
            qWarning() << answers.problems;
        return answers.states;
    };
    const QHash<quint32, InboxState> expected{{1, InboxState::Completed},
                                              {2, InboxState::InProgress},
                                              {3, InboxState::Completed}, // PARKED and DONE: done wins
                                              {4, mapping.stateOf(u"SKIP"_s)},
                                              {6, InboxState::Completed}};
    const InboxKeyStates scanned = answer(7, InboxKeyStage::Join::Scan, mapping);
    const InboxKeyStates probed = answer(100'000'000, InboxKeyStage::Join::Probe, mapping);
    QCOMPARE(scanned.size(), expected.size());
    QCOMPARE(probed.size(), expected.size());
    for (auto it = expected.cbegin(); it != expected.cend(); ++it) {
        QVERIFY2(scanned.value(it.key(), InboxState::Unknown) == it.value(), qPrintable(QString::number(it.key())));
        QVERIFY2(probed.value(it.key(), InboxState::Unknown) == it.value(), qPrintable(QString::number(it.key())));
    }

    // A table shared by consumers: only the rows of the mapping's consumer answer (its value passed as a
    // parameter, quote and all).
    QVERIFY2(m_pg->exec(u"CREATE TABLE joined_shared (id text NOT NULL, status text NOT NULL, consumer text NOT NULL, "
                        u"updated_at timestamptz NOT NULL DEFAULT now()); INSERT INTO joined_shared (id, status, "
                        u"consumer) VALUES ('a', 'DONE', 'o''projection'), ('a', 'PARKED', 'other'), "
                        u"('b', 'WORKING', 'other'); ANALYZE joined_shared;"_s,
                        &error),
             qPrintable(error));
    InboxMapping shared = inboxMapping(u"joined_shared"_s);
    shared.consumerColumn = u"consumer"_s;
    shared.consumerValue = u"o'projection"_s;
    const InboxKeyStates sharedScanned = answer(3, InboxKeyStage::Join::Scan, shared);
    const InboxKeyStates sharedProbed = answer(100'000'000, InboxKeyStage::Join::Probe, shared);
    for (const InboxKeyStates &states : {sharedScanned, sharedProbed}) {
        QCOMPARE(states.size(), 1);
        QCOMPARE(states.value(1), InboxState::Completed);
    }

    // Statistics far below the truth: the scan gives up past its cap, says so, and the keys are probed.
    QVERIFY2(m_pg->exec(u"CREATE TABLE joined_stale (id text NOT NULL, status text NOT NULL, updated_at timestamptz "
                        u"NOT NULL DEFAULT now()); CREATE INDEX ON joined_stale (id) INCLUDE (status, updated_at); "
                        u"INSERT INTO joined_stale (id, status) SELECT 's-' || g, 'WORKING' FROM "
                        u"generate_series(1, %1) g; INSERT INTO joined_stale (id, status) VALUES ('a', 'DONE');"_s
                            .arg(InboxKeyStage::ScanMinCap + 20'000),
                        &error),
             qPrintable(error));
    {
        const InboxMapping stale = inboxMapping(u"joined_stale"_s);
        QVERIFY2(m_pg->exec(u"UPDATE pg_class SET reltuples = 2 WHERE oid = 'joined_stale'::regclass"_s, &error),
                 qPrintable(error));
        InboxKeyStage stage(InboxMappingSet::resolve({stale}, {}, m_pg->conninfo()), stale);
        QString openError;
        QVERIFY2(stage.open(3, 3, &openError), qPrintable(openError));
        QCOMPARE(stage.join(), InboxKeyStage::Join::Scan);
        const KeyTable some{{}, "a", "s-7", "missing"};
        stage.enqueue({1, 2, 3}, some);
        const InboxKeyStage::Answers answers = stage.finish({});
        QVERIFY(answers.unanswered.isEmpty());
        QCOMPARE(answers.problems.size(), 1);
        QVERIFY2(answers.problems.first().contains(u"ANALYZE"_s), qPrintable(answers.problems.first()));
        QCOMPARE(answers.states.size(), 2);
        QCOMPARE(answers.states.value(1), InboxState::Completed);
        QCOMPARE(answers.states.value(2), InboxState::InProgress);
    }

    // Case-insensitive keys: "A" and "B" are the rows 'a' and 'b' there, which only the server can say.
    QVERIFY2(m_pg->exec(u"CREATE COLLATION caseless (provider = icu, locale = 'und-u-ks-level2', "
                        u"deterministic = false); CREATE TABLE joined_caseless (id text COLLATE caseless NOT NULL, "
                        u"status text NOT NULL, updated_at timestamptz NOT NULL DEFAULT now()); "
                        u"CREATE INDEX ON joined_caseless (id) INCLUDE (status, updated_at); "
                        u"INSERT INTO joined_caseless SELECT * FROM joined; ANALYZE joined_caseless;"_s,
                        &error),
             qPrintable(error));
    const InboxMapping caseless = inboxMapping(u"joined_caseless"_s);
    const KeyTable upper{{}, "A", "B", "missing"};
    for (const auto &[rows, join] : {std::pair{qint64(7), InboxKeyStage::Join::Merge},
                                     std::pair{qint64(100'000'000), InboxKeyStage::Join::Probe}}) {
        QString sqlError;
        QVERIFY2(m_pg->exec(u"UPDATE pg_class SET reltuples = %1 WHERE oid = 'joined_caseless'::regclass"_s.arg(rows),
                            &sqlError),
                 qPrintable(sqlError));
        InboxKeyStage stage(InboxMappingSet::resolve({caseless}, {}, m_pg->conninfo()), caseless);
        QString openError;
        QVERIFY2(stage.open(qint64(upper.size()), 3, &openError), qPrintable(openError));
        QCOMPARE(stage.join(), join);
        stage.enqueue({1, 2, 3}, upper);
        const InboxKeyStage::Answers answers = stage.finish({});
        QVERIFY2(answers.problems.isEmpty(), qPrintable(answers.problems.join(u"; "_s)));
        QCOMPARE(answers.states.size(), 2);
        QCOMPARE(answers.states.value(1), InboxState::Completed);
        QCOMPARE(answers.states.value(2), InboxState::InProgress);
    }
}

void TestAccounting::largeInboxWithoutCoveringKeyIndexIsNoted()
{
    // A table the inbox board calls large (its LargeTableRows, by the catalogue's estimate) without the
    // covering key index: berth account's summary names the index the board names, in the board's words;
    // once it exists the note is gone. The classes are the same either way.
    QString error;
    QVERIFY2(m_pg->exec(u"CREATE TABLE big_inbox (id text PRIMARY KEY, status text NOT NULL, updated_at "
                        u"timestamptz NOT NULL DEFAULT now()); INSERT INTO big_inbox SELECT * FROM inbox;"
                        u"ANALYZE big_inbox; UPDATE pg_class SET reltuples = %1 WHERE oid = 'big_inbox'::regclass"_s
                            .arg(InboxBoardQuery::LargeTableRows),
                        &error),
             qPrintable(error));
    PgSession session;
    QVERIFY2(session.connect(m_pg->conninfo(), &error), qPrintable(error));
    const InboxMapping mapping = inboxMapping(u"big_inbox"_s);
    QStringList missing;
    QVERIFY2(InboxBoardQuery::missingIndexes(session, mapping, {InboxBoardQuery::keyIndexRequirement(mapping)},
                                             &missing, &error),
             qPrintable(error));
    QCOMPARE(missing.size(), 1);
    const QString statement = missing.first().mid(missing.first().indexOf(u"CREATE INDEX"_s));
    QVERIFY2(statement.startsWith(u"CREATE INDEX"_s), qPrintable(missing.first()));

    QFile original(m_policy);
    QVERIFY(original.open(QIODevice::ReadOnly));
    const QString path = m_dir.filePath(u"big-policy.yaml"_s);
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(original.readAll().replace("table: inbox\n", "table: big_inbox\n"));
    file.close();
    const auto summary = [&] {
        const BerthCli::Result run =
            BerthCli::run({u"account"_s, u"--bootstrap"_s, m_cluster->bootstrapServers(), u"--group"_s,
                           u"projection"_s, u"--topic"_s, u"orders"_s, u"--policy"_s, path, u"--json"_s});
        if (run.exitCode != 1)
            qWarning() << run.exitCode << run.err;
        const QList<QJsonObject> lines = jsonLines(run.out);
        return lines.isEmpty() ? QJsonObject() : lines.last();
    };
    const QJsonObject without = summary();
    QCOMPARE(without.value(u"type"_s).toString(), u"summary"_s);
    const QStringList notes = without.value(u"messages"_s).toVariant().toStringList();
    QVERIFY2(notes.size() == 1 && notes.first().contains(u"no covering index"_s)
                 && notes.first().endsWith(statement),
             qPrintable(notes.join(u'\n') + u"\nexpected: "_s + statement));
    QCOMPARE(without.value(u"classes"_s).toObject().value(u"unaccounted"_s).toInt(), 1);

    QVERIFY2(m_pg->exec(statement, &error), qPrintable(error));
    const QJsonObject with = summary();
    QCOMPARE(with.value(u"type"_s).toString(), u"summary"_s);
    QVERIFY2(!with.contains(u"messages"_s), QJsonDocument(with).toJson().constData());
    QCOMPARE(with.value(u"classes"_s).toObject(), without.value(u"classes"_s).toObject());
}

void TestAccounting::keyTheIdColumnCannotHoldIsANoteOnItsRecord()
{
    // ARCHITECTURE.md, Data flows: Delivery accounting. A key the id column's type cannot take fails no
    // batch: it is named as such (no row can hold it) and the rest of its batch is answered, from the whole
    // table or probed, for a uuid column (checked before sending) and a bigint one (the server refuses the batch,
    // which is then probed in halves).
    QString error;
    QVERIFY2(m_pg->exec(u"CREATE TABLE uuid_inbox (id uuid NOT NULL, status text NOT NULL, updated_at timestamptz "
                        u"NOT NULL DEFAULT now()); CREATE INDEX ON uuid_inbox (id) INCLUDE (status, updated_at);"
                        u"INSERT INTO uuid_inbox (id, status) VALUES ('6f1c2a4e-0b7d-4c1e-9a53-2f9d8e7c6b5a', 'DONE'),"
                        u" ('{0b7d6f1c2a4e4c1e9a532f9d8e7c6b5a}', 'WORKING'); ANALYZE uuid_inbox;"
                        u"CREATE TABLE int_inbox (id bigint NOT NULL, status text NOT NULL, updated_at timestamptz "
                        u"NOT NULL DEFAULT now()); CREATE INDEX ON int_inbox (id) INCLUDE (status, updated_at);"
                        u"INSERT INTO int_inbox (id, status) VALUES (41, 'DONE'), (42, 'WORKING'), (43, 'PARKED');"
                        u"ANALYZE int_inbox;"_s,
                        &error),
             qPrintable(error));
    const auto answer = [&](const QString &table, const KeyTable &keys, qint64 estimatedRows,
                            InboxKeyStage::Join join) -> InboxKeyStage::Answers {
        QString sqlError;
        if (!m_pg->exec(u"UPDATE pg_class SET reltuples = %1 WHERE oid = '%2'::regclass"_s.arg(estimatedRows).arg(table),
                        &sqlError)) {
            qWarning() << sqlError;
            return {};
        }
        const InboxMapping mapping = inboxMapping(table);
        InboxKeyStage stage(InboxMappingSet::resolve({mapping}, {}, m_pg->conninfo()), mapping);
        QString openError;
        if (!stage.open(qint64(keys.size()), 3, &openError) || stage.join() != join) {
            qWarning() << "open:" << openError << "join:" << int(stage.join());
            return {};
        }
        std::vector<quint32> ids;
        for (quint32 id = 1; id < keys.size(); ++id)
            ids.push_back(id);
        stage.enqueue(std::move(ids), keys);
        return stage.finish({});
    };
    const KeyTable uuids{{},
                                        "6F1C2A4E-0B7D-4C1E-9A53-2F9D8E7C6B5A", // the first row, in capitals
                                        "not-a-uuid",
                                        "0b7d6f1c-2a4e-4c1e-9a53-2f9d8e7c6b5a", // the second row, hyphenated
                                        "6f1c2a4e-0b7d-4c1e-9a53-2f9d8e7c6b5b", // no row
                                        "6f1c2a4e-0b7d-4c1e-9a53-2f9d8e7c6b5a-", // one hyphen too many
                                        "{6f1c2a4e0b7d4c1e9a532f9d8e7c6b5a"};    // an unclosed brace
    const KeyTable numbers{{}, "41", "12x", "42", "7", "43", "99999999999999999999", "-5"};
    // The whole table (a uuid table is scanned, a bigint one merged), then probed.
    for (const bool whole : {true, false}) {
        using Join = InboxKeyStage::Join;
        const qint64 rows = whole ? 2 : 100'000'000;
        const InboxKeyStage::Answers u = answer(u"uuid_inbox"_s, uuids, rows, whole ? Join::Scan : Join::Probe);
        QVERIFY2(u.problems.isEmpty() && u.unanswered.isEmpty(), qPrintable(u.problems.join(u"; "_s)));
        QCOMPARE(u.uncastable, (QSet<quint32>{2, 5, 6}));
        QCOMPARE(u.states.size(), 2);
        QCOMPARE(u.states.value(1), InboxState::Completed);
        QCOMPARE(u.states.value(3), InboxState::InProgress);

        const InboxKeyStage::Answers n =
            answer(u"int_inbox"_s, numbers, whole ? 3 : 100'000'000, whole ? Join::Merge : Join::Probe);
        QVERIFY2(n.problems.isEmpty() && n.unanswered.isEmpty(), qPrintable(n.problems.join(u"; "_s)));
        QCOMPARE(n.uncastable, (QSet<quint32>{2, 6})); // not a number; out of bigint's range
        QCOMPARE(n.states.size(), 3);
        QCOMPARE(n.states.value(1), InboxState::Completed);
        QCOMPARE(n.states.value(3), InboxState::InProgress);
        QCOMPARE(n.states.value(5), InboxState::Parked);
    }

    // The classifier: a note on that record, judged as a key without a row (committed past: unaccounted).
    Arranged a;
    a.add(0, 0, "6f1c2a4e-0b7d-4c1e-9a53-2f9d8e7c6b5a");
    a.add(0, 1, "not-a-uuid");
    a.add(0, 2, "later-not-a-uuid");
    AccountingEvidence e;
    e.hasInbox = true;
    e.inbox.insert(a.key("6f1c2a4e-0b7d-4c1e-9a53-2f9d8e7c6b5a"), InboxState::Completed);
    e.inboxUncastable = {a.key("not-a-uuid"), a.key("later-not-a-uuid")};
    e.committed.insert(0, 2);
    AccountingClassifier::classify(a.result, e);
    QCOMPARE(a.classOf(0, 0), AccountClass::Processed);
    QCOMPARE(a.classOf(0, 1), AccountClass::Unaccounted);
    QCOMPARE(a.classOf(0, 2), AccountClass::NotConsumed);
    QCOMPARE(a.result.records[1].notes, quint16(AccountNote::KeyNotInboxType));
    QCOMPARE(AccountNote::names(a.result.records[2].notes), QStringList{u"keyNotInboxType"_s});
    QCOMPARE(a.result.notes, 2);
    QCOMPARE(a.result.records[0].notes, quint16(0));
}

void TestAccounting::cancelDoesNotWaitForTheInboxInFlight()
{
    // ARCHITECTURE.md, Data flows: Delivery accounting. A cancel while the inbox is being read (the whole
    // table, for this window) cancels the statement on the server: the run ends cancelled while the read
    // would still be blocked, and what
    // was read is classified (the keys the inbox did not answer unverified), the counts partitioning it.
    QString error;
    QVERIFY(m_cluster->createTopic(u"held-orders"_s, 2));
    QVERIFY2(m_pg->exec(u"CREATE TABLE held_inbox (id text NOT NULL, status text NOT NULL, updated_at timestamptz "
                        u"NOT NULL DEFAULT now()); INSERT INTO held_inbox (id, status) SELECT 'h-' || g, 'DONE' "
                        u"FROM generate_series(0, 39) g; ANALYZE held_inbox;"
                        u"UPDATE pg_class SET reltuples = 40 WHERE oid = 'held_inbox'::regclass;"_s,
                        &error),
             qPrintable(error));
    constexpr int Records = 60;
    QVERIFY2(produceKeyed(m_cluster->clientProperties(), u"held-orders"_s, 2, Records, "h-", &error),
             qPrintable(error));

    // Another session holds the table: the read waits for its lock until it is cancelled.
    PgSession holder;
    QVERIFY2(holder.connect(m_pg->conninfo(), &error), qPrintable(error));
    QVERIFY2(holder.execScript(u"BEGIN; LOCK TABLE held_inbox IN ACCESS EXCLUSIVE MODE"_s, &error), qPrintable(error));

    AccountingRequest request;
    request.cluster = m_cluster->clientProperties();
    request.group = u"held"_s;
    request.topic = u"held-orders"_s;
    request.idempotencyKey = {RecordField::Kind::Header, u"idempotency-key"_s};
    request.inbox = inboxMapping(u"held_inbox"_s);
    request.inboxes = InboxMappingSet::resolve({*request.inbox}, {}, m_pg->conninfo());
    std::atomic_bool stop{false};
    std::atomic_bool done{false};
    AccountingResultPtr result;
    AccountingHooks hooks;
    hooks.cancelled = [&stop] { return stop.load(); };
    std::atomic_bool windowRead{false};
    hooks.progress = [&windowRead](const AccountingProgress &p) {
        if (p.stage == u"Waiting for the inbox"_s)
            windowRead = true;
    };
    std::thread run([&] {
        result = DeliveryAccountant::run(request, hooks);
        done = true;
    });
    // The read is in flight once a backend waits for the table's lock; the window is read by then.
    const auto waiting = [&] {
        const PgResult r = holder.exec(u"SELECT count(*) FROM pg_locks WHERE relation = 'held_inbox'::regclass "
                                       u"AND NOT granted"_s);
        return r.ok && r.rows.value(0).value(0).toInt() > 0;
    };
    QTRY_VERIFY_WITH_TIMEOUT((windowRead && waiting()) || done, 20'000);
    QVERIFY(!done);
    stop = true;
    // Well before the session's statement timeout (InboxSessions::StatementTimeoutMs) would end the read.
    QTRY_VERIFY_WITH_TIMEOUT(done, InboxSessions::StatementTimeoutMs / 3);
    const bool stillHeld = waiting() == false && holder.exec(u"SELECT 1"_s).ok;
    run.join();
    QVERIFY(holder.execScript(u"ROLLBACK"_s, &error));
    QVERIFY(stillHeld);
    QVERIFY(result);
    QVERIFY2(result->error.isEmpty(), qPrintable(result->error));
    QVERIFY(result->cancelled);
    QCOMPARE(qint64(result->records.size()), qint64(Records));
    qint64 total = 0;
    for (const qint64 c : result->counts)
        total += c;
    QCOMPARE(total, qint64(Records));
    for (const AccountedRecord &r : result->records)
        QVERIFY(r.notes & AccountNote::InboxUnreachable); // nothing answered: not verified
    QVERIFY(result->messages.filter(u"statement timeout"_s).isEmpty());
}

void TestAccounting::cancelDuringTheReadKeepsWhatWasReadInOrder()
{
    // ARCHITECTURE.md, Data flows: Delivery accounting. A run cancelled while its window is read keeps
    // exactly the records it read, each once, in (partition, offset) order, and its counts partition them.
    QString error;
    QVERIFY(m_cluster->createTopic(u"cut-orders"_s, 3));
    constexpr int Records = 300;
    QVERIFY2(produceKeyed(m_cluster->clientProperties(), u"cut-orders"_s, 3, Records, "c-", &error),
             qPrintable(error));

    AccountingRequest request;
    request.cluster = m_cluster->clientProperties();
    request.group = u"cut"_s;
    request.topic = u"cut-orders"_s;
    request.idempotencyKey = {RecordField::Kind::Header, u"idempotency-key"_s};
    std::atomic_int asked{0};
    AccountingHooks hooks;
    hooks.cancelled = [&asked] { return ++asked > 40; }; // asked once per record read, and a few times more
    const AccountingResultPtr result = DeliveryAccountant::run(request, hooks);
    QVERIFY(result);
    QVERIFY2(result->error.isEmpty(), qPrintable(result->error));
    QVERIFY(result->cancelled);
    const qsizetype read = qsizetype(result->records.size());
    QVERIFY2(read > 0 && read < Records, qPrintable(QString::number(read)));
    QSet<std::pair<int, qint64>> seen;
    for (qsizetype i = 0; i < read; ++i) {
        const AccountedRecord &r = result->records[size_t(i)];
        QVERIFY2(r.partition >= 0 && r.partition < 3 && r.offset >= 0 && r.offset < Records / 3,
                 qPrintable(u"%1/%2"_s.arg(r.partition).arg(r.offset)));
        QVERIFY(!seen.contains({r.partition, r.offset}));
        seen.insert({r.partition, r.offset});
        if (i > 0) {
            const AccountedRecord &before = result->records[size_t(i - 1)];
            QVERIFY(before.partition < r.partition
                    || (before.partition == r.partition && before.offset < r.offset));
        }
    }
    qint64 total = 0;
    for (const qint64 c : result->counts)
        total += c;
    QCOMPARE(total, qint64(read));
}

QTEST_GUILESS_MAIN(TestAccounting)
#include "tst_accounting.moc"
