#pragma once

#include "services/kafka/kafkaconfig.h"

#include <QString>

// "Test connection": one blocking attempt against a cluster or a database, described in words. Worker
// threads only (the profile dialog runs it through a JobTracker).
struct ConnectionCheck {
    bool ok = false;
    QString summary; // one line: what was reached, or what failed
    QString detail;  // further facts (brokers, server version, role, TLS), one per line
};

namespace ConnectionTest {
// librdkafka validates the properties first (its own message when one is wrong), then metadata is fetched.
ConnectionCheck kafka(const KafkaProperties &properties, int timeoutMs = 8000);
// libpq conninfo, URI or service= name; .pgpass and pg_service.conf are honoured by libpq itself.
ConnectionCheck database(const QString &conninfo);
} // namespace ConnectionTest
