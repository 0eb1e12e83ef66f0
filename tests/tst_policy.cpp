#include "services/demo/demoworld.h"
#include "services/policy/consumerchecklist.h"
#include "services/policy/policyloader.h"
#include "services/policy/policywatcher.h"
#include "support/testsupport.h"

#include <QFile>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <cstdio>

using namespace Qt::StringLiterals;

namespace {

// Seed 000 §34, "Production Policy Template". The seed's text lost its indentation; this is the nesting
// its order implies (duplicateHandling and externalProviderIdempotency under idempotency,
// manualReviewRequired under dlq). Line numbers below refer to this text.
// The text lives in tests/fixtures/seed000-policy.yaml (other tests load it too).

QByteArray seed()
{
    QFile file(TestSupport::sourcePath(u"tests/fixtures/seed000-policy.yaml"_s));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("seed policy fixture missing: %s", qPrintable(file.fileName()));
    return file.readAll();
}

// The seed with the first occurrence of `from` replaced: fails loudly if the test's anchor is gone.
QByteArray seedWith(const char *from, const char *to)
{
    QByteArray text = seed();
    const qsizetype at = text.indexOf(from);
    if (at < 0)
        qFatal("test anchor not in the seed template: %s", from);
    return text.replace(at, qsizetype(qstrlen(from)), to);
}

DeliveryPolicy withoutLines(DeliveryPolicy p)
{
    for (TopicPolicy &t : p.topics)
        t.line = 0;
    for (ConsumerPolicy &c : p.consumers)
        c.line = 0;
    return p;
}

QString describe(const PolicyLoadResult &r)
{
    return r.messages().join(u'\n');
}

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

// A watcher on the seed policy in a fresh directory, with a spy on its signal.
struct WatchedPolicy {
    QTemporaryDir dir;
    QString path = dir.filePath(u"policy.yaml"_s);
    PolicyWatcher watcher;
    QSignalSpy spy{&watcher, &PolicyWatcher::policyChanged};

    // setPath loads and emits at once, before any file event.
    bool start()
    {
        if (!writeFile(path, seed()))
            return false;
        watcher.setPath(path);
        return spy.count() == 1 && watcher.current().ok();
    }
    std::optional<int> lagSlo() const
    {
        const ConsumerPolicy *c = watcher.current().policy.consumer(u"search-indexer"_s);
        return c ? c->lagSloMaxLagSeconds : std::nullopt;
    }
};

} // namespace

class TestPolicy final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void seedTemplateLoads();
    void seedTemplateFlatNestingReadsTheSame();
    void demoPolicyNamesTheDemoGroups();
    void demoPolicyStatesTheDemoAnswers();
    void errorsPointAtTheProblem_data();
    void errorsPointAtTheProblem();
    void warningsKeepThePolicyUsable_data();
    void warningsKeepThePolicyUsable();
    void unreadableInputs_data();
    void unreadableInputs();
    void missingFileIsAnError();
    void accountingKeysRead();
    void formatsLikeACompiler();
    void replayAllowance();
    void durations_data();
    void durations();
    void garbageNeverCrashes();
    void largePolicyLoads();
    void watcherReloadsAfterRewrite();
    void watcherReloadsAfterRenameOver();
    void watcherFollowsDeleteAndRecreate();
    void watcherIgnoresUnrelatedChanges();
    void checklistAnswersFromPolicyAndEvidence();
    void demoPolicyChecklistFlagsTheOwnerlessDlq();
    void checklistAsksEverySeedQuestion();
    void checklistStrategyNoneIsAGap();
    void checklistReviewAnswersFillTheGaps();
    void checklistKeepsMessageIdAndPartitionKeyApart();
    void checklistComparesInboxRetentionWithTheTopic();
    void checklistEvidenceFromTheAlertRules();
};

void TestPolicy::seedTemplateLoads()
{
    const PolicyLoadResult r = loadPolicy(seed(), u"seed.yaml"_s);
    QVERIFY2(r.ok(), qPrintable(describe(r)));
    QVERIFY2(r.diagnostics.isEmpty(), qPrintable(describe(r)));

    const TopicPolicy caseEvents{.name = u"case-events"_s,
                                 .defaultGuarantee = u"at-least-once"_s,
                                 .key = u"caseId"_s,
                                 .ordering = u"per-key"_s,
                                 .retention = u"7d"_s,
                                 .retentionMs = 7LL * 24 * 3600 * 1000,
                                 .replayAllowedText = u"true"_s,
                                 .replayAllowed = ReplayAllowance::Allowed,
                                 .line = 3};
    QCOMPARE(r.policy.topics, QList<TopicPolicy>{caseEvents});
    QCOMPARE(r.policy.topic(u"case-events"_s)->key, u"caseId"_s);

    // Every answer the template leaves out stays unset: "not stated" must not read as false.
    const ConsumerPolicy searchIndexer{.name = u"search-indexer"_s,
                                       .idempotencyStrategy = u"aggregate-version-upsert"_s,
                                       .duplicateHandling = u"skip"_s,
                                       .offsetCommitTiming = u"after-db-transaction"_s,
                                       .retryMaxAttempts = 5,
                                       .retryBackoff = u"exponential-jitter"_s,
                                       .dlqEnabled = true,
                                       .dlqTopic = u"case-events.search-indexer.dlq"_s,
                                       .dlqOwner = u"search-team"_s,
                                       .poisonMaxAttemptsBeforePark = 5,
                                       .lagSloMaxLagSeconds = 60,
                                       .line = 10};
    const ConsumerPolicy notificationSender{.name = u"notification-sender"_s,
                                            .idempotencyStrategy = u"notification-id"_s,
                                            .externalProviderIdempotency = true,
                                            .dlqEnabled = true,
                                            .manualReviewRequired = true,
                                            .replayAllowedText = u"false-for-side-effect"_s,
                                            .replayAllowed = ReplayAllowance::NotForSideEffects,
                                            .line = 27};
    QCOMPARE(r.policy.consumers, (QList<ConsumerPolicy>{searchIndexer, notificationSender}));
    QVERIFY(!r.policy.consumer(u"search-indexer"_s)->externalProviderIdempotency.has_value());

    QCOMPARE(r.policy.consumerGroups(), (QStringList{u"search-indexer"_s, u"notification-sender"_s}));
    QCOMPARE(r.policy.consumer(u"notification-sender"_s)->idempotencyStrategy, u"notification-id"_s);
    QVERIFY(!r.policy.consumer(u"case-events"_s));
    QCOMPARE(r.policy.dlqTopics(), QStringList{u"case-events.search-indexer.dlq"_s});
}

