#include "alertrules.h"

#include <QCoreApplication>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace {
class AlertRuleText {
    Q_DECLARE_TR_FUNCTIONS(AlertRules)
};

QString partitionSubject(const TopicPartition &tp)
{
    return tp.topic + u'[' + QString::number(tp.partition) + u']';
}

template <typename T> void dropBefore(std::deque<std::pair<qint64, T>> &events, qint64 cutoffMs)
{
    while (!events.empty() && events.front().first < cutoffMs)
        events.pop_front();
}

// The events of the last `windowMs` (older ones dropped), their texts once each, at most three.
QString recentEvidence(std::deque<std::pair<qint64, QString>> &events, qint64 nowMs, qint64 windowMs)
{
    dropBefore(events, nowMs - windowMs + 1);
    QStringList distinct;
    for (const auto &[t, text] : events) {
        if (!distinct.contains(text))
            distinct << text;
    }
    return distinct.mid(0, 3).join(u"; ");
}

QString ownerText(const QString &owner)
{
    return owner.isEmpty() ? AlertRuleText::tr("no owner stated") : owner;
}
} // namespace

// --- policy -------------------------------------------------------------------------------------------

AlertPolicy AlertPolicy::from(const DeliveryPolicy &policy, const QStringList &extraDlqTopics)
{
    AlertPolicy out;
    for (const ConsumerPolicy &c : policy.consumers) {
        Consumer consumer;
        consumer.group = c.name;
        consumer.topics = c.topics;
        if (c.lagSloMaxLagSeconds)
            consumer.sloSeconds = *c.lagSloMaxLagSeconds;
        consumer.maxAttemptsBeforePark = c.poisonMaxAttemptsBeforePark;
        consumer.owner = c.dlqOwner;
        out.consumers.insert(c.name, consumer);
        if (!c.dlqTopic.isEmpty() && !out.dlqTopics.contains(c.dlqTopic)) {
            DlqTopic dlq;
            dlq.topic = c.dlqTopic;
            dlq.consumer = c.name;
            dlq.owner = c.dlqOwner;
            dlq.count = c.dlqAlertCount;
            dlq.windowMinutes = c.dlqAlertWindowMinutes;
            dlq.critical = c.dlqCritical.value_or(false);
            out.dlqTopics.insert(dlq.topic, dlq);
        }
    }
    for (const QString &topic : extraDlqTopics) {
        if (!out.dlqTopics.contains(topic))
            out.dlqTopics.insert(topic, DlqTopic{topic, {}, {}, {}, {}, false});
    }
    return out;
}

qint64 AlertPolicy::sloSeconds(const QString &group) const
{
    const auto it = consumers.constFind(group);
    return it != consumers.cend() && it->sloSeconds ? *it->sloSeconds : defaultSloSeconds;
}

QString AlertPolicy::ownerOfGroup(const QString &group) const
{
    return consumers.value(group).owner;
}

QString AlertPolicy::ownerOfTopic(const QString &topic) const
{
    if (const auto it = dlqTopics.constFind(topic); it != dlqTopics.cend() && !it->owner.isEmpty())
        return it->owner;
    QStringList owners;
    for (const Consumer &c : consumers) {
        if (c.topics.contains(topic) && !c.owner.isEmpty() && !owners.contains(c.owner))
            owners << c.owner;
    }
    owners.sort();
    return owners.join(u", ");
}

int AlertPolicy::maxAttemptsBeforePark(const QString &group) const
{
    const auto it = consumers.constFind(group);
    return it != consumers.cend() && it->maxAttemptsBeforePark ? *it->maxAttemptsBeforePark
                                                               : defaultMaxAttemptsBeforePark;
}

AlertPolicy::DlqTopic AlertPolicy::dlqTopic(const QString &topic) const
{
    return dlqTopics.value(topic, DlqTopic{topic, {}, {}, {}, {}, false});
}

// --- timing -------------------------------------------------------------------------------------------

