#pragma once

#include <QtGlobal>

#include <cstddef>
#include <cstring>
#include <memory>
#include <type_traits>
#include <utility>

// Memory for the DLQ index's big arrays (string bytes, string slots, look-up tables, entry chunks):
// mapped from the system in one piece with every page populated by that one call.
//
// Why: a scan fills hundreds of megabytes once. Memory from malloc is faulted in a page at a time on
// first write, and on virtual machines a fault costs tens of microseconds, more than filling the page;
// populating a whole mapping in one call costs a fraction of that. Blocks are returned to the system
// when freed, so nothing of a finished scan lingers in malloc's arenas. Small blocks come from calloc.
namespace LargeBuffer {
// Zero-filled, at least 16-byte aligned; throws std::bad_alloc when the system refuses.
void *allocate(size_t bytes);
// The same for a table probed at random (StringPool's look-up table): from HugePage bytes on, in memory
// aligned to one and advised to be backed by huge pages (a kernel that grants them only on request, as
// many are set up, would not otherwise). One TLB entry then covers 2 MB instead of 4 KB: on a 16 MB
// table every probe missed the TLB, and the scan's streaming data keeps the page tables out of the
// caches; huge pages take that cost off the indexing thread (FIGURE dlq_index_cpu_s,
// tests/bench/bench_dlqindex.cpp). Only for tables: blocks filled in order gain nothing, and populating
// every one that way costs more, the kernel assembling huge pages for each.
inline constexpr size_t HugePage = 2 * 1024 * 1024;
void *allocateRandomAccess(size_t bytes);
void release(void *data, size_t bytes); // bytes: as allocated, by either

// `count` elements of a trivially copyable type, zero-filled, shared (DlqEntryStore hands chunks to
// background jobs): the last owner returns the block.
template <typename T> std::shared_ptr<T> makeShared(size_t count)
{
    static_assert(std::is_trivially_copyable_v<T>);
    const size_t bytes = count * sizeof(T);
    return std::shared_ptr<T>(static_cast<T *>(allocate(bytes)), [bytes](T *p) { release(p, bytes); });
}
} // namespace LargeBuffer

// A growable array of a trivially copyable type in LargeBuffer memory; new elements are zero. Growing
// moves the elements (to a block twice as large), so it is for one thread's own bookkeeping, not for
// data other threads read while it grows.
template <typename T> class LargeArray final {
    static_assert(std::is_trivially_copyable_v<T>);

public:
    LargeArray() = default;
    ~LargeArray() { LargeBuffer::release(m_data, m_capacity * sizeof(T)); }
    LargeArray(const LargeArray &) = delete;
    LargeArray &operator=(const LargeArray &) = delete;

    size_t size() const { return m_size; }
    T &operator[](size_t i) { return m_data[i]; }
    const T &operator[](size_t i) const { return m_data[i]; }

    // Grows to at least n elements (never shrinks).
    void growTo(size_t n)
    {
        if (n <= m_size)
            return;
        if (n > m_capacity) {
            size_t capacity = qMax<size_t>(m_capacity * 2, 4096 / sizeof(T));
            while (capacity < n)
                capacity *= 2;
            T *data = static_cast<T *>(LargeBuffer::allocate(capacity * sizeof(T)));
            if (m_size)
                std::memcpy(static_cast<void *>(data), m_data, m_size * sizeof(T));
            LargeBuffer::release(m_data, m_capacity * sizeof(T));
            m_data = data;
            m_capacity = capacity;
        }
        m_size = n; // the block is zero beyond the old size: fresh, and never written there
    }

private:
    T *m_data = nullptr;
    size_t m_size = 0;
    size_t m_capacity = 0;
};
