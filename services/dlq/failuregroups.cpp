#include "failuregroups.h"

#include "dlqentryfields.h"
#include "reasonpattern.h"

using namespace Qt::StringLiterals;

QString FailureGroup::fingerprint() const
{
    return exceptionClass % u" | "_s % causeClass % u" | "_s % reasonPattern;
}

QString FailureGroups::reasonPattern(QStringView reason)
{
    return QString::fromUtf8(reasonPatternUtf8(reason.toUtf8(), MaxPatternLength));
}

QString FailureGroups::fingerprint(QStringView exceptionClass, QStringView causeClass, QStringView reason)
{
    return exceptionClass.trimmed() % u" | "_s % causeClass.trimmed() % u" | "_s % reasonPattern(reason);
}

FailureGroups::FailureGroups(const StringPool &pool)
    : m_pool(pool)
{
}

quint32 FailureGroups::patternOf(quint32 reasonId)
{
    // Normalised once per distinct reason: many reasons repeat, and normalising is the costly part.
    if (reasonId >= m_patternOfReason.size())
        m_patternOfReason.resize(size_t(m_pool.count()) + 1024, 0);
    quint32 &memo = m_patternOfReason[reasonId];
    if (memo == 0) {
        // Into one reused buffer: reasons mostly carry ids, so this runs for nearly every record.
        reasonPatternUtf8(m_pool.bytes(reasonId), MaxPatternLength, m_patternBuffer);
        auto it = m_patternIds.constFind(m_patternBuffer);
        if (it == m_patternIds.cend()) {
            it = m_patternIds.insert(m_patternBuffer, quint32(m_patterns.size()));
            m_patterns.append(QString::fromUtf8(m_patternBuffer));
        }
        memo = it.value() + 1;
    }
    return memo - 1;
}

quint32 FailureGroups::add(const DlqIndexEntry &entry)
{
    const GroupKey key{entry.exceptionId, entry.causeId, patternOf(entry.reasonId)};
    auto it = m_groupIds.constFind(key);
    if (it == m_groupIds.cend()) {
        FailureGroup g;
        g.id = quint32(m_groups.size());
        g.exceptionClass = m_pool.text(entry.exceptionId);
        g.causeClass = m_pool.text(entry.causeId);
        g.sampleReason = m_pool.text(entry.reasonId);
        g.reasonPattern = m_patterns.at(key.patternId);
        m_groups.append(std::move(g));
        m_groupChanged.push_back(false);
        it = m_groupIds.insert(key, quint32(m_groups.size() - 1));
    }
    const quint32 id = it.value();
    FailureGroup &g = m_groups[id];
    ++g.count;
    if (entry.timestampMs >= 0) {
        if (g.firstSeenMs < 0 || entry.timestampMs < g.firstSeenMs)
            g.firstSeenMs = entry.timestampMs;
        g.lastSeenMs = qMax(g.lastSeenMs, entry.timestampMs);
        g.perMinute[entry.timestampMs / 60000] += 1;
    }
    if (!m_groupChanged[id]) {
        m_groupChanged[id] = true;
        m_changedGroups.append(id);
    }
    countFailure(entry, id);
    return id;
}

void FailureGroups::countFailure(const DlqIndexEntry &entry, quint32 groupId)
{
    int failures = 0;
    bool byKey = true;
    if (entry.idempotencyKeyId != 0) {
        if (entry.idempotencyKeyId >= m_failuresByKey.size())
            m_failuresByKey.resize(size_t(m_pool.count()) + 1024, 0);
        quint8 &n = m_failuresByKey[entry.idempotencyKeyId];
        n = quint8(qMin(255, n + 1));
        failures = n;
    } else if (entry.originalOffset >= 0) {
        byKey = false;
        quint8 &n = m_failuresByOrigin[Origin{m_pool.pair(entry.routeId).first, entry.originalPartition,
                                              entry.originalOffset}];
        n = quint8(qMin(255, n + 1));
        failures = n;
    }
    if (failures < PoisonThreshold)
        return;
    const QString id = byKey ? m_pool.text(entry.idempotencyKeyId)
                             : DlqEntryText::originalTopic(entry, m_pool) % u'/'
                                   % QString::number(entry.originalPartition) % u'@'
                                   % QString::number(entry.originalOffset);
    notePoison(id, byKey, failures, groupId, entry.timestampMs);
}

void FailureGroups::notePoison(const QString &messageId, bool byKey, int failures, quint32 groupId,
                               qint64 seenMs)
{
    auto it = m_poisonIndex.constFind(messageId);
    qsizetype index;
    if (it == m_poisonIndex.cend()) {
        index = m_poison.size();
        m_poison.append(PoisonMessage{messageId, byKey, groupId, failures, seenMs});
        m_poisonIndex.insert(messageId, index);
        FailureGroup &g = m_groups[groupId];
        ++g.poisonMessages;
        if (!m_groupChanged[groupId]) {
            m_groupChanged[groupId] = true;
            m_changedGroups.append(groupId);
        }
    } else {
        index = it.value();
        PoisonMessage &p = m_poison[index];
        p.failures = failures;
        p.groupId = groupId;
        p.lastSeenMs = qMax(p.lastSeenMs, seenMs);
    }
    if (size_t(index) >= m_poisonChanged.size())
        m_poisonChanged.resize(size_t(index) + 1, false);
    if (!m_poisonChanged[size_t(index)]) {
        m_poisonChanged[size_t(index)] = true;
        m_changedPoison.append(index);
    }
}

QList<FailureGroup> FailureGroups::takeChangedGroups()
{
    QList<FailureGroup> out;
    out.reserve(m_changedGroups.size());
    for (const quint32 id : std::as_const(m_changedGroups)) {
        out.append(m_groups[id]);
        m_groupChanged[id] = false;
    }
    m_changedGroups.clear();
    return out;
}

QList<PoisonMessage> FailureGroups::takeChangedPoison()
{
    QList<PoisonMessage> out;
    out.reserve(m_changedPoison.size());
    for (const qsizetype i : std::as_const(m_changedPoison)) {
        out.append(m_poison[i]);
        m_poisonChanged[size_t(i)] = false;
    }
    m_changedPoison.clear();
    return out;
}