namespace AlertRules {
QStringList all()
{
    return {lagSlo,           commitStall,     idlePartition,   dlqArrivals,  retriesExhausted,
            deserialization,  duplicateSpike,  stuckInProgress, outboxGrowing, unaccountedRecord,
            orderBreak};
}

void configure(AlertEngine &engine)
{
    engine.setTiming(lagSlo, {120000, 60000, 60 * 60 * 1000, AlertRuleText::tr("rollback the last deploy")});
    engine.setTiming(commitStall, {60000, 60000, 0, {}});
    engine.setTiming(idlePartition, {0, 60000, 0, {}});
    engine.setTiming(dlqArrivals, {0, 60000, 0, {}});
    engine.setTiming(retriesExhausted, {0, 0, 0, {}});
    engine.setTiming(deserialization, {0, 0, 0, {}});
    engine.setTiming(duplicateSpike, {120000, 60000, 0, {}});
    engine.setTiming(stuckInProgress, {0, 60000, 0, {}});
    engine.setTiming(outboxGrowing, {60000, 60000, 0, {}});
    engine.setTiming(unaccountedRecord, {0, 0, 0, {}});
    engine.setTiming(orderBreak, {0, 0, 0, {}});
}
} // namespace AlertRules

// --- lag SLO ------------------------------------------------------------------------------------------

void LagSloRule::observe(AlertEngine &engine, const AlertPolicy &policy, const LagSnapshot &snapshot)
{
    if (!snapshot.reachable)
        return; // no news is not good news, but it is not a breach either
    const qint64 now = snapshot.takenAt.toMSecsSinceEpoch();
    for (const GroupLag &group : snapshot.groupRows) {
        auto &history = m_timeLag[group.group];
        if (group.maxTimeLagMs >= 0)
            history.push_back({now, group.maxTimeLagMs});
        dropBefore(history, now - p95WindowMs + 1); // the last 15 min, the older edge excluded
        const qint64 s = policy.sloSeconds(group.group);
        const qint64 fireMs = 10 * s * 1000;
        const qint64 clearMs = 8 * s * 1000;
        AlertEngine::Observation o = AlertEngine::Observation::Normal;
        if (group.maxTimeLagMs < 0)
            o = AlertEngine::Observation::Hold; // not measurable this time: neither fire nor clear on it
        else if (group.maxTimeLagMs > fireMs)
            o = AlertEngine::Observation::Breach;
        else if (group.maxTimeLagMs >= clearMs)
            o = AlertEngine::Observation::Hold;
        const qint64 p95 = p95Ms(group.group);
        const QString message =
            AlertRuleText::tr("Time lag %1 s is above 10 × the SLO (S = %2 s, page above %3 s); p95 over 15 min "
                              "%4 against S; %5 messages behind.")
                .arg(group.maxTimeLagMs / 1000)
                .arg(s)
                .arg(fireMs / 1000)
                .arg(p95 < 0 ? AlertRuleText::tr("unknown") : AlertRuleText::tr("%1 s").arg(p95 / 1000))
                .arg(group.lag);
        engine.observe({AlertRules::lagSlo, group.group, o, message, policy.ownerOfGroup(group.group), u"charts"_s},
                       now);
    }
}

qint64 LagSloRule::p95Ms(const QString &group) const
{
    const auto it = m_timeLag.constFind(group);
    if (it == m_timeLag.cend() || it->empty())
        return -1;
    std::vector<qint64> values;
    values.reserve(it->size());
    for (const auto &[t, v] : *it)
        values.push_back(v);
    // Nearest rank: the smallest value at or above 95 % of the samples.
    const size_t rank = (values.size() * 95 + 99) / 100;
    std::nth_element(values.begin(), values.begin() + qsizetype(rank - 1), values.end());
    return values[rank - 1];
}

