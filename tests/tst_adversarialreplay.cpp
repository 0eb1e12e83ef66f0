// Replaying the adversarial corpus (tests/support/adversarialcorpus): alice files a replay of all 36 hostile
// dead letters, bob approves, alice executes it with the real executor against the mock cluster and a
// throwaway PostgreSQL. kcat, the independent client, then reads what arrived byte by byte: key and value
// unchanged (invalid UTF-8, NULs, empty and NULL values alike), the original headers kept in order, the
// DLQ's diagnostic headers gone and Berth's replay headers added. What cannot be replayed (16 MB, over the
// producer's message.max.bytes; no original topic when replaying to "original") ends as a failed item with
// a clear reason and a partially_failed request, never a crash or a silent drop.
#include "services/audit/auditstore.h"
#include "services/remediation/replayexecutor.h"
#include "services/remediation/requestbuilder.h"
#include "support/adversarialcorpus.h"
#include "support/berthcli.h"
#include "support/kcatrecords.h"
#include "support/replayworld.h"
#include "support/testsupport.h"

#include <QJsonArray>
#include <QTest>

#include <numeric>

using namespace Qt::StringLiterals;
using AdversarialCorpus::Record;

namespace {
const QString Source = u"adversarial-dlt"_s;
const QString Chosen = u"adversarial-replayed"_s;
const QString Orders = QString::fromLatin1(ReplayWorld::OriginalTopic);
constexpr int HugeItem = AdversarialCorpus::Total; // the last item of the whole-corpus request
const QString NoOriginalTopic = u"no original topic"_s;

// The DLQ dialects' diagnostic headers (ARCHITECTURE.md, Contracts: DLQ header dialects), which a replay drops unless the operator keeps them.
// Written out here rather than taken from the product, so the test says independently what must go.
bool isDiagnostic(const QByteArray &name)
{
    for (const char *prefix :
         {"kafka_dlt-", "kafka_original-", "kafka_exception-", "retry_topic-", "x-original-", "x-exception-",
          "__connect.errors.", "__streams.errors.", "dlq-"}) {
        if (name.startsWith(prefix))
            return true;
    }
    return false;
}

using Header = QPair<QByteArray, std::optional<QByteArray>>;
using Headers = QList<Header>;

// What a replayed record's headers must be: the source's non-diagnostic ones in order, then Berth's four.
Headers expectedHeaders(const Record &source, qint64 requestId, int itemNo, const QString &replayedFrom)
{
    Headers out;
    for (const RecordHeader &h : source.headers) {
        if (!isDiagnostic(h.name))
            out.append(Header(h.name, h.isNull ? std::nullopt : std::optional<QByteArray>(h.value)));
    }
    out.append(Header("berth-replay-id",
                      QByteArray(QByteArray::number(requestId) + '-' + QByteArray::number(itemNo))));
    out.append(Header("berth-request-id", QByteArray::number(requestId)));
    out.append(Header("berth-replayed-from", replayedFrom.toUtf8()));
    out.append(Header("berth-replay-count", QByteArray("1")));
    return out;
}

QString position(const Record &r, qint64 offset)
{
    return Source + u'/' + QString::number(r.partition) + u'/' + QString::number(offset);
}

// First difference between two byte strings, for a failure message that says where, not just "differs".
QString firstDifference(const QByteArray &expected, const QByteArray &actual)
{
    qsizetype i = 0;
    while (i < expected.size() && i < actual.size() && expected.at(i) == actual.at(i))
        ++i;
    return u"sizes %1 vs %2, first difference at byte %3"_s.arg(expected.size()).arg(actual.size()).arg(i);
}
} // namespace

class TestAdversarialReplay final : public QObject {
    Q_OBJECT
    std::unique_ptr<ReplayWorld> m_world;
    QList<Record> m_records;
    QList<qint64> m_offsets; // of m_records, in their partition

    // The corpus records at these indexes as a selection, item i + 1 being records[indexes[i]].
    QList<DlqSelection> selectionOf(const QList<int> &indexes) const
    {
        QList<DlqSelection> out;
        for (int i : indexes)
            out.append({Source, m_records.at(i).partition, m_offsets.at(i)});
        return out;
    }

