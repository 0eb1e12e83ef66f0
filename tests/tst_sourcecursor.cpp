// SourceCursor against the mock cluster: the records at exactly the asked positions, across partitions,
// after priming (reads started ahead, possibly further on than a later batch asks), and clear reasons for
// positions that do not exist.

#include "services/demo/mockkafkacluster.h"
#include "services/kafka/kafkaproducer.h"
#include "services/remediation/sourcecursor.h"

#include <QtTest>

using namespace Qt::StringLiterals;

namespace {
constexpr int Partitions = 3;
constexpr int PerPartition = 40;
const QString Topic = u"cursor-src"_s;

QByteArray valueAt(int partition, qint64 offset)
{
    return "p" + QByteArray::number(partition) + "-o" + QByteArray::number(offset);
}

// Each position answered with its own record.
bool allFound(const SourceCursor::Positions &positions, const QHash<int, KafkaRecord> &found,
              const QHash<int, QString> &problems)
{
    if (!problems.isEmpty()) {
        qWarning().noquote() << problems.values().join(u"; "_s);
        return false;
    }
    bool ok = found.size() == positions.size();
    for (int i = 0; ok && i < positions.size(); ++i)
        ok = found.value(i).value == valueAt(positions.at(i).partition, positions.at(i).offset);
    return ok;
}
} // namespace

class SourceCursorTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(m_cluster.isValid(), qPrintable(m_cluster.error()));
        QVERIFY(m_cluster.createTopic(Topic, Partitions));
        QString error;
        auto producer = KafkaProducer::create(m_cluster.clientProperties(), &error);
        QVERIFY2(producer, qPrintable(error));
        for (int p = 0; p < Partitions; ++p) {
            for (int o = 0; o < PerPartition; ++o) {
                OutgoingRecord r;
                r.topic = Topic;
                r.partition = p;
                r.key = "k" + QByteArray::number(o);
                r.value = valueAt(p, o);
                QVERIFY2(producer->produce(r, &error), qPrintable(error));
            }
        }
        QVERIFY2(producer->flush(30'000, &error), qPrintable(error));
    }

    // Every position answered with its own record, whatever order the batch asks in.
    void fetchesExactPositionsAcrossPartitions()
    {
        QString error;
        auto cursor = SourceCursor::create(m_cluster.clientProperties(), &error);
        QVERIFY2(cursor, qPrintable(error));
        const SourceCursor::Positions positions = {
            {Topic, 2, 5}, {Topic, 0, 0}, {Topic, 1, 39}, {Topic, 0, 17}, {Topic, 2, 5}};
        QHash<int, QString> problems;
        QVERIFY(allFound(positions, cursor->fetch(positions, 15'000, &problems), problems));
    }

    // Primed further on than the batch that follows asks: the stream goes back, nothing is skipped; and a
    // primed partition the next batch does not touch does not disturb it.
    void primedAheadThenAskedFromFurtherBack()
    {
        QString error;
        auto cursor = SourceCursor::create(m_cluster.clientProperties(), &error);
        QVERIFY2(cursor, qPrintable(error));
        cursor->prime({{Topic, 0, 30}, {Topic, 1, 10}, {Topic, 2, 0}});
        SourceCursor::Positions positions;
        for (qint64 o = 5; o < 35; ++o)
            positions.append({Topic, 0, o});
        positions.append({Topic, 1, 12});
        QHash<int, QString> problems;
        QVERIFY(allFound(positions, cursor->fetch(positions, 15'000, &problems), problems));
        // And on from there, as the executor's next batch asks.
        const SourceCursor::Positions next = {{Topic, 0, 35}, {Topic, 2, 1}};
        QVERIFY(allFound(next, cursor->fetch(next, 15'000, &problems), problems));
    }

    // Past the end (primed there, too): that position gets its reason, the other its record.
    void missingPositionsSayWhy()
    {
        QString error;
        auto cursor = SourceCursor::create(m_cluster.clientProperties(), &error);
        QVERIFY2(cursor, qPrintable(error));
        cursor->prime({{Topic, 1, PerPartition + 5}});
        QHash<int, QString> problems;
        const QHash<int, KafkaRecord> found =
            cursor->fetch({{Topic, 1, 3}, {Topic, 1, PerPartition + 5}}, 5'000, &problems);
        QCOMPARE(found.value(0).value, valueAt(1, 3));
        QVERIFY(!found.contains(1));
        QVERIFY2(problems.value(1).contains(u"no record"_s) || problems.value(1).contains(u"ends at"_s),
                 qPrintable(problems.value(1)));
    }

private:
    MockKafkaCluster m_cluster{1};
};

QTEST_GUILESS_MAIN(SourceCursorTest)
#include "tst_sourcecursor.moc"
