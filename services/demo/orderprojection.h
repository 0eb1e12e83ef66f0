#pragma once

#include "referenceconsumer.h"

// `order-projection` on `orders`: the seed-000 idempotent consumer. Inbox `processed_message`
// (IN_PROGRESS → COMPLETED / FAILED_RETRYABLE / FAILED_TERMINAL / PARKED), bounded retries, poison to
// `orders-dlt` with Spring Kafka DLT headers.
class OrderProjection final : public ReferenceConsumer {
public:
    explicit OrderProjection(const Config &config);
    ~OrderProjection() override;

    // Shared with the email sender, which keeps the same inbox table.
    enum class Claim { Claimed, AlreadyDone, InFlightElsewhere, Failed };
    static Claim claim(PgSession &db, const QString &consumer, const QString &messageId);
    static void setStatus(PgSession &db, const QString &consumer, const QString &messageId, const QString &status,
                          const QString &errorCode);

protected:
    Outcome handle(const KafkaRecord &record) override;
};
