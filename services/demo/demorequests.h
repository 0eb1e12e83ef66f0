#pragma once

#include "services/kafka/kafkaconfig.h"

#include <QString>

#include <atomic>
#include <memory>
#include <thread>

class ReplayControl;

// Remediation work in flight for the demo, so the approval queue and the audit trail are not empty on first
// sight: once orders-dlt holds a few dead letters, bob files a replay of two of them that alice approves and
// bob executes and verifies (completed, followed to order-projection, in the trail), and a replay of three
// more plus a dead letter whose inbox row is parked, released and replayed, that waits for approval
// (alice's Approvals tab). Both go through the real request builder, so their dry runs are real. On a worker
// thread: the world starts at once and the requests appear when the first dead letters exist.
class DemoRequests final {
public:
    struct Settings {
        KafkaProperties cluster;
        QString requesterConninfo; // bob
        QString approverConninfo;  // alice
        QString policyPath;
        int waitForDeadLettersMs = 180'000;
    };

    explicit DemoRequests(Settings settings);
    ~DemoRequests(); // stops and joins

    void start();
    void stop();

private:
    void run();
    bool stopping() const { return m_stop.load(); }

    Settings m_settings;
    std::atomic_bool m_stop = false;
    std::shared_ptr<ReplayControl> m_control;
    std::thread m_thread;
};
