#include "services/dlq/dlqentrybuilder.h"
#include "services/dlq/dlqheadercodec.h"
#include "services/dlq/failuregroups.h"

#include <QTest>

using namespace Qt::StringLiterals;

// Failure groups: the reason pattern (data-driven), the fingerprint, counts, times and poison detection.
class TestFailureGroups final : public QObject {
    Q_OBJECT

    static KafkaRecord record(qint64 offset, qint64 timestampMs, const QString &exception,
                              const QString &reason, const QByteArray &idempotencyKey = {},
                              int originalOffset = -1)
    {
        DlqMetadata m;
        m.originalTopic = u"orders"_s;
        m.originalPartition = 1;
        m.originalOffset = originalOffset;
        m.exceptionClass = exception;
        m.reason = reason;
        KafkaRecord r;
        r.topic = u"orders-dlt"_s;
        r.partition = 0;
        r.offset = offset;
        r.timestampMs = timestampMs;
        r.keyIsNull = false;
        r.key = "k";
        r.value = "{}";
        r.headers = encodeDlqHeaders(DlqDialect::BerthCanonical, m);
        if (!idempotencyKey.isEmpty())
            r.headers.append({"idempotency-key", idempotencyKey, false});
        return r;
    }

private Q_SLOTS:
    void reasonPattern_data()
    {
        QTest::addColumn<QString>("reason");
        QTest::addColumn<QString>("pattern");
        QTest::newRow("number") << u"Order 12345 not found"_s << u"Order <num> not found"_s;
        QTest::newRow("prefixed id") << u"Order ORD-12345 not found"_s << u"Order ORD-<num> not found"_s;
        QTest::newRow("letters and digits") << u"Account user42 is locked"_s << u"Account <id> is locked"_s;
        QTest::newRow("single quotes")
            << u"Customer 'alice' has no account"_s << u"Customer '<str>' has no account"_s;
        QTest::newRow("double quotes")
            << u"Field \"email\" must not be blank"_s << u"Field \"<str>\" must not be blank"_s;
        QTest::newRow("backticks") << u"Column `total` overflowed"_s << u"Column `<str>` overflowed"_s;
        QTest::newRow("typographic quotes") << u"Unknown SKU “A-77”"_s << u"Unknown SKU “<str>”"_s;
        QTest::newRow("escaped quote inside") << u"Bad value 'it\\'s' here"_s << u"Bad value '<str>' here"_s;
        QTest::newRow("apostrophe is not a quote") << u"Can't parse 'x'"_s << u"Can't parse '<str>'"_s;
        QTest::newRow("uuid") << u"Payment 3f2504e0-4f89-11d3-9a0c-0305e82c3301 declined"_s
                              << u"Payment <uuid> declined"_s;
        QTest::newRow("upper-case uuid")
            << u"Payment 3F2504E0-4F89-11D3-9A0C-0305E82C3301 declined"_s << u"Payment <uuid> declined"_s;
        QTest::newRow("hex digest") << u"Checksum 9f86d081884c7d65 != 0a1b2c3d4e5f6789"_s
                                    << u"Checksum <hex> != <hex>"_s;
        QTest::newRow("0x hex") << u"Pointer 0x7ffee4b8 invalid"_s << u"Pointer <hex> invalid"_s;
        QTest::newRow("decimal") << u"Timeout after 30.5 s"_s << u"Timeout after <num> s"_s;
        QTest::newRow("decimal comma") << u"Betrag 12,50 zu hoch"_s << u"Betrag <num> zu hoch"_s;
        QTest::newRow("negative") << u"Balance -20 below zero"_s << u"Balance -<num> below zero"_s;
        QTest::newRow("iso time") << u"Event at 2024-03-01T10:15:30.123Z rejected"_s
                                  << u"Event at <time> rejected"_s;
        QTest::newRow("iso time with zone") << u"Expired 2024-03-01T10:15:30+02:00"_s << u"Expired <time>"_s;
        QTest::newRow("iso date") << u"No rate for 2024-03-01"_s << u"No rate for <time>"_s;
        QTest::newRow("email") << u"Mail to bob.smith+x@example.co.uk bounced."_s
                               << u"Mail to <email> bounced."_s;
        QTest::newRow("email after its first word") << u"Reply from ops@acme.io"_s << u"Reply from <email>"_s;
        QTest::newRow("hex word before a dash, no uuid")
            << u"Build deadbee1-cafe failed"_s << u"Build <hex>-cafe failed"_s;
        QTest::newRow("four digits before a dash, no date")
            << u"Batch 2024-x failed"_s << u"Batch <num>-x failed"_s;
        QTest::newRow("url") << u"HTTP 503 from https://api.acme.com/orders/991"_s
                             << u"HTTP <num> from https://api.acme.com/orders/<num>"_s;
        QTest::newRow("json") << u"Bad body {\"id\":42,\"name\":\"x\"}"_s
                              << u"Bad body {\"<str>\":<num>,\"<str>\":\"<str>\"}"_s;
        QTest::newRow("whitespace") << u"  Many   spaces\n and\tlines  "_s << u"Many spaces and lines"_s;
        QTest::newRow("empty") << QString() << QString();
        QTest::newRow("class name kept")
            << u"java.lang.NullPointerException"_s << u"java.lang.NullPointerException"_s;
        QTest::newRow("words kept") << u"Inventory reservation failed"_s << u"Inventory reservation failed"_s;
        QTest::newRow("unicode kept")
            << u"Bestellung 77 für Müller fehlt"_s << u"Bestellung <num> für Müller fehlt"_s;
        QTest::newRow("unclosed quote kept") << u"Unexpected ' in input"_s << u"Unexpected ' in input"_s;
        QTest::newRow("short hex word kept") << u"cafe closed"_s << u"cafe closed"_s;
        QTest::newRow("cut")
            << QString(400, u'a').replace(u"aaaa"_s, u"aaa "_s)
            << QString(400, u'a').replace(u"aaaa"_s, u"aaa "_s).left(FailureGroups::MaxPatternLength)
                   + u"…"_s;
    }