void TestPolicy::seedTemplateFlatNestingReadsTheSame()
{
    // The other reading of the seed: the three ambiguous keys directly under the consumer.
    QByteArray flatText = seed();
    for (const char *key : {"duplicateHandling", "externalProviderIdempotency", "manualReviewRequired"})
        flatText.replace(QByteArray(QByteArray("        ") + key), QByteArray(QByteArray("      ") + key));
    QVERIFY(flatText != seed());
    const PolicyLoadResult nested = loadPolicy(seed(), u"nested"_s);
    const PolicyLoadResult flat = loadPolicy(flatText, u"flat"_s);
    QVERIFY2(flat.ok() && flat.diagnostics.isEmpty(), qPrintable(describe(flat)));
    QCOMPARE(withoutLines(flat.policy), withoutLines(nested.policy));
}

void TestPolicy::demoPolicyNamesTheDemoGroups()
{
    const PolicyLoadResult r = loadPolicyFile(demoPolicyPath());
    QVERIFY2(r.ok() && r.diagnostics.isEmpty(), qPrintable(describe(r)));
    QStringList groups = r.policy.consumerGroups();
    groups.sort();
    const QStringList expected{u"connect-warehouse-sink"_s, u"email-sender"_s, u"order-projection"_s,
                               u"payment-capture"_s};
    QCOMPARE(groups, expected);
    QCOMPARE(groups, DemoWorld::groups()); // the demo world runs exactly the groups the policy names

    // The copy in the source tree is the one compiled in.
    QFile source(TestSupport::sourcePath(u"resources/policy/demo-policy.yaml"_s));
    QVERIFY(source.open(QIODevice::ReadOnly));
    QFile compiled(demoPolicyPath());
    QVERIFY(compiled.open(QIODevice::ReadOnly));
    QCOMPARE(compiled.readAll(), source.readAll());
}

void TestPolicy::demoPolicyStatesTheDemoAnswers()
{
    const DeliveryPolicy p = loadPolicyFile(demoPolicyPath()).policy;

    QCOMPARE(p.topics.size(), 3);
    const TopicPolicy *orders = p.topic(u"orders"_s);
    QVERIFY(orders && p.topic(u"payments"_s) && p.topic(u"notifications"_s));
    QCOMPARE(orders->partitions, 6);
    QCOMPARE(orders->key, u"orderId"_s);

    // Where each group's poison goes and who answers for it; the sink's missing owner is the deliberate gap.
    const struct {
        const char16_t *group, *dlq, *owner;
        int maxLagSeconds;
    } dlqs[] = {{u"order-projection", u"orders-dlt", u"team-orders", 60},
                {u"payment-capture", u"payments-dlq", u"team-payments", 30},
                {u"email-sender", u"error.notifications.email-sender", u"team-comms", 120},
                {u"connect-warehouse-sink", u"dlq-warehouse-sink", u"", 300}};
    for (const auto &d : dlqs) {
        const ConsumerPolicy *c = p.consumer(QString::fromUtf16(d.group));
        QVERIFY(c);
        QCOMPARE(c->dlqTopic, QString::fromUtf16(d.dlq));
        QCOMPARE(c->dlqOwner, QString::fromUtf16(d.owner));
        QCOMPARE(c->lagSloMaxLagSeconds, std::optional<int>(d.maxLagSeconds));
    }
    const ConsumerPolicy *op = p.consumer(u"order-projection"_s);
    QCOMPARE(op->topics, QStringList{u"orders"_s});
    QCOMPARE(op->idempotencyStrategy, u"processed_message"_s);
    QCOMPARE(op->replayAllowed, ReplayAllowance::Allowed);
    const ConsumerPolicy *pc = p.consumer(u"payment-capture"_s);
    QCOMPARE(pc->idempotencyStrategy, u"processed_events"_s);
    QCOMPARE(pc->replayAllowedText, u"false-for-side-effect"_s);
    QCOMPARE(pc->replayAllowed, ReplayAllowance::NotForSideEffects);
    QCOMPARE(pc->externalProviderIdempotency, std::optional<bool>(true));
    QCOMPARE(pc->manualReviewRequired, std::optional<bool>(true));
    QCOMPARE(p.dlqTopics(), (QStringList{u"orders-dlt"_s, u"payments-dlq"_s,
                                         u"error.notifications.email-sender"_s, u"dlq-warehouse-sink"_s}));
}

