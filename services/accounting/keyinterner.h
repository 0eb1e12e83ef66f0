#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QHashFunctions>

#include <vector>

// Interns the keys of an accounting run (ARCHITECTURE.md, Data flows: Delivery accounting): each distinct
// key is stored once in `keys` (the result's key table, id 0 being "none") and found again by its bytes
// without a copy. An open-addressing table of ids, so a million keys cost four bytes a slot beside the
// bytes themselves, and a key already seen costs a hash and a compare.
class KeyInterner final {
public:
    explicit KeyInterner(std::vector<QByteArray> &keys)
        : m_keys(keys)
    {
        rehash(1024);
        for (size_t id = 1; id < m_keys.size(); ++id)
            place(quint32(id));
    }

    // The id of `bytes` in keys, appending it when new.
    quint32 intern(QByteArrayView bytes)
    {
        size_t slot = size_t(qHash(bytes)) & m_mask;
        while (const quint32 id = m_slots[slot]) {
            if (QByteArrayView(m_keys[id]) == bytes)
                return id;
            slot = (slot + 1) & m_mask;
        }
        const quint32 id = quint32(m_keys.size());
        m_keys.emplace_back(bytes.data(), bytes.size());
        m_slots[slot] = id;
        if (++m_used * 2 > m_slots.size()) // at most half full: probes stay short
            grow();
        return id;
    }

private:
    void rehash(size_t size)
    {
        m_slots.assign(size, 0);
        m_mask = size - 1;
        m_used = 0;
    }
    void place(quint32 id)
    {
        size_t slot = size_t(qHash(QByteArrayView(m_keys[id]))) & m_mask;
        while (m_slots[slot])
            slot = (slot + 1) & m_mask;
        m_slots[slot] = id;
        ++m_used;
    }
    void grow()
    {
        rehash(m_slots.size() * 2);
        for (size_t id = 1; id < m_keys.size(); ++id)
            place(quint32(id));
    }

    std::vector<QByteArray> &m_keys;
    std::vector<quint32> m_slots; // 0: empty
    size_t m_mask = 0;
    size_t m_used = 0;
};