    void reasonPattern()
    {
        QFETCH(QString, reason);
        QFETCH(QString, pattern);
        QCOMPARE(FailureGroups::reasonPattern(reason), pattern);
    }

    void fingerprintGroupsVariants_data()
    {
        QTest::addColumn<QString>("a");
        QTest::addColumn<QString>("b");
        QTest::addColumn<bool>("same");
        QTest::newRow("ids differ") << u"Order 17 not found"_s << u"Order 912 not found"_s << true;
        QTest::newRow("uuids differ") << u"Payment 3f2504e0-4f89-11d3-9a0c-0305e82c3301 declined"_s
                                      << u"Payment 9b2d4e11-0000-4000-8000-000000000001 declined"_s << true;
        QTest::newRow("quoted values differ")
            << u"Customer 'alice' unknown"_s << u"Customer 'bob' unknown"_s << true;
        QTest::newRow("hex differ") << u"Digest 9f86d081884c7d65"_s << u"Digest 0000aaaa1111bbbb"_s << true;
        QTest::newRow("spacing differs") << u"Order 1  not found"_s << u"Order 2 not found"_s << true;
        QTest::newRow("different words") << u"Order 1 not found"_s << u"Order 1 already shipped"_s << false;
    }

    void fingerprintGroupsVariants()
    {
        QFETCH(QString, a);
        QFETCH(QString, b);
        QFETCH(bool, same);
        const QString x = u"com.acme.OrderException"_s, y = u"java.io.IOException"_s;
        QCOMPARE(FailureGroups::fingerprint(x, y, a) == FailureGroups::fingerprint(x, y, b), same);
        // The exception and the cause are part of the fingerprint.
        QVERIFY(FailureGroups::fingerprint(x, y, a) != FailureGroups::fingerprint(y, y, a));
        QVERIFY(FailureGroups::fingerprint(x, y, a) != FailureGroups::fingerprint(x, x, a));
    }

