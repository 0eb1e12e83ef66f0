#pragma once

#include "services/kafka/kafkaconfig.h"

#include <QString>

#include <atomic>
#include <functional>
#include <memory>
#include <thread>

class ReplayControl;

// Remediation work in flight for the demo, so the approval queue and the audit trail are not empty on first
// sight: once orders-dlt holds a few dead letters, bob files a replay of two of them that alice approves and
// bob executes and verifies (followed to order-projection, in the trail). Then the world's warm-up ends
// (Settings::endWarmUp: the incident's fix deployed, a consumer stopped for a reprocess) and bob files a
// release and replay of the dead letters the fix lets order-projection process (parked rows and database
// timeouts) that waits for approval (alice's Approvals tab); approved and executed, it ends verified. Both
// go through the real request builder, so their dry runs are real. On a worker thread: the world starts at
// once and the requests appear when the first dead letters exist.
class DemoRequests final {
public:
    struct Settings {
        KafkaProperties cluster;
        QString requesterConninfo; // bob
        QString approverConninfo;  // alice
        QString policyPath;
        // The world's end of the warm-up (the incident's fix, a consumer stopped for a reprocess): called
        // once, after the executed request and before the pending one is chosen, or at once on a kept
        // data directory.
        std::function<void()> endWarmUp;
        int waitForDeadLettersMs = 180'000;
    };

    explicit DemoRequests(Settings settings);
    ~DemoRequests(); // stops and joins

    void start();
    void requestStop(); // returns at once; stop() joins
    void stop();

private:
    void run();
    bool stopping() const { return m_stop.load(); }

    Settings m_settings;
    std::atomic_bool m_stop = false;
    std::shared_ptr<ReplayControl> m_control;
    std::thread m_thread;
};