    qint64 approvedReplay(const QList<int> &indexes, const QString &destination, QString *error)
    {
        RequestDraft d;
        d.action = RemediationAction::Replay;
        d.selection = selectionOf(indexes);
        d.destinationTopic = destination;
        d.reasonCode = u"poison-fixed"_s;
        d.reason = u"hostile payloads must replay intact or fail clearly"_s;
        d.ticket = u"OPS-7"_s;
        const qint64 id = m_world->request(d, error);
        if (id == 0 || !m_world->approve(id, error))
            return 0;
        return id;
    }

    ReplayOutcome execute(qint64 requestId)
    {
        ReplayOptions options;
        options.producerProperties.append({u"retry.backoff.ms"_s, u"50"_s});
        ReplayControl control;
        ReplayExecutor executor(m_world->alice(), m_world->kafka());
        return executor.run(requestId, options, control);
    }

    // Each replayed record of the request in `topic`, by the source position its berth-replayed-from names.
    // *count: how many records of the request the topic holds (more than the hash has: something came twice).
    QHash<QString, KcatRecord> arrivedOf(const QString &topic, qint64 requestId, int *count)
    {
        QString error;
        const QList<KcatRecord> all = Kcat::readAll(m_world->bootstrap(), topic, &error);
        if (!error.isEmpty())
            qWarning().noquote() << error;
        QHash<QString, KcatRecord> out;
        *count = 0;
        for (const KcatRecord &r : all) {
            if (r.header("berth-request-id") == QByteArray::number(requestId)) {
                out.insert(QString::fromUtf8(r.header("berth-replayed-from")), r);
                ++*count;
            }
        }
        return out;
    }

    // Key, value and headers of an arrived record against its source, byte by byte.
    void compareArrived(const KcatRecord &arrived, int index, qint64 requestId, int itemNo)
    {
        const Record &r = m_records.at(index);
        const QString from = position(r, m_offsets.at(index));
        const QByteArray which = from.toUtf8() + " (" + r.name + ")";
        QVERIFY2(arrived.key.has_value() == !r.keyIsNull, which.constData());
        if (arrived.key)
            QVERIFY2(
                *arrived.key == r.key,
                QByteArray(which + ": key " + firstDifference(r.key, *arrived.key).toUtf8()).constData());
        // The value's bytes here; whether a NULL value stays NULL is tombstonesStayNull's question.
        const QByteArray value = arrived.value.value_or(QByteArray());
        QVERIFY2(value == r.value,
                 QByteArray(which + ": value " + firstDifference(r.value, value).toUtf8()).constData());
        const Headers expected = expectedHeaders(r, requestId, itemNo, from);
        QVERIFY2(arrived.headers.size() == expected.size(),
                 QByteArray(which + ": " + QByteArray::number(arrived.headers.size()) + " headers, expected "
                            + QByteArray::number(expected.size()))
                     .constData());
        for (qsizetype h = 0; h < expected.size(); ++h) {
            const QByteArray at =
                which + ": header " + QByteArray::number(h) + " (" + expected.at(h).first.left(40) + ")";
            QVERIFY2(arrived.headers.at(h).first == expected.at(h).first, at.constData());
            QVERIFY2(arrived.headers.at(h).second.has_value() == expected.at(h).second.has_value(),
                     at.constData());
            QVERIFY2(arrived.headers.at(h).second.value_or(QByteArray())
                         == expected.at(h).second.value_or(QByteArray()),
                     at.constData());
        }
    }

