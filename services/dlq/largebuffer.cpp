#include "largebuffer.h"

#include <cstdint>
#include <cstdlib>
#include <new>

#ifdef Q_OS_LINUX
#include <sys/mman.h>
#endif

namespace {
// Below this, a mapping's page rounding and system call cost more than the faults they spare.
constexpr size_t kMapAtLeast = 64 * 1024;

#ifdef Q_OS_LINUX
constexpr size_t kPage = 4096;
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 // Linux 5.14
#endif

// bytes rounded up to whole pages, mapped at a multiple of `alignment` (over-mapped, then trimmed).
void *mapAligned(size_t bytes, size_t alignment)
{
    const size_t length = (bytes + kPage - 1) & ~(kPage - 1);
    const size_t span = length + alignment;
    void *raw = mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED)
        return nullptr;
    const auto from = reinterpret_cast<std::uintptr_t>(raw);
    const std::uintptr_t start = (from + alignment - 1) & ~std::uintptr_t(alignment - 1);
    if (start > from)
        munmap(raw, start - from);
    if (from + span > start + length)
        munmap(reinterpret_cast<void *>(start + length), from + span - (start + length));
    return reinterpret_cast<void *>(start);
}
#endif
} // namespace

namespace LargeBuffer {
void *allocate(size_t bytes)
{
    if (bytes == 0)
        return nullptr;
#ifdef Q_OS_LINUX
    if (bytes >= kMapAtLeast) {
        // Anonymous mappings are zero-filled; MAP_POPULATE faults every page in, in this one call.
        void *p =
            mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
        if (p == MAP_FAILED)
            throw std::bad_alloc();
        return p;
    }
#endif
    void *p = std::calloc(1, bytes);
    if (!p)
        throw std::bad_alloc();
    return p;
}

void *allocateRandomAccess(size_t bytes)
{
#ifdef Q_OS_LINUX
    if (bytes >= HugePage) {
        void *p = mapAligned(bytes, HugePage);
        if (!p)
            throw std::bad_alloc();
        madvise(p, bytes, MADV_HUGEPAGE); // a kernel that grants none keeps small pages: still correct
        // Populated now, as allocate() does; a kernel without this advice gets one write per page.
        if (madvise(p, bytes, MADV_POPULATE_WRITE) != 0) {
            const auto start = reinterpret_cast<std::uintptr_t>(p);
            for (std::uintptr_t at = start; at < start + bytes; at += kPage)
                *reinterpret_cast<volatile char *>(at) = 0;
        }
        return p;
    }
#endif
    return allocate(bytes);
}

void release(void *data, size_t bytes)
{
    if (!data)
        return;
#ifdef Q_OS_LINUX
    if (bytes >= kMapAtLeast) {
        munmap(data, bytes);
        return;
    }
#endif
    std::free(data);
}
} // namespace LargeBuffer