QList<AlertThreshold> LagSloRule::thresholds(const AlertPolicy &policy, const QStringList &groups) const
{
    QList<AlertThreshold> out;
    for (const QString &group : groups) {
        const qint64 s = policy.sloSeconds(group);
        const bool stated = policy.consumers.value(group).sloSeconds.has_value();
        out.append({AlertRules::lagSlo, group,
                    AlertRuleText::tr("S = %1 s: page above %2 s for 2 min, clear below %3 s for 1 min; a second "
                                      "page within 60 min: rollback the last deploy")
                        .arg(s)
                        .arg(10 * s)
                        .arg(8 * s),
                    stated ? u"lagSlo.maxLagSeconds"_s : AlertRuleText::tr("default")});
    }
    return out;
}

// --- commit stall, idle partition ----------------------------------------------------------------------

void CommitStallRule::observe(AlertEngine &engine, const AlertPolicy &policy, const LagSnapshot &snapshot)
{
    if (!snapshot.reachable)
        return;
    const qint64 now = snapshot.takenAt.toMSecsSinceEpoch();
    for (const GroupLag &group : snapshot.groupRows) {
        const bool stalled = group.status == LagStatus::Stop || group.status == LagStatus::Stall;
        engine.observe({AlertRules::commitStall, group.group,
                        stalled ? AlertEngine::Observation::Breach : AlertEngine::Observation::Normal,
                        AlertRuleText::tr("%1: %2 (%3 messages behind).")
                            .arg(lagStatusName(group.status), group.statusReason)
                            .arg(group.lag),
                        policy.ownerOfGroup(group.group), u"lag"_s},
                       now);
    }
}

void IdlePartitionRule::observe(AlertEngine &engine, const AlertPolicy &policy, const LagSnapshot &snapshot)
{
    if (!snapshot.reachable)
        return;
    const qint64 now = snapshot.takenAt.toMSecsSinceEpoch();
    QSet<TopicPartition> idle;
    for (const TopicPartition &tp : snapshot.idlePartitions) {
        if (policy.dlqTopics.contains(tp.topic))
            continue;
        idle.insert(tp);
        engine.observe({AlertRules::idlePartition, partitionSubject(tp), AlertEngine::Observation::Breach,
                        AlertRuleText::tr("No records appended to %1 for a while, though it had traffic before.")
                            .arg(partitionSubject(tp)),
                        policy.ownerOfTopic(tp.topic), u"lag"_s},
                       now);
    }
    for (auto it = snapshot.endOffsets.cbegin(); it != snapshot.endOffsets.cend(); ++it) {
        if (!idle.contains(it.key()))
            engine.observe(AlertRules::idlePartition, partitionSubject(it.key()), AlertEngine::Observation::Normal,
                           {}, now);
    }
}

// --- DLQ arrivals -------------------------------------------------------------------------------------

