#include "largebuffer.h"

#include <cstdlib>
#include <new>

#ifdef Q_OS_LINUX
#include <sys/mman.h>
#endif

namespace {
// Below this, a mapping's page rounding and system call cost more than the faults they spare.
constexpr size_t kMapAtLeast = 64 * 1024;
} // namespace

namespace LargeBuffer {
void *allocate(size_t bytes)
{
    if (bytes == 0)
        return nullptr;
#ifdef Q_OS_LINUX
    if (bytes >= kMapAtLeast) {
        // Anonymous mappings are zero-filled; MAP_POPULATE faults every page in, in this one call.
        void *p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
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
