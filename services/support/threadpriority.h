#pragma once

namespace ThreadPriority {
// Lowers the calling thread a few nice levels, once: for background work that can saturate the CPU (a DLQ
// scan and the librdkafka threads it starts, which inherit the level), so the interface thread still gets
// the processor the moment it needs it on a 2-core desk. Costs nothing while the CPU has room. Linux only;
// elsewhere it does nothing.
void yieldToInterface();
} // namespace ThreadPriority