void TestPolicy::errorsPointAtTheProblem_data()
{
    QTest::addColumn<QByteArray>("yaml");
    QTest::addColumn<int>("line");
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("message");
    // Syntax: the offending character, 1-based, worked out by hand from each text.
    const QString syntax = u"invalid YAML: "_s;
    QTest::newRow("syntax: unclosed flow sequence") << QByteArray("a: [1, 2\nb: 3\n") << 2 << 2 << syntax;
    QTest::newRow("syntax: bad dedent") << QByteArray("a:\n  b: 1\n c: 2\n") << 3 << 2 << syntax;
    QTest::newRow("syntax: map value on one line") << QByteArray("a: b: c\n") << 1 << 5 << syntax;
    QTest::newRow("syntax: list after mapping") << QByteArray("key: value\n- item\n") << 2 << 1 << syntax;
    QTest::newRow("syntax: undefined alias") << QByteArray("a: *nosuch\n") << 1 << 4 << syntax;
    QTest::newRow("syntax: nul byte") << QByteArray("a: 1\0b: 2\n", 10) << 1 << 7 << syntax;
    // yaml-cpp 0.7 loops forever on these unless guarded (jbeder/yaml-cpp#1040).
    QTest::newRow("syntax: leading comma") << QByteArray(", a\n") << 1 << 1 << syntax;
    QTest::newRow("syntax: comma as second document") << QByteArray("a: 1\n---\n,\n") << 3 << 1 << syntax;
    QTest::newRow("syntax: seed, stray indent")
        << seedWith("        maxAttempts: 5", "          maxAttempts: 5") << 18 << 9 << syntax;
    QTest::newRow("syntax: seed, unclosed bracket")
        << seedWith("key: caseId", "key: [caseId") << 6 << 15 << syntax;
    // Types: the value's own position; the rest of the seed still loads.
    QTest::newRow("type: text for a number") << seedWith("maxAttempts: 5", "maxAttempts: five") << 17 << 22
                                             << u"retry.maxAttempts: expected a whole number, got 'five'"_s;
    QTest::newRow("type: fraction") << seedWith("maxAttemptsBeforePark: 5", "maxAttemptsBeforePark: 5.5")
                                    << 24 << 32 << u"expected a whole number, got '5.5'"_s;
    QTest::newRow("type: negative") << seedWith("maxLagSeconds: 60", "maxLagSeconds: -5") << 26 << 24
                                    << u"lagSlo.maxLagSeconds: must be at least 0, got -5"_s;
    QTest::newRow("type: list for a number") << seedWith("maxLagSeconds: 60", "maxLagSeconds: [60]") << 26
                                             << 24 << u"expected a whole number, got a list"_s;
    QTest::newRow("type: text for a bool")
        << seedWith("enabled: true", "enabled: maybe") << 20 << 18
        << u"search-indexer.dlq.enabled: expected true or false, got 'maybe'"_s;
    QTest::newRow("type: text for a nested bool")
        << seedWith("externalProviderIdempotency: true", "externalProviderIdempotency: sometimes") << 30 << 38
        << u"idempotency.externalProviderIdempotency: expected true or false"_s;
    QTest::newRow("type: mapping for text") << seedWith("key: caseId", "key: {field: caseId}") << 5 << 12
                                            << u"case-events.key: expected a text value, got a mapping"_s;
    QTest::newRow("type: scalar for a mapping")
        << seedWith("      replay:\n        allowed: false-for-side-effect", "      replay: true") << 31 << 15
        << u"notification-sender.replay: expected a mapping, got 'true'"_s;
}

void TestPolicy::errorsPointAtTheProblem()
{
    QFETCH(QByteArray, yaml);
    QFETCH(int, line);
    QFETCH(int, column);
    QFETCH(QString, message);
    const PolicyLoadResult r = loadPolicy(yaml, u"bad.yaml"_s);
    QVERIFY(!r.ok());
    QCOMPARE(r.errors().size(), 1);
    const PolicyDiagnostic e = r.errors().constFirst();
    QVERIFY2(e.message.contains(message), qPrintable(e.message));
    QCOMPARE(e.line, line);
    QCOMPARE(e.column, column);
    if (message == u"invalid YAML: "_s) {
        QVERIFY(r.policy.isEmpty());
        return;
    }
    // One bad value costs that value only.
    QCOMPARE(r.policy.consumerGroups(), (QStringList{u"search-indexer"_s, u"notification-sender"_s}));
    QCOMPARE(r.policy.consumer(u"search-indexer"_s)->dlqOwner, u"search-team"_s);
    QCOMPARE(r.policy.consumer(u"notification-sender"_s)->idempotencyStrategy, u"notification-id"_s);
    QCOMPARE(r.policy.topic(u"case-events"_s)->ordering, u"per-key"_s);
}

void TestPolicy::warningsKeepThePolicyUsable_data()
{
    QTest::addColumn<QByteArray>("yaml");
    QTest::addColumn<int>("line");
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("message");
    // Unknown keys at every level: named, placed, never fatal.
    QTest::newRow("unknown top-level key")
        << QByteArray("schemaVersion: 2\n" + seed()) << 1 << 1 << u"unknown top-level key 'schemaVersion'"_s;
    QTest::newRow("unknown topic key")
        << seedWith("ordering: per-key\n", "ordering: per-key\n      compaction: no\n") << 7 << 7
        << u"'compaction' in deliverySemantics.topics.case-events"_s;
    QTest::newRow("unknown section") << seedWith("  consumers:\n", "  producers: {}\n  consumers:\n") << 9
                                     << 3 << u"unknown key 'producers' in deliverySemantics (ignored)"_s;
    QTest::newRow("unknown consumer key")
        << seedWith("      lagSlo:\n", "      retires: 3\n      lagSlo:\n") << 25 << 7
        << u"'retires' in deliverySemantics.consumers.search-indexer"_s;
    QTest::newRow("unknown nested key")
        << seedWith("owner: search-team\n", "owner: search-team\n        ownr: x\n") << 23 << 9
        << u"'ownr' in deliverySemantics.consumers.search-indexer.dlq"_s;
    QTest::newRow("duplicate key") << seedWith("        maxAttempts: 5\n",
                                               "        maxAttempts: 5\n        maxAttempts: 9\n")
                                   << 18 << 9 << u"'maxAttempts' appears twice"_s;
    QTest::newRow("unknown replay value") << seedWith("allowed: false-for-side-effect", "allowed: sometimes")
                                          << 32 << 18 << u"'sometimes' is not one of"_s;
    QTest::newRow("unreadable retention")
        << seedWith("retention: 7d", "retention: a week") << 7 << 18 << u"is not a duration"_s;
    QTest::newRow("second document") << QByteArray(seed() + "---\nother: 1\n") << 36 << 1
                                     << u"only the first YAML document is read"_s;
    QTest::newRow("stated twice") << seedWith(
        "        duplicateHandling: skip\n",
        "        duplicateHandling: skip\n      duplicateHandling: skip\n")
                                  << 14 << 26 << u"duplicateHandling is stated twice"_s;
    QTest::newRow("nameless consumer")
        << seedWith("    notification-sender:\n", "    []:\n    notification-sender:\n") << 27 << 5
        << u"a key must be a non-empty name"_s;
}

