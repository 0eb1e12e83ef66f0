#include "services/dlq/dlqentrybuilder.h"
#include "services/dlq/dlqentryfields.h"
#include "services/dlq/dlqheadercodec.h"
#include "services/dlq/utf8check.h"

#include <QRandomGenerator>
#include <QSet>
#include <QTest>

using namespace Qt::StringLiterals;

// The index entry of a record: its flags, and the fast header path (decodeDlqHeadersFast) agreeing with
// decodeDlqHeaders on every record it accepts.
class TestDlqEntryBuilder final : public QObject {
    Q_OBJECT

    QRandomGenerator m_rng{20240611};

    QString randomText(int maxLength)
    {
        static const QString alphabet = u"abcXYZ0189 -_.:'\"/é漢🙂<>\\"_s;
        QString s;
        const int n = int(m_rng.bounded(maxLength + 1));
        for (int i = 0; i < n; ++i)
            s += alphabet.at(m_rng.bounded(int(alphabet.size())));
        return s;
    }

    DlqMetadata randomMetadata()
    {
        DlqMetadata m;
        auto maybe = [&](auto value, auto unset) { return m_rng.bounded(4) == 0 ? unset : value; };
        m.originalTopic = maybe(randomText(20), QString());
        m.originalPartition = maybe(int(m_rng.bounded(1000)), -1);
        m.originalOffset = maybe(qint64(m_rng.generate64() >> m_rng.bounded(64)), qint64(-1));
        m.originalTimestampMs = maybe(qint64(1'700'000'000'000 + m_rng.bounded(1'000'000)), qint64(-1));
        m.originalTimestampType = maybe(u"CreateTime"_s, QString());
        m.consumerGroup = maybe(randomText(15), QString());
        m.exceptionClass = maybe(randomText(40), QString());
        m.causeClass = maybe(randomText(40), QString());
        m.reason = maybe(m_rng.bounded(20) == 0 ? randomText(1500) : randomText(80), QString());
        m.stackTrace = maybe(randomText(100), QString());
        m.attempts = maybe(int(m_rng.bounded(300)), -1);
        m.firstFailureMs = maybe(qint64(1'700'000'000'000 + m_rng.bounded(1'000'000)), qint64(-1));
        m.lastFailureMs = maybe(qint64(1'700'000'000'000 + m_rng.bounded(1'000'000)), qint64(-1));
        m.schemaVersion = maybe(u"2"_s, QString());
        m.connectorName = maybe(randomText(10), QString());
        m.connectorTask = maybe(u"0"_s, QString());
        m.connectorStage = maybe(u"VALUE_CONVERTER"_s, QString());
        return m;
    }

    QByteArray randomValue()
    {
        switch (m_rng.bounded(10)) {
        case 0:
            return QByteArray::number(qint64(m_rng.generate64()) >> m_rng.bounded(64));
        case 1:
            return QByteArray("\xff\xfe\x00\x01", 4);
        case 2:
            return "\xef\xbb\xbf"
                   "bom";
        case 3:
            return {};
        case 4:
            return QByteArray(3, '\x07');
        case 5:
            return " 42 ";
        case 6:
            return "2024-02-30T10:00:00Z";
        case 7:
            return "2024-03-01T10:00:00+01:00";
        case 8:
            return "99999999999999999999";
        default:
            return randomText(10).toUtf8();
        }
    }

    void mutate(RecordHeaders &h)
    {
        if (h.isEmpty())
            return;
        const int i = int(m_rng.bounded(int(h.size())));
        switch (m_rng.bounded(6)) {
        case 0:
            h.append(h.at(i));
            break; // repeated
        case 1:
            h[i].isNull = true;
            h[i].value.clear();
            break; // null
        case 2:
            h[i].value = randomValue();
            break; // another form
        case 3:
            h.append({"kafka_dlt-key-exception-fqcn", "k.E", false});
            break;
        case 4:
            h.append({"retry_topic-attempts", QByteArray(1, char(m_rng.bounded(9))), false});
            break;
        default:
            std::swap(h[i], h[int(m_rng.bounded(int(h.size())))]);
            break;
        }
    }

