// Schema payload decoding benchmarks. Prints FIGURE lines:
//   payload_decode_avro_us      one 1 KB Avro record (Confluent-framed) to display JSON, schema cached (≤ 20 µs)
//   payload_decode_protobuf_us  one 1 KB Protobuf record to display JSON, schema cached (≤ 40 µs)
// Records are encoded by the reference Python libraries (support/referenceencoder.h); each figure is the
// median of rounds of decodes through PayloadDecoder, the seam every consumer uses, in thread CPU time.
// --quick: fewer rounds.
#include "services/payload/payloaddecoder.h"
#include "services/payload/schemacatalog.h"
#include "support/referenceencoder.h"

#include <QCoreApplication>
#include <QTextStream>

#include <algorithm>

#include <time.h>

using namespace Qt::StringLiterals;

namespace {
void figure(const char *name, double value, const char *unit)
{
    QTextStream(stdout) << "FIGURE " << name << ' ' << QString::number(value, 'f', 2) << ' ' << unit << Qt::endl;
}

// This thread's CPU time in ns: the figure is the decoder's cost, not the share of a busy machine it got.
qint64 threadCpuNs()
{
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return qint64(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

// Median over rounds of the mean CPU time of one decode, in µs.
double decodeMicros(const QByteArray &value, SchemaCatalog &catalog, int rounds)
{
    std::vector<double> means;
    constexpr int kPerRound = 2000;
    qsizetype sink = 0;
    for (int r = 0; r < rounds; ++r) {
        const qint64 start = threadCpuNs();
        for (int i = 0; i < kPerRound; ++i)
            sink += PayloadDecoder::decode(value, false, u"payments"_s, &catalog).json.size();
        means.push_back(double(threadCpuNs() - start) / 1000.0 / kPerRound);
    }
    if (sink == 0)
        qWarning("nothing decoded");
    std::sort(means.begin(), means.end());
    return means[means.size() / 2];
}

QJsonObject avroRecord()
{
    QJsonArray lines;
    for (int i = 0; i < 28; ++i)
        lines.append(QJsonObject{{u"sku"_s, u"SKU-%1-BLUE-XL"_s.arg(i, 4, 10, QLatin1Char('0'))},
                                 {u"quantity"_s, i + 1}, {u"price"_s, 9.99 + i}});
    QJsonObject r = jsonObject(R"({"id":"6f1c2a52-8f4e-4b59-9d3a-0c5e1f2a3b4c","amount":"1234.50","fee":"12.345",
        "createdAt":"2024-02-29T13:45:00.123Z","bookedOn":"2024-02-29","sequence":9007199254740993,"status":"CAPTURED",
        "customer":{"id":"customer-000042","email":"ada.lovelace@example.com","tier":3},
        "card":{"number":"4111111111111111","expiry":"12/29"},
        "tags":{"channel":"web","campaign":"spring-sale-2024","region":"eu-central-1","device":"mobile-ios"},
        "approved":true,"ratio":0.5,"note":"Customer asked to split the shipment; second parcel waits for restock."})");
    r.insert(u"lines"_s, lines);
    return r;
}

QJsonObject protobufRecord()
{
    QJsonArray lines;
    for (int i = 0; i < 24; ++i)
        lines.append(QJsonObject{{u"sku"_s, u"SKU-%1-BLUE-XL"_s.arg(i, 4, 10, QLatin1Char('0'))},
                                 {u"quantity"_s, i + 1}, {u"price"_s, 9.99 + i}});
    QJsonObject r = jsonObject(R"({"payment_id":"pay-000000000042","amount_minor":"123456789012",
        "sequence_no":"18446744073709551615","status":"CAPTURED","created_at":"2024-02-29T13:45:00.123Z",
        "signature":"AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=","customer_email":"ada.lovelace@example.com",
        "approved":true,"card_number":"4111111111111111",
        "tags":{"channel":"web","campaign":"spring-sale-2024","region":"eu-central-1","device":"mobile-ios"}})");
    r.insert(u"lines"_s, lines);
    return r;
}
} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    if (qEnvironmentVariableIsEmpty("BERTH_SOURCE_DIR")) // run.sh runs benchmarks outside ctest
        qputenv("BERTH_SOURCE_DIR", BERTH_SOURCE_DIR_DEFAULT);
    const int rounds = app.arguments().contains(u"--quick"_s) ? 5 : 25;
    QString error;
    if (!ReferenceEncoder::available(&error)) {
        qCritical("bench_payload: %s", qPrintable(error));
        return 1;
    }
    SchemaCatalog catalog;
    catalog.setFetcher([](int) {});
    SchemaRef avroRef;
    avroRef.id = 7;
    catalog.insert(7, PayloadSchema::compile(avroRef, ReferenceEncoder::fixture(u"payment.avsc"_s), {}, &error));
    SchemaRef protoRef;
    protoRef.format = SchemaRef::Format::Protobuf;
    protoRef.id = 9;
    catalog.insert(9, PayloadSchema::compile(protoRef, ReferenceEncoder::fixture(u"payment.proto"_s), {}, &error));

    const QByteArray avro = ReferenceEncoder::avro(ReferenceEncoder::fixturePath(u"payment.avsc"_s), 7,
                                                   QJsonArray{avroRecord()}, &error)
                                .value(0);
    const QByteArray proto = ReferenceEncoder::protobuf(ReferenceEncoder::fixturePath(u"payment.proto"_s),
                                                        u"shop.payments.Payment"_s, 9, {1}, QJsonArray{protobufRecord()},
                                                        &error)
                                 .value(0);
    for (const QByteArray *value : {&avro, &proto}) {
        const DecodedPayload d = PayloadDecoder::decode(*value, false, u"payments"_s, &catalog);
        if (d.kind != DecodedPayload::Kind::Schema) {
            qCritical("bench_payload: a record does not decode: %s %s", qPrintable(d.error), qPrintable(error));
            return 1;
        }
    }
    QTextStream(stderr) << "record sizes: avro " << avro.size() << " B, protobuf " << proto.size() << " B" << Qt::endl;
    figure("payload_decode_avro_us", decodeMicros(avro, catalog, rounds), "us");
    figure("payload_decode_protobuf_us", decodeMicros(proto, catalog, rounds), "us");
    return 0;
}
