#pragma once

// The benchmarks' dead letters: realistic Spring DLT records (binary numbers), eight kinds of failure whose
// messages carry ids, a short stack trace, an idempotency key, and every 50 records one key failing three
// times (poison). Header-only: each benchmark is one executable.

#include "services/dlq/dlqheadercodec.h"
#include "services/kafka/kafkaproducer.h"
#include "services/kafka/kafkarecord.h"

#include <iostream>
#include <memory>

namespace BenchDeadLetters {
struct Letter {
    QByteArray key;
    QByteArray value;
    RecordHeaders headers;
};

inline Letter letter(qint64 i)
{
    static const char *kFailures[][3] = {
        {"com.acme.orders.OrderNotFoundException", "", "Order ORD-%1 not found in projection"},
        {"org.springframework.kafka.support.converter.ConversionException",
         "com.fasterxml.jackson.core.JsonParseException",
         "Failed to convert payload of record %1: Unexpected character ('x' (code 120))"},
        {"com.acme.payments.PaymentDeclinedException", "", "Card ending %1 declined: insufficient funds"},
        {"java.lang.IllegalStateException", "", "Inventory for SKU-%1 went negative"},
        {"org.springframework.dao.DataIntegrityViolationException", "org.postgresql.util.PSQLException",
         "duplicate key value violates unique constraint \"orders_pkey\" Detail: Key (id)=(%1) already "
         "exists."},
        {"java.net.SocketTimeoutException", "",
         "Read timed out after 30000 ms calling https://tax.acme.com/rate/%1"},
        {"com.acme.validation.ValidationException", "", "Field 'email' of customer %1 is not an address"},
        {"java.lang.NullPointerException", "", "Cannot invoke \"Order.total()\" because \"order\" is null"},
    };
    static const QByteArray padding(900, 'x');
    DlqMetadata m;
    m.originalTopic = QStringLiteral("orders");
    m.originalTimestampType = QStringLiteral("CreateTime");
    m.consumerGroup = QStringLiteral("order-projection");
    m.stackTrace =
        QStringLiteral("com.acme.orders.OrderNotFoundException: not found\n\tat "
                       "com.acme.orders.Projection.apply(Projection.java:88)\n"
                       "\tat org.springframework.kafka.listener.KafkaMessageListenerContainer.invoke("
                       "KafkaMessageListenerContainer.java:2300)");
    const auto &f = kFailures[i % 8];
    const qint64 id = (i % 50 < 3) ? i / 50 : i; // every 50 records, one key fails three times
    m.originalPartition = int(i % 12);
    m.originalOffset = i;
    m.originalTimestampMs = 1'700'000'000'000 + i;
    m.attempts = int(i % 4) + 1;
    m.exceptionClass = QString::fromLatin1(f[0]);
    m.causeClass = QString::fromLatin1(f[1]);
    const QString reason = QString::fromLatin1(f[2]);
    m.reason = reason.contains(QStringLiteral("%1")) ? reason.arg(id) : reason;
    Letter l;
    l.headers = encodeDlqHeaders(DlqDialect::SpringDlt, m);
    l.headers.append({"idempotency-key", "order-" + QByteArray::number(id), false});
    l.key = "ORD-" + QByteArray::number(id);
    l.value = "{\"orderId\":\"" + l.key + "\",\"note\":\"" + padding + "\"}";
    return l;
}
// A producer for filling the mock cluster fast (large batches); nullptr after saying why on stderr.
inline std::unique_ptr<KafkaProducer> bulkProducer(const QString &bootstrap)
{
    QString error;
    auto producer = KafkaProducer::create({{QStringLiteral("bootstrap.servers"), bootstrap},
                                           {QStringLiteral("linger.ms"), QStringLiteral("20")},
                                           {QStringLiteral("batch.num.messages"), QStringLiteral("5000")},
                                           {QStringLiteral("queue.buffering.max.kbytes"), QStringLiteral("1048576")}},
                                          &error);
    if (!producer)
        std::cerr << "producer: " << qPrintable(error) << std::endl;
    return producer;
}
} // namespace BenchDeadLetters
