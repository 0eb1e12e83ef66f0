#include "dlqbrowsermodel.h"

#include "models/displayformat.h"
#include "services/dlq/dlqrecordformat.h"

#include <QColor>
#include <QDateTime>
#include <QLocale>
#include <QTextDocument>

using namespace Qt::StringLiterals;

namespace {
struct QueryResult {
    std::vector<quint32> rows;
    quint32 covered = 0;
    DlqFilter filter;
};
} // namespace

DlqBrowserModel::DlqBrowserModel(QObject *parent)
    : QAbstractTableModel(parent)
{
    // While a sorted view keeps receiving entries they are appended unsorted; re-sort now and then.
    m_resortTimer.setSingleShot(true);
    m_resortTimer.setInterval(2000);
    connect(&m_resortTimer, &QTimer::timeout, this, [this] {
        if (m_resortPending && !m_jobs.isRunning())
            startQuery();
        else if (m_resortPending)
            m_resortTimer.start();
    });
}

DlqBrowserModel::~DlqBrowserModel() = default;

QString DlqBrowserModel::visibleText(QString text)
{
    for (QChar &c : text) {
        const char16_t u = c.unicode();
        if (u < 0x20)
            c = QChar(char16_t(0x2400 + u)); // ␀..␟: a newline or an ESC shows, it does not act
        else if (u == 0x7f)
            c = QChar(char16_t(0x2421));
        else if (u == 0x2028 || u == 0x2029)
            c = u' ';
        else if (DlqRecordFormat::isBidiControl(u))
            c = QChar(QChar::ReplacementCharacter); // no reordering of what follows
    }
    return text;
}

void DlqBrowserModel::beginScan(const DlqScanPlan &plan)
{
    const bool wasRunning = m_jobs.isRunning();
    m_jobs.cancel();
    beginResetModel();
    m_store.clear();
    m_strings = plan.strings;
    m_topic = plan.topic;
    m_scanId = plan.scanId;
    m_text.clear();
    m_rows.clear();
    m_identity = !m_filter.filters() && !m_filter.sorts();
    m_matcher =
        m_filter.filters() && m_strings ? std::make_unique<DlqEntryMatcher>(m_filter, m_strings) : nullptr;
    m_resortPending = false;
    m_inbox.setLookupKeys(plan.lookupKeys);
    resetInboxColumn();
    if (m_inboxLookup)
        m_inboxLookup->clear();
    endResetModel();
    if (wasRunning)
        Q_EMIT filteringChanged(false);
}

void DlqBrowserModel::clear()
{
    beginScan(DlqScanPlan{});
}

DlqExport::Source DlqBrowserModel::exportSource() const
{
    DlqExport::Source source;
    source.entries = m_store.snapshot();
    source.strings = m_strings;
    source.identity = m_identity;
    if (!m_identity)
        source.rows = m_rows;
    source.topic = m_topic;
    return source;
}

void DlqBrowserModel::setInboxLookup(InboxKeyLookup *lookup)
{
    if (m_inboxLookup)
        disconnect(m_inboxLookup, nullptr, this, nullptr);
    m_inboxLookup = lookup;
    m_inboxTimer.setSingleShot(true);
    m_inboxTimer.setInterval(200);
    connect(&m_inboxTimer, &QTimer::timeout, this, &DlqBrowserModel::lookUpNewKeys, Qt::UniqueConnection);
    if (lookup) {
        connect(lookup, &InboxKeyLookup::resolved, this, &DlqBrowserModel::applyInboxAnswer);
        connect(lookup, &InboxKeyLookup::mappingsChanged, this, &DlqBrowserModel::restartInboxColumn);
    }
    resetInboxColumn();
}

void DlqBrowserModel::setDeliveryPolicy(const DeliveryPolicy &policy)
{
    if (policy == m_policy)
        return;
    m_policy = policy;
    restartInboxColumn();
}

void DlqBrowserModel::resetInboxColumn()
{
    const InboxMappingSet set = m_inboxLookup ? m_inboxLookup->mappingSet() : InboxMappingSet{};
    m_inbox.setMappingOf([policy = m_policy, topic = m_topic, set](const QString &consumerHeader) {
        const InboxMapping *m = set.find(policy.consumerOfDeadLetter(topic, consumerHeader));
        return m ? m->name : QString();
    });
}

