#include "memoryrelease.h"

#ifdef __GLIBC__
#include <malloc.h>
#endif

namespace MemoryRelease {
void returnFreedMemory()
{
#ifdef __GLIBC__
    malloc_trim(0);
#endif
}
} // namespace MemoryRelease
