#pragma once

#include "referenceconsumer.h"

#include <QElapsedTimer>

// `email-sender` on `notifications`: deliberately slow, its speed rising and falling in waves so that lag
// grows and shrinks. Seed-000 inbox; bad recipients go to `error.notifications.email-sender` with Spring
// Cloud Stream `x-*` headers.
class EmailSender final : public ReferenceConsumer {
public:
    explicit EmailSender(const Config &config, double speed = 1.0);
    ~EmailSender() override;

protected:
    Outcome handle(const KafkaRecord &record) override;
    int processingDelayMs() override;

private:
    QElapsedTimer m_clock;
    double m_speed;
};

// `connect-warehouse-sink` on `orders`: a Kafka Connect sink without an inbox; records its converter cannot
// read go to `dlq-warehouse-sink` with `__connect.errors.*` headers (errors.tolerance=all).
class WarehouseSink final : public ReferenceConsumer {
public:
    explicit WarehouseSink(const Config &config);
    ~WarehouseSink() override;

protected:
    Outcome handle(const KafkaRecord &record) override;
};
