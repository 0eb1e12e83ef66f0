#pragma once

#include "models/dlqentrystore.h"
#include "models/dlqexport.h"
#include "models/dlqinboxcolumn.h"
#include "models/dlqrowquery.h"
#include "services/dlq/dlqentryfields.h"
#include "services/dlq/dlqscantypes.h"
#include "services/policy/deliverypolicy.h"
#include "services/support/jobtracker.h"

#include <QAbstractTableModel>
#include <QCache>
#include <QElapsedTimer>
#include <QTimer>

#include <array>
#include <vector>

// The DLQ browser's table over a million entries and more. A row is an index into the entry store;
// its text is built in data() and kept in a bounded cache. A batch of entries is one beginInsertRows.
// Filtering and sorting run as a job over a snapshot of the entries (never on the UI thread), and the
// resulting row order is swapped in when it is ready; until then the previous order stays on screen.
class DlqBrowserModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    static constexpr int EntryIndexRole = Qt::UserRole + 1; // quint32 index into the store
    static constexpr int GroupIdRole = Qt::UserRole + 2;
    static constexpr int SortRole = Qt::UserRole + 3; // raw value (numbers, not formatted text)

    explicit DlqBrowserModel(QObject *parent = nullptr);
    ~DlqBrowserModel() override;

    // Scan lifecycle: a plan starts afresh (it carries the scan's strings), batches of that scan append.
    void beginScan(const DlqScanPlan &plan);
    void appendBatch(const DlqScanBatch &batch);
    void clear();

    // Fills the "Inbox status" column: keys of appended entries are looked up in batches (off the UI
    // thread) and the answers shown as they arrive. nullptr or an unconfigured look-up: the column stays
    // empty.
    void setInboxLookup(InboxKeyLookup *lookup);
    // Whose inbox a dead letter is asked about: its consumer header, else the policy consumer whose
    // dlq.topic was scanned (DeliveryPolicy::consumerOfDeadLetter). Asks the current scan again.
    void setDeliveryPolicy(const DeliveryPolicy &policy);
    bool isInboxCompleted(int row) const { return m_inbox.isCompleted(entry(row)); }

    void setFilter(const DlqFilter &filter); // keeps the current sort
    DlqFilter filter() const { return m_filter; }
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;
    bool isFiltering() const { return m_jobs.isRunning(); }
    // The rows as shown (filtered, sorted), for an export on a worker thread.
    DlqExport::Source exportSource() const;

    quint32 entryCount() const { return m_store.size(); } // all entries, filtered or not
    // Every entry's number and coordinates, for a field filter to read their payloads back.
    std::vector<DlqFieldFilterItem> fieldFilterItems() const;
    const DlqIndexEntry &entry(int row) const { return m_store.at(entryIndex(row)); }
    quint32 entryIndex(int row) const { return m_identity ? quint32(row) : m_rows[size_t(row)]; }
    quint32 groupOf(int row) const { return m_store.groupOf(entryIndex(row)); }
    int rowOfEntry(quint32 entryIndex) const; // -1 when filtered out
    DlqEntryFields fields(int row) const;     // what the row's entry says, for the inspector
    std::shared_ptr<const StringPool> strings() const { return m_strings; }
    QString topic() const { return m_topic; }
    quint64 scanId() const { return m_scanId; }
    qint64 memoryBytes() const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // Text of one cell as shown: control characters made visible, so a payload's escape sequences or
    // line breaks never act on the table. Exposed for the command line and tests.
    static QString visibleText(QString text);

Q_SIGNALS:
    void filteringChanged(bool running);
    void filterApplied(int rows, qint64 elapsedMs);

private:
    struct RowText {
        std::array<QString, int(DlqColumn::Count)> cells;
        QString exceptionClass; // in full, for the tooltip (the cell shows the simple name)
        QString causeClass;
    };
    void startQuery();
    void applyQuery(std::vector<quint32> rows, quint32 coveredEntries, qint64 elapsedMs);
    void appendRows(quint32 firstEntry, quint32 count);
    const RowText &rowText(quint32 entryIndex) const;
    QVariant sortValue(const DlqIndexEntry &e, int column) const;

    DlqEntryStore m_store;
    std::shared_ptr<const StringPool> m_strings;
    QString m_topic;
    quint64 m_scanId = 0;

    DlqFilter m_filter;
    bool m_identity = true;                     // no filter, no sort: row == entry index
    std::vector<quint32> m_rows;                // otherwise: the entry index of each row
    std::unique_ptr<DlqEntryMatcher> m_matcher; // filters appended entries while a filter is on
    bool m_resortPending = false;
    QTimer m_resortTimer;
    JobTracker m_jobs{this};
    QElapsedTimer m_jobClock;

    mutable QCache<quint32, RowText> m_text{4000};

    void lookUpNewKeys();
    void applyInboxAnswer(const InboxKeyLookupResult &result);
    void restartInboxColumn(); // the policy or the mappings changed: ask again
    void resetInboxColumn();
    InboxKeyLookup *m_inboxLookup = nullptr;
    DeliveryPolicy m_policy;
    DlqInboxColumn m_inbox;
    QTimer m_inboxTimer; // coalesces batches into one look-up request
};
