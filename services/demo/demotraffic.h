#pragma once

#include "services/kafka/kafkaconfig.h"

#include <atomic>
#include <thread>

// Continuous traffic for the demo's topics, with the scheduled producer faults (DemoFaults).
class DemoTraffic final {
public:
    struct Rates {
        double orders = 12;       // messages per second
        double payments = 6;
        double notifications = 5;
    };
    DemoTraffic(KafkaProperties cluster, Rates rates);
    ~DemoTraffic();

    void start();
    void requestStop(); // returns at once; stop() flushes and joins
    void stop();
    qint64 produced() const { return m_produced; }
    qint64 duplicatesSent() const { return m_duplicates; }

    // The payloads, shared with tests that predict what the demo sends.
    static QByteArray orderPayload(qint64 seq, bool unknownType, bool invalidAmount);
    // A later event of order `seq` (DemoFaults::amendmentVersions), and its idempotency key.
    static QByteArray orderAmendmentPayload(qint64 seq, int version, bool invalidAmount);
    static QByteArray amendmentIdFor(qint64 seq, int version);
    static QByteArray paymentPayload(qint64 seq, bool invalid);
    static QByteArray notificationPayload(qint64 seq, bool invalidRecipient);

private:
    void run();
    KafkaProperties m_cluster;
    Rates m_rates;
    std::thread m_thread;
    std::atomic_bool m_stop = false;
    std::atomic<qint64> m_produced = 0;
    std::atomic<qint64> m_duplicates = 0;
};