void DlqBrowserModel::restartInboxColumn()
{
    if (m_inboxLookup)
        m_inboxLookup->clear();
    resetInboxColumn();
    if (m_inboxLookup && m_store.size() > 0)
        m_inboxTimer.start();
    const int rows = rowCount();
    if (rows > 0)
        Q_EMIT dataChanged(index(0, int(DlqColumn::InboxStatus)),
                           index(rows - 1, int(DlqColumn::InboxStatus)));
}

void DlqBrowserModel::lookUpNewKeys()
{
    if (!m_inboxLookup || !m_inboxLookup->isConfigured() || !m_strings)
        return;
    for (const DlqInboxColumn::Request &request : m_inbox.collect(m_store, *m_strings))
        m_inboxLookup->enqueue(m_scanId, request.mapping, request.ids, request.keys);
    const int rows = rowCount();
    if (rows > 0) // "looking up…" where the column was empty
        Q_EMIT dataChanged(index(0, int(DlqColumn::InboxStatus)),
                           index(rows - 1, int(DlqColumn::InboxStatus)));
}

void DlqBrowserModel::applyInboxAnswer(const InboxKeyLookupResult &result)
{
    if (result.tag != m_scanId)
        return; // an answer for a previous scan
    m_inbox.apply(result);
    const int rows = rowCount();
    if (rows > 0)
        Q_EMIT dataChanged(index(0, int(DlqColumn::InboxStatus)),
                           index(rows - 1, int(DlqColumn::InboxStatus)));
}

void DlqBrowserModel::appendBatch(const DlqScanBatch &batch)
{
    if (batch.scanId != m_scanId || batch.entries.isEmpty() || !m_strings)
        return;
    if (m_inboxLookup && !m_inboxTimer.isActive())
        m_inboxTimer.start();
    const quint32 first = m_store.size();
    const quint32 n = quint32(batch.entries.size());
    if (m_identity) {
        beginInsertRows({}, int(first), int(first + n - 1));
        m_store.append(batch.entries, batch.groupIds, batch.entryChunks, batch.groupChunks, batch.inPlace);
        endInsertRows();
        return;
    }
    // Filtered or sorted: matching entries go at the end (a sorted view re-sorts a little later).
    std::vector<quint32> matched;
    for (quint32 i = 0; i < n; ++i) {
        if (!m_matcher || (m_filter.passesFields(first + i) && m_matcher->matches(batch.entries[i], batch.groupIds[i])))
            matched.push_back(first + i);
    }
    if (matched.empty()) {
        m_store.append(batch.entries, batch.groupIds, batch.entryChunks, batch.groupChunks, batch.inPlace);
        return;
    }
    const int row = rowCount();
    beginInsertRows({}, row, row + int(matched.size()) - 1);
    m_store.append(batch.entries, batch.groupIds, batch.entryChunks, batch.groupChunks, batch.inPlace);
    m_rows.insert(m_rows.end(), matched.begin(), matched.end());
    endInsertRows();
    if (m_filter.sorts()) {
        m_resortPending = true;
        if (!m_resortTimer.isActive())
            m_resortTimer.start();
    }
}

void DlqBrowserModel::setFilter(const DlqFilter &filter)
{
    DlqFilter f = filter;
    f.sortColumn = m_filter.sortColumn;
    f.sortOrder = m_filter.sortOrder;
    if (f == m_filter && !m_resortPending)
        return;
    m_filter = f;
    startQuery();
}

void DlqBrowserModel::sort(int column, Qt::SortOrder order)
{
    if (m_filter.sortColumn == column && m_filter.sortOrder == order)
        return;
    m_filter.sortColumn = column;
    m_filter.sortOrder = order;
    startQuery();
}

