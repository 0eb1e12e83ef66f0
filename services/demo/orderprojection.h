#pragma once

#include "referenceconsumer.h"

class DemoIncident;

// `order-projection` on `orders`: the seed-000 idempotent consumer. Inbox `processed_message`
// (IN_PROGRESS → COMPLETED / FAILED_RETRYABLE / FAILED_TERMINAL / PARKED), bounded retries, poison to
// `orders-dlt` with Spring Kafka DLT headers. With an incident (the demo world's), its database timeouts
// and its missing OrderTeleported handler last until the incident's fix is deployed; without one (tests
// of records without a schedule), they never end.
class OrderProjection final : public ReferenceConsumer {
public:
    explicit OrderProjection(const Config &config, std::shared_ptr<const DemoIncident> incident = {});
    ~OrderProjection() override;

    // Shared with the email sender, which keeps the same inbox table.
    enum class Claim { Claimed, AlreadyDone, InFlightElsewhere, Failed };
    static Claim claim(PgSession &db, const QString &consumer, const QString &messageId);
    static void setStatus(PgSession &db, const QString &consumer, const QString &messageId, const QString &status,
                          const QString &errorCode);

protected:
    Outcome handle(const KafkaRecord &record) override;

private:
    bool incidentOver(); // logs the fix's arrival once

    std::shared_ptr<const DemoIncident> m_incident;
    bool m_fixLogged = false; // the consumer's thread only
};