    static void compare(const DlqIndexEntry &a, const DlqIndexEntry &b, const StringPool &pool,
                        const char *what)
    {
        const QString where = QString::fromLatin1(what);
        QVERIFY2(a.dialect == b.dialect, qPrintable(where + u": dialect"_s));
        QVERIFY2(a.flags == b.flags, qPrintable(where + u": flags"_s));
        QVERIFY2(a.originalPartition == b.originalPartition, qPrintable(where + u": partition"_s));
        QVERIFY2(a.originalOffset == b.originalOffset, qPrintable(where + u": offset"_s));
        QVERIFY2(a.attempts == b.attempts, qPrintable(where + u": attempts"_s));
        // Reasons are stored, not interned (equal ones may have different ids): compared as text.
        QVERIFY2(
            pool.bytes(a.reasonId) == pool.bytes(b.reasonId),
            qPrintable(where + u": reason "_s + pool.text(a.reasonId) + u" / "_s + pool.text(b.reasonId)));
        QVERIFY2(a.exceptionId == b.exceptionId, qPrintable(where + u": exception"_s));
        QVERIFY2(a.causeId == b.causeId, qPrintable(where + u": cause"_s));
        QVERIFY2(a.routeId == b.routeId, qPrintable(where + u": topic / consumer"_s));
        QVERIFY2(a.idempotencyKeyId == b.idempotencyKeyId, qPrintable(where + u": idempotency key"_s));
        QVERIFY2(DlqEntryText::key(a, pool) == DlqEntryText::key(b, pool), qPrintable(where + u": key"_s));
    }

    static KafkaRecord record(RecordHeaders headers)
    {
        KafkaRecord r;
        r.offset = 1;
        r.keyIsNull = false;
        r.key = "key";
        r.value = "{}";
        r.headers = std::move(headers);
        return r;
    }

private Q_SLOTS:
    // The ASCII shortcut must answer as Qt's validator does, wherever the first non-ASCII byte falls
    // relative to its 64-, 16- and 8-byte steps, for valid characters, stray bytes and cut sequences.
    void utf8CheckAgreesWithQt()
    {
        const QByteArray pieces[] = {"\xc3\xa9",         "\x80", "\xe2\x82",
                                     "\xf0\x9f\x99\x82", "\xff", "\xef\xbb\xbf"};
        int checked = 0;
        for (int length = 0; length <= 140; ++length) {
            const QByteArray ascii(length, 'a');
            QCOMPARE(Utf8Check::asciiPrefix(ascii), qsizetype(length));
            QVERIFY(Utf8Check::isValid(ascii));
            for (int at = 0; at <= length; ++at) {
                for (const QByteArray &piece : pieces) {
                    const QByteArray v = ascii.left(at) + piece + ascii.mid(at);
                    QVERIFY(Utf8Check::asciiPrefix(v) <= at);
                    QCOMPARE(Utf8Check::isValid(v), QByteArrayView(v).isValidUtf8());
                    ++checked;
                }
            }
        }
        QVERIFY(checked > 50000);
        QVERIFY(Utf8Check::startsWithBom("\xef\xbb\xbfx"));
        QVERIFY(!Utf8Check::startsWithBom("\xef\xbb"));
        QVERIFY(!Utf8Check::startsWithBom("x\xef\xbb\xbf"));
    }