void DlqBrowserModel::startQuery()
{
    m_resortPending = false;
    if ((!m_filter.filters() && !m_filter.sorts()) || !m_strings) {
        // Scan order, everything: nothing to compute.
        const bool wasRunning = m_jobs.isRunning();
        m_jobs.cancel();
        beginResetModel();
        m_identity = !m_filter.filters() && !m_filter.sorts();
        m_rows.clear();
        m_matcher.reset();
        endResetModel();
        if (wasRunning)
            Q_EMIT filteringChanged(false);
        Q_EMIT filterApplied(rowCount(), 0);
        return;
    }
    const bool wasRunning = m_jobs.isRunning();
    m_jobClock.start();
    m_jobs.start(
        [snapshot = m_store.snapshot(), strings = m_strings, filter = m_filter](const JobControl &control) {
            QueryResult r;
            r.rows =
                DlqRowQuery::run(snapshot, strings, filter, [&control] { return control.isCancelled(); });
            r.covered = snapshot.size();
            r.filter = filter;
            return r;
        },
        [this](QueryResult r) { applyQuery(std::move(r.rows), r.covered, m_jobClock.elapsed()); });
    if (!wasRunning)
        Q_EMIT filteringChanged(true);
}

void DlqBrowserModel::applyQuery(std::vector<quint32> rows, quint32 covered, qint64 elapsedMs)
{
    // Entries that arrived while the job ran: filtered here, appended (a sorted view re-sorts later).
    auto matcher = m_filter.filters() ? std::make_unique<DlqEntryMatcher>(m_filter, m_strings) : nullptr;
    for (quint32 i = covered; i < m_store.size(); ++i) {
        if (!matcher || (m_filter.passesFields(i) && matcher->matches(m_store.at(i), m_store.groupOf(i))))
            rows.push_back(i);
    }
    if (covered < m_store.size() && m_filter.sorts()) {
        m_resortPending = true;
        m_resortTimer.start();
    }
    beginResetModel();
    m_identity = false;
    m_rows = std::move(rows);
    m_matcher = std::move(matcher);
    endResetModel();
    Q_EMIT filteringChanged(false);
    Q_EMIT filterApplied(rowCount(), elapsedMs);
}

int DlqBrowserModel::rowOfEntry(quint32 entryIndex) const
{
    if (m_identity)
        return entryIndex < m_store.size() ? int(entryIndex) : -1;
    const auto it = std::find(m_rows.cbegin(), m_rows.cend(), entryIndex);
    return it == m_rows.cend() ? -1 : int(it - m_rows.cbegin());
}

qint64 DlqBrowserModel::memoryBytes() const
{
    return m_store.memoryBytes() + qint64(m_rows.capacity() * sizeof(quint32))
           + (m_strings ? m_strings->memoryBytes() : 0);
}

int DlqBrowserModel::rowCount(const QModelIndex &parent) const
{
    if (parent.isValid())
        return 0;
    return m_identity ? int(m_store.size()) : int(m_rows.size());
}

int DlqBrowserModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(DlqColumn::Count);
}

DlqEntryFields DlqBrowserModel::fields(int row) const
{
    return m_strings ? DlqEntryFields::from(entry(row), *m_strings) : DlqEntryFields();
}

const DlqBrowserModel::RowText &DlqBrowserModel::rowText(quint32 entryIndex) const
{
    if (const RowText *cached = m_text.object(entryIndex))
        return *cached;
    const DlqEntryFields f = DlqEntryFields::from(m_store.at(entryIndex), *m_strings);
    auto *t = new RowText;
    auto cell = [t](DlqColumn c) -> QString & { return t->cells[size_t(c)]; };
    if (f.timestampMs >= 0)
        cell(DlqColumn::Time) =
            QDateTime::fromMSecsSinceEpoch(f.timestampMs, Qt::UTC).toString(u"yyyy-MM-dd HH:mm:ss.zzz"_s);
    cell(DlqColumn::Position) = QString::number(f.partition) + u" / "_s + QString::number(f.offset);
    if (!f.originalTopic.isEmpty() || f.originalPartition >= 0 || f.originalOffset >= 0) {
        QString &o = cell(DlqColumn::Original);
        o = visibleText(f.originalTopic);
        if (f.originalPartition >= 0)
            o += u" ["_s + QString::number(f.originalPartition) + u']';
        if (f.originalOffset >= 0)
            o += u" @ "_s + QString::number(f.originalOffset);
    }
    cell(DlqColumn::Consumer) = visibleText(f.consumer);
    t->exceptionClass = visibleText(f.exceptionClass);
    t->causeClass = visibleText(f.causeClass);
    cell(DlqColumn::Exception) = visibleText(DisplayFormat::shortClassName(f.exceptionClass));
    cell(DlqColumn::Cause) = visibleText(DisplayFormat::shortClassName(f.causeClass));
    cell(DlqColumn::Reason) = visibleText(f.reason);
    if (f.attempts >= 0)
        cell(DlqColumn::Attempts) = QString::number(f.attempts) + (f.attemptsCapped ? u"+"_s : QString());
    cell(DlqColumn::Key) = f.keyIsNull ? tr("(null)") : visibleText(f.key);
    cell(DlqColumn::Size) = f.valueIsNull ? tr("tombstone") : QLocale().formattedDataSize(f.valueSize);
    cell(DlqColumn::Dialect) = dialectName(f.dialect);
    m_text.insert(entryIndex, t);
    return *t;
}

