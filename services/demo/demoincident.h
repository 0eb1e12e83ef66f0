#pragma once

#include <atomic>

// The incident the demo world lives through, and its end. Until the fix is deployed, order-projection
// times out on its projection database for the records DemoFaults::transientFailures schedules beyond the
// retry budget, and it has no handler for OrderTeleported events (DemoFaults::unknownOrderType): both are
// dead-lettered. The world deploys the fix after its warm-up (DemoRequests); from then on order-projection
// handles both, on a first delivery and on a replay alike, so the records it set aside can be replayed and
// verified. Malformed and invalid records keep failing: the fix does not make them readable.
class DemoIncident final {
public:
    void deployFix() { m_fixed = true; }
    bool fixed() const { return m_fixed.load(); }

private:
    std::atomic_bool m_fixed = false;
};