    void fastPathAgreesWithDecoder()
    {
        StringPool pool;
        DlqEntryBuilder builder(pool);
        const QList<DlqDialect> dialects = {DlqDialect::SpringDlt,         DlqDialect::SpringRetry,
                                            DlqDialect::SpringCloudStream, DlqDialect::KafkaConnect,
                                            DlqDialect::KafkaStreams,      DlqDialect::BerthCanonical};
        qint64 fastBefore = 0;
        for (int round = 0; round < 20000; ++round) {
            RecordHeaders h;
            const int families = round % 7 == 0 ? 2 : 1;
            for (int f = 0; f < families; ++f)
                h.append(encodeDlqHeaders(dialects[m_rng.bounded(int(dialects.size()))], randomMetadata()));
            if (m_rng.bounded(2))
                h.append({"idempotency-key", randomText(12).toUtf8(), false});
            if (m_rng.bounded(3) == 0)
                h.append({"correlation-id", randomValue(), false});
            if (m_rng.bounded(4) == 0)
                h.append({"unrelated", randomValue(), false});
            for (int k = int(m_rng.bounded(3)); k > 0 && round % 3 == 0; --k)
                mutate(h);
            const KafkaRecord r = record(h);
            builder.setFastPath(true);
            fastBefore = builder.fastDecoded();
            const DlqIndexEntry fast = builder.build(r);
            if (builder.fastDecoded() == fastBefore)
                continue; // declined: both were the slow path
            builder.setFastPath(false);
            const DlqIndexEntry slow = builder.build(r);
            compare(fast, slow, pool, qPrintable(u"round "_s + QString::number(round)));
            if (QTest::currentTestFailed())
                return;
        }
        // The common case (one dialect, well-formed) is the fast one.
        QVERIFY2(builder.fastDecoded() > 8000, qPrintable(QString::number(builder.fastDecoded())));
    }

    void fastPathTakesEveryDialect()
    {
        StringPool pool;
        DlqEntryBuilder builder(pool);
        DlqMetadata m;
        m.originalTopic = u"orders"_s;
        m.originalPartition = 3;
        m.originalOffset = 77;
        m.exceptionClass = u"E"_s;
        m.reason = u"boom"_s;
        m.attempts = 2;
        m.consumerGroup = u"g"_s;
        m.connectorName = u"c"_s;
        m.firstFailureMs = 1'700'000'000'000;
        for (const DlqDialect d :
             {DlqDialect::SpringDlt, DlqDialect::SpringRetry, DlqDialect::SpringCloudStream,
              DlqDialect::KafkaConnect, DlqDialect::KafkaStreams, DlqDialect::BerthCanonical}) {
            const qint64 before = builder.fastDecoded();
            const DlqIndexEntry e = builder.build(record(encodeDlqHeaders(d, m)));
            QCOMPARE(builder.fastDecoded(), before + 1);
            QCOMPARE(e.dialectValue(), d);
            QCOMPARE(e.originalOffset, 77);
            QVERIFY(!e.has(DlqIndexEntry::HasNotes));
        }
    }

    void oddHeadersTakeTheDecoder_data()
    {
        QTest::addColumn<QByteArray>("name");
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<bool>("null");
        QTest::addColumn<int>("flag"); // what the entry shows for it
        const int notes = DlqIndexEntry::HasNotes;
        QTest::newRow("invalid UTF-8")
            << QByteArray("dlq-reason") << QByteArray("bad \xff") << false << notes;
        QTest::newRow("BOM") << QByteArray("dlq-reason") << QByteArray("\xef\xbb\xbfreason") << false << 0;
        QTest::newRow("null") << QByteArray("dlq-reason") << QByteArray() << true << notes;
        QTest::newRow("decimal where binary")
            << QByteArray("kafka_dlt-original-partition") << QByteArray("1234") << false << notes;
        QTest::newRow("binary where decimal")
            << QByteArray("dlq-original-partition") << QByteArray("\0\0\0\1", 4) << false << notes;
        QTest::newRow("zone-less time")
            << QByteArray("dlq-first-failure-at") << QByteArray("2024-03-01T10:00:00") << false << notes;
        // Behind a value exception header the key one is not used (no note); the flag says it is there.
        QTest::newRow("key failure") << QByteArray("kafka_dlt-key-exception-fqcn") << QByteArray("E") << false
                                     << int(DlqIndexEntry::KeyFailure);
    }

