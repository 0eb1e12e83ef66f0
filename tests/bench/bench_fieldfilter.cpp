// The DLQ field filter over Avro dead letters read back from the mock cluster, against kcat's raw read of
// the same records. Prints FIGURE lines:
//   dlq_field_filter_1m_s            DlqScanner::filterFields over 1,000,000 Confluent-framed Avro dead
//                                    letters (the DLQ view's path: read back in ranges, decode, mask, filter)
//   dlq_field_filter_ratio_vs_kcat   that time over kcat's `-C -e` read of the topic (≤ 1.5)
//   dlq_kcat_avro_s                  kcat's time
// The payloads are 1,000 distinct records encoded by python3-avro (support/referenceencoder.h), cycled.
// Usage: bench_fieldfilter [--quick] [--records N]   (--quick: 50,000 records)
#include "benchcluster.h"
#include "benchdeadletters.h"
#include "benchfigure.h"

#include "services/demo/mockkafkacluster.h"
#include "services/dlq/dlqheadercodec.h"
#include "services/dlq/dlqscanner.h"
#include "services/kafka/kafkaproducer.h"
#include "services/payload/fieldfilter.h"
#include "services/payload/schemacatalog.h"
#include "support/referenceencoder.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QProcess>
#include <QStandardPaths>

#include <iostream>

using namespace Qt::StringLiterals;

namespace {
const QString kTopic = u"payments-dlt"_s;
constexpr int kDistinct = 1000;

QJsonObject payment(int k)
{
    QJsonObject r = jsonObject(R"({"id":"6f1c2a52-8f4e-4b59-9d3a-0c5e1f2a3b4c","amount":"19.99","fee":"0.250",
        "createdAt":"2024-02-29T13:45:00.123Z","bookedOn":"2024-02-29","sequence":12,"status":"DECLINED",
        "customer":{"id":"c-42","email":"ada@example.com","tier":null},"card":{"number":"4111111111111111","expiry":"12/29"},
        "lines":[{"sku":"SKU-1","quantity":2,"price":5.5}],"tags":{"channel":"web"},"approved":false,"ratio":1.25,
        "note":null})");
    QJsonObject customer = r.value(u"customer"_s).toObject();
    customer.insert(u"id"_s, u"c-%1"_s.arg(k));
    r.insert(u"customer"_s, customer);
    r.insert(u"amount"_s, u"%1.%2"_s.arg(k).arg(k % 100, 2, 10, QLatin1Char('0')));
    r.insert(u"sequence"_s, k);
    return r;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    const qint64 records = recordCount(args, 50'000, 1'000'000);

    QString error;
    if (!ReferenceEncoder::available(&error)) {
        std::cerr << qPrintable(error) << std::endl;
        return 1;
    }
    QJsonArray distinct;
    for (int k = 0; k < kDistinct; ++k)
        distinct.append(payment(k));
    const QList<QByteArray> values =
        ReferenceEncoder::avro(ReferenceEncoder::fixturePath(u"payment.avsc"_s), 7, distinct, &error);
    if (values.size() != kDistinct) {
        std::cerr << "encode: " << qPrintable(error) << std::endl;
        return 1;
    }

    // The mock cluster keeps a few thousand records a partition (as bench_dlq): enough partitions to keep
    // all.
    const int kPartitions = int(qMax<qint64>(12, (records + 2399) / 2400));
    MockKafkaCluster cluster(3);
    if (!cluster.isValid() || !cluster.createTopic(kTopic, kPartitions)) {
        std::cerr << "mock cluster: " << qPrintable(cluster.error()) << std::endl;
        return 1;
    }
    auto producer = BenchDeadLetters::bulkProducer(cluster.bootstrapServers());
    if (!producer)
        return 1;
    DlqMetadata m;
    m.originalTopic = u"payments"_s;
    m.consumerGroup = u"payment-capture"_s;
    m.exceptionClass = u"com.acme.payments.PaymentDeclinedException"_s;
    m.reason = u"card declined"_s;
    const RecordHeaders headers = encodeDlqHeaders(DlqDialect::BerthCanonical, m);
    for (qint64 i = 0; i < records; ++i) {
        if (!producer->produce({kTopic, int(i % kPartitions), "k-" + QByteArray::number(i % kDistinct), false,
                                values[i % kDistinct], headers, 0},
                               &error)) {
            std::cerr << "produce: " << qPrintable(error) << std::endl;
            return 1;
        }
    }
    if (!producer->flush(600'000, &error)) {
        std::cerr << "flush: " << qPrintable(error) << std::endl;
        return 1;
    }
    producer.reset();
    std::cerr << "# produced " << records << " Avro dead letters" << std::endl;

    // Every entry of a scan, as the view hands them over: numbered in partition order.
    std::vector<DlqFieldFilterItem> items;
    items.reserve(size_t(records));
    for (int p = 0; p < kPartitions; ++p) {
        const qint64 n = records / kPartitions + (p < records % kPartitions ? 1 : 0);
        for (qint64 o = 0; o < n; ++o)
            items.push_back({quint32(items.size()), p, o});
    }
    auto catalog = std::make_shared<SchemaCatalog>();
    catalog->setFetcher([](int) {});
    SchemaRef ref;
    ref.id = 7;
    catalog->insert(7, PayloadSchema::compile(ref, ReferenceEncoder::fixture(u"payment.avsc"_s), {}, &error));
    const FieldFilter filter = FieldFilter::parse(u"$.customer.id == \"c-42\" or $.amount > 990"_s, &error);

    DlqScanner scanner;
    scanner.setSchemaCatalog(catalog);
    DlqFieldFilterResult result;
    bool done = false;
    QObject::connect(&scanner, &DlqScanner::fieldFilterFinished, &scanner,
                     [&](const DlqFieldFilterResult &r) {
                         result = r;
                         done = true;
                         QCoreApplication::quit();
                     });
    QElapsedTimer clock;
    clock.start();
    scanner.filterFields(cluster.clientProperties(), kTopic, filter, std::move(items));
    if (!done)
        QCoreApplication::exec();
    const double seconds = double(clock.nsecsElapsed()) / 1e9;
    if (!result.error.isEmpty() || result.read != records) {
        std::cerr << "field filter: read " << result.read << " of " << records << ": "
                  << qPrintable(result.error) << std::endl;
        return 1;
    }
    // c-42 and amounts 991..999: 10 of every 1,000 records.
    std::cerr << "# " << result.matched->size() << " of " << result.read << " passed" << std::endl;

    const bool haveKcat = !QStandardPaths::findExecutable(u"kcat"_s).isEmpty();
    const double kcat = haveKcat ? BenchCluster::kcatReadSeconds(cluster.bootstrapServers(), kTopic) : -1;
    figure(records == 1'000'000 ? "dlq_field_filter_1m_s" : "dlq_field_filter_s", seconds, "s");
    if (kcat > 0) {
        figure("dlq_kcat_avro_s", kcat, "s");
        figure("dlq_field_filter_ratio_vs_kcat", seconds / kcat, "x");
    }
    return 0;
}