void TestPolicy::warningsKeepThePolicyUsable()
{
    QFETCH(QByteArray, yaml);
    QFETCH(int, line);
    QFETCH(int, column);
    QFETCH(QString, message);
    const PolicyLoadResult r = loadPolicy(yaml, u"warn.yaml"_s);
    QVERIFY2(r.ok(), qPrintable(describe(r)));
    QCOMPARE(r.warnings().size(), 1);
    QVERIFY2(r.warnings().constFirst().message.contains(message), qPrintable(describe(r)));
    QCOMPARE(r.warnings().constFirst().line, line);
    QCOMPARE(r.warnings().constFirst().column, column);
    QCOMPARE(r.policy.consumerGroups(), (QStringList{u"search-indexer"_s, u"notification-sender"_s}));
    QCOMPARE(r.policy.consumer(u"search-indexer"_s)->retryMaxAttempts, std::optional<int>(5));
}

void TestPolicy::unreadableInputs_data()
{
    QTest::addColumn<QByteArray>("yaml");
    QTest::addColumn<int>("line");
    QTest::addColumn<QString>("message");
    QTest::newRow("empty") << QByteArray() << 1 << u"empty"_s;
    QTest::newRow("comment only") << QByteArray("# nothing\n") << 1 << u"empty"_s;
    QTest::newRow("no deliverySemantics")
        << QByteArray("consumers:\n  a: {}\n") << 1 << u"no deliverySemantics"_s;
    QTest::newRow("top-level list") << QByteArray("- a\n- b\n") << 1 << u"expected a mapping"_s;
    QTest::newRow("consumers as a list") << QByteArray("deliverySemantics:\n  consumers: [a, b]\n") << 2
                                         << u"deliverySemantics.consumers: expected a mapping, got a list"_s;
    QTest::newRow("flow nesting 100k deep") << QByteArray(100'000, '[') << 1 << u"too deep"_s;
    QTest::newRow("block sequences 3000 deep") << QByteArray("- ").repeated(3000) + 'x' << 1 << u"too deep"_s;
    QByteArray block;
    for (int i = 0; i < 1200; ++i)
        block += QByteArray(i, ' ') + "k:\n";
    QTest::newRow("block mappings 1200 deep") << block << 0 << u"too deep"_s;
    QTest::newRow("over the size limit") << QByteArray(MaxPolicyBytes + 1, ' ') << 0 << u"more than the"_s;
}

void TestPolicy::unreadableInputs()
{
    QFETCH(QByteArray, yaml);
    QFETCH(int, line);
    QFETCH(QString, message);
    const PolicyLoadResult r = loadPolicy(yaml, u"x.yaml"_s);
    QVERIFY(!r.ok());
    QVERIFY2(r.errors().constFirst().message.contains(message), qPrintable(describe(r)));
    if (line > 0) // 0: the position is the parser's business, only its presence matters
        QCOMPARE(r.errors().constFirst().line, line);
    QVERIFY(r.policy.isEmpty());
}

void TestPolicy::accountingKeysRead()
{
    const PolicyLoadResult r = loadPolicy("deliverySemantics:\n"
                                          "  topics:\n"
                                          "    orders: {key: orderId, sequence: {jsonPath: $.version}}\n"
                                          "    audit: {sequence: {header: seq}}\n"
                                          "  consumers:\n"
                                          "    projection:\n"
                                          "      idempotencyKey: {jsonPath: $.eventId}\n"
                                          "      isolationLevel: read_committed\n"
                                          "    sink:\n"
                                          "      idempotencyKey: {recordKey: true}\n"
                                          "      isolationLevel: sometimes\n",
                                          u"accounting.yaml"_s);
    QVERIFY2(r.ok(), qPrintable(describe(r)));
    QCOMPARE(r.policy.topic(u"orders"_s)->sequence, (RecordField{RecordField::Kind::JsonPath, u"$.version"_s}));
    QCOMPARE(r.policy.topic(u"audit"_s)->sequence, (RecordField{RecordField::Kind::Header, u"seq"_s}));
    const ConsumerPolicy *projection = r.policy.consumer(u"projection"_s);
    QCOMPARE(projection->idempotencyKey, (RecordField{RecordField::Kind::JsonPath, u"$.eventId"_s}));
    QCOMPARE(projection->idempotencyKeySource, u"JSON path $.eventId"_s);
    QVERIFY(projection->readsCommitted());
    const ConsumerPolicy *sink = r.policy.consumer(u"sink"_s);
    QCOMPARE(sink->idempotencyKey.kind, RecordField::Kind::RecordKey);
    QVERIFY(!sink->readsCommitted());
    QCOMPARE(r.warnings().size(), 1); // the isolation level that is neither
    QVERIFY2(r.warnings().constFirst().message.contains(u"read_committed"_s), qPrintable(describe(r)));
}

void TestPolicy::missingFileIsAnError()
{
    const PolicyLoadResult r = loadPolicyFile(u"/nonexistent/policy.yaml"_s);
    QVERIFY(!r.ok());
    QCOMPARE(r.sourceName, u"/nonexistent/policy.yaml"_s);
    QCOMPARE(r.errors().constFirst().line, 0);
    QVERIFY2(r.errors().constFirst().message.startsWith(u"cannot open the policy"_s),
             qPrintable(describe(r)));
}

void TestPolicy::formatsLikeACompiler()
{
    const PolicyLoadResult r = loadPolicy(seedWith("maxAttempts: 5", "maxAttempts: five"), u"p.yaml"_s);
    QCOMPARE(
        r.messages(),
        QStringList{u"p.yaml:17:22: error: deliverySemantics.consumers.search-indexer.retry.maxAttempts: "
                    u"expected a whole number, got 'five'"_s});
    QCOMPARE(formatDiagnostic({}, {PolicyDiagnostic::Warning, 0, 0, u"m"_s}), u"warning: m"_s);
    QCOMPARE(formatDiagnostic(u"f"_s, {PolicyDiagnostic::Error, 3, 0, u"m"_s}), u"f:3: error: m"_s);
}

void TestPolicy::replayAllowance()
{
    QCOMPARE(parseReplayAllowance({}), ReplayAllowance::NotStated);
    QCOMPARE(parseReplayAllowance(u"true"_s), ReplayAllowance::Allowed);
    QCOMPARE(parseReplayAllowance(u"Yes"_s), ReplayAllowance::Allowed);
    QCOMPARE(parseReplayAllowance(u"false"_s), ReplayAllowance::NotAllowed);
    QCOMPARE(parseReplayAllowance(u"false-for-side-effect"_s), ReplayAllowance::NotForSideEffects);
    QCOMPARE(parseReplayAllowance(u"false-for-side-effects"_s), ReplayAllowance::NotForSideEffects);
    QCOMPARE(parseReplayAllowance(u"maybe"_s), ReplayAllowance::Unrecognised);
}

void TestPolicy::durations_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<qint64>("ms");
    QTest::newRow("days") << u"7d"_s << qint64(604'800'000);
    QTest::newRow("hours") << u"12h"_s << qint64(43'200'000);
    QTest::newRow("minutes") << u"30m"_s << qint64(1'800'000);
    QTest::newRow("seconds") << u"45 s"_s << qint64(45'000);
    QTest::newRow("milliseconds") << u"500ms"_s << qint64(500);
    QTest::newRow("bare") << u"86400000"_s << qint64(86'400'000);
    QTest::newRow("empty") << QString() << qint64(-1);
    QTest::newRow("words") << u"a week"_s << qint64(-1);
    QTest::newRow("unknown unit") << u"3y"_s << qint64(-1);
    QTest::newRow("overflow") << u"9999999999999999999d"_s << qint64(-1);
}

void TestPolicy::durations()
{
    QFETCH(QString, text);
    QFETCH(qint64, ms);
    QCOMPARE(parseDurationMs(text), ms);
}

void TestPolicy::garbageNeverCrashes()
{
    QRandomGenerator rng(20240611);
    const QByteArray base = seed() + "    x: &a\n      dlq: {enabled: [*a, 'q', \"d\"]}\n    y: *a\n";
    static constexpr char alphabet[] = "[]{}:,-?&*!|>'\"#%@` \n\t\\ab0.";
    int loaded = 0, rejected = 0;
    for (int i = 0; i < 6000; ++i) {
        QByteArray input;
        const bool binary = i % 3 == 0;
        if (binary) {
            input.resize(rng.bounded(4096));
            for (char &c : input)
                c = char(rng.bounded(256));
        } else {
            input = base;
            for (int m = 1 + rng.bounded(8); m > 0; --m) {
                const qsizetype at = rng.bounded(int(input.size()));
                const char c = rng.bounded(4) == 0 ? char(rng.bounded(256))
                                                   : alphabet[rng.bounded(int(sizeof alphabet - 1))];
                if (const int edit = rng.bounded(3); edit == 0)
                    input.insert(at, c);
                else if (edit == 1)
                    input.remove(at, 1);
                else
                    input[at] = c;
            }
        }
        const PolicyLoadResult r = loadPolicy(input, u"fuzz"_s);
        r.ok() ? ++loaded : ++rejected;
        if (binary)
            QVERIFY2(!r.ok(), qPrintable(u"random bytes accepted as a policy, iteration %1"_s.arg(i)));
        const int lines = int(input.count('\n')) + 1;
        for (const PolicyDiagnostic &d : r.diagnostics) {
            QVERIFY(!d.message.isEmpty());
            // A position, when given, lies inside the input.
            QVERIFY2(d.line >= 0 && d.line <= lines && d.column >= 0,
                     qPrintable(u"iteration %1: %2"_s.arg(i).arg(formatDiagnostic({}, d))));
        }
    }
    QVERIFY(loaded > 0);   // mutations that keep the shape still load
    QVERIFY(rejected > 0); // and the rest are rejected, not crashed on
}

void TestPolicy::largePolicyLoads()
{
    QByteArray yaml = "deliverySemantics:\n  consumers:\n";
    for (int i = 0; i < 2000; ++i)
        yaml += "    group-" + QByteArray::number(i) + ":\n      dlq: {enabled: true, topic: dlq-"
                + QByteArray::number(i)
                + ", owner: team}\n      lagSlo: {maxLagSeconds: " + QByteArray::number(i) + "}\n";
    const PolicyLoadResult r = loadPolicy(yaml, u"large"_s);
    QVERIFY2(r.ok(), qPrintable(describe(r)));
    QCOMPARE(r.policy.consumers.size(), 2000);
    QCOMPARE(r.policy.dlqTopics().size(), 2000);
    QCOMPARE(r.policy.consumer(u"group-1999"_s)->lagSloMaxLagSeconds, std::optional<int>(1999));
    QCOMPARE(r.policy.consumer(u"group-1999"_s)->line, 3 + 3 * 1999);
}

void TestPolicy::watcherReloadsAfterRewrite()
{
    WatchedPolicy w;
    QVERIFY(w.start());
    QFile demo(demoPolicyPath());
    QVERIFY(demo.open(QIODevice::ReadOnly));
    QVERIFY(writeFile(w.path, demo.readAll())); // in place: truncate + write
    QTRY_COMPARE_WITH_TIMEOUT(w.spy.count(), 2, 5000);
    const auto result = w.spy.at(1).at(0).value<PolicyLoadResult>();
    QVERIFY(result.ok());
    QCOMPARE(result.policy.consumers.size(), 4);
    QCOMPARE(w.watcher.current(), result);

    // Still watched after the first reload, and a broken save is reported, not swallowed.
    QVERIFY(writeFile(w.path, "deliverySemantics: [\n"));
    QTRY_COMPARE_WITH_TIMEOUT(w.spy.count(), 3, 5000);
    QVERIFY(!w.spy.at(2).at(0).value<PolicyLoadResult>().ok());
}

void TestPolicy::watcherReloadsAfterRenameOver()
{
    WatchedPolicy w;
    QVERIFY(w.start());
    // What vim, VS Code and QSaveFile do: write a sibling, then rename it over the original.
    const QString temp = w.dir.filePath(u".policy.yaml.swp"_s);
    const auto replace = [&](const QByteArray &bytes) {
        return writeFile(temp, bytes)
               && std::rename(QFile::encodeName(temp).constData(), QFile::encodeName(w.path).constData())
                      == 0;
    };
    QVERIFY(replace(seedWith("maxLagSeconds: 60", "maxLagSeconds: 90")));
    QTRY_COMPARE_WITH_TIMEOUT(w.spy.count(), 2, 5000);
    QCOMPARE(w.lagSlo(), std::optional<int>(90));
    // Again: the watch must now be on the new file, not on the inode the first rename unlinked.
    QVERIFY(replace(seedWith("maxLagSeconds: 60", "maxLagSeconds: 45")));
    QTRY_COMPARE_WITH_TIMEOUT(w.spy.count(), 3, 5000);
    QCOMPARE(w.lagSlo(), std::optional<int>(45));
}

void TestPolicy::watcherFollowsDeleteAndRecreate()
{
    WatchedPolicy w;
    QVERIFY(w.start());
    QVERIFY(QFile::remove(w.path));
    QTRY_COMPARE_WITH_TIMEOUT(w.spy.count(), 2, 5000);
    QVERIFY(!w.watcher.current().ok());
    QVERIFY(writeFile(w.path, seed()));
    QTRY_COMPARE_WITH_TIMEOUT(w.spy.count(), 3, 5000);
    QVERIFY(w.watcher.current().ok());
    QCOMPARE(w.lagSlo(), std::optional<int>(60));
}

void TestPolicy::watcherIgnoresUnrelatedChanges()
{
    WatchedPolicy w;
    QVERIFY(w.start());
    QVERIFY(writeFile(w.dir.filePath(u"other.txt"_s), "noise"));
    QVERIFY(writeFile(w.path, seed())); // same bytes: nothing a listener could show changed
    QTest::qWait(3 * w.watcher.debounceInterval());
    QCOMPARE(w.spy.count(), 1);
    // The control: a real change in the same window is seen, so the silence above means something.
    QVERIFY(writeFile(w.path, seedWith("owner: search-team", "owner: other-team")));
    QTRY_COMPARE_WITH_TIMEOUT(w.spy.count(), 2, 5000);
}

void TestPolicy::checklistAnswersFromPolicyAndEvidence()
{
    const QByteArray yaml = R"(deliverySemantics:
  topics:
    orders: {defaultGuarantee: at-least-once, key: orderId, ordering: per-key, replayAllowed: false-for-side-effect}
  consumers:
    complete:
      topics: [orders]
      idempotency: {strategy: processed_message, duplicateHandling: skip, externalProviderIdempotency: true}
      offsetCommit: {timing: after-db-transaction}
      retry: {maxAttempts: 3, backoff: exponential}
      dlq: {enabled: true, topic: orders-dlt, owner: "team|orders"}
      poison: {maxAttemptsBeforePark: 3}
      lagSlo: {maxLagSeconds: 60}
      replay: {allowed: true}
    silent:
      topics: [orders]
)";
    const PolicyLoadResult loaded = loadPolicy(yaml, u"inline.yaml"_s);
    QVERIFY2(loaded.ok(), qPrintable(loaded.messages().join(u'\n')));
    const auto verdictOf = [](const ConsumerChecklist &c, const QString &questionPart) {
        for (const ChecklistItem &item : c.items) {
            if (item.question.contains(questionPart))
                return item.verdict;
        }
        return ChecklistItem::Verdict::Answered; // unreachable in a passing test: QVERIFY below
    };
    using V = ChecklistItem::Verdict;

    // No evidence yet: the silent consumer is all gaps; the complete one is answered except where
    // the policy itself disagrees (consumer says replay is fine, the topic says not for side effects).
    ChecklistEvidence none;
    QList<ConsumerChecklist> lists = evaluateChecklists(loaded.policy, none);
    QCOMPARE(lists.size(), 2);
    QCOMPARE(lists[1].consumer, u"silent"_s);
    // Semantics, "can it be duplicated" (at-least-once: yes), partition key and ordering come from the topic.
    QCOMPARE(lists[1].count(V::Answered), 4);
    QVERIFY(lists[1].count(V::Missing) >= 7);
    QCOMPARE(verdictOf(lists[0], u"DLQ"_s), V::Answered);
    QCOMPARE(verdictOf(lists[0], u"replay"_s), V::Contradicted);
    QCOMPARE(verdictOf(lists[0], u"lag"_s), V::Answered);

    // Live evidence changes answers: the DLQ topic is absent, the SLO is broken right now, and
    // duplicates arrive for the consumer that states no idempotency.
    ChecklistEvidence live;
    live.clusterKnown = true;
    live.clusterTopics = {u"orders"_s};
    ConsumerEvidence behind;
    behind.groupSeen = true;
    behind.lagStatus = u"STALL"_s;
    behind.maxTimeLagMs = 120'000;
    behind.dlqRatePerMinute = 4;
    live.groups.insert(u"complete"_s, behind);
    ConsumerEvidence dupes;
    dupes.duplicatePercent = 12.5;
    live.groups.insert(u"silent"_s, dupes);
    lists = evaluateChecklists(loaded.policy, live);
    QCOMPARE(verdictOf(lists[0], u"DLQ"_s), V::Contradicted);
    QCOMPARE(verdictOf(lists[0], u"lag"_s), V::Contradicted);
    QCOMPARE(verdictOf(lists[1], u"idempotent"_s), V::Contradicted);
    bool sawEvidence = false;
    for (const ChecklistItem &item : lists[0].items)
        sawEvidence |= item.evidence.contains(u"120.0 s"_s);
    QVERIFY(sawEvidence);

    // And back: the topic appears and the lag clears.
    live.clusterTopics << u"orders-dlt"_s;
    behind.maxTimeLagMs = 2'000;
    behind.lagStatus = u"OK"_s;
    live.groups.insert(u"complete"_s, behind);
    lists = evaluateChecklists(loaded.policy, live);
    QCOMPARE(verdictOf(lists[0], u"DLQ"_s), V::Answered);
    QCOMPARE(verdictOf(lists[0], u"lag"_s), V::Answered);

    // Markdown: one table per consumer, data pipes escaped so a cell never splits.
    const QString md = checklistMarkdown(lists, u"inline.yaml"_s);
    QCOMPARE(md.count(u"|---|---|---|---|"_s), 2);
    QVERIFY(md.contains(u"team\\|orders"_s));
}

void TestPolicy::demoPolicyChecklistFlagsTheOwnerlessDlq()
{
    const PolicyLoadResult demo = loadPolicyFile(demoPolicyPath());
    QVERIFY(demo.ok());
    const QList<ConsumerChecklist> lists = evaluateChecklists(demo.policy, {});
    const auto sink = std::find_if(lists.cbegin(), lists.cend(), [](const ConsumerChecklist &c) {
        return c.consumer == u"connect-warehouse-sink";
    });
    QVERIFY(sink != lists.cend());
    const auto dlq = std::find_if(sink->items.cbegin(), sink->items.cend(),
                                  [](const ChecklistItem &i) { return i.question.contains(u"DLQ"_s); });
    QVERIFY(dlq != sink->items.cend());
    QCOMPARE(dlq->verdict, ChecklistItem::Verdict::Missing);
    QVERIFY(dlq->answer.contains(u"not stated"_s));
}

namespace {
const ChecklistItem *itemOf(const ConsumerChecklist &c, const QString &key)
{
    for (const ChecklistItem &item : c.items) {
        if (item.key == key)
            return &item;
    }
    return nullptr;
}

ConsumerChecklist checklistOf(const QByteArray &yaml, const ChecklistEvidence &evidence = {})
{
    const PolicyLoadResult loaded = loadPolicy(yaml, u"inline.yaml"_s);
    if (!loaded.ok() || loaded.policy.consumers.isEmpty())
        qWarning() << loaded.messages();
    return evaluateChecklists(loaded.policy, evidence).value(0);
}
} // namespace

void TestPolicy::checklistAsksEverySeedQuestion()
{
    // Seed 000 §37 (20 questions, the message id and the partition key asked apart) and seed 002's review
    // list (idempotency storage and its retention, ack timing, retry taxonomy, replay proof, backpressure),
    // plus schema evolution.
    const QStringList expected = {
        u"deliverySemantics"_s, u"duplicates"_s,     u"messageId"_s,      u"idempotent"_s,
        u"sideEffects"_s,       u"externalSideEffects"_s, u"ackTiming"_s, u"crashBeforeAck"_s,
        u"crashAfterSideEffect"_s, u"ordering"_s,    u"partitionKey"_s,   u"poison"_s,
        u"retryBounded"_s,      u"dlqOwned"_s,       u"replaySafe"_s,     u"schemaFailures"_s,
        u"schemaEvolution"_s,   u"lagMonitored"_s,   u"duplicateTests"_s, u"crashWindowTested"_s,
        u"runbook"_s,           u"idempotencyStorage"_s, u"inboxRetention"_s, u"ackSideEffects"_s,
        u"retryTaxonomy"_s,     u"replayProof"_s,    u"backpressure"_s};
    QCOMPARE(checklistQuestionKeys(), expected);
    // A consumer the policy says nothing about: every question there, each a gap saying so.
    const ConsumerChecklist silent = checklistOf("deliverySemantics:\n  consumers:\n    quiet: {}\n");
    QCOMPARE(silent.items.size(), expected.size());
    for (const ChecklistItem &item : silent.items) {
        QVERIFY2(item.verdict == ChecklistItem::Verdict::Missing, qPrintable(item.key));
        QCOMPARE(item.answer, u"manual \u2014 not stated"_s);
        QVERIFY(!item.question.isEmpty());
    }
}

void TestPolicy::checklistStrategyNoneIsAGap()
{
    const QByteArray yaml = R"(deliverySemantics:
  consumers:
    sink:
      idempotency: {strategy: none}
      offsetCommit: {timing: after-sink-write}
      replay: {allowed: true}
)";
    using V = ChecklistItem::Verdict;
    ConsumerChecklist c = checklistOf(yaml);
    QCOMPARE(itemOf(c, u"idempotent"_s)->verdict, V::Missing);
    QVERIFY(itemOf(c, u"idempotent"_s)->answer.contains(u"gap"_s));
    QCOMPARE(itemOf(c, u"crashBeforeAck"_s)->verdict, V::Caution); // applied again
    QCOMPARE(itemOf(c, u"replaySafe"_s)->verdict, V::Contradicted);
    // Duplicates arriving for it: the gap is now contradicted by evidence.
    ChecklistEvidence live;
    ConsumerEvidence dupes;
    dupes.redeliveredRows = 4;
    live.groups.insert(u"sink"_s, dupes);
    c = checklistOf(yaml, live);
    QCOMPARE(itemOf(c, u"idempotent"_s)->verdict, V::Contradicted);
    // The control: a real strategy answers it, and the crash before the ack becomes a no-op.
    c = checklistOf(QByteArray(yaml).replace("strategy: none", "strategy: processed_message"));
    QCOMPARE(itemOf(c, u"idempotent"_s)->verdict, V::Answered);
    QCOMPARE(itemOf(c, u"crashBeforeAck"_s)->verdict, V::Answered);
    QCOMPARE(itemOf(c, u"replaySafe"_s)->verdict, V::Answered);
}

