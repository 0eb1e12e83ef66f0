#pragma once

#include <QByteArray>
#include <QByteArrayView>

#include <initializer_list>
#include <vector>

// Byte strings by index, all in one buffer (ARCHITECTURE.md, Data flows: Delivery accounting): the keys of
// an accounting run (`AccountingResult::keys`, id 0 being "none"), of an inbox batch and of a scanned inbox.
// A key costs its bytes and one end offset instead of an allocation of its own (a million keys of ten
// bytes: about 20 MB rather than 70). A view stays valid until the next append.
class KeyTable final {
public:
    KeyTable() = default;
    KeyTable(std::initializer_list<QByteArrayView> keys)
    {
        for (const QByteArrayView key : keys)
            push_back(key);
    }

    size_t size() const { return m_ends.size(); }
    bool empty() const { return m_ends.empty(); }
    QByteArrayView operator[](size_t i) const
    {
        const size_t begin = i ? m_ends[i - 1] : 0;
        return QByteArrayView(m_bytes.data() + begin, qsizetype(m_ends[i] - begin));
    }
    // A copy that outlives the table.
    QByteArray bytes(size_t i) const { return (*this)[i].toByteArray(); }
    size_t byteCount() const { return m_bytes.size(); }

    void push_back(QByteArrayView key)
    {
        m_bytes.insert(m_bytes.end(), key.data(), key.data() + key.size());
        m_ends.push_back(m_bytes.size());
    }
    void reserve(size_t keys, size_t bytes)
    {
        m_ends.reserve(keys);
        m_bytes.reserve(bytes);
    }
    void clear()
    {
        m_ends = {};
        m_bytes = {};
    }

private:
    std::vector<char> m_bytes;
    std::vector<size_t> m_ends; // m_ends[i]: where key i ends in m_bytes (key i starts where i - 1 ends)
};
