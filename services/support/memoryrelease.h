#pragma once

namespace MemoryRelease {
// Hands memory that malloc keeps after large work (a DLQ scan's prefetch buffers and hand-over batches) back
// to the system. Freed memory stays in the arena of the thread that allocated it, whichever thread frees
// it; so it is called where the last of that memory was freed. Takes a few milliseconds on a large heap.
// glibc only; elsewhere it does nothing.
void returnFreedMemory();
} // namespace MemoryRelease
