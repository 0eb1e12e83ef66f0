// The policy file's inbox:/outbox: block (ARCHITECTURE.md, Contracts: Inbox mapping): parsed with its
// errors at line:column, written back as the same shape, kept in connection profiles, and resolved
// against the profile's mappings and databases (the policy wins).
#include "services/inbox/inboxmappingset.h"
#include "services/policy/inboxpolicyyaml.h"
#include "services/policy/policyloader.h"
#include "services/support/profilestore.h"

#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {
// The example of the design note, verbatim.
const char kDesignExample[] = R"(deliverySemantics:
  consumers:
    payment-capture:
      inbox:
        database: "service=payments"      # libpq conninfo or service name; never a password (keychain, .pgpass)
        table: billing.processed_payments  # schema-qualified or on the search_path
        columns: {messageId: payment_intent_id, status: status, updated: modified, firstSeen: created,
                  attempts: tries, error: last_failure}   # consumer, topic, payload optional
        consumerValue: payment-capture     # when the table has no consumer column
        statuses: {in_flight: inProgress, captured: completed, declined: completed, failed: failedRetryable,
                   dead: failedTerminal, parked: parked}
        skippedStatus: skipped             # optional: what a skip writes; absent = skip not offered
        releaseTo: failed                  # optional: what "release" writes (or `delete`)
        stuckAfterSeconds: 300
      outbox: {table: outbox, status: status, created: created_at, pending: PENDING}
)";

PolicyLoadResult load(const QByteArray &yaml)
{
    return loadPolicy(yaml, u"p.yaml"_s);
}

QString firstError(const PolicyLoadResult &r)
{
    return r.errors().isEmpty() ? QString() : formatDiagnostic(r.sourceName, r.errors().first());
}

// A consumer with an inbox block, the block's body indented under "inbox:".
QByteArray withInbox(const QByteArray &body, const QByteArray &extra = {})
{
    return "deliverySemantics:\n  consumers:\n    c1:\n      inbox:\n" + body + extra;
}
} // namespace