    void groupsCountFirstLastAndTrend()
    {
        StringPool pool;
        DlqEntryBuilder builder(pool);
        FailureGroups groups(pool);
        const qint64 t0 = 1'700'000'000'000;
        const QString notFound = u"com.acme.NotFound"_s, declined = u"com.acme.Declined"_s;
        QList<quint32> ids;
        ids << groups.add(builder.build(record(0, t0 + 5'000, notFound, u"Order 1 not found"_s)));
        ids << groups.add(builder.build(record(1, t0 + 65'000, notFound, u"Order 2 not found"_s)));
        ids << groups.add(builder.build(record(2, t0 + 1'000, notFound, u"Order 3 not found"_s)));
        ids << groups.add(builder.build(record(3, t0 + 2'000, declined, u"Order 4 not found"_s)));
        ids << groups.add(builder.build(record(4, t0 + 3'000, notFound, u"Card 'visa' expired"_s)));
        QCOMPARE(ids, (QList<quint32>{0, 0, 0, 1, 2}));
        QCOMPARE(groups.groups().size(), 3);
        const FailureGroup &g = groups.groups().at(0);
        QCOMPARE(g.count, 3);
        QCOMPARE(g.firstSeenMs, t0 + 1'000);
        QCOMPARE(g.lastSeenMs, t0 + 65'000);
        QCOMPARE(g.exceptionClass, notFound);
        QCOMPARE(g.reasonPattern, u"Order <num> not found"_s);
        QCOMPARE(g.sampleReason, u"Order 1 not found"_s);
        QCOMPARE(g.perMinute.size(), 2);
        QCOMPARE(g.perMinute.value((t0 + 5'000) / 60000), 2);
        QCOMPARE(g.perMinute.value((t0 + 65'000) / 60000), 1);
        QCOMPARE(g.fingerprint(), FailureGroups::fingerprint(notFound, QString(), u"Order 9 not found"_s));

        // Changes come out once, then not again until something changes.
        QCOMPARE(groups.takeChangedGroups().size(), 3);
        QVERIFY(groups.takeChangedGroups().isEmpty());
        groups.add(builder.build(record(5, t0 + 9'000, declined, u"Order 5 not found"_s)));
        const QList<FailureGroup> changed = groups.takeChangedGroups();
        QCOMPARE(changed.size(), 1);
        QCOMPARE(changed.first().id, 1u);
        QCOMPARE(changed.first().count, 2);
    }

    void poisonAfterThreeFailures()
    {
        StringPool pool;
        DlqEntryBuilder builder(pool);
        FailureGroups groups(pool);
        const QString e = u"com.acme.Broken"_s;
        for (int i = 0; i < 2; ++i)
            groups.add(builder.build(record(i, 1000 + i, e, u"boom"_s, "key-A")));
        QVERIFY(groups.poisonMessages().isEmpty());
        groups.add(builder.build(record(2, 1002, e, u"boom"_s, "key-B")));
        QVERIFY(groups.poisonMessages().isEmpty());
        groups.add(builder.build(record(3, 1003, e, u"boom"_s, "key-A")));
        QCOMPARE(groups.poisonMessages().size(), 1);
        QCOMPARE(groups.poisonMessages().first().messageId, u"key-A"_s);
        QCOMPARE(groups.poisonMessages().first().failures, 3);
        QVERIFY(groups.poisonMessages().first().byIdempotencyKey);
        QCOMPARE(groups.groups().first().poisonMessages, 1);
        QCOMPARE(groups.takeChangedPoison().size(), 1);
        groups.add(builder.build(record(4, 1004, e, u"boom"_s, "key-A")));
        const QList<PoisonMessage> changed = groups.takeChangedPoison();
        QCOMPARE(changed.size(), 1);
        QCOMPARE(changed.first().failures, 4);
        QCOMPARE(groups.groups().first().poisonMessages, 1); // the same message, counted once

        // Without an idempotency key, the original record's coordinates identify the message.
        for (int i = 0; i < 3; ++i)
            groups.add(builder.build(record(10 + i, 2000 + i, e, u"boom"_s, {}, 77)));
        QCOMPARE(groups.poisonMessages().size(), 2);
        QCOMPARE(groups.poisonMessages().last().messageId, u"orders/1@77"_s);
        QVERIFY(!groups.poisonMessages().last().byIdempotencyKey);
    }

    void unsetFieldsGroupTogether()
    {
        StringPool pool;
        DlqEntryBuilder builder(pool);
        FailureGroups groups(pool);
        KafkaRecord bare;
        bare.offset = 0;
        bare.value = "x";
        QCOMPARE(groups.add(builder.build(bare)), 0u);
        bare.offset = 1;
        QCOMPARE(groups.add(builder.build(bare)), 0u);
        QCOMPARE(groups.groups().first().count, 2);
        QCOMPARE(groups.groups().first().fingerprint(), u" |  | "_s);
    }
};

QTEST_GUILESS_MAIN(TestFailureGroups)
#include "tst_failuregroups.moc"