    void oddHeadersTakeTheDecoder()
    {
        QFETCH(QByteArray, name);
        QFETCH(QByteArray, value);
        QFETCH(bool, null);
        QFETCH(int, flag);
        StringPool pool;
        DlqEntryBuilder builder(pool);
        RecordHeaders h = {{"dlq-exception-class", "E", false}};
        if (name.startsWith("kafka_dlt"))
            h = {{"kafka_dlt-exception-fqcn", "E", false}};
        h.append({name, value, null});
        const DlqIndexEntry e = builder.build(record(h));
        QCOMPARE(builder.fastDecoded(), 0);
        QCOMPARE(builder.slowDecoded(), 1);
        QCOMPARE(e.flags & (DlqIndexEntry::HasNotes | DlqIndexEntry::KeyFailure), flag);
        if (QTest::currentDataTag() == QByteArrayView("BOM"))
            QCOMPARE(DlqEntryText::reason(e, pool), u"reason"_s); // the decoder drops a leading BOM
    }

    void flagsAndSizes()
    {
        StringPool pool;
        DlqEntryBuilder builder(pool);
        KafkaRecord r = record({{"kafka_dlt-exception-stacktrace", "at x", false}});
        r.key = QByteArray(300, 'k');
        r.value = QByteArray(2 * 1024 * 1024, '\xff');
        const DlqIndexEntry e = builder.build(r);
        QVERIFY(e.has(DlqIndexEntry::HasStackTrace));
        QVERIFY(e.has(DlqIndexEntry::Huge));
        QVERIFY(e.has(DlqIndexEntry::InvalidUtf8));
        QVERIFY(!e.has(DlqIndexEntry::BinaryKey));
        QCOMPARE(e.keySize, 300u);
        QCOMPARE(DlqEntryText::key(e, pool), QString(256, u'k') + u"…"_s);
        QCOMPARE(e.valueSize, quint32(r.value.size()));
        static_assert(sizeof(DlqIndexEntry) == 64);
    }

    // The scan interns a batch at a time, hashing its idempotency keys first and looking them up ahead
    // (DlqEntryInterner::internAll), into a pool whose table was sized for the scan (StringPool::reserve):
    // every id must be the one record-at-a-time interning gives.
    void batchInterningAgreesWithOneByOne()
    {
        DlqDecodedBatch batch;
        DlqRecordDecoder decoder;
        QList<QByteArray> keys;
        for (int i = 0; i < 6000; ++i) {
            RecordHeaders h = encodeDlqHeaders(DlqDialect::SpringDlt, randomMetadata());
            QByteArray key;
            switch (m_rng.bounded(8)) {
            case 0:
                break; // none
            case 1:
                key = keys.isEmpty() ? "first" : keys.at(m_rng.bounded(int(keys.size()))); // failing again
                break;
            case 2:
                key = QByteArray(StringPool::MaxLength + 10 + int(m_rng.bounded(3)), 'k'); // cut
                break;
            default:
                key = "order-" + QByteArray::number(i);
                break;
            }
            if (!key.isEmpty()) {
                h.append({"idempotency-key", key, false});
                keys.append(key);
            }
            decoder.decode(record(h), batch);
        }

        StringPool onePool, batchPool;
        DlqEntryInterner one(onePool), all(batchPool);
        all.reserve(qint64(batch.size()));
        QList<DlqIndexEntry> expected, got;
        for (const DlqDecodedBatch::Record &r : batch.records())
            expected.append(one.intern(batch, r));
        all.internAll(batch, [&](const DlqIndexEntry &e) { got.append(e); });
        QCOMPARE(got.size(), expected.size());
        for (qsizetype i = 0; i < got.size(); ++i) {
            QCOMPARE(got[i].idempotencyKeyId, expected[i].idempotencyKeyId);
            compare(got[i], expected[i], batchPool, qPrintable(u"record "_s + QString::number(i)));
            if (QTest::currentTestFailed())
                return;
        }
        QCOMPARE(batchPool.count(), onePool.count());
        // The ids are the pool's own: interning a key again finds the same one.
        for (size_t i = 0; i < batch.size(); ++i) {
            const QByteArrayView key = batch.view(batch.records()[i].text[DlqDecodedBatch::IdempotencyKey]);
            QCOMPARE(batchPool.intern(key), got[qsizetype(i)].idempotencyKeyId);
        }
        QCOMPARE(batchPool.count(), onePool.count());
        // Equal keys share an id, and a cut key reads back cut.
        QSet<quint32> distinct;
        for (const DlqIndexEntry &e : std::as_const(got))
            distinct.insert(e.idempotencyKeyId);
        QSet<QByteArray> distinctKeys;
        for (const QByteArray &k : std::as_const(keys))
            distinctKeys.insert(k.size() > StringPool::MaxLength ? "cut" : k); // cut alike: one string
        // And 0: no key.
        QCOMPARE(distinct.size(), distinctKeys.size() + 1);
        const QByteArray longKey = QByteArray(StringPool::MaxLength + 10, 'k');
        if (distinctKeys.contains("cut"))
            QVERIFY(batchPool.bytes(batchPool.intern(longKey)).endsWith("\xe2\x80\xa6"));
    }

