#include "demotraffic.h"

#include "demofaults.h"
#include "services/kafka/kafkaproducer.h"
#include "services/support/logging.h"

#include <QDateTime>
#include <QElapsedTimer>

#include <cmath>

using namespace Qt::StringLiterals;

namespace {
const char *const customers[] = {"acme", "globex", "initech", "umbrella", "hooli", "stark", "wayne", "tyrell"};

QByteArray idFor(const char *prefix, qint64 seq)
{
    // Stable, unique, and looks like what producers really send.
    return QByteArray(prefix) + '-' + QByteArray::number(seq).rightJustified(7, '0') + '-'
         + QByteArray::number(quint32(qHash(seq) ^ 0x5bd1e995u), 16);
}

RecordHeaders commonHeaders(const QByteArray &key, const char *type, qint64 seq)
{
    return {{"idempotency-key", key, false},
            {"correlation-id", "corr-" + QByteArray::number(seq * 7919 % 1000003, 16), false},
            {"event-type", type, false},
            {"schema-version", "3", false}};
}
}

DemoTraffic::DemoTraffic(KafkaProperties cluster, Rates rates)
    : m_cluster(std::move(cluster))
    , m_rates(rates)
{
}

DemoTraffic::~DemoTraffic()
{
    stop();
}

void DemoTraffic::start()
{
    m_stop = false;
    m_thread = std::thread([this] { run(); });
}

void DemoTraffic::requestStop()
{
    m_stop = true;
}

void DemoTraffic::stop()
{
    requestStop();
    if (m_thread.joinable())
        m_thread.join();
}

QByteArray DemoTraffic::orderPayload(qint64 seq, bool unknownType, bool invalidAmount)
{
    const double amount = invalidAmount ? -1.0 * double(seq % 50 + 1) : 10.0 + double(seq % 500) + 0.99;
    return "{\"seq\":" + QByteArray::number(seq) + ",\"version\":1,\"eventId\":\"" + idFor("ord", seq) + "\",\"type\":\""
         + (unknownType ? "OrderTeleported" : "OrderPlaced") + "\",\"orderId\":\"order-"
         + QByteArray::number(seq) + "\",\"customer\":\"" + customers[seq % 8] + "\",\"amount\":"
         + QByteArray::number(amount, 'f', 2) + ",\"currency\":\"EUR\",\"lines\":[{\"sku\":\"SKU-"
         + QByteArray::number(seq % 97) + "\",\"qty\":" + QByteArray::number(seq % 5 + 1) + "}]}";
}

QByteArray DemoTraffic::orderAmendmentPayload(qint64 seq, int version, bool invalidAmount)
{
    // No "seq": the consumer's scheduled crashes and retries are the order's first event's, not these.
    const double amount = invalidAmount ? -1.0 : 10.0 + double((seq + version) % 500) + 0.49;
    return "{\"version\":" + QByteArray::number(version) + ",\"eventId\":\"" + amendmentIdFor(seq, version)
         + "\",\"type\":\"OrderAmended\",\"orderId\":\"order-" + QByteArray::number(seq) + "\",\"customer\":\""
         + customers[seq % 8] + "\",\"amount\":" + QByteArray::number(amount, 'f', 2) + ",\"currency\":\"EUR\"}";
}

QByteArray DemoTraffic::amendmentIdFor(qint64 seq, int version)
{
    return idFor("ord", seq) + "-v" + QByteArray::number(version);
}

QByteArray DemoTraffic::paymentPayload(qint64 seq, bool invalid)
{
    return "{\"seq\":" + QByteArray::number(seq) + ",\"paymentId\":\"pay-" + QByteArray::number(seq)
         + "\",\"orderId\":\"order-" + QByteArray::number(seq * 2) + "\",\"amount\":"
         + (invalid ? QByteArray("-5.00") : QByteArray::number(20.0 + double(seq % 300), 'f', 2))
         + ",\"currency\":\"" + (invalid ? "" : "EUR") + "\",\"provider\":\"stripe\"}";
}

QByteArray DemoTraffic::notificationPayload(qint64 seq, bool invalidRecipient)
{
    const QByteArray to = invalidRecipient ? QByteArray("not-an-address") : QByteArray(customers[seq % 8]) + "@example.com";
    return "{\"seq\":" + QByteArray::number(seq) + ",\"messageId\":\"" + idFor("ntf", seq) + "\",\"to\":\"" + to
         + "\",\"template\":\"order-confirmation\",\"orderId\":\"order-" + QByteArray::number(seq) + "\"}";
}

void DemoTraffic::run()
{
    QString error;
    auto producer = KafkaProducer::create(m_cluster, &error);
    if (!producer) {
        qCWarning(lcDemo) << "traffic producer:" << error;
        return;
    }
    qint64 orderSeq = 0, paymentSeq = 0, notificationSeq = 0;
    double orderDue = 0, paymentDue = 0, notificationDue = 0;
    QElapsedTimer clock;
    clock.start();
    const auto send = [&](OutgoingRecord &&record) {
        if (producer->produce(record, &error))
            ++m_produced;
        else
            qCWarning(lcDemo) << error;
    };
    while (!m_stop) {
        const double seconds = double(clock.elapsed()) / 1000.0;
        while (orderDue <= seconds * m_rates.orders) {
            const qint64 seq = orderSeq++;
            orderDue += 1;
            const QByteArray key = idFor("ord", seq);
            QByteArray payload = orderPayload(seq, DemoFaults::unknownOrderType(seq), DemoFaults::invalidOrderAmount(seq));
            if (DemoFaults::malformedOrder(seq))
                payload.chop(payload.size() / 3); // a truncated write: not JSON any more
            OutgoingRecord record{u"orders"_s, -1, "order-" + QByteArray::number(seq), false, payload,
                                  commonHeaders(key, "OrderPlaced", seq), 0};
            send(OutgoingRecord(record));
            if (DemoFaults::duplicateOrder(seq)) { // the producer's retry after a lost ack
                send(OutgoingRecord(record));
                ++m_duplicates;
            }
            for (const int version : DemoFaults::amendmentVersions(seq)) {
                const bool fails = DemoFaults::batchFailsPartWay(seq) && version == DemoFaults::failingBatchVersion;
                const QByteArray id = amendmentIdFor(seq, version);
                send({u"orders"_s, -1, record.key, false, orderAmendmentPayload(seq, version, fails),
                      commonHeaders(id, "OrderAmended", seq), 0});
            }
        }
        while (paymentDue <= seconds * m_rates.payments) {
            const qint64 seq = paymentSeq++;
            paymentDue += 1;
            OutgoingRecord record{u"payments"_s, -1, "pay-" + QByteArray::number(seq), false,
                                  paymentPayload(seq, DemoFaults::invalidPayment(seq)),
                                  commonHeaders(idFor("pay", seq), "PaymentRequested", seq), 0};
            send(OutgoingRecord(record));
            if (DemoFaults::duplicatePayment(seq)) {
                send(std::move(record));
                ++m_duplicates;
            }
        }
        while (notificationDue <= seconds * m_rates.notifications) {
            const qint64 seq = notificationSeq++;
            notificationDue += 1;
            send({u"notifications"_s, -1, "order-" + QByteArray::number(seq), false,
                  notificationPayload(seq, DemoFaults::invalidRecipient(seq)),
                  commonHeaders(idFor("ntf", seq), "SendEmail", seq), 0});
        }
        rd_kafka_poll(producer->handle(), 20);
    }
    producer->flush(3000);
}
