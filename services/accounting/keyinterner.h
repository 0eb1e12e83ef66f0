#pragma once

#include "services/accounting/keytable.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QHashFunctions>

#include <algorithm>
#include <vector>

// Interns the keys of an accounting run (ARCHITECTURE.md, Data flows: Delivery accounting): each distinct
// key is stored once in `keys` (the result's key table, id 0 being "none") and found again by its bytes
// without a copy. An open-addressing table whose slots hold each key's id and hash: a probe compares the
// key's bytes only when the hashes agree, and growing never reads the keys again, so a key costs one
// random slot access rather than a walk through other keys' bytes (a million keys: eight bytes a slot,
// at most 70 % full, beside the bytes themselves).
class KeyInterner final {
public:
    // `expected`: about how many keys it will hold, so that it need not grow on the way.
    explicit KeyInterner(KeyTable &keys, size_t expected = 0)
        : m_keys(keys)
    {
        size_t size = 1024;
        while (size * 7 < std::max(expected, m_keys.size()) * 10)
            size *= 2;
        rehash(size);
        for (size_t id = 1; id < m_keys.size(); ++id)
            place({quint32(id), hashOf(m_keys[id])});
    }

    // The id of `bytes` in keys, appending it when new.
    quint32 intern(QByteArrayView bytes)
    {
        const quint32 hash = hashOf(bytes);
        size_t slot = hash & m_mask;
        while (const quint32 id = m_slots[slot].id) {
            if (m_slots[slot].hash == hash && m_keys[id] == bytes)
                return id;
            slot = (slot + 1) & m_mask;
        }
        const quint32 id = quint32(m_keys.size());
        m_keys.push_back(bytes);
        m_slots[slot] = {id, hash};
        if (++m_used * 10 > m_slots.size() * 7)
            grow();
        return id;
    }

    // The id of `bytes`, 0 when they were never interned.
    quint32 find(QByteArrayView bytes) const
    {
        const quint32 hash = hashOf(bytes);
        for (size_t slot = hash & m_mask;; slot = (slot + 1) & m_mask) {
            const Slot &s = m_slots[slot];
            if (!s.id)
                return 0;
            if (s.hash == hash && m_keys[s.id] == bytes)
                return s.id;
        }
    }

private:
    struct Slot {
        quint32 id = 0; // 0: empty
        quint32 hash = 0;
    };
    static quint32 hashOf(QByteArrayView bytes)
    {
        const size_t h = qHash(bytes);
        return quint32(h ^ (h >> 32));
    }
    void rehash(size_t size)
    {
        m_slots.assign(size, Slot{});
        m_mask = size - 1;
        m_used = 0;
    }
    void place(Slot s)
    {
        size_t slot = s.hash & m_mask;
        while (m_slots[slot].id)
            slot = (slot + 1) & m_mask;
        m_slots[slot] = s;
        ++m_used;
    }
    void grow()
    {
        std::vector<Slot> old;
        old.swap(m_slots);
        rehash(old.size() * 2);
        for (const Slot &s : old) {
            if (s.id)
                place(s);
        }
    }

    KeyTable &m_keys;
    std::vector<Slot> m_slots;
    size_t m_mask = 0;
    size_t m_used = 0;
};