    // The fast path finds headers by name: a name one byte away from a known one (at the start, the
    // middle or the end) is not that header.
    void nearMissNamesAreNotRecognised()
    {
        const QList<QByteArray> names = {"kafka_dlt-exception-message", "kafka_dlt-original-topic",
                                         "idempotency-key", "dlq-reason",
                                         "__connect.errors.exception.message"};
        for (const QByteArray &name : names) {
            for (qsizetype at : {qsizetype(0), name.size() / 2, name.size() - 9, name.size() - 1}) {
                QByteArray near = name;
                near[at] = near[at] == 'x' ? 'y' : 'x';
                const DlqHeaderView real{name, "v", false}, fake{near, "v", false};
                DlqFastFields withReal, withFake;
                QVERIFY(decodeDlqHeadersFast(&real, 1, withReal));
                const bool taken = decodeDlqHeadersFast(&fake, 1, withFake);
                QVERIFY2(!taken || withFake.dialect != withReal.dialect
                             || (withFake.reason.isEmpty() && withFake.originalTopic.isEmpty()
                                 && withFake.idempotencyKey.isEmpty()),
                         near.constData());
            }
        }
    }

    void reservedPoolKeepsItsIds()
    {
        StringPool pool;
        QList<quint32> ids;
        for (int i = 0; i < 20000; ++i)
            ids.append(pool.intern(QByteArray::number(i * 7919)));
        pool.reserve(3'000'000); // grows the table (up to its cap) with every string in it
        for (int i = 0; i < 20000; ++i) {
            const QByteArray s = QByteArray::number(i * 7919);
            QCOMPARE(pool.intern(s, StringPool::hashBytes(s)), ids[i]);
        }
        pool.releaseLookup();
        pool.reserve(10); // rebuilds it
        QCOMPARE(pool.intern(QByteArray::number(19999 * 7919)), ids.last());
        const quint32 fresh = pool.intern("fresh");
        QCOMPARE(fresh, quint32(20001));
        QCOMPARE(pool.intern("fresh", StringPool::hashBytes("fresh")), fresh);
        QCOMPARE(pool.intern({}, StringPool::hashBytes({})), 0u);
    }
};

QTEST_GUILESS_MAIN(TestDlqEntryBuilder)
#include "tst_dlqentrybuilder.moc"