void DlqArrivalRule::observe(AlertEngine &engine, const AlertPolicy &policy, const LagSnapshot &snapshot)
{
    if (!snapshot.reachable)
        return;
    const qint64 now = snapshot.takenAt.toMSecsSinceEpoch();
    QHash<QString, qint64> arrived;
    QSet<QString> seen;
    for (auto it = snapshot.endOffsets.cbegin(); it != snapshot.endOffsets.cend(); ++it) {
        const TopicPartition &tp = it.key();
        if (!policy.dlqTopics.contains(tp.topic) || it.value() < 0)
            continue;
        seen.insert(tp.topic);
        const QString key = partitionSubject(tp);
        const auto last = m_lastEnd.constFind(key);
        // A partition first seen, or whose end went back (recreated), is a new baseline, not arrivals.
        if (last != m_lastEnd.cend() && it.value() > *last)
            arrived[tp.topic] += it.value() - *last;
        m_lastEnd.insert(key, it.value());
    }
    for (const AlertPolicy::DlqTopic &dlq : policy.dlqTopics) {
        if (!seen.contains(dlq.topic))
            continue; // not in this sample: say nothing rather than "normal"
        const qint64 windowMs = qint64(dlq.windowMinutes.value_or(AlertPolicy::defaultDlqWindowMinutes)) * 60000;
        const int threshold = dlq.critical ? 1 : dlq.count.value_or(AlertPolicy::defaultDlqCount);
        auto &events = m_arrivals[dlq.topic];
        if (const qint64 n = arrived.value(dlq.topic); n > 0) {
            events.push_back({now, n});
            m_total[dlq.topic] += n;
        }
        dropBefore(events, now - windowMs + 1);
        const qint64 count = inWindow(dlq.topic, now, windowMs);
        AlertEngine::Observation o = AlertEngine::Observation::Normal;
        if (count >= threshold)
            o = AlertEngine::Observation::Breach;
        else if (count > 0 && 2 * count >= threshold)
            o = AlertEngine::Observation::Hold;
        const QString message =
            dlq.critical
                ? AlertRuleText::tr("%n dead letter(s) on %1 in the last %2 min; the DLQ is critical: any arrival "
                                    "alerts. Owner: %3.", nullptr, int(count))
                      .arg(dlq.topic)
                      .arg(windowMs / 60000)
                      .arg(ownerText(dlq.owner))
                : AlertRuleText::tr("%n dead letter(s) on %1 in the last %2 min (alert at %3). Owner: %4.", nullptr,
                                    int(count))
                      .arg(dlq.topic)
                      .arg(windowMs / 60000)
                      .arg(threshold)
                      .arg(ownerText(dlq.owner));
        engine.observe({AlertRules::dlqArrivals, dlq.topic, o, message, dlq.owner, u"dlq"_s}, now);
    }
}

qint64 DlqArrivalRule::inWindow(const QString &topic, qint64 nowMs, qint64 windowMs) const
{
    qint64 sum = 0;
    for (const auto &[t, n] : m_arrivals.value(topic)) {
        if (t > nowMs - windowMs)
            sum += n;
    }
    return sum;
}

QList<AlertThreshold> DlqArrivalRule::thresholds(const AlertPolicy &policy, const QStringList &topics) const
{
    QList<AlertThreshold> out;
    for (const QString &topic : topics) {
        const AlertPolicy::DlqTopic dlq = policy.dlqTopic(topic);
        if (dlq.critical) {
            out.append({AlertRules::dlqArrivals, topic, AlertRuleText::tr("any arrival"), u"dlq.critical"_s});
            continue;
        }
        out.append({AlertRules::dlqArrivals, topic,
                    AlertRuleText::tr("%1 within %2 min")
                        .arg(dlq.count.value_or(AlertPolicy::defaultDlqCount))
                        .arg(dlq.windowMinutes.value_or(AlertPolicy::defaultDlqWindowMinutes)),
                    dlq.count || dlq.windowMinutes ? u"dlq.alert"_s : AlertRuleText::tr("default")});
    }
    return out;
}

// --- retries exhausted, deserialization ---------------------------------------------------------------

void RetriesExhaustedRule::observeDeadLetters(AlertEngine &engine, const AlertPolicy &policy,
                                              const DeadLetterArrivals &arrivals, qint64 nowMs)
{
    QSet<QString> groups;
    for (const DeadLetterArrival &a : arrivals) {
        const QString group = !a.consumer.isEmpty() ? a.consumer : policy.dlqTopic(a.topic).consumer;
        if (group.isEmpty() || a.attempts < 0)
            continue;
        const int limit = policy.maxAttemptsBeforePark(group);
        if (a.attempts < limit)
            continue;
        m_events[group].push_back(
            {nowMs, AlertRuleText::tr("a dead letter on %1 after %2 attempts (limit %3)").arg(a.topic).arg(a.attempts).arg(limit)});
        groups.insert(group);
    }
    for (auto it = m_events.cbegin(); it != m_events.cend(); ++it)
        groups.insert(it.key());
    for (const QString &group : std::as_const(groups))
        judge(engine, policy, group, nowMs);
}

