#pragma once

#include "models/dlqentrystore.h"

#include <QString>

#include <algorithm>
#include <functional>
#include <memory>
#include <vector>

// The DLQ browser's columns (the model's and the sort keys').
enum class DlqColumn {
    Time,
    Position, // DLQ partition / offset
    Original, // original topic [partition] @ offset
    Consumer,
    Exception,
    Cause,
    Reason,
    Attempts,
    Key,
    Size,
    Dialect,
    InboxStatus, // filled in by the inbox look-up (not yet)
    Count
};

struct DlqFilter {
    QString text;           // case-insensitive, in key, reason, exception class and idempotency key
    qint64 groupId = -1;    // failure group, -1: any
    QString exceptionClass; // exact, empty: any
    int sortColumn = -1;    // DlqColumn; -1: scan order
    Qt::SortOrder sortOrder = Qt::AscendingOrder;
    // The entries a field filter passed (DlqScanner::filterFields), ascending; null: no field filter. Entries
    // that arrived after it ran were not read, so they do not pass.
    std::shared_ptr<const std::vector<quint32>> fieldMatches;
    QString fieldFilter; // its text, for the view

    bool filters() const { return !text.isEmpty() || groupId >= 0 || !exceptionClass.isEmpty() || fieldMatches; }
    bool passesFields(quint32 entry) const
    {
        return !fieldMatches || std::binary_search(fieldMatches->begin(), fieldMatches->end(), entry);
    }
    bool sorts() const { return sortColumn >= 0 && sortColumn != int(DlqColumn::InboxStatus); }
    friend bool operator==(const DlqFilter &, const DlqFilter &) = default;
};

// Tells whether entries pass a filter. Remembers the answer per distinct string, so a million entries
// with a few thousand distinct reasons cost a few thousand text searches. Not thread-safe: one per job.
class DlqEntryMatcher final {
public:
    DlqEntryMatcher(const DlqFilter &filter, std::shared_ptr<const StringPool> strings);
    bool matches(const DlqIndexEntry &entry, quint32 groupId);

private:
    bool textMatches(quint32 id);
    DlqFilter m_filter;
    std::shared_ptr<const StringPool> m_strings;
    QByteArray m_asciiNeedle;  // lower case; empty when the needle is not ASCII
    std::vector<qint8> m_memo; // string id -> 1 matches, -1 does not, 0 not looked at
    qint64 m_exceptionId = -1; // the filter's exception class as an id, once found
};

namespace DlqRowQuery {
// Entry indexes of the snapshot that pass the filter, in its sort order (ties in scan order). Returns
// early with whatever it has when `cancelled` says so (the caller drops that result).
std::vector<quint32> run(const DlqEntryStore::Snapshot &snapshot,
                         const std::shared_ptr<const StringPool> &strings, const DlqFilter &filter,
                         const std::function<bool()> &cancelled);
} // namespace DlqRowQuery
