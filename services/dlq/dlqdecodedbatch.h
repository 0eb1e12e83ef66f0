#pragma once

#include "services/dlq/dlqindexentry.h"

#include <QByteArrayView>

#include <array>
#include <vector>

// Dead letters decoded but not interned yet: each record's index entry without its string ids, and the
// strings the ids will stand for, copied out of the consumed records. The scan decodes on the thread
// that reads (librdkafka's records go back to it there, as its allocator prefers) and interns on another
// (DlqEntryInterner), so the two overlap. A batch keeps its memory when cleared: the scan reuses a few.
class DlqDecodedBatch final {
public:
    enum Field { Key, Reason, Exception, Cause, Topic, Consumer, IdempotencyKey, FieldCount };
    struct Text {
        quint32 offset = 0;
        quint32 size = 0;
    };
    struct Record {
        DlqIndexEntry entry; // every field but the string ids
        std::array<Text, FieldCount> text{};
        bool reasonInterned = false; // decodeDlqHeaders' reason: interned (the fast path's are only added)
    };

    void clear()
    {
        m_records.clear();
        m_bytes.clear();
    }
    Record &append()
    {
        m_records.emplace_back();
        return m_records.back();
    }
    Text put(QByteArrayView bytes)
    {
        const Text t{quint32(m_bytes.size()), quint32(bytes.size())};
        m_bytes.insert(m_bytes.end(), bytes.begin(), bytes.end());
        return t;
    }
    QByteArrayView view(Text t) const { return QByteArrayView(m_bytes.data() + t.offset, t.size); }
    const std::vector<Record> &records() const { return m_records; }
    size_t size() const { return m_records.size(); }
    size_t byteCount() const { return m_bytes.size(); }

private:
    std::vector<Record> m_records;
    std::vector<char> m_bytes;
};