qint64 RetriesExhaustedRule::rowsAtOrAbove(const InboxBoard &board, int limit)
{
    static constexpr int lowerBound[InboxBoard::AttemptBuckets] = {1, 2, 3, 4, 6};
    qint64 rows = 0;
    for (int b = 0; b < InboxBoard::AttemptBuckets; ++b) {
        if (lowerBound[b] >= limit)
            rows += board.attemptsHistogram[size_t(b)];
    }
    return rows;
}

void RetriesExhaustedRule::observeInbox(AlertEngine &engine, const AlertPolicy &policy, const QString &mapping,
                                        const InboxBoard &board)
{
    if (!board.ok() || !board.hasAttempts)
        return;
    const qint64 now = board.takenAt.toMSecsSinceEpoch();
    // The board's histogram is table-wide: judge it against each consumer the table holds.
    QStringList groups;
    for (const InboxConsumerCounts &c : board.consumers)
        groups << (c.consumer.isEmpty() ? mapping : c.consumer);
    if (groups.isEmpty())
        groups << mapping;
    int limit = INT_MAX;
    for (const QString &group : std::as_const(groups))
        limit = std::min(limit, policy.maxAttemptsBeforePark(group));
    const qint64 rows = rowsAtOrAbove(board, limit);
    const auto last = m_inboxRows.constFind(mapping);
    if (last != m_inboxRows.cend() && rows > *last) {
        for (const QString &group : std::as_const(groups))
            m_events[group].push_back(
                {now, AlertRuleText::tr("%n more inbox row(s) in %1 reached %2 attempts", nullptr, int(rows - *last))
                          .arg(board.table)
                          .arg(limit)});
    }
    m_inboxRows.insert(mapping, rows);
    for (const QString &group : std::as_const(groups))
        judge(engine, policy, group, now);
}

void RetriesExhaustedRule::judge(AlertEngine &engine, const AlertPolicy &policy, const QString &group, qint64 nowMs)
{
    auto &events = m_events[group];
    const QString evidence = recentEvidence(events, nowMs, windowMs);
    engine.observe({AlertRules::retriesExhausted, group,
                    events.empty() ? AlertEngine::Observation::Normal : AlertEngine::Observation::Breach,
                    AlertRuleText::tr("%n message(s) exhausted their retries in the last 15 min: %1.", nullptr,
                                      int(events.size()))
                        .arg(evidence),
                    policy.ownerOfGroup(group), u"parked"_s},
                   nowMs);
}

bool DeserializationRule::isDeserialization(const QString &exceptionClass)
{
    static const QStringList markers = {u"Deserializ"_s,    u"Serializ"_s,        u"JsonParse"_s,
                                        u"JsonProcessing"_s, u"JsonMapping"_s,    u"MismatchedInput"_s,
                                        u"SchemaException"_s, u"AvroRuntime"_s,   u"AvroTypeException"_s,
                                        u"InvalidProtocolBuffer"_s, u"MessageConversion"_s,
                                        u"connect.errors.DataException"_s};
    for (const QString &marker : markers) {
        if (exceptionClass.contains(marker, Qt::CaseInsensitive))
            return true;
    }
    return false;
}

void DeserializationRule::observe(AlertEngine &engine, const AlertPolicy &policy, const DeadLetterArrivals &arrivals,
                                  qint64 nowMs)
{
    QSet<QString> topics;
    for (const DeadLetterArrival &a : arrivals) {
        const QString cls = isDeserialization(a.exceptionClass) ? a.exceptionClass
                            : isDeserialization(a.causeClass)   ? a.causeClass
                                                                : QString();
        if (!cls.isEmpty())
            m_events[a.topic].push_back({nowMs, cls});
        topics.insert(a.topic);
    }
    for (auto it = m_events.cbegin(); it != m_events.cend(); ++it)
        topics.insert(it.key());
    for (const QString &topic : std::as_const(topics)) {
        auto &events = m_events[topic];
        const QString classes = recentEvidence(events, nowMs, windowMs);
        engine.observe({AlertRules::deserialization, topic,
                        events.empty() ? AlertEngine::Observation::Normal : AlertEngine::Observation::Breach,
                        AlertRuleText::tr("%n dead letter(s) on %1 failed to deserialize in the last 15 min (%2).",
                                          nullptr, int(events.size()))
                            .arg(topic, classes),
                        policy.dlqTopic(topic).owner, u"dlq"_s},
                       nowMs);
    }
}

