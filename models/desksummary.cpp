#include "desksummary.h"

#include "services/monitor/alertengine.h"
#include "services/monitor/monitorservice.h"

#include <QAbstractItemModel>
#include <QLocale>

using namespace Qt::StringLiterals;

DeskSummary::DeskSummary(QObject *parent)
    : QObject(parent)
{
}

void DeskSummary::follow(const MonitorService *monitor, const AlertEngine *alerts)
{
    connect(monitor, &MonitorService::sampled, this, [this, monitor](const LagSnapshot &snapshot) {
        if (!snapshot.reachable)
            return;
        setLag(snapshot);
        const qint64 now = snapshot.takenAt.toMSecsSinceEpoch();
        QMap<QString, qint64> deadLetters;
        for (const QString &topic : monitor->dlqTopics())
            deadLetters.insert(topic, monitor->rules().dlqArrivals().inWindow(
                                          topic, now, qint64(DeadLetterWindowMinutes) * 60000));
        setDeadLetters(deadLetters, now);
    });
    connect(monitor, &MonitorService::boardReady, this, &DeskSummary::observeBoard);
    connect(alerts, &AlertEngine::changed, this, [this, alerts] { setAlertsFiring(alerts->activeCount()); });
    setAlertsFiring(alerts->activeCount());
}

void DeskSummary::followApprovals(const QAbstractItemModel *queue)
{
    const auto pending = [this, queue] { setPendingApprovals(queue->rowCount()); };
    connect(queue, &QAbstractItemModel::modelReset, this, pending);
    connect(queue, &QAbstractItemModel::rowsInserted, this, pending);
    connect(queue, &QAbstractItemModel::rowsRemoved, this, pending);
}

void DeskSummary::observeBoard(const InboxBoard &board)
{
    if (board.ok())
        setParkedRows(board.mappingName,
                      board.total(InboxState::Parked) + board.total(InboxState::FailedTerminal));
}

void DeskSummary::setParkedFocus(const QString &mapping)
{
    if (m_parkedFocus == mapping)
        return;
    m_parkedFocus = mapping;
    Q_EMIT changed();
}

void DeskSummary::setLag(const LagSnapshot &snapshot)
{
    if (!snapshot.reachable)
        return; // the last good reading stands; the banner says why it is old
    m_lagKnown = true;
    m_groups = int(snapshot.groupRows.size());
    m_groupsBehind = 0;
    m_firstBehind.clear();
    // Any status but OK is behind the SLO or worse (stalled, stopped, rewound): the lag SLO decides OK.
    for (const GroupLag &group : snapshot.groupRows) {
        if (group.status == LagStatus::Ok)
            continue;
        if (m_groupsBehind++ == 0)
            m_firstBehind = group.group;
    }
    Q_EMIT changed();
}

void DeskSummary::setDeadLetters(const QMap<QString, qint64> &inWindow, qint64 nowMs)
{
    if (m_watchedSinceMs < 0)
        m_watchedSinceMs = nowMs;
    m_deadLettersAtMs = nowMs;
    m_deadLetters = inWindow;
    Q_EMIT changed();
}

void DeskSummary::setParkedRows(const QString &mapping, qint64 rows)
{
    if (m_parked.value(mapping, -1) == rows)
        return;
    m_parked.insert(mapping, rows);
    Q_EMIT changed();
}

void DeskSummary::setAlertsFiring(int count)
{
    if (m_alertsFiring == count)
        return;
    m_alertsFiring = count;
    Q_EMIT changed();
}

void DeskSummary::setPendingApprovals(int count)
{
    if (m_pendingApprovals == count)
        return;
    m_pendingApprovals = count;
    Q_EMIT changed();
}

QList<DeskSummary::Item> DeskSummary::items() const
{
    QList<Item> items;
    if (m_lagKnown) {
        if (m_groupsBehind > 0)
            items.append({u"lag"_s, m_firstBehind,
                          tr("%n group(s) behind their lag SLO", nullptr, m_groupsBehind), true});
        else
            items.append(
                {u"lag"_s, {}, tr("all %n group(s) within their lag SLO", nullptr, m_groups), false});
    }
    if (m_deadLettersAtMs >= 0) {
        const qint64 windowMs = qint64(DeadLetterWindowMinutes) * 60000;
        // Arrivals are counted from the DLQ topics' end offsets, so only since Berth first read them.
        const QString since =
            m_deadLettersAtMs - m_watchedSinceMs < windowMs
                ? tr("since %1")
                      .arg(QLocale().toString(QDateTime::fromMSecsSinceEpoch(m_watchedSinceMs).time(),
                                              QLocale::ShortFormat))
                : tr("in the last %n min", nullptr, DeadLetterWindowMinutes);
        for (auto it = m_deadLetters.cbegin(); it != m_deadLetters.cend(); ++it)
            items.append({u"dlq"_s, it.key(),
                          tr("%1: %n dead letter(s) %2", nullptr, int(std::min<qint64>(it.value(), INT_MAX)))
                              .arg(it.key(), since),
                          it.value() > 0});
    }
    if (!m_parked.isEmpty()) {
        // The tab counts the mapping the Parked view lists (as its table does); the strip names it and,
        // when other inboxes have rows too, the sum over all of them.
        const qint64 shown = tabCount(u"parked"_s);
        const qint64 all = parkedInAll();
        const int n = int(std::min<qint64>(shown, INT_MAX));
        QString text = m_parked.contains(m_parkedFocus) && m_parked.size() > 1
                           ? tr("%1: %n parked row(s)", nullptr, n).arg(m_parkedFocus)
                           : tr("%n parked row(s)", nullptr, n);
        if (all != shown)
            text += u' ' + tr("(%1 in all inboxes)").arg(QLocale().toString(all));
        items.append({u"parked"_s, m_parkedFocus, text, all > 0});
    }
    if (m_alertsFiring >= 0)
        items.append(
            {u"alerts"_s, {}, tr("%n alert(s) firing", nullptr, m_alertsFiring), m_alertsFiring > 0});
    return items;
}

qint64 DeskSummary::parkedInAll() const
{
    qint64 sum = 0;
    for (qint64 n : m_parked)
        sum += std::max<qint64>(n, 0);
    return sum;
}

qint64 DeskSummary::tabCount(const QString &view) const
{
    if (view == u"dlq") {
        if (m_deadLettersAtMs < 0)
            return -1;
        qint64 sum = 0;
        for (qint64 n : m_deadLetters)
            sum += n;
        return sum;
    }
    if (view == u"parked") {
        if (m_parked.isEmpty())
            return -1;
        return m_parked.contains(m_parkedFocus) ? std::max<qint64>(m_parked.value(m_parkedFocus), 0) : parkedInAll();
    }
    if (view == u"approvals")
        return m_pendingApprovals;
    if (view == u"alerts")
        return m_alertsFiring;
    return -1;
}
