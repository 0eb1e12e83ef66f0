// A policy-named field (RecordField) read from a consumed record: librdkafka's message, as the accounting
// reads it, and its copy (KafkaRecord), as a re-read request item is read, give the same answer. Records
// produced to the mock cluster and consumed back, so both sides are what the consumer really hands over.
#include "services/accounting/recordfieldvalue.h"
#include "services/demo/mockkafkacluster.h"
#include "services/kafka/kafkaconfig.h"
#include "services/kafka/kafkaproducer.h"

#include <QTest>

using namespace Qt::StringLiterals;

class TestRecordFieldValue final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void messageAndItsCopyReadAlike()
    {
        MockKafkaCluster cluster(1);
        QVERIFY(cluster.createTopic(u"fields"_s, 1));
        QString error;
        auto producer = KafkaProducer::create(cluster.clientProperties(), &error);
        QVERIFY2(producer, qPrintable(error));
        // A key, a header given twice (the last one counts), a JSON string, integer and decimal.
        QVERIFY(producer->produce({u"fields"_s, 0, "k-1", false,
                                   R"({"id":"ord-7","n":42,"amount":12.5,"nested":{"seq":3}})",
                                   {{"idempotency-key", "first", false}, {"idempotency-key", "second", false}},
                                   0}));
        // No key, a null header, a payload that is not JSON.
        QVERIFY(producer->produce({u"fields"_s, 0, {}, true, "not json", {{"idempotency-key", {}, true}}, 0}));
        QVERIFY(producer->flush(5000));

        KafkaHandle rk = KafkaConfig::createClient(
            RD_KAFKA_CONSUMER,
            KafkaConfig::readerProperties(cluster.clientProperties(),
                                          {.clientId = u"fields"_s, .groupId = u"fields"_s}),
            &error);
        QVERIFY2(rk, qPrintable(error));
        rd_kafka_topic_partition_list_t *assignment = rd_kafka_topic_partition_list_new(1);
        rd_kafka_topic_partition_list_add(assignment, "fields", 0)->offset = RD_KAFKA_OFFSET_BEGINNING;
        rd_kafka_assign(rk.get(), assignment);
        rd_kafka_topic_partition_list_destroy(assignment);

        const QList<RecordField> fields{{RecordField::Kind::RecordKey, {}},
                                        {RecordField::Kind::Header, u"idempotency-key"_s},
                                        {RecordField::Kind::Header, u"absent"_s},
                                        {RecordField::Kind::JsonPath, u"$.id"_s},
                                        {RecordField::Kind::JsonPath, u"$.n"_s},
                                        {RecordField::Kind::JsonPath, u"$.amount"_s},
                                        {RecordField::Kind::JsonPath, u"nested.seq"_s},
                                        {RecordField::Kind::JsonPath, u"$.missing"_s}};
        const QList<QList<QByteArray>> expected{
            {"k-1", "second", "(missing)", "ord-7", "42", "12.5", "3", "(missing)"},
            {"(missing)", "(missing)", "(missing)", "(not json)", "(not json)", "(not json)", "(not json)",
             "(not json)"}};
        const auto answer = [](RecordFieldValue &value, const RecordField &field) -> QByteArray {
            QByteArray out;
            switch (value.bytes(field, &out)) {
            case RecordFieldValue::Outcome::Found:
                return out;
            case RecordFieldValue::Outcome::Missing:
                return "(missing)";
            case RecordFieldValue::Outcome::NotJson:
                return "(not json)";
            }
            return {};
        };
        int read = 0;
        QElapsedTimer waited;
        waited.start();
        while (read < expected.size() && waited.elapsed() < 15'000) {
            rd_kafka_message_t *m = rd_kafka_consumer_poll(rk.get(), 200);
            if (!m)
                continue;
            if (!m->err) {
                const KafkaRecord copy = KafkaRecord::fromMessage(m);
                RecordFieldValue fromMessage(m);
                RecordFieldValue fromCopy(copy);
                for (qsizetype f = 0; f < fields.size(); ++f) {
                    QCOMPARE(answer(fromMessage, fields[f]), expected[read][f]);
                    QCOMPARE(answer(fromCopy, fields[f]), expected[read][f]);
                }
                ++read;
            }
            rd_kafka_message_destroy(m);
        }
        QCOMPARE(read, expected.size());
    }
};

QTEST_MAIN(TestRecordFieldValue)
#include "tst_recordfieldvalue.moc"