// --- duplicates, inbox ----------------------------------------------------------------------------------

void DuplicateSpikeRule::observe(AlertEngine &engine, const AlertPolicy &policy, const DuplicateStats &stats,
                                 qint64 nowMs)
{
    if (!stats.error.isEmpty())
        return;
    for (auto it = stats.topics.cbegin(); it != stats.topics.cend(); ++it) {
        const double percent = it->duplicatePercent;
        const AlertEngine::Observation o = percent > firePercent    ? AlertEngine::Observation::Breach
                                           : percent >= clearPercent ? AlertEngine::Observation::Hold
                                                                     : AlertEngine::Observation::Normal;
        engine.observe({AlertRules::duplicateSpike, it.key(), o,
                        AlertRuleText::tr("%1 % of the records arriving on %2 repeat an idempotency key (%3 in the "
                                          "last minute; alert above %4 %).")
                            .arg(percent, 0, 'f', 1)
                            .arg(it.key())
                            .arg(it->duplicateRatePerMinute, 0, 'f', 0)
                            .arg(firePercent, 0, 'f', 0),
                        policy.ownerOfTopic(it.key()), u"charts"_s},
                       nowMs);
    }
}

void StuckInProgressRule::observe(AlertEngine &engine, const AlertPolicy &policy, const QString &mapping,
                                  const InboxBoard &board)
{
    if (!board.ok())
        return;
    engine.observe({AlertRules::stuckInProgress, mapping,
                    board.hasStuck ? AlertEngine::Observation::Breach : AlertEngine::Observation::Normal,
                    AlertRuleText::tr("%n row(s) in progress for longer than %1 s (the mapping's stuck after); oldest "
                                      "%2 (%3) for %4 s.",
                                      nullptr, int(board.stuckCount))
                        .arg(board.stuckAfterSeconds)
                        .arg(board.oldestStuck.messageId, board.oldestStuck.consumer)
                        .arg(qint64(board.oldestStuck.ageSeconds)),
                    policy.ownerOfGroup(board.oldestStuck.consumer), u"inbox"_s},
                   board.takenAt.toMSecsSinceEpoch());
}

void AccountingRule::observe(AlertEngine &engine, const AlertPolicy &policy, const AccountingResult &result,
                             qint64 nowMs)
{
    if (!result.error.isEmpty() || result.cancelled)
        return;
    const QString subject = subjectOf(result);
    const QString owner = policy.ownerOfGroup(result.group);
    // The keys as the result shows them: "(masked)" where the topic's rule masks them (ARCHITECTURE.md,
    // Masking), so an alert's message (the desk, `berth watch`) never quotes a masked key.
    const auto examples = [&](const auto &textOf, const auto &take) {
        QStringList keys;
        for (const auto &item : take) {
            const QString key = textOf(item);
            if (key.isEmpty() || keys.contains(key))
                continue;
            keys << key;
            if (keys.size() == exampleKeys)
                break;
        }
        return keys.join(u", "_s);
    };

    const qint64 unaccounted = result.count(AccountClass::Unaccounted);
    std::vector<AccountedRecord> lost;
    for (const AccountedRecord &r : result.records) {
        if (r.cls == AccountClass::Unaccounted && lost.size() < 64)
            lost.push_back(r);
    }
    engine.observe({AlertRules::unaccountedRecord, subject,
                    unaccounted ? AlertEngine::Observation::Breach : AlertEngine::Observation::Normal,
                    AlertRuleText::tr("%n record(s) committed past with no inbox row and no dead letter (possible "
                                      "loss); keys: %1.",
                                      nullptr, int(unaccounted))
                        .arg(examples([&result](const AccountedRecord &r) {
                                 return r.idempotencyKey ? result.idempotencyKeyText(r.idempotencyKey)
                                                         : result.recordKeyText(r.recordKey);
                             }, lost)),
                    owner, u"accounting"_s},
                   nowMs);

    const qint64 breaks = result.sequence.size();
    engine.observe({AlertRules::orderBreak, subject,
                    breaks ? AlertEngine::Observation::Breach : AlertEngine::Observation::Normal,
                    AlertRuleText::tr("%n order break(s): %1 gap(s), %2 out of order, %3 repeated, %4 "
                                      "dead-lettered while later records of the key went through; keys: %5.",
                                      nullptr, int(breaks))
                        .arg(result.sequenceCount(SequenceFinding::Kind::Gap))
                        .arg(result.sequenceCount(SequenceFinding::Kind::OutOfOrder))
                        .arg(result.sequenceCount(SequenceFinding::Kind::Repeat))
                        .arg(result.sequenceCount(SequenceFinding::Kind::DlqAndContinue))
                        .arg(examples([&result](const SequenceFinding &f) { return result.recordKeyText(f.key); },
                                      result.sequence)),
                    owner, u"accounting"_s},
                   nowMs);
}

