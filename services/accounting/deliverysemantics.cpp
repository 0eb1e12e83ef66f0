#include "services/accounting/deliverysemantics.h"

#include <QCoreApplication>
#include <QSet>

using namespace Qt::StringLiterals;

namespace {
class SemanticsText {
    Q_DECLARE_TR_FUNCTIONS(DeliverySemantics)
};
} // namespace

QString deliveryGuaranteeKey(DeliveryGuarantee g)
{
    switch (g) {
    case DeliveryGuarantee::AtMostOnce:
        return u"at-most-once"_s;
    case DeliveryGuarantee::AtLeastOnce:
        return u"at-least-once"_s;
    case DeliveryGuarantee::EffectivelyOnce:
        return u"effectively-once"_s;
    case DeliveryGuarantee::Unknown:
        break;
    }
    return u"unknown"_s;
}

DeliveryGuarantee DeliverySemantics::promised(const ConsumerPolicy &c, QString *because)
{
    QString why;
    DeliveryGuarantee g = DeliveryGuarantee::Unknown;
    const QString timing = c.offsetCommitTiming.toLower();
    const bool idempotent = !c.idempotencyStrategy.isEmpty()
                            && c.idempotencyStrategy.compare(u"none"_s, Qt::CaseInsensitive) != 0;
    if (timing.isEmpty()) {
        why = SemanticsText::tr("offsetCommit.timing is not stated");
    } else if (timing.contains(u"before"_s) || timing.contains(u"auto"_s) || timing.contains(u"on-receive"_s)
               || timing.contains(u"on-poll"_s)) {
        g = DeliveryGuarantee::AtMostOnce;
        why = SemanticsText::tr(
                  "offsetCommit.timing %1: a crash after the commit and before the work loses the message")
                  .arg(c.offsetCommitTiming);
    } else if (!idempotent) {
        g = DeliveryGuarantee::AtLeastOnce;
        why = SemanticsText::tr(
                  "offsetCommit.timing %1 with no idempotency strategy: redeliveries are applied again")
                  .arg(c.offsetCommitTiming);
    } else if (c.externalProviderIdempotency.has_value() && !*c.externalProviderIdempotency) {
        g = DeliveryGuarantee::AtLeastOnce;
        why =
            SemanticsText::tr("offsetCommit.timing %1 and idempotency %2, but the external provider does not "
                              "deduplicate: its side effect can repeat")
                .arg(c.offsetCommitTiming, c.idempotencyStrategy);
    } else {
        g = DeliveryGuarantee::EffectivelyOnce;
        why = SemanticsText::tr("offsetCommit.timing %1 and idempotency %2")
                  .arg(c.offsetCommitTiming, c.idempotencyStrategy);
    }
    if (because)
        *because = why;
    return g;
}

DeliverySemanticsVerdict DeliverySemantics::classify(const ConsumerPolicy &consumer, const TopicPolicy *topic,
                                                     const AccountingResult *evidence)
{
    DeliverySemanticsVerdict v;
    v.consumer = consumer.name;
    v.promised = promised(consumer, &v.promisedBecause);
    if (!evidence || !evidence->error.isEmpty() || evidence->cancelled)
        return v;

    const qint64 lost = evidence->count(AccountClass::Unaccounted);
    // Keys delivered more than once with nothing to absorb the repeat (no inbox: every copy was applied).
    qint64 unabsorbed = 0;
    if (!evidence->inboxChecked) {
        QSet<quint32> seen;
        for (const AccountedRecord &r : evidence->records) {
            if (r.cls != AccountClass::Processed || !r.idempotencyKey)
                continue;
            if (seen.contains(r.idempotencyKey))
                ++unabsorbed;
            else
                seen.insert(r.idempotencyKey);
        }
    }
    for (const AccountedRecord &r : evidence->records) {
        if (r.cls == AccountClass::Unaccounted && v.lostKeys.size() < 5)
            v.lostKeys << (r.idempotencyKey ? evidence->idempotencyKeyText(r.idempotencyKey)
                                            : evidence->recordKeyText(r.recordKey));
    }
    if (lost > 0)
        v.observed = DeliveryGuarantee::AtMostOnce;
    else if (unabsorbed > 0 || !evidence->inboxChecked)
        v.observed = DeliveryGuarantee::AtLeastOnce;
    else
        v.observed = v.promised == DeliveryGuarantee::EffectivelyOnce ? DeliveryGuarantee::EffectivelyOnce
                                                                      : DeliveryGuarantee::AtLeastOnce;

    const QString promise = deliveryGuaranteeKey(v.promised);
    if (lost > 0 && v.promised != DeliveryGuarantee::AtMostOnce)
        v.contradictions << SemanticsText::tr(
                                "the policy says %1; %n record(s) were committed past and never "
                                "processed or dead-lettered (possible loss): %2",
                                nullptr, int(lost))
                                .arg(promise, v.lostKeys.join(u", "_s));
    if (v.promised == DeliveryGuarantee::EffectivelyOnce) {
        if (unabsorbed > 0)
            v.contradictions << SemanticsText::tr(
                "the policy says effectively-once; %n repeated delivery(ies) reached a "
                "consumer with no inbox to absorb them",
                nullptr, int(unabsorbed));
        const qint64 breaks = evidence->sequence.size();
        if (breaks > 0 && topic && topic->ordering.compare(u"per-key"_s, Qt::CaseInsensitive) == 0)
            v.contradictions << SemanticsText::tr(
                "the policy says effectively-once and per-key ordering; %n order "
                "break(s) were seen",
                nullptr, int(breaks));
    }
    return v;
}

void DeliverySemantics::addToEvidence(const DeliverySemanticsVerdict &verdict, ConsumerEvidence *evidence)
{
    if (verdict.observed == DeliveryGuarantee::Unknown)
        return;
    evidence->deliverySemantics =
        SemanticsText::tr("accounting shows %1 (policy: %2)")
            .arg(deliveryGuaranteeKey(verdict.observed), deliveryGuaranteeKey(verdict.promised));
    evidence->semanticsContradictions = verdict.contradictions;
}
