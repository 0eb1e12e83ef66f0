#include "dryrun.h"

#include "services/inbox/inboxkeylookup.h"
#include "services/inbox/inboxsessions.h"
#include "services/payload/keymask.h"
#include "services/remediation/offsetresetplanner.h"
#include "services/remediation/reclaimplanner.h"
#include "services/remediation/topicrangereader.h"

#include <QHash>
#include <QJsonArray>
#include <QSet>

#include <algorithm>
#include <map>

using namespace Qt::StringLiterals;

QString policyVerdictName(PolicyVerdict verdict)
{
    switch (verdict) {
    case PolicyVerdict::Allowed:
        return u"allowed"_s;
    case PolicyVerdict::NeedsTwoPersons:
        return u"needs_two_approvals"_s;
    case PolicyVerdict::Blocked:
        return u"blocked"_s;
    }
    return {};
}

namespace {
const QString UnknownTopic = u"(unknown original topic)"_s;

QJsonArray toArray(const QStringList &list)
{
    return QJsonArray::fromStringList(list);
}

QStringList toList(const QJsonValue &v)
{
    QStringList out;
    for (const QJsonValue &e : v.toArray())
        out << e.toString();
    return out;
}

QString destinationOf(const DryRunInput &input, const PinnedItem &item)
{
    if (!input.destinationTopic.isEmpty())
        return input.destinationTopic;
    return item.originalTopic.isEmpty() ? UnknownTopic : item.originalTopic;
}

void checkOrdering(const DryRunInput &input, DryRunResult &r)
{
    r.orderingMethod =
        u"For each item with a key and an original position, the original partition is read after "
        u"that offset up to its end; a later record with the same key means the consumer has a "
        u"newer state already (or soon), which an older replay may overwrite. Conservative: it "
        u"counts records not yet consumed too."_s;
    if (input.cluster.isEmpty()) {
        r.orderingError = u"no cluster given: ordering not checked"_s;
        return;
    }
    // (topic, partition) -> key -> the item offsets with that key
    QHash<QString, QHash<QByteArray, QList<qint64>>> wanted;
    QHash<QString, QPair<QString, int>> where;
    QHash<QString, qint64> from;
    // What a sample may say of each key: masked as the policy masks the item's (ARCHITECTURE.md, Masking).
    const KeyMask mask(input.policy);
    QHash<QString, QHash<QByteArray, QByteArray>> shownKeys;
    for (const PinnedItem &item : input.items) {
        if (!item.key || item.originalTopic.isEmpty() || item.originalPartition < 0
            || item.originalOffset < 0) {
            ++r.orderingUnknownItems;
            continue;
        }
        const QString id = item.originalTopic + u'\n' + QString::number(item.originalPartition);
        wanted[id][*item.key].append(item.originalOffset);
        const KeyMask::Keys shown =
            mask.shown(item.sourceTopic, item.originalTopic, item.key, item.idempotencyKey);
        if (shown.keyMasked || !shownKeys.value(id).contains(*item.key))
            shownKeys[id].insert(*item.key, shown.key.value_or(QByteArray()));
        where.insert(id, {item.originalTopic, item.originalPartition});
        from.insert(id, from.contains(id) ? std::min(from.value(id), item.originalOffset + 1)
                                          : item.originalOffset + 1);
    }
    if (wanted.isEmpty()) {
        r.orderingChecked = true;
        return;
    }
    QString error;
    std::unique_ptr<TopicRangeReader> reader = TopicRangeReader::create(input.cluster, &error);
    if (!reader) {
        r.orderingError = error;
        return;
    }
    QList<TopicRangeReader::Range> ranges;
    qint64 budget = input.orderingScanBudget;
    QSet<QString> truncated;
    for (auto it = where.cbegin(); it != where.cend(); ++it) {
        qint64 low = 0;
        qint64 high = 0;
        if (!reader->watermarks(it->first, it->second, &low, &high, 10'000, &error)) {
            r.orderingError = error;
            return;
        }
        const qint64 start = std::max(from.value(it.key()), low);
        qint64 end = high;
        if (end - start > budget) {
            end = start + std::max<qint64>(budget, 0);
            truncated.insert(it.key());
        }
        budget -= std::max<qint64>(end - start, 0);
        if (end > start)
            ranges.append({it->first, it->second, start, end});
    }
    // key -> the highest offset it appears at, per partition
    QHash<QString, QHash<QByteArray, qint64>> latest;
    const bool ok = reader->read(
        ranges,
        [&](const rd_kafka_message_t *m) {
            const QString id =
                QString::fromUtf8(rd_kafka_topic_name(m->rkt)) + u'\n' + QString::number(m->partition);
            if (!m->key)
                return true;
            const QByteArray key(static_cast<const char *>(m->key), qsizetype(m->key_len));
            auto &keys = wanted[id];
            if (keys.contains(key))
                latest[id][key] = std::max(latest[id].value(key, -1), qint64(m->offset));
            return true;
        },
        15'000, &error);
    if (!ok) {
        r.orderingError = error;
        return;
    }
    r.orderingChecked = true;
    for (auto p = wanted.cbegin(); p != wanted.cend(); ++p) {
        for (auto k = p->cbegin(); k != p->cend(); ++k) {
            const qint64 last = latest.value(p.key()).value(k.key(), -1);
            for (qint64 offset : k.value()) {
                if (last > offset) {
                    ++r.orderingRiskItems;
                    if (r.orderingRiskSamples.size() < 10)
                        r.orderingRiskSamples
                            << where.value(p.key()).first + u'/'
                                   + QString::number(where.value(p.key()).second) + u'/'
                                   + QString::number(offset) + u" key="_s
                                   + QString::fromUtf8(shownKeys.value(p.key()).value(k.key())).left(64)
                                   + u" (later at "_s + QString::number(last) + u')';
                } else if (truncated.contains(p.key())) {
                    ++r.orderingUnknownItems;
                }
            }
        }
    }
}
} // namespace

namespace DryRun {
void applyPolicy(const DryRunInput &input, DryRunResult &r)
{
    r.verdict = PolicyVerdict::Allowed;
    r.policyReasons.clear();
    const bool replays =
        input.action == RemediationAction::Replay || input.action == RemediationAction::EditReplay;
    auto needTwo = [&](const QString &why) {
        if (r.verdict == PolicyVerdict::Allowed)
            r.verdict = PolicyVerdict::NeedsTwoPersons;
        r.policyReasons << why;
    };
    auto block = [&](const QString &why) {
        r.verdict = PolicyVerdict::Blocked;
        r.policyReasons << why;
    };
    if (replays) {
        for (const QString &topic : std::as_const(r.destinationTopics)) {
            const TopicPolicy *t = input.policy.topic(topic);
            if (!t)
                continue;
            if (t->replayAllowed == ReplayAllowance::NotAllowed)
                block(u"topic "_s + topic + u": replayAllowed is false"_s);
            else if (t->replayAllowed == ReplayAllowance::NotForSideEffects)
                needTwo(u"topic "_s + topic + u": replayAllowed is false-for-side-effect"_s);
        }
    }
    for (const QString &name : std::as_const(r.consumersAffected)) {
        const ConsumerPolicy *c = input.policy.consumer(name);
        if (!c)
            continue;
        if (replays && c->replayAllowed == ReplayAllowance::NotAllowed)
            block(u"consumer "_s + name + u": replay.allowed is false"_s);
        else if (replays && c->replayAllowed == ReplayAllowance::NotForSideEffects)
            needTwo(u"consumer "_s + name
                    + u": replay.allowed is false-for-side-effect (side effects repeat)"_s);
        if (c->manualReviewRequired.value_or(false))
            needTwo(u"consumer "_s + name + u": manualReviewRequired"_s);
    }
    r.requiredApprovals = r.verdict == PolicyVerdict::Allowed ? 1 : 2;
}

namespace {
void predictNoOps(const DryRunInput &input, PgSession *inboxDb, DryRunResult &r)
{
    if (input.inboxMappings.isEmpty()) {
        r.inboxError = u"no inbox mapping: no-op rate not predicted"_s;
        r.notPredicted = r.count;
        return;
    }
    // Keys grouped by the mapping of the consumer each item belongs to.
    QHash<QString, QStringList> keysByMapping;
    QList<QString> mappingOfItem;
    for (const PinnedItem &item : input.items) {
        const QString consumer = input.policy.consumerOfDeadLetter(item.sourceTopic, item.consumerGroup);
        const InboxMapping *mapping = consumer.isEmpty() ? nullptr : input.inboxMappings.find(consumer);
        if (!mapping || item.idempotencyKey.isEmpty()) {
            mappingOfItem << QString();
            ++r.notPredicted;
            continue;
        }
        mappingOfItem << mapping->name;
        QStringList &keys = keysByMapping[mapping->name];
        if (!keys.contains(item.idempotencyKey))
            keys << item.idempotencyKey;
    }
    InboxSessions sessions(input.inboxMappings, inboxDb);
    QHash<QString, InboxKeyStates> states;
    QStringList problems;
    for (auto it = keysByMapping.cbegin(); it != keysByMapping.cend(); ++it) {
        const InboxMapping &mapping = *input.inboxMappings.find(it.key());
        QString error;
        PgSession *session = sessions.sessionFor(mapping, &error);
        if (session)
            states.insert(it.key(), InboxKeyLookup::lookup(*session, {mapping}, it.value(), &error));
        if (!error.isEmpty())
            problems << mapping.name + u": "_s + error;
        if (session)
            r.keysLookedUp += int(it.value().size());
    }
    for (qsizetype i = 0; i < input.items.size(); ++i) {
        const QString &name = mappingOfItem.at(i);
        if (name.isEmpty())
            continue;
        if (!states.contains(name)) {
            ++r.notPredicted;
            continue;
        }
        const InboxMapping &mapping = *input.inboxMappings.find(name);
        const auto found = states.value(name).constFind(input.items.at(i).idempotencyKey);
        if (found == states.value(name).cend() || mapping.retakesFrom(found->state))
            continue;
        const bool releasable =
            input.reclaim ? found->state == InboxState::InProgress
                          : found->state == InboxState::Parked || found->state == InboxState::FailedTerminal;
        if (input.release && releasable && !mapping.releaseTo.isEmpty()) {
            QJsonObject ref = inboxRefFor(mapping.name, input.items.at(i).idempotencyKey,
                                          mapping.consumerColumn.isEmpty() ? QString() : found->consumer);
            ref.insert(u"release"_s, mapping.releaseTo);
            ref.insert(u"pinnedStatus"_s, found->status);
            if (input.reclaim)
                ref.insert(u"idleForMs"_s, input.reclaimIdleMs);
            r.releaseRefs.insert(int(i), ref);
            ++r.releases;
            continue;
        }
        if (input.release && releasable)
            ++r.releaseNotOffered;
        ++r.predictedNoOps;
    }
    r.inboxChecked = !states.isEmpty();
    r.inboxError = problems.join(u"; "_s);
    if (!r.inboxChecked && r.inboxError.isEmpty())
        r.inboxError = u"no item belongs to a consumer with an inbox mapping"_s;
}

} // namespace

DryRunResult evaluate(const DryRunInput &input, PgSession *inboxDb)
{
    DryRunResult r;
    r.count = int(input.items.size());
    QSet<QString> topics;
    QSet<QString> partitions;
    QSet<QByteArray> keys;
    QSet<QString> consumers;
    QStringList idemKeys;
    QSet<QString> idemSeen;
    QHash<QString, int> idemCount;
    // The shared idempotency keys are listed as the policy lets them be shown (ARCHITECTURE.md, Masking).
    const KeyMask mask(input.policy);
    QHash<QString, QString> idemShown;
    for (const PinnedItem &item : input.items) {
        if (!item.idempotencyKey.isEmpty()) {
            ++idemCount[item.idempotencyKey];
            const KeyMask::Keys shown =
                mask.shown(item.sourceTopic, item.originalTopic, item.key, item.idempotencyKey);
            if (shown.idempotencyKeyMasked || !idemShown.contains(item.idempotencyKey))
                idemShown.insert(item.idempotencyKey, shown.idempotencyKey);
        }
        if (input.action == RemediationAction::Replay || input.action == RemediationAction::EditReplay)
            topics.insert(destinationOf(input, item));
        if (!item.sourceTopic.isEmpty())
            partitions.insert(item.sourceTopic + u'/' + QString::number(item.sourcePartition));
        if (item.key)
            keys.insert(*item.key);
        if (!item.consumerGroup.isEmpty())
            consumers.insert(item.consumerGroup);
        if (!item.idempotencyKey.isEmpty() && !idemSeen.contains(item.idempotencyKey)) {
            idemSeen.insert(item.idempotencyKey);
            idemKeys << item.idempotencyKey;
        }
    }
    for (const ConsumerPolicy &c : input.policy.consumers) {
        for (const QString &t : c.topics) {
            if (topics.contains(t))
                consumers.insert(c.name);
        }
    }
    r.destinationTopics = QStringList(topics.cbegin(), topics.cend());
    r.destinationTopics.sort();
    r.sourcePartitions = QStringList(partitions.cbegin(), partitions.cend());
    r.sourcePartitions.sort();
    r.distinctKeys = int(keys.size());
    r.consumersAffected = QStringList(consumers.cbegin(), consumers.cend());
    r.consumersAffected.sort();
    QHash<QString, int> itemsPerConsumer;
    for (const PinnedItem &item : input.items) {
        const QString consumer = input.policy.consumerOfDeadLetter(item.sourceTopic, item.consumerGroup);
        if (!consumer.isEmpty())
            ++itemsPerConsumer[consumer];
    }
    for (auto it = itemsPerConsumer.cbegin(); it != itemsPerConsumer.cend(); ++it) {
        const int best = itemsPerConsumer.value(r.targetConsumer, 0);
        if (it.value() > best || (it.value() == best && it.key() < r.targetConsumer))
            r.targetConsumer = it.key();
    }
    for (const QString &c : std::as_const(r.consumersAffected)) {
        if (c != r.targetConsumer)
            r.alsoReceives << c;
    }
    for (const QString &key : std::as_const(idemKeys)) {
        const int n = idemCount.value(key);
        if (n < 2)
            continue;
        r.sharedIdempotencyItems += n;
        if (r.sharedIdempotencyKeys.size() < 10)
            r.sharedIdempotencyKeys << idemShown.value(key);
    }

    r.release = input.release;
    predictNoOps(input, inboxDb, r);
    r.predictedNoOpRate = r.count > 0 ? double(r.predictedNoOps) / double(r.count) : 0;

    if (input.action == RemediationAction::Replay || input.action == RemediationAction::EditReplay)
        checkOrdering(input, r);
    applyPolicy(input, r);
    return r;
}
} // namespace DryRun

QJsonObject DryRunResult::toJson() const
{
    return QJsonObject{
        {u"count"_s, count},
        {u"destinationTopics"_s, toArray(destinationTopics)},
        {u"sourcePartitions"_s, toArray(sourcePartitions)},
        {u"distinctKeys"_s, distinctKeys},
        {u"consumersAffected"_s, toArray(consumersAffected)},
        {u"targetConsumer"_s, targetConsumer},
        {u"alsoReceives"_s, toArray(alsoReceives)},
        {u"mergedCopies"_s, mergedCopies},
        {u"mergedCopySamples"_s, toArray(mergedCopySamples)},
        {u"sharedIdempotencyItems"_s, sharedIdempotencyItems},
        {u"sharedIdempotencyKeys"_s, toArray(sharedIdempotencyKeys)},
        {u"inboxChecked"_s, inboxChecked},
        {u"keysLookedUp"_s, keysLookedUp},
        {u"predictedNoOps"_s, predictedNoOps},
        {u"notPredicted"_s, notPredicted},
        {u"predictedNoOpRate"_s, predictedNoOpRate},
        {u"inboxError"_s, inboxError},
        {u"release"_s, release},
        {u"releases"_s, releases},
        {u"releaseNotOffered"_s, releaseNotOffered},
        {u"reclaim"_s, reclaim},
        {u"offsetReset"_s, offsetReset},
        {u"orderingChecked"_s, orderingChecked},
        {u"orderingRiskItems"_s, orderingRiskItems},
        {u"orderingRiskSamples"_s, toArray(orderingRiskSamples)},
        {u"orderingUnknownItems"_s, orderingUnknownItems},
        {u"orderingMethod"_s, orderingMethod},
        {u"orderingError"_s, orderingError},
        {u"verdict"_s, policyVerdictName(verdict)},
        {u"requiredApprovals"_s, requiredApprovals},
        {u"policyReasons"_s, toArray(policyReasons)},
    };
}

DryRunResult DryRunResult::fromJson(const QJsonObject &j)
{
    DryRunResult r;
    r.count = j.value(u"count"_s).toInt();
    r.destinationTopics = toList(j.value(u"destinationTopics"_s));
    r.sourcePartitions = toList(j.value(u"sourcePartitions"_s));
    r.distinctKeys = j.value(u"distinctKeys"_s).toInt();
    r.consumersAffected = toList(j.value(u"consumersAffected"_s));
    r.targetConsumer = j.value(u"targetConsumer"_s).toString();
    r.alsoReceives = toList(j.value(u"alsoReceives"_s));
    r.mergedCopies = j.value(u"mergedCopies"_s).toInt();
    r.mergedCopySamples = toList(j.value(u"mergedCopySamples"_s));
    r.sharedIdempotencyItems = j.value(u"sharedIdempotencyItems"_s).toInt();
    r.sharedIdempotencyKeys = toList(j.value(u"sharedIdempotencyKeys"_s));
    r.inboxChecked = j.value(u"inboxChecked"_s).toBool();
    r.keysLookedUp = j.value(u"keysLookedUp"_s).toInt();
    r.predictedNoOps = j.value(u"predictedNoOps"_s).toInt();
    r.notPredicted = j.value(u"notPredicted"_s).toInt();
    r.predictedNoOpRate = j.value(u"predictedNoOpRate"_s).toDouble();
    r.inboxError = j.value(u"inboxError"_s).toString();
    r.release = j.value(u"release"_s).toBool();
    r.releases = j.value(u"releases"_s).toInt();
    r.releaseNotOffered = j.value(u"releaseNotOffered"_s).toInt();
    r.reclaim = j.value(u"reclaim"_s).toObject();
    r.offsetReset = j.value(u"offsetReset"_s).toObject();
    r.orderingChecked = j.value(u"orderingChecked"_s).toBool();
    r.orderingRiskItems = j.value(u"orderingRiskItems"_s).toInt();
    r.orderingRiskSamples = toList(j.value(u"orderingRiskSamples"_s));
    r.orderingUnknownItems = j.value(u"orderingUnknownItems"_s).toInt();
    r.orderingMethod = j.value(u"orderingMethod"_s).toString();
    r.orderingError = j.value(u"orderingError"_s).toString();
    const QString v = j.value(u"verdict"_s).toString();
    r.verdict = v == u"blocked"_s               ? PolicyVerdict::Blocked
                : v == u"needs_two_approvals"_s ? PolicyVerdict::NeedsTwoPersons
                                                : PolicyVerdict::Allowed;
    r.requiredApprovals = j.value(u"requiredApprovals"_s).toInt(1);
    r.policyReasons = toList(j.value(u"policyReasons"_s));
    return r;
}

QString DryRunResult::repeatsText() const
{
    QString s;
    if (mergedCopies > 0)
        s += u"Copies merged: "_s + QString::number(mergedCopies)
             + u" selected record(s) were copies of an original record already in the request (same "
               u"original coordinates and payload SHA-256), filed once: "_s
             + mergedCopySamples.join(u", "_s) + u'\n';
    if (sharedIdempotencyItems > 0)
        s += u"Shared idempotency keys: "_s + QString::number(sharedIdempotencyItems)
             + u" item(s) are different records with an idempotency key another item has ("_s
             + sharedIdempotencyKeys.join(u", "_s)
             + u"); all are sent, the consumer's inbox decides which take effect\n"_s;
    return s;
}

QString DryRunResult::summary() const
{
    const auto listOr = [](const QStringList &list, const QString &none) {
        return list.isEmpty() ? none : list.join(u", "_s);
    };
    if (!offsetReset.isEmpty()) {
        // A reset moves offsets, not items: its plan says it all, then the policy.
        QString s = OffsetResetPlan::fromJson(offsetReset).summary();
        s += u"Policy: "_s + policyVerdictName(verdict) + u", "_s + QString::number(requiredApprovals)
             + u" approval(s) needed"_s;
        if (!policyReasons.isEmpty())
            s += u" — "_s + policyReasons.join(u"; "_s);
        return s + u'\n';
    }
    QString s = u"Blast radius: "_s + QString::number(count) + u" item(s) to "_s
                + listOr(destinationTopics, u"-"_s) + u"; source partitions "_s
                + listOr(sourcePartitions, u"-"_s) + u"; "_s + QString::number(distinctKeys)
                + u" distinct key(s); consumers affected: "_s + listOr(consumersAffected, u"none known"_s)
                + u'\n';
    if (!targetConsumer.isEmpty())
        s += u"For consumer: "_s + targetConsumer + u" (verified after execution)"_s
             + (alsoReceives.isEmpty() ? QString() : u"; also receives: "_s + alsoReceives.join(u", "_s))
             + u'\n';
    s += repeatsText();
    if (inboxChecked)
        s += u"Expected no-op rate: "_s + QString::number(predictedNoOpRate * 100.0, 'f', 1) + u"% ("_s
             + QString::number(predictedNoOps) + u" of "_s + QString::number(count)
             + u" already done in their consumer's inbox"_s
             + (notPredicted > 0 ? u"; "_s + QString::number(notPredicted) + u" not predictable"_s : QString())
             + u")\n"_s;
    else
        s += u"Expected no-op rate: unknown ("_s + inboxError + u")\n"_s;
    if (!reclaim.isEmpty())
        s += ReclaimPlan::fromJson(reclaim).summary() + u"  "_s + QString::number(releases)
             + u" row(s) still in progress at the dry run, pinned for release\n"_s;
    else if (release)
        s += u"Release and replay: "_s + QString::number(releases)
             + u" parked or failed inbox row(s) released right before their records are produced"_s
             + (releaseNotOffered > 0 ? u"; "_s + QString::number(releaseNotOffered)
                                            + u" cannot be released (their mapping has no releaseTo)"_s
                                      : QString())
             + u'\n';
    if (orderingChecked) {
        s += u"Ordering risk: "_s + QString::number(orderingRiskItems)
             + u" item(s) have a later record with the same key"_s;
        if (orderingUnknownItems > 0)
            s += u" ("_s + QString::number(orderingUnknownItems) + u" not checkable)"_s;
        s += u'\n';
    } else {
        s += u"Ordering risk: not checked ("_s + orderingError + u")\n"_s;
    }
    s += u"Policy: "_s + policyVerdictName(verdict) + u", "_s + QString::number(requiredApprovals)
         + u" approval(s) needed"_s;
    if (!policyReasons.isEmpty())
        s += u" — "_s + policyReasons.join(u"; "_s);
    s += u'\n';
    return s;
}
