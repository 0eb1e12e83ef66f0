#pragma once

#include "referenceconsumer.h"

// `payment-capture` on `payments`: the seed-001 transactional inbox `processed_events` keyed by the
// idempotency key (RECEIVED → PROCESSING → COMPLETED / FAILED, attempt_count, last_error). The capture
// writes an outbox row in the same transaction. Poison goes to `payments-dlq` with Berth's headers.
class PaymentCapture final : public ReferenceConsumer {
public:
    explicit PaymentCapture(const Config &config);
    ~PaymentCapture() override;

protected:
    Outcome handle(const KafkaRecord &record) override;

private:
    void fail(const QString &key, const QString &error);
};