QVariant DlqBrowserModel::sortValue(const DlqIndexEntry &e, int column) const
{
    switch (DlqColumn(column)) {
    case DlqColumn::Time:
        return e.timestampMs;
    case DlqColumn::Position:
        return e.offset;
    case DlqColumn::Attempts:
        return e.attemptCount();
    case DlqColumn::Size:
        return e.valueSize;
    case DlqColumn::Dialect:
        return int(e.dialect);
    default:
        return {};
    }
}

QVariant DlqBrowserModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const quint32 entryIndex = this->entryIndex(index.row());
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole:
        if (column == int(DlqColumn::InboxStatus))
            return m_inbox.text(m_store.at(entryIndex)); // changes as answers arrive: not cached
        return rowText(entryIndex).cells[size_t(column)];
    case Qt::ForegroundRole:
        if (column == int(DlqColumn::InboxStatus) && m_inbox.isCompleted(m_store.at(entryIndex)))
            return QColor(0x1e, 0x7b, 0x34); // completed: a replay would change nothing
        return {};
    case Qt::ToolTipRole: {
        // Class columns show the simple name; the tooltip names the class in full.
        const QString text = column == int(DlqColumn::InboxStatus) ? m_inbox.toolTip(m_store.at(entryIndex))
                             : column == int(DlqColumn::Exception) ? rowText(entryIndex).exceptionClass
                             : column == int(DlqColumn::Cause)     ? rowText(entryIndex).causeClass
                                                               : rowText(entryIndex).cells[size_t(column)];
        if (text.isEmpty())
            return {};
        // Tooltips guess at rich text: hand them escaped text, so markup in a reason stays text.
        return Qt::convertFromPlainText(text, Qt::WhiteSpaceNormal);
    }
    case Qt::TextAlignmentRole:
        if (column == int(DlqColumn::Attempts) || column == int(DlqColumn::Size))
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case EntryIndexRole:
        return entryIndex;
    case GroupIdRole:
        return m_store.groupOf(entryIndex);
    case SortRole: {
        const QVariant v = sortValue(m_store.at(entryIndex), column);
        return v.isValid() ? v : QVariant(rowText(entryIndex).cells[size_t(column)]);
    }
    default:
        return {};
    }
}

QVariant DlqBrowserModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (DlqColumn(section)) {
    case DlqColumn::Time:
        return tr("Time (UTC)");
    case DlqColumn::Position:
        return tr("Partition / offset");
    case DlqColumn::Original:
        return tr("Original record");
    case DlqColumn::Consumer:
        return tr("Consumer");
    case DlqColumn::Exception:
        return tr("Exception");
    case DlqColumn::Cause:
        return tr("Cause");
    case DlqColumn::Reason:
        return tr("Reason");
    case DlqColumn::Attempts:
        return tr("Attempts");
    case DlqColumn::Key:
        return tr("Key");
    case DlqColumn::Size:
        return tr("Size");
    case DlqColumn::Dialect:
        return tr("Dialect");
    case DlqColumn::InboxStatus:
        return tr("Inbox status");
    case DlqColumn::Count:
        break;
    }
    return {};
}

std::vector<DlqFieldFilterItem> DlqBrowserModel::fieldFilterItems() const
{
    std::vector<DlqFieldFilterItem> items(m_store.size());
    for (quint32 i = 0; i < m_store.size(); ++i) {
        const DlqIndexEntry &e = m_store.at(i);
        items[i] = {i, int(e.partition), qint64(e.offset)};
    }
    return items;
}