void AccountingRule::observeTail(AlertEngine &engine, const AlertPolicy &policy, const OrderTailStats &stats,
                                 qint64 nowMs)
{
    if (!stats.error.isEmpty())
        return;
    using Kind = SequenceFinding::Kind;
    for (auto it = stats.topics.cbegin(); it != stats.topics.cend(); ++it) {
        QStringList keys;
        for (const Kind kind : {Kind::Gap, Kind::OutOfOrder, Kind::Repeat}) {
            for (const QString &key : it->examples[size_t(kind)]) {
                if (!keys.contains(key) && keys.size() < exampleKeys)
                    keys << key;
            }
        }
        engine.observe({AlertRules::orderBreak, it.key(),
                        it->recentBreaks ? AlertEngine::Observation::Breach : AlertEngine::Observation::Normal,
                        AlertRuleText::tr("%n order break(s) arriving on %1 in the last %2 min (live tail): %3 "
                                          "gap(s), %4 out of order, %5 repeated since the tail began; keys: %6.",
                                          nullptr, int(it->recentBreaks))
                            .arg(it.key())
                            .arg(stats.windowSeconds / 60)
                            .arg(it->count(Kind::Gap))
                            .arg(it->count(Kind::OutOfOrder))
                            .arg(it->count(Kind::Repeat))
                            .arg(keys.join(u", "_s)),
                        policy.ownerOfTopic(it.key()), u"accounting"_s},
                       nowMs);
    }
}

void OutboxGrowingRule::observe(AlertEngine &engine, const AlertPolicy &policy, const QString &mapping,
                                const InboxBoard &board)
{
    if (!board.ok() || !board.hasOutbox || !board.outboxError.isEmpty())
        return;
    const qint64 pending = board.outbox.pending;
    const auto last = m_lastPending.constFind(mapping);
    const bool known = last != m_lastPending.cend();
    const bool growing = known && pending > *last;
    m_lastPending.insert(mapping, pending);
    if (!known)
        return; // growth needs two readings
    QString owner;
    if (board.consumers.size() == 1)
        owner = policy.ownerOfGroup(board.consumers.first().consumer);
    engine.observe({AlertRules::outboxGrowing, mapping,
                    growing         ? AlertEngine::Observation::Breach
                    : pending > 0   ? AlertEngine::Observation::Hold
                                    : AlertEngine::Observation::Normal,
                    AlertRuleText::tr("Outbox %1 backlog growing: %2 pending, oldest %3 s.")
                        .arg(board.outboxTable)
                        .arg(pending)
                        .arg(qint64(board.outbox.oldestPendingAgeSeconds)),
                    owner, u"inbox"_s},
                   board.takenAt.toMSecsSinceEpoch());
}