void TestPolicy::checklistReviewAnswersFillTheGaps()
{
    const QByteArray yaml = R"yaml(deliverySemantics:
  consumers:
    orders:
      offsetCommit: {timing: after-db-transaction}
      review:
        crashBeforeAck: "redelivered; inbox makes it a no-op (test: tst_orders_crash)"
        runbook: https://wiki/runbooks/orders
        backpressure: "producers pause at 10x SLO via the gateway's rate limit"
        ackTiming: "ignored: the policy key answers this"
)yaml";
    using V = ChecklistItem::Verdict;
    const ConsumerChecklist c = checklistOf(yaml);
    QCOMPARE(itemOf(c, u"crashBeforeAck"_s)->verdict, V::Answered);
    QCOMPARE(itemOf(c, u"crashBeforeAck"_s)->answer,
             u"review: redelivered; inbox makes it a no-op (test: tst_orders_crash)"_s);
    QCOMPARE(itemOf(c, u"runbook"_s)->verdict, V::Answered);
    QCOMPARE(itemOf(c, u"backpressure"_s)->verdict, V::Answered);
    QCOMPARE(itemOf(c, u"ackTiming"_s)->answer, u"after-db-transaction"_s);
    // Questions the review does not answer stay gaps.
    QCOMPARE(itemOf(c, u"duplicateTests"_s)->verdict, V::Missing);
    QCOMPARE(itemOf(c, u"crashWindowTested"_s)->answer, u"manual \u2014 not stated"_s);
}