    // `berth replay status --json`: what an operator sees of the request's unfinished items.
    QJsonArray unfinishedByCli(qint64 requestId)
    {
        const BerthCli::Result cli =
            BerthCli::run({u"replay"_s, u"status"_s, u"--db"_s, m_world->conninfo(u"alice"_s), u"--request"_s,
                           QString::number(requestId), u"--json"_s});
        if (cli.exitCode != 0)
            qWarning().noquote() << "berth replay status:" << cli.exitCode << cli.err;
        return cli.json().value(u"unfinished"_s).toArray();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(TestSupport::haveExecutable(u"kcat"_s), "kcat is the independent client of this test");
        m_world = std::make_unique<ReplayWorld>();
        QString error;
        QVERIFY2(m_world->start(u"t_adversarialreplay"_s, &error), qPrintable(error));
        QVERIFY(m_world->cluster().createTopic(Source, 2));
        QVERIFY(m_world->cluster().createTopic(Chosen, 3));
        QVERIFY2(AdversarialCorpus::produce(m_world->kafka(), m_world->bootstrap(), Source, &error),
                 qPrintable(error));
        m_records = AdversarialCorpus::records();
        QCOMPARE(m_records.size(), AdversarialCorpus::Total);
        QHash<int, qint64> next;
        for (const Record &r : std::as_const(m_records))
            m_offsets.append(next[r.partition]++);
    }

    void everyRecordReplaysByteExactOrFailsClearly()
    {
        QList<int> all(m_records.size());
        std::iota(all.begin(), all.end(), 0);
        QString error;
        const qint64 id = approvedReplay(all, Chosen, &error);
        QVERIFY2(id > 0, qPrintable(error));
        const ReplayOutcome outcome = execute(id);
        QVERIFY2(outcome.started && outcome.error.isEmpty(), qPrintable(outcome.error));

        // 16 MB is over the producer's message.max.bytes: that item, and only that one, fails, with why.
        QCOMPARE(outcome.delivered, AdversarialCorpus::Total - 1);
        QCOMPARE(outcome.failed, 1);
        QCOMPARE(outcome.finalStatus, RequestStatus::PartiallyFailed);
        QCOMPARE(m_world->statusOf(id), u"partially_failed"_s);
        QVERIFY(!outcome.problems.isEmpty());
        for (const ReplayItemProblem &p : outcome.problems) {
            QCOMPARE(p.itemNo, HugeItem);
            QVERIFY2(p.error.contains(u"too large"_s), qPrintable(p.error));
        }
        const QJsonArray unfinished = unfinishedByCli(id);
        QCOMPARE(unfinished.size(), 1);
        QCOMPARE(unfinished.first()[u"item"_s].toInt(), HugeItem);
        QCOMPARE(unfinished.first()[u"state"_s].toString(), u"failed"_s);
        QVERIFY2(unfinished.first()[u"error"_s].toString().contains(u"too large"_s),
                 qPrintable(unfinished.first()[u"error"_s].toString()));

        // Everything else arrived exactly once, as it left the DLQ.
        int count = 0;
        const QHash<QString, KcatRecord> arrived = arrivedOf(Chosen, id, &count);
        QCOMPARE(count, AdversarialCorpus::Total - 1);
        QCOMPARE(arrived.size(), AdversarialCorpus::Total - 1);
        for (int i = 0; i < m_records.size(); ++i) {
            const QString from = position(m_records.at(i), m_offsets.at(i));
            if (i + 1 == HugeItem) {
                QVERIFY(!arrived.contains(from));
                continue;
            }
            QVERIFY2(arrived.contains(from), qPrintable(from + u" did not arrive"_s));
            compareArrived(arrived.value(from), i, id, i + 1);
            if (QTest::currentTestFailed())
                return;
        }
    }