// --- the set ------------------------------------------------------------------------------------------

AlertRuleSet::AlertRuleSet(AlertEngine &engine)
    : m_engine(engine)
{
    AlertRules::configure(engine);
}

void AlertRuleSet::observeLag(const LagSnapshot &snapshot)
{
    m_lagSlo.observe(m_engine, m_policy, snapshot);
    m_stall.observe(m_engine, m_policy, snapshot);
    m_idle.observe(m_engine, m_policy, snapshot);
    m_dlq.observe(m_engine, m_policy, snapshot);
}

void AlertRuleSet::observeInbox(const QString &mapping, const InboxBoard &board)
{
    m_stuck.observe(m_engine, m_policy, mapping, board);
    m_outbox.observe(m_engine, m_policy, mapping, board);
    m_retries.observeInbox(m_engine, m_policy, mapping, board);
}

void AlertRuleSet::observeDuplicates(const DuplicateStats &stats, qint64 nowMs)
{
    m_duplicates.observe(m_engine, m_policy, stats, nowMs);
}

void AlertRuleSet::observeAccounting(const AccountingResult &result, qint64 nowMs)
{
    m_accounting.observe(m_engine, m_policy, result, nowMs);
}

void AlertRuleSet::observeOrderTail(const OrderTailStats &stats, qint64 nowMs)
{
    m_accounting.observeTail(m_engine, m_policy, stats, nowMs);
}

void AlertRuleSet::observeDeadLetters(const DeadLetterArrivals &arrivals, qint64 nowMs)
{
    m_retries.observeDeadLetters(m_engine, m_policy, arrivals, nowMs);
    m_deserialization.observe(m_engine, m_policy, arrivals, nowMs);
}

QList<AlertThreshold> AlertRuleSet::thresholds(const QStringList &groups, const QStringList &dlqTopics) const
{
    QList<AlertThreshold> out = m_lagSlo.thresholds(m_policy, groups);
    out += m_dlq.thresholds(m_policy, dlqTopics);
    for (const QString &group : groups) {
        const bool stated = m_policy.consumers.value(group).maxAttemptsBeforePark.has_value();
        out.append({AlertRules::retriesExhausted, group,
                    AlertRuleText::tr("a dead letter or inbox row at %1 attempts").arg(m_policy.maxAttemptsBeforePark(group)),
                    stated ? u"poison.maxAttemptsBeforePark"_s : AlertRuleText::tr("default")});
    }
    const QString fixed = AlertRuleText::tr("default");
    out.append({AlertRules::deserialization, {}, AlertRuleText::tr("any dead letter whose exception class is a (de)serialization or schema error, within 15 min"), fixed});
    out.append({AlertRules::duplicateSpike, {}, AlertRuleText::tr("above %1 % of a minute's records for 2 min; clear below %2 %").arg(DuplicateSpikeRule::firePercent).arg(DuplicateSpikeRule::clearPercent), fixed});
    out.append({AlertRules::stuckInProgress, {}, AlertRuleText::tr("any row in progress longer than the mapping's stuck after"), u"stuckAfterSeconds"_s});
    out.append({AlertRules::outboxGrowing, {}, AlertRuleText::tr("pending rows growing between readings for 1 min"), fixed});
    out.append({AlertRules::commitStall, {}, AlertRuleText::tr("status STOP or STALL with lag for 1 min"), fixed});
    out.append({AlertRules::unaccountedRecord, {}, AlertRuleText::tr("any unaccounted record in a delivery accounting; clears when the next finds none"), fixed});
    out.append({AlertRules::orderBreak, {}, AlertRuleText::tr("any gap, out-of-order, repeated number or DLQ-and-continue break in a delivery accounting, or arriving on a topic the live order tail follows (within 15 min)"), fixed});
    out.append({AlertRules::idlePartition, {}, AlertRuleText::tr("a consumed partition with traffic before and none for the sampler's idle window"), fixed});
    return out;
}
