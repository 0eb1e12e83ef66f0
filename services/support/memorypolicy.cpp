#include "memorypolicy.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

#ifdef __GLIBC__
#include <malloc.h>
#endif

namespace {
constexpr int kArenas = 2; // the main arena and one more: the scan and librdkafka's threads share it
// librdkafka receives each fetch response, up to tens of megabytes, into one fresh buffer. With glibc's
// defaults the first ones are mapped anew and the later ones reuse heap memory that free() hands back to the
// kernel as soon as it is on top: either way every page is faulted in and zeroed again, for every response.
// Fixed thresholds keep blocks up to 32 MB (glibc's ceiling) in the heap and up to 32 MB of free memory on
// top of each heap, so the buffers are reused instead of faulted in and zeroed again (FIGURE dlq_scan_s,
// tests/bench/bench_dlq.cpp). The scan trims at its end (DlqScanRun::run), but malloc_trim() leaves a thread
// arena's top alone, up to the trim threshold: a larger one would keep more resident after a scan (FIGURE
// dlq_rss_1m_mb).
constexpr int kMmapThreshold = 32 << 20;
constexpr int kTrimThreshold = 32 << 20;
} // namespace

namespace MemoryPolicy {
void apply()
{
#ifdef __GLIBC__
    mallopt(M_ARENA_MAX, kArenas);
    mallopt(M_MMAP_THRESHOLD, kMmapThreshold);
    mallopt(M_TRIM_THRESHOLD, kTrimThreshold);
#endif
}

MallocFigures figures()
{
    MallocFigures f;
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 33)
    const struct mallinfo2 m = mallinfo2();
    f.mappedBlocks = qint64(m.hblks);
    f.freeHeapBytes = qint64(m.fordblks);
#endif
    return f;
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
