#include "dlqrowquery.h"

#include <algorithm>

namespace {
constexpr quint32 kCancelCheck = 1u << 16;

bool containsAsciiCaseInsensitive(QByteArrayView haystack, QByteArrayView lowerNeedle)
{
    const qsizetype n = lowerNeedle.size();
    if (n == 0)
        return true;
    const char first = lowerNeedle.front();
    for (qsizetype i = 0; i + n <= haystack.size(); ++i) {
        char c = haystack[i];
        if (c >= 'A' && c <= 'Z')
            c = char(c + 32);
        if (c == first && qstrnicmp(haystack.data() + i + 1, n - 1, lowerNeedle.data() + 1, n - 1) == 0)
            return true;
    }
    return false;
}

struct Keyed {
    qint64 a;
    qint64 b;
    qint64 c;
    quint32 entry;
};
} // namespace

DlqEntryMatcher::DlqEntryMatcher(const DlqFilter &filter, std::shared_ptr<const StringPool> strings)
    : m_filter(filter)
    , m_strings(std::move(strings))
{
    const QString needle = m_filter.text.trimmed();
    m_filter.text = needle;
    bool ascii = true;
    for (const QChar c : needle)
        ascii &= c.unicode() < 0x80;
    if (ascii)
        m_asciiNeedle = needle.toLatin1().toLower();
}

bool DlqEntryMatcher::textMatches(quint32 id)
{
    if (id == 0)
        return false;
    if (id >= m_memo.size())
        m_memo.resize(size_t(m_strings->count()) + 1024, 0);
    qint8 &memo = m_memo[id];
    if (memo == 0) {
        const QByteArrayView bytes = m_strings->bytes(id);
        const bool hit = !m_asciiNeedle.isEmpty()
                             ? containsAsciiCaseInsensitive(bytes, m_asciiNeedle)
                             : QString::fromUtf8(bytes).contains(m_filter.text, Qt::CaseInsensitive);
        memo = hit ? 1 : -1;
    }
    return memo > 0;
}

bool DlqEntryMatcher::matches(const DlqIndexEntry &e, quint32 groupId)
{
    if (m_filter.groupId >= 0 && qint64(groupId) != m_filter.groupId)
        return false;
    if (!m_filter.exceptionClass.isEmpty()) {
        if (m_exceptionId < 0) {
            if (m_strings->text(e.exceptionId) != m_filter.exceptionClass)
                return false;
            m_exceptionId = e.exceptionId; // interned: from now on an id comparison
        } else if (qint64(e.exceptionId) != m_exceptionId) {
            return false;
        }
    }
    if (m_filter.text.isEmpty())
        return true;
    return textMatches(e.keyId) || textMatches(e.reasonId) || textMatches(e.exceptionId)
           || textMatches(e.idempotencyKeyId);
}

namespace DlqRowQuery {
std::vector<quint32> run(const DlqEntryStore::Snapshot &snapshot,
                         const std::shared_ptr<const StringPool> &strings, const DlqFilter &filter,
                         const std::function<bool()> &cancelled)
{
    std::vector<quint32> rows;
    const quint32 n = snapshot.size();
    if (filter.filters()) {
        DlqEntryMatcher matcher(filter, strings);
        for (quint32 i = 0; i < n; ++i) {
            if ((i % kCancelCheck) == 0 && cancelled())
                return rows;
            if (filter.passesFields(i) && matcher.matches(snapshot.at(i), snapshot.groupOf(i)))
                rows.push_back(i);
        }
    } else {
        rows.resize(n);
        for (quint32 i = 0; i < n; ++i)
            rows[i] = i;
    }
    if (!filter.sorts() || cancelled())
        return rows;

    const auto column = DlqColumn(filter.sortColumn);
    // String columns sort by the rank of each distinct string, found once: comparing ids is cheap.
    auto stringOf = [&](const DlqIndexEntry &e) -> quint32 {
        switch (column) {
        case DlqColumn::Original:
            return strings->pair(e.routeId).first;
        case DlqColumn::Consumer:
            return strings->pair(e.routeId).second;
        case DlqColumn::Exception:
            return e.exceptionId;
        case DlqColumn::Cause:
            return e.causeId;
        case DlqColumn::Reason:
            return e.reasonId;
        case DlqColumn::Key:
            return e.keyId;
        default:
            return 0;
        }
    };
    const bool byString = column == DlqColumn::Original || column == DlqColumn::Consumer
                          || column == DlqColumn::Exception || column == DlqColumn::Cause
                          || column == DlqColumn::Reason || column == DlqColumn::Key;
    std::vector<quint32> rank;
    if (byString) {
        std::vector<bool> seen(strings->count(), false);
        std::vector<quint32> ids;
        for (const quint32 i : rows) {
            const quint32 id = stringOf(snapshot.at(i));
            if (!seen[id]) {
                seen[id] = true;
                ids.push_back(id);
            }
        }
        std::sort(ids.begin(), ids.end(), [&](quint32 x, quint32 y) {
            const int c = strings->bytes(x).compare(strings->bytes(y), Qt::CaseInsensitive);
            return c != 0 ? c < 0 : strings->bytes(x).compare(strings->bytes(y)) < 0;
        });
        rank.assign(strings->count(), 0);
        for (size_t r = 0; r < ids.size(); ++r)
            rank[ids[r]] = quint32(r);
    }
    if (cancelled())
        return rows;

    std::vector<Keyed> keyed;
    keyed.reserve(rows.size());
    for (const quint32 i : rows) {
        const DlqIndexEntry &e = snapshot.at(i);
        Keyed k{0, 0, 0, i};
        switch (column) {
        case DlqColumn::Time:
            k.a = e.timestampMs;
            break;
        case DlqColumn::Position:
            k.a = e.partition;
            k.b = e.offset;
            break;
        case DlqColumn::Original:
            k.a = rank[stringOf(e)];
            k.b = e.originalPartition;
            k.c = e.originalOffset;
            break;
        case DlqColumn::Attempts:
            k.a = e.attemptCount();
            break;
        case DlqColumn::Size:
            k.a = e.valueSize;
            break;
        case DlqColumn::Dialect:
            k.a = e.dialect;
            break;
        default:
            k.a = byString ? rank[stringOf(e)] : 0;
            break;
        }
        keyed.push_back(k);
    }
    const bool descending = filter.sortOrder == Qt::DescendingOrder;
    std::sort(keyed.begin(), keyed.end(), [descending](const Keyed &x, const Keyed &y) {
        if (x.a != y.a)
            return descending ? x.a > y.a : x.a < y.a;
        if (x.b != y.b)
            return descending ? x.b > y.b : x.b < y.b;
        if (x.c != y.c)
            return descending ? x.c > y.c : x.c < y.c;
        return x.entry < y.entry;
    });
    for (size_t r = 0; r < keyed.size(); ++r)
        rows[r] = keyed[r].entry;
    return rows;
}
} // namespace DlqRowQuery