class TestInboxPolicy final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void designExampleParses()
    {
        const PolicyLoadResult r = load(kDesignExample);
        QVERIFY2(r.ok(), qPrintable(r.messages().join(u'\n')));
        const QList<InboxMapping> mappings = r.policy.inboxMappings();
        QCOMPARE(mappings.size(), 1);
        const InboxMapping &m = mappings.first();
        QCOMPARE(m.name, u"payment-capture"_s);
        QCOMPARE(m.database, u"service=payments"_s);
        QCOMPARE(m.schema, u"billing"_s);
        QCOMPARE(m.table, u"processed_payments"_s);
        QCOMPARE(m.messageIdColumn, u"payment_intent_id"_s);
        QCOMPARE(m.statusColumn, u"status"_s);
        QCOMPARE(m.updatedColumn, u"modified"_s);
        QCOMPARE(m.firstSeenColumn, u"created"_s);
        QCOMPARE(m.attemptsColumn, u"tries"_s);
        QCOMPARE(m.errorColumn, u"last_failure"_s);
        QVERIFY(m.consumerColumn.isEmpty());
        QCOMPARE(m.consumerValue, u"payment-capture"_s);
        QCOMPARE(m.stateOf(u"in_flight"_s), InboxState::InProgress);
        QCOMPARE(m.stateOf(u"captured"_s), InboxState::Completed);
        QCOMPARE(m.stateOf(u"declined"_s), InboxState::Completed);
        QCOMPARE(m.stateOf(u"failed"_s), InboxState::FailedRetryable);
        QCOMPARE(m.stateOf(u"dead"_s), InboxState::FailedTerminal);
        QCOMPARE(m.stateOf(u"parked"_s), InboxState::Parked);
        QCOMPARE(m.stateOf(u"skipped"_s), InboxState::Skipped); // the skipped status joins the vocabulary
        QCOMPARE(m.stateOf(u"CAPTURED"_s), InboxState::Unknown); // words are matched exactly
        QCOMPARE(m.skippedStatus, u"skipped"_s);
        QCOMPARE(m.releaseTo, u"failed"_s);
        QCOMPARE(m.stuckAfterSeconds, 300);
        QCOMPARE(m.retakes, QList<InboxState>{InboxState::FailedRetryable}); // the default
        QVERIFY(m.outbox.isConfigured());
        QCOMPARE(m.outbox.table, u"outbox"_s);
        QVERIFY(m.outbox.schema.isEmpty());
        QCOMPARE(m.outbox.statusColumn, u"status"_s);
        QCOMPARE(m.outbox.createdColumn, u"created_at"_s);
        QCOMPARE(m.outbox.pendingStatus, u"PENDING"_s);
        QVERIFY(m.validate().isEmpty());
    }

    void retakesAndConsumerColumn()
    {
        const PolicyLoadResult r = load(withInbox(
            "        table: inbox\n"
            "        columns: {messageId: id, status: st, updated: u, consumer: grp}\n"
            "        statuses: {new: inProgress, ok: completed, bad: failedRetryable, held: parked}\n"
            "        retakes: [failedRetryable, parked]\n"));
        QVERIFY2(r.ok(), qPrintable(r.messages().join(u'\n')));
        const InboxMapping m = r.policy.inboxMappings().value(0);
        QCOMPARE(m.consumerColumn, u"grp"_s);
        QCOMPARE(m.consumerValue, u"c1"_s); // with a consumer column: the consumer's own rows
        QVERIFY(m.filtersConsumer());
        QCOMPARE(m.retakes, (QList<InboxState>{InboxState::FailedRetryable, InboxState::Parked}));
        QVERIFY(m.retakesFrom(InboxState::Parked));
        QVERIFY(!m.retakesFrom(InboxState::Completed));
        QVERIFY(!m.outbox.isConfigured());
    }

    void quotedTableNames()
    {
        const PolicyLoadResult r = load(withInbox(
            "        table: '\"Billing Ops\".\"inbox.v2 \"\"é\"\"\"'\n"
            "        columns: {messageId: id, status: st, updated: u}\n"
            "        statuses: {new: inProgress}\n"));
        QVERIFY2(r.ok(), qPrintable(r.messages().join(u'\n')));
        const InboxMapping m = r.policy.inboxMappings().value(0);
        QCOMPARE(m.schema, u"Billing Ops"_s);
        QCOMPARE(m.table, u"inbox.v2 \"é\""_s);
    }

    void errorsCarryLineAndColumn_data()
    {
        QTest::addColumn<QByteArray>("yaml");
        QTest::addColumn<QString>("expected"); // file:line:column: error: text (a prefix of the message)
        const QByteArray columns = "        columns: {messageId: id, status: st, updated: u}\n";
        const QByteArray statuses = "        statuses: {new: inProgress}\n";
        QTest::newRow("unknown state") << withInbox("        table: t\n" + columns
                                                    + "        statuses: {new: inProgres}\n")
                                       << u"p.yaml:7:25: error: deliverySemantics.consumers.c1.inbox.statuses.new: "
                                          u"expected one of inProgress"_s;
        QTest::newRow("no message id")
            << withInbox("        table: t\n        columns: {status: st, updated: u}\n" + statuses)
            << u"p.yaml:6:18: error: deliverySemantics.consumers.c1.inbox.columns: the messageId column is "
               u"required"_s;
        QTest::newRow("no table") << withInbox(columns + statuses)
                                  << u"p.yaml:5:9: error: deliverySemantics.consumers.c1.inbox: no table"_s;
        QTest::newRow("three-part table")
            << withInbox("        table: a.b.c\n" + columns + statuses)
            << u"p.yaml:5:16: error: deliverySemantics.consumers.c1.inbox.table: the table name \u201ca.b.c\u201d "
               u"has more than schema and table"_s;
        QTest::newRow("unclosed quote")
            << withInbox("        table: '\"a.b'\n" + columns + statuses)
            << u"p.yaml:5:16: error: deliverySemantics.consumers.c1.inbox.table: the table name \u201c\"a.b\u201d "
               u"has an unclosed double quote"_s;
        QTest::newRow("no statuses") << withInbox("        table: t\n" + columns)
                                     << u"p.yaml:5:9: error: deliverySemantics.consumers.c1.inbox: no statuses"_s;
        QTest::newRow("bad retake") << withInbox("        table: t\n" + columns + statuses
                                                 + "        retakes: [failedRetryable, later]\n")
                                    << u"p.yaml:8:36: error: deliverySemantics.consumers.c1.inbox.retakes: "
                                       u"expected one of inProgress"_s;
        QTest::newRow("skipped word mapped elsewhere")
            << withInbox("        table: t\n" + columns + statuses + "        skippedStatus: new\n")
            << u"p.yaml:5:9: error: deliverySemantics.consumers.c1.inbox.skippedStatus: \u201cnew\u201d is mapped to "
               u"inProgress"_s;
        QTest::newRow("stuck not positive") << withInbox("        table: t\n" + columns + statuses
                                                         + "        stuckAfterSeconds: 0\n")
                                            << u"p.yaml:8:28: error: deliverySemantics.consumers.c1.inbox."
                                               u"stuckAfterSeconds: must be at least 1"_s;
        QTest::newRow("outbox without pending")
            << withInbox("        table: t\n" + columns + statuses,
                         "      outbox: {table: ob, status: s, created: c}\n")
            << u"p.yaml:8:15: error: deliverySemantics.consumers.c1.outbox: pending is required"_s;
        QTest::newRow("no in-progress word")
            << withInbox("        table: t\n" + columns + "        statuses: {done: completed}\n")
            << u"p.yaml:5:9: error: deliverySemantics.consumers.c1.inbox: the status vocabulary maps nothing to"_s;
        QTest::newRow("too-long identifier")
            << withInbox("        table: " + QByteArray(70, 'x') + "\n" + columns + statuses)
            << u"p.yaml:5:9: error: deliverySemantics.consumers.c1.inbox: the table"_s;
    }
    void errorsCarryLineAndColumn()
    {
        QFETCH(QByteArray, yaml);
        QFETCH(QString, expected);
        const PolicyLoadResult r = load(yaml);
        QVERIFY(!r.ok());
        QVERIFY2(firstError(r).startsWith(expected), qPrintable(firstError(r)));
        // A mapping with an error is dropped whole: a half-read mapping would count the wrong rows. A
        // broken outbox costs only the outbox.
        if (QByteArrayView(QTest::currentDataTag()) == "outbox without pending")
            QVERIFY(!r.policy.inboxMappings().value(0).outbox.isConfigured());
        else
            QVERIFY(r.policy.inboxMappings().isEmpty());
        QVERIFY(r.policy.consumer(u"c1"_s)); // the rest of the consumer is still read
    }

    void outboxWithoutInboxIsAWarning()
    {
        const PolicyLoadResult r =
            load("deliverySemantics:\n  consumers:\n    c1:\n      outbox: {table: ob, status: s, created: c, "
                 "pending: p}\n");
        QVERIFY(r.ok());
        QCOMPARE(r.warnings().size(), 1);
        QCOMPARE(r.warnings().first().line, 4);
        QVERIFY(r.warnings().first().message.contains(u"no inbox mapping"_s));
    }

    void writtenYamlReadsBackTheSame()
    {
        InboxMapping a = loadPolicy(kDesignExample, {}).policy.inboxMappings().value(0);
        a.retakes = {InboxState::FailedRetryable, InboxState::Parked};
        InboxMapping b;
        b.name = u"notifi\u00e9r \"quoted\""_s;
        b.consumerValue = u"notifier-v2"_s;
        b.database = u"host=/tmp dbname='odd db'"_s;
        b.schema = u"Ops. \u00e9"_s;
        b.table = u" spaced \"table\" "_s;
        b.consumerColumn = u"grp"_s;
        b.messageIdColumn = u"key col"_s;
        b.statusColumn = u"St\u00e4tus"_s;
        b.updatedColumn = u"updated_ms"_s;
        b.statuses = {{u"new"_s, InboxState::InProgress}, {u"yes: done"_s, InboxState::Completed},
                      {u"true"_s, InboxState::FailedTerminal}, {u"gone"_s, InboxState::Skipped}};
        b.skippedStatus = u"gone"_s;
        b.stuckAfterSeconds = 42;
        b.retakes = {};
        const QString yaml = InboxPolicyYaml::write({a, b});
        QStringList problems;
        const QList<InboxMapping> back = InboxPolicyYaml::read(yaml, &problems);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u'\n') + u'\n' + yaml));
        QCOMPARE(back.size(), 2);
        QCOMPARE(back.at(0), a);
        QCOMPARE(back.at(1), b);
    }

    void policyWinsOverProfile()
    {
        InboxMapping fromPolicy = loadPolicy(kDesignExample, {}).policy.inboxMappings().value(0);
        InboxMapping fromProfile = fromPolicy;
        fromProfile.table = u"stale_copy"_s;
        InboxMapping onlyProfile = fromPolicy;
        onlyProfile.name = u"email-sender"_s;
        onlyProfile.database.clear();
        InboxMapping named = fromPolicy;
        named.name = u"orders"_s;
        named.database = u"orders-db"_s;
        InboxMapping unknownName = fromPolicy;
        unknownName.name = u"ghost"_s;
        unknownName.database = u"nowhere"_s;
        const InboxMappingSet set = InboxMappingSet::resolve(
            {fromPolicy}, {fromProfile, onlyProfile, named, unknownName}, u"dbname=default"_s,
            {{u"orders-db"_s, u"host=orders dbname=orders password=s3cret"_s}});
        QCOMPARE(set.mappings.size(), 4);
        QCOMPARE(set.find(u"payment-capture"_s)->table, u"processed_payments"_s);
        QCOMPARE(set.sources.first(), InboxMappingSet::Source::Policy);
        QCOMPARE(set.notes.size(), 1);
        QVERIFY(set.notes.first().contains(u"payment-capture"_s));
        QCOMPARE(set.conninfoFor(*set.find(u"payment-capture"_s)), u"service=payments"_s);
        QCOMPARE(set.conninfoFor(*set.find(u"email-sender"_s)), u"dbname=default"_s);
        QCOMPARE(set.conninfoFor(*set.find(u"orders"_s)), u"host=orders dbname=orders password=s3cret"_s);
        QString problem;
        QVERIFY(set.conninfoFor(*set.find(u"ghost"_s), &problem).isEmpty());
        QVERIFY(problem.contains(u"nowhere"_s));
        QCOMPARE(set.databaseLabel(*set.find(u"orders"_s)), u"orders-db"_s);
        QVERIFY(!set.databaseLabel(*set.find(u"payment-capture"_s)).contains(u"s3cret"_s));
        QCOMPARE(set.conninfos(), (QStringList{u"service=payments"_s, u"dbname=default"_s,
                                               u"host=orders dbname=orders password=s3cret"_s}));
        QCOMPARE(set.mappingsOn(u"dbname=default"_s).size(), 1);
        // A mapping without a database and no default: a reason, not a guess.
        const InboxMappingSet none = InboxMappingSet::resolve({}, {onlyProfile}, {});
        QVERIFY(none.conninfoFor(none.mappings.first(), &problem).isEmpty());
        QVERIFY(problem.contains(u"no default inbox database"_s));
    }

    void profileKeepsMappingsAndDatabasesWithoutSecrets()
    {
        QTemporaryDir dir;
        QSettings settings(dir.filePath(u"berth.ini"_s), QSettings::IniFormat);
        ProfileStore store(&settings);
        ConnectionProfile p;
        p.name = u"payments team"_s;
        p.inboxMappings = loadPolicy(kDesignExample, {}).policy.inboxMappings();
        p.databases = {{u"payments"_s, u"host=db1 dbname=payments user=ops password=hunter2"_s},
                       {u"notify"_s, u"service=notify"_s}};
        const QHash<QString, QString> secrets = store.save(p);
        QCOMPARE(secrets.value(u"db/payments/password"_s), u"hunter2"_s);
        settings.sync();
        QFile file(dir.filePath(u"berth.ini"_s));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray text = file.readAll();
        QVERIFY(!text.contains("hunter2"));
        QVERIFY(text.contains("processed_payments")); // readable: the policy block itself
        const std::optional<StoredProfile> loaded = store.load(p.name);
        QVERIFY(loaded);
        QCOMPARE(loaded->profile.inboxMappings, p.inboxMappings);
        QCOMPARE(loaded->profile.databases.value(u"notify"_s), u"service=notify"_s);
        QVERIFY(!loaded->profile.databases.value(u"payments"_s).contains(u"hunter2"_s));
        QVERIFY(loaded->secretIds.contains(u"db/payments/password"_s));
    }

    void demoPolicyMapsItsInboxes()
    {
        const PolicyLoadResult r = loadPolicyFile(demoPolicyPath());
        QVERIFY2(r.ok(), qPrintable(r.messages().join(u'\n')));
        QStringList names;
        for (const InboxMapping &m : r.policy.inboxMappings())
            names << m.name;
        QVERIFY(names.contains(u"order-projection"_s));
        QVERIFY(names.contains(u"payment-capture"_s));
        QVERIFY(names.contains(u"email-sender"_s));
        QVERIFY(r.policy.consumer(u"payment-capture"_s)->inbox->outbox.isConfigured());
    }

    void deadLetterConsumerRule()
    {
        DeliveryPolicy policy = loadPolicyFile(demoPolicyPath()).policy;
        QCOMPARE(policy.consumerOfDeadLetter(u"orders-dlt"_s, {}), u"order-projection"_s);
        QCOMPARE(policy.consumerOfDeadLetter(u"orders-dlt"_s, u"someone-else"_s), u"someone-else"_s);
        QCOMPARE(policy.consumerOfDeadLetter(u"unknown-dlt"_s, {}), QString());
        ConsumerPolicy twin = *policy.consumer(u"order-projection"_s);
        twin.name = u"order-audit"_s;
        policy.consumers.append(twin);
        QCOMPARE(policy.consumerOfDeadLetter(u"orders-dlt"_s, {}), QString()); // shared: nobody's for sure
    }
};

QTEST_GUILESS_MAIN(TestInboxPolicy)
#include "tst_inboxpolicy.moc"