void TestPolicy::checklistKeepsMessageIdAndPartitionKeyApart()
{
    const QByteArray yaml = R"(deliverySemantics:
  topics:
    payments: {key: customerId}
  consumers:
    capture:
      topics: [payments]
      idempotency: {strategy: processed_events}
)";
    using V = ChecklistItem::Verdict;
    ConsumerChecklist c = checklistOf(yaml);
    // The partition key is not the message id: a key shared by every payment of a customer is no
    // idempotency key.
    QCOMPARE(itemOf(c, u"partitionKey"_s)->answer, u"payments: customerId"_s);
    QCOMPARE(itemOf(c, u"messageId"_s)->verdict, V::Missing);
    c = checklistOf(QByteArray(yaml).append("      idempotencyKey: {jsonPath: $.paymentIntentId}\n"));
    QCOMPARE(itemOf(c, u"messageId"_s)->verdict, V::Answered);
    QCOMPARE(itemOf(c, u"messageId"_s)->answer, u"JSON path $.paymentIntentId"_s);
    QCOMPARE(itemOf(c, u"partitionKey"_s)->answer, u"payments: customerId"_s);
    QVERIFY(itemOf(c, u"idempotencyStorage"_s)->answer.contains(u"$.paymentIntentId"_s));
}

void TestPolicy::checklistComparesInboxRetentionWithTheTopic()
{
    const QByteArray yaml = R"(deliverySemantics:
  topics:
    orders: {retention: 7d}
  consumers:
    projection:
      topics: [orders]
      review: {inboxRetention: 3d}
)";
    using V = ChecklistItem::Verdict;
    QCOMPARE(itemOf(checklistOf(yaml), u"inboxRetention"_s)->verdict, V::Contradicted);
    QCOMPARE(itemOf(checklistOf(QByteArray(yaml).replace("3d", "30d")), u"inboxRetention"_s)->verdict, V::Answered);
    QCOMPARE(itemOf(checklistOf(QByteArray(yaml).replace("      review: {inboxRetention: 3d}\n", "")),
                    u"inboxRetention"_s)->verdict, V::Missing);
}