    void tombstonesStayNull()
    {
        // A NULL value deletes its key on a compacted topic; an empty one does not. The corpus holds two, one
        // from Berth's producer and one from kcat -Z; kcat must read both as NULL in the DLQ and after
        // replay.
        QString error;
        const QList<KcatRecord> source = Kcat::readAll(m_world->bootstrap(), Source, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(source.size(), AdversarialCorpus::Total);
        QList<int> nulls;
        for (int i = 0; i < m_records.size(); ++i) {
            if (m_records.at(i).valueIsNull)
                nulls.append(i);
        }
        QCOMPARE(nulls.size(), 2);
        for (int i : std::as_const(nulls))
            QVERIFY2(!source.at(i).value.has_value(), m_records.at(i).name); // same order: partition 0 first
        // "zero bytes" is empty, not NULL: it comes along as the contrast.
        QVERIFY(source.at(1).value.has_value() && source.at(1).value->isEmpty());

        const qint64 id = approvedReplay(nulls + QList<int>{1}, Chosen, &error);
        QVERIFY2(id > 0, qPrintable(error));
        const ReplayOutcome outcome = execute(id);
        QVERIFY2(outcome.error.isEmpty(), qPrintable(outcome.error));
        QCOMPARE(outcome.finalStatus, RequestStatus::Completed);
        int count = 0;
        const QHash<QString, KcatRecord> arrived = arrivedOf(Chosen, id, &count);
        QCOMPARE(count, 3);
        QCOMPARE(arrived.size(), 3);
        for (int i : std::as_const(nulls)) {
            const KcatRecord r = arrived.value(position(m_records.at(i), m_offsets.at(i)));
            QVERIFY2(!r.value.has_value(), qPrintable(QString::fromLatin1(m_records.at(i).name)
                                                      + u": replayed with an empty value, not NULL"_s));
        }
        const KcatRecord empty = arrived.value(position(m_records.at(1), m_offsets.at(1)));
        QVERIFY(empty.value.has_value() && empty.value->isEmpty());
    }

    void originalDestinationFailsItemsWithoutOne()
    {
        // Replayed "to the original topic": whichever dialect names it, the record goes back there; records
        // whose headers name none (a NULL header value, kcat's without any) fail with that reason.
        const QList<const char *> named = {"invalid utf-8",
                                           "null key",
                                           "tombstone",
                                           "binary ints of wrong lengths",
                                           "binary ints too long and empty",
                                           "connect numbers that are not",
                                           "retry attempts of odd sizes",
                                           "stack trace with markup"};
        const QList<const char *> unnamed = {"null header values", "kcat markup", "kcat null"};
        QList<int> chosen;
        for (const char *name : named + unnamed) {
            const auto it = std::find_if(m_records.cbegin(), m_records.cend(),
                                         [&](const Record &r) { return qstrcmp(r.name, name) == 0; });
            QVERIFY2(it != m_records.cend(), name);
            chosen.append(int(it - m_records.cbegin()));
        }
        QString error;
        const qint64 id = approvedReplay(chosen, QString(), &error);
        QVERIFY2(id > 0, qPrintable(error));
        const ReplayOutcome outcome = execute(id);
        QVERIFY2(outcome.started && outcome.error.isEmpty(), qPrintable(outcome.error));
        QCOMPARE(outcome.delivered, 8);
        QCOMPARE(outcome.failed, 3);
        QCOMPARE(outcome.finalStatus, RequestStatus::PartiallyFailed);
        QCOMPARE(m_world->statusOf(id), u"partially_failed"_s);

        QSet<int> failedItems;
        for (const ReplayItemProblem &p : outcome.problems) {
            failedItems.insert(p.itemNo);
            QVERIFY2(p.error.contains(NoOriginalTopic), qPrintable(p.error));
        }
        QCOMPARE(failedItems, (QSet<int>{9, 10, 11})); // the unnamed ones come last
        const QJsonArray unfinished = unfinishedByCli(id);
        QCOMPARE(unfinished.size(), 3);
        for (const QJsonValue &u : unfinished)
            QVERIFY2(u[u"error"_s].toString().contains(NoOriginalTopic),
                     qPrintable(u[u"error"_s].toString()));

        int count = 0;
        const QHash<QString, KcatRecord> arrived = arrivedOf(Orders, id, &count);
        QCOMPARE(count, 8);
        QCOMPARE(arrived.size(), 8);
        for (int item = 1; item <= chosen.size(); ++item) {
            const int i = chosen.at(item - 1);
            const QString from = position(m_records.at(i), m_offsets.at(i));
            QCOMPARE(arrived.contains(from), item <= named.size());
            if (arrived.contains(from))
                compareArrived(arrived.value(from), i, id, item);
            if (QTest::currentTestFailed())
                return;
        }
    }
};

QTEST_GUILESS_MAIN(TestAdversarialReplay)
#include "tst_adversarialreplay.moc"
