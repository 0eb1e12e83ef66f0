#include "memorypolicy.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

#ifdef __GLIBC__
#include <malloc.h>
#endif

namespace {
constexpr int kArenas = 2; // the main arena and one more: the scan and librdkafka's threads share it
} // namespace

namespace MemoryPolicy {
void apply()
{
#ifdef __GLIBC__
    mallopt(M_ARENA_MAX, kArenas);
#endif
}

int arenaCount()
{
#ifdef __GLIBC__
    // malloc_info() writes one <heap nr="…"> element per arena.
    char *text = nullptr;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    if (!out)
        return -1;
    const int rc = malloc_info(0, out);
    std::fclose(out);
    int heaps = 0;
    for (const char *p = text; rc == 0 && p && (p = std::strstr(p, "<heap nr=")); ++p)
        ++heaps;
    std::free(text);
    return rc == 0 ? heaps : -1;
#else
    return -1;
#endif
}
} // namespace MemoryPolicy