void TestPolicy::checklistEvidenceFromTheAlertRules()
{
    const QByteArray yaml = R"(deliverySemantics:
  consumers:
    projection:
      dlq: {enabled: true, topic: orders-dlt, owner: team-orders, critical: true}
      poison: {maxAttemptsBeforePark: 3}
      lagSlo: {maxLagSeconds: 30}
)";
    using V = ChecklistItem::Verdict;
    ConsumerChecklist c = checklistOf(yaml);
    QCOMPARE(itemOf(c, u"schemaFailures"_s)->verdict, V::Missing);
    QVERIFY(itemOf(c, u"dlqOwned"_s)->answer.contains(u"any arrival alerts"_s));
    QVERIFY(itemOf(c, u"lagMonitored"_s)->answer.contains(u"300 s"_s));
    ChecklistEvidence live;
    live.clusterKnown = true;
    live.clusterTopics = {u"orders-dlt"_s};
    ConsumerEvidence seen;
    seen.groupSeen = true;
    seen.lagStatus = u"OK"_s;
    seen.maxTimeLagMs = 1000;
    seen.lagP95Ms = 12'500;
    seen.deserializationFailures = 2;
    seen.retriesExhausted = 1;
    live.groups.insert(u"projection"_s, seen);
    c = checklistOf(yaml, live);
    QCOMPARE(itemOf(c, u"schemaFailures"_s)->verdict, V::Caution);
    QVERIFY(itemOf(c, u"schemaFailures"_s)->evidence.contains(u"2 dead letter"_s));
    QVERIFY(itemOf(c, u"lagMonitored"_s)->evidence.contains(u"p95 over 15 min 12.5 s"_s));
    QVERIFY(itemOf(c, u"poison"_s)->evidence.contains(u"1 exhausted"_s));
}

QTEST_GUILESS_MAIN(TestPolicy)
#include "tst_policy.moc"
