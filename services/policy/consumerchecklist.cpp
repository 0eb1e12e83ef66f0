#include "consumerchecklist.h"

#include <QCoreApplication>
#include <algorithm>
#include <climits>
#include <QDateTime>

using namespace Qt::StringLiterals;
using Verdict = ChecklistItem::Verdict;

namespace {
// lupdate takes the context from a class, so every checklist string lands in "ConsumerChecklist".
class ChecklistText {
    Q_DECLARE_TR_FUNCTIONS(ConsumerChecklist)
};

QString yesNo(const std::optional<bool> &value)
{
    return !value ? QString() : *value ? ChecklistText::tr("yes") : ChecklistText::tr("no");
}

QString replayWords(ReplayAllowance allowance, const QString &text)
{
    switch (allowance) {
    case ReplayAllowance::NotStated:
        return {};
    case ReplayAllowance::Allowed:
        return ChecklistText::tr("replay allowed");
    case ReplayAllowance::NotAllowed:
        return ChecklistText::tr("replay not allowed");
    case ReplayAllowance::NotForSideEffects:
        return ChecklistText::tr("replay only where no external side effect repeats");
    case ReplayAllowance::Unrecognised:
        return ChecklistText::tr("unrecognised value \u201c%1\u201d").arg(text);
    }
    return {};
}

class Builder {
    Q_DECLARE_TR_FUNCTIONS(ConsumerChecklist)

public:
    Builder(const DeliveryPolicy &policy, const ConsumerPolicy &consumer, const ChecklistEvidence &evidence)
        : m_consumer(consumer)
        , m_all(evidence)
        , m_live(evidence.groups.value(consumer.name))
    {
        for (const QString &name : consumer.topics) {
            if (const TopicPolicy *t = policy.topic(name))
                m_topics.append(t);
        }
        for (const auto &[key, answer] : consumer.review)
            m_review.insert(key, answer);
    }

    // Seed 000 §37 in its order, then seed 002's review list.
    QList<ChecklistItem> build()
    {
        semantics();
        canDuplicate();
        messageId();
        idempotency();
        reviewOnly("sideEffects", QT_TRANSLATE_NOOP("ConsumerChecklist", "What side effects happen?"));
        sideEffects();
        ackTiming();
        crashBeforeAck();
        crashAfterSideEffect();
        ordering();
        partitionKey();
        poison();
        retry();
        dlq();
        replay();
        schemaFailures();
        reviewOnly("schemaEvolution", QT_TRANSLATE_NOOP("ConsumerChecklist", "How does the schema evolve, and who checks compatibility?"));
        lag();
        reviewOnly("duplicateTests", QT_TRANSLATE_NOOP("ConsumerChecklist", "Are duplicate tests written?"));
        reviewOnly("crashWindowTested", QT_TRANSLATE_NOOP("ConsumerChecklist", "Is crash-window behaviour tested?"));
        reviewOnly("runbook", QT_TRANSLATE_NOOP("ConsumerChecklist", "Is the runbook ready?"));
        idempotencyStorage();
        retentionWindow();
        ackSideEffects();
        reviewOnly("retryTaxonomy", QT_TRANSLATE_NOOP("ConsumerChecklist", "Retry taxonomy: which failures are retryable, terminal, poison, or business outcomes?"));
        replayProof();
        reviewOnly("backpressure", QT_TRANSLATE_NOOP("ConsumerChecklist", "Backpressure: what pauses producers when lag crosses the threshold?"));
        return m_items;
    }

private:
    // The policy's answer when it has one; else its `review:` answer for the key; else a gap.
    void add(const char *key, const char *question, QString answer, const QString &evidence, Verdict verdict)
    {
        if (answer.isEmpty() && m_review.contains(QLatin1StringView(key))) {
            answer = tr("review: %1").arg(m_review.value(QLatin1StringView(key)));
            if (verdict == Verdict::Missing)
                verdict = Verdict::Answered;
        }
        if (answer.isEmpty())
            answer = tr("manual \u2014 not stated");
        m_items.append({tr(question), answer, evidence, verdict, QLatin1StringView(key)});
    }
    void reviewOnly(const char *key, const char *question) { add(key, question, {}, {}, Verdict::Missing); }
    bool reviewed(const char *key) const { return m_review.contains(QLatin1StringView(key)); }
    // The usual rule: answered when the policy says something, missing when it does not.
    static Verdict stated(const QString &answer) { return answer.isEmpty() ? Verdict::Missing : Verdict::Answered; }
    // `idempotency: {strategy: none}` says the consumer is not idempotent: a gap, not an answer.
    bool idempotent() const
    {
        return !m_consumer.idempotencyStrategy.isEmpty()
               && m_consumer.idempotencyStrategy.compare(u"none"_s, Qt::CaseInsensitive) != 0;
    }
    bool strategyNone() const
    {
        return m_consumer.idempotencyStrategy.compare(u"none"_s, Qt::CaseInsensitive) == 0;
    }

    template<typename F>
    QString fromTopics(F field) const
    {
        QStringList parts;
        for (const TopicPolicy *t : m_topics) {
            const QString value = field(*t);
            if (!value.isEmpty())
                parts << t->name + u": " + value;
        }
        return parts.join(u"; "_s);
    }

    QString duplicatesSeen() const
    {
        QStringList seen;
        if (m_live.duplicatePercent >= 0)
            seen << tr("%1 % of arrivals repeat a key").arg(m_live.duplicatePercent, 0, 'f', 1);
        if (m_live.redeliveredRows >= 0)
            seen << tr("%n inbox row(s) delivered more than once", nullptr, int(m_live.redeliveredRows));
        return seen.join(u"; "_s);
    }
    bool anyDuplicateSeen() const { return m_live.duplicatePercent > 0 || m_live.redeliveredRows > 0; }

    void semantics()
    {
        const QString answer = fromTopics([](const TopicPolicy &t) { return t.defaultGuarantee; });
        add("deliverySemantics", QT_TRANSLATE_NOOP("ConsumerChecklist", "What delivery semantics are assumed?"),
            answer, {}, stated(answer));
    }

    void canDuplicate()
    {
        // At-least-once (and "exactly-once", which still redelivers to the consumer) means yes.
        QString answer;
        for (const TopicPolicy *t : m_topics) {
            if (t->defaultGuarantee.isEmpty())
                continue;
            const bool atMostOnce = t->defaultGuarantee.contains(u"most"_s, Qt::CaseInsensitive);
            answer += (answer.isEmpty() ? QString() : u"; "_s)
                      + (atMostOnce ? tr("%1: no (at-most-once: lost instead)").arg(t->name)
                                    : tr("%1: yes, %2 redelivers").arg(t->name, t->defaultGuarantee));
        }
        add("duplicates", QT_TRANSLATE_NOOP("ConsumerChecklist", "Can a message be duplicated?"), answer,
            duplicatesSeen(), stated(answer));
    }

    void messageId()
    {
        // The message id is what duplicates are recognised by; the partition key (the topic's `key`) is a
        // different question and is not an answer here.
        add("messageId", QT_TRANSLATE_NOOP("ConsumerChecklist", "What is the message id (idempotency key)?"),
            m_consumer.idempotencyKeySource, {}, stated(m_consumer.idempotencyKeySource));
    }

    void partitionKey()
    {
        const QString answer = fromTopics([](const TopicPolicy &t) { return t.key; });
        add("partitionKey", QT_TRANSLATE_NOOP("ConsumerChecklist", "What is the partition key?"), answer, {},
            stated(answer));
    }

    void idempotency()
    {
        QString answer;
        Verdict verdict = Verdict::Missing;
        if (strategyNone()) {
            answer = tr("strategy: none \u2014 not idempotent (a gap)");
        } else if (idempotent()) {
            answer = m_consumer.idempotencyStrategy;
            if (!m_consumer.duplicateHandling.isEmpty())
                answer += tr(", duplicates: %1").arg(m_consumer.duplicateHandling);
            verdict = Verdict::Answered;
        }
        // Duplicates are arriving and nothing absorbs them: that is the failure §37 is about.
        if (verdict == Verdict::Missing && anyDuplicateSeen())
            verdict = Verdict::Contradicted;
        add("idempotent", QT_TRANSLATE_NOOP("ConsumerChecklist", "Is the consumer idempotent (and how)?"), answer,
            duplicatesSeen(), verdict);
    }

    void sideEffects()
    {
        const QString answer = yesNo(m_consumer.externalProviderIdempotency);
        add("externalSideEffects", QT_TRANSLATE_NOOP("ConsumerChecklist", "Are external side effects deduplicated?"),
            answer.isEmpty() ? QString() : tr("provider idempotency: %1").arg(answer), {},
            answer.isEmpty() ? Verdict::Missing
                             : *m_consumer.externalProviderIdempotency ? Verdict::Answered : Verdict::Caution);
    }

    void ackTiming()
    {
        // A delivery accounting of the group shows what the timing amounts to, and contradicts it on a loss.
        QString evidence = m_live.deliverySemantics;
        if (!m_live.semanticsContradictions.isEmpty())
            evidence += u"; "_s + m_live.semanticsContradictions.join(u"; "_s);
        add("ackTiming", QT_TRANSLATE_NOOP("ConsumerChecklist", "When is the offset committed?"),
            m_consumer.offsetCommitTiming, evidence,
            m_live.semanticsContradictions.isEmpty() ? stated(m_consumer.offsetCommitTiming) : Verdict::Contradicted);
    }

    void crashBeforeAck()
    {
        // Derived from the policy where it is sound: a commit after the work plus an idempotent consumer
        // means the redelivery is absorbed. The team's own words (review:) come first.
        QString answer;
        Verdict verdict = Verdict::Missing;
        if (!reviewed("crashBeforeAck") && !m_consumer.offsetCommitTiming.isEmpty()) {
            if (idempotent()) {
                answer = tr("redelivered after the restart; %1 makes the repeat a no-op (from idempotency and "
                            "offsetCommit)").arg(m_consumer.idempotencyStrategy);
                verdict = Verdict::Answered;
            } else if (strategyNone()) {
                answer = tr("redelivered after the restart and applied again: the consumer is not idempotent");
                verdict = Verdict::Caution;
            }
        }
        add("crashBeforeAck", QT_TRANSLATE_NOOP("ConsumerChecklist", "What happens if a crash occurs before the ack?"),
            answer, {}, verdict);
    }

    void crashAfterSideEffect()
    {
        QString answer;
        Verdict verdict = Verdict::Missing;
        if (!reviewed("crashAfterSideEffect") && m_consumer.externalProviderIdempotency) {
            answer = *m_consumer.externalProviderIdempotency
                         ? tr("the repeat reaches the provider, which deduplicates it (externalProviderIdempotency)")
                         : tr("the side effect repeats: the provider does not deduplicate");
            verdict = *m_consumer.externalProviderIdempotency ? Verdict::Answered : Verdict::Caution;
        }
        add("crashAfterSideEffect",
            QT_TRANSLATE_NOOP("ConsumerChecklist", "What happens if a crash occurs after the side effect?"), answer,
            {}, verdict);
    }

    void ordering()
    {
        const QString answer = fromTopics([](const TopicPolicy &t) { return t.ordering; });
        add("ordering", QT_TRANSLATE_NOOP("ConsumerChecklist", "Is ordering required?"), answer, {}, stated(answer));
    }

    void retry()
    {
        const QString answer = m_consumer.retryMaxAttempts
                                   ? tr("at most %1 attempts, %2").arg(*m_consumer.retryMaxAttempts)
                                         .arg(m_consumer.retryBackoff.isEmpty() ? tr("backoff not stated") : m_consumer.retryBackoff)
                                   : QString();
        const bool unbounded = m_consumer.retryMaxAttempts && *m_consumer.retryMaxAttempts <= 0;
        add("retryBounded", QT_TRANSLATE_NOOP("ConsumerChecklist", "Is retry bounded?"), answer, {},
            answer.isEmpty() ? Verdict::Missing : unbounded ? Verdict::Contradicted : Verdict::Answered);
    }

    void poison()
    {
        const QString answer = m_consumer.poisonMaxAttemptsBeforePark
                                   ? tr("parked after %1 attempts").arg(*m_consumer.poisonMaxAttemptsBeforePark)
                                   : QString();
        QStringList seen;
        if (m_live.parkedRows >= 0)
            seen << tr("%n parked or terminally failed inbox row(s)", nullptr, int(m_live.parkedRows));
        // Failed rows the consumer still calls retryable but has given up on (InboxMapping::isExhausted).
        if (m_live.exhaustedRows >= 0 && m_consumer.retryMaxAttempts)
            seen << tr("%n failed inbox row(s) at retry.maxAttempts (%1): retries exhausted", nullptr,
                       int(std::min<qint64>(m_live.exhaustedRows, INT_MAX)))
                        .arg(*m_consumer.retryMaxAttempts);
        if (m_live.retriesExhausted >= 0)
            seen << tr("%n exhausted their retries in the last 15 min", nullptr, int(m_live.retriesExhausted));
        add("poison", QT_TRANSLATE_NOOP("ConsumerChecklist", "What happens to a poison message?"), answer,
            seen.join(u"; "_s), stated(answer));
    }

    void dlq()
    {
        QString answer;
        Verdict verdict = Verdict::Missing;
        QStringList seen;
        if (m_consumer.dlqEnabled && !*m_consumer.dlqEnabled) {
            answer = tr("no DLQ");
            verdict = Verdict::Caution;
        } else if (m_consumer.dlqEnabled || !m_consumer.dlqTopic.isEmpty()) {
            const QString alert = m_consumer.dlqCritical.value_or(false)
                                      ? tr("any arrival alerts")
                                      : tr("alert at %1 in %2 min%3")
                                            .arg(m_consumer.dlqAlertCount.value_or(10))
                                            .arg(m_consumer.dlqAlertWindowMinutes.value_or(15))
                                            .arg(m_consumer.dlqAlertCount ? QString() : tr(" (default)"));
            answer = tr("%1, owner %2; %3")
                         .arg(m_consumer.dlqTopic.isEmpty() ? tr("topic not stated") : m_consumer.dlqTopic,
                              m_consumer.dlqOwner.isEmpty() ? tr("not stated") : m_consumer.dlqOwner, alert);
            // A DLQ nobody owns is message loss with extra steps (seed 002): not answered until named.
            verdict = m_consumer.dlqOwner.isEmpty() || m_consumer.dlqTopic.isEmpty() ? Verdict::Missing : Verdict::Answered;
            if (m_all.clusterKnown && !m_consumer.dlqTopic.isEmpty()) {
                if (!m_all.clusterTopics.contains(m_consumer.dlqTopic)) {
                    seen << tr("topic %1 does not exist in the cluster").arg(m_consumer.dlqTopic);
                    verdict = Verdict::Contradicted;
                }
            }
            if (m_live.dlqRatePerMinute >= 0)
                seen << tr("%1 dead letters/min").arg(m_live.dlqRatePerMinute, 0, 'f', 1);
            if (m_live.dlqRecords >= 0)
                seen << tr("%n record(s) waiting", nullptr, int(m_live.dlqRecords));
        }
        m_items.append({tr("Is the DLQ owned?"), answer.isEmpty() ? tr("manual \u2014 not stated") : answer,
                        seen.join(u"; "_s), verdict, u"dlqOwned"_s});
    }

    void replay()
    {
        QString answer = replayWords(m_consumer.replayAllowed, m_consumer.replayAllowedText);
        if (m_consumer.manualReviewRequired && *m_consumer.manualReviewRequired)
            answer += (answer.isEmpty() ? QString() : u", "_s) + tr("manual review required");
        Verdict verdict = stated(answer);
        // The consumer says "replay is fine" while a topic it reads says it is not: the two must agree.
        for (const TopicPolicy *t : m_topics) {
            if (m_consumer.replayAllowed == ReplayAllowance::Allowed
                && (t->replayAllowed == ReplayAllowance::NotAllowed || t->replayAllowed == ReplayAllowance::NotForSideEffects)) {
                verdict = Verdict::Contradicted;
                answer += u' ' + tr("(topic %1 says: %2)").arg(t->name, replayWords(t->replayAllowed, t->replayAllowedText));
            }
        }
        // Replay of a consumer that is not idempotent repeats every effect.
        if (m_consumer.replayAllowed == ReplayAllowance::Allowed && strategyNone()) {
            verdict = Verdict::Contradicted;
            answer += u' ' + tr("(but idempotency strategy: none)");
        }
        if (verdict == Verdict::Answered && m_consumer.replayAllowed != ReplayAllowance::Allowed)
            verdict = Verdict::Caution;
        add("replaySafe", QT_TRANSLATE_NOOP("ConsumerChecklist", "Is replay safe?"), answer, {}, verdict);
    }

    void schemaFailures()
    {
        const QString seen = m_live.deserializationFailures >= 0
                                 ? tr("%n dead letter(s) failed to deserialize in the last 15 min", nullptr,
                                      int(m_live.deserializationFailures))
                                 : QString();
        Verdict verdict = Verdict::Missing;
        // Failures arrive on the DLQ: they are dead-lettered, not lost, though nobody stated how.
        if (m_live.deserializationFailures > 0 && !reviewed("schemaFailures"))
            verdict = m_consumer.dlqTopic.isEmpty() ? Verdict::Contradicted : Verdict::Caution;
        add("schemaFailures",
            QT_TRANSLATE_NOOP("ConsumerChecklist", "Are schema / deserialization failures handled?"), {}, seen,
            verdict);
    }

    void lag()
    {
        const QString answer =
            m_consumer.lagSloMaxLagSeconds
                ? tr("SLO: S = %1 s; pages above %2 s for 2 min").arg(*m_consumer.lagSloMaxLagSeconds)
                      .arg(10 * qint64(*m_consumer.lagSloMaxLagSeconds))
                : QString();
        Verdict verdict = stated(answer);
        QString seen;
        if (m_all.clusterKnown) {
            if (!m_live.groupSeen) {
                seen = tr("the group has no committed offsets in the cluster");
                if (verdict == Verdict::Answered)
                    verdict = Verdict::Caution;
            } else {
                seen = tr("status %1").arg(m_live.lagStatus);
                if (m_live.maxTimeLagMs >= 0)
                    seen += tr(", %1 s behind").arg(double(m_live.maxTimeLagMs) / 1000.0, 0, 'f', 1);
                if (m_live.lagP95Ms >= 0)
                    seen += tr(", p95 over 15 min %1 s").arg(double(m_live.lagP95Ms) / 1000.0, 0, 'f', 1);
                if (m_consumer.lagSloMaxLagSeconds && m_live.maxTimeLagMs > qint64(*m_consumer.lagSloMaxLagSeconds) * 1000)
                    verdict = Verdict::Contradicted; // the SLO is stated and broken right now
            }
        }
        add("lagMonitored", QT_TRANSLATE_NOOP("ConsumerChecklist", "Is lag monitored against an SLO?"), answer, seen,
            verdict);
    }

    void idempotencyStorage()
    {
        // Seed 002: the unique key, the retention window, and what happens when the record is still in flight.
        QString answer;
        if (!reviewed("idempotencyStorage") && idempotent() && !m_consumer.idempotencyKeySource.isEmpty())
            answer = tr("%1 keyed by %2; retention and in-flight behaviour not stated")
                         .arg(m_consumer.idempotencyStrategy, m_consumer.idempotencyKeySource);
        add("idempotencyStorage",
            QT_TRANSLATE_NOOP("ConsumerChecklist",
                              "Idempotency storage: the unique key, its retention, and what happens while a record is still in flight?"),
            answer, {}, answer.isEmpty() ? Verdict::Missing : Verdict::Caution);
    }

    void retentionWindow()
    {
        // The inbox must remember a key at least as long as the topic can redeliver or replay it.
        const QString topics = fromTopics([](const TopicPolicy &t) { return t.retention; });
        const QString inbox = m_review.value(u"inboxRetention"_s);
        QString answer;
        Verdict verdict = Verdict::Missing;
        if (!topics.isEmpty() && !inbox.isEmpty()) {
            answer = tr("topics keep %1; the inbox keeps %2").arg(topics, inbox);
            verdict = Verdict::Answered;
            const qint64 inboxMs = parseDurationMs(inbox);
            for (const TopicPolicy *t : m_topics) {
                if (inboxMs >= 0 && t->retentionMs > inboxMs)
                    verdict = Verdict::Contradicted; // a replay of older records would not be recognised
            }
        } else if (!topics.isEmpty()) {
            answer = tr("topics keep %1; inbox retention not stated (review: inboxRetention)").arg(topics);
        }
        add("inboxRetention",
            QT_TRANSLATE_NOOP("ConsumerChecklist", "Does the inbox keep keys as long as the topic's retention (replay window)?"),
            answer, {}, verdict);
    }

    void ackSideEffects()
    {
        add("ackSideEffects",
            QT_TRANSLATE_NOOP("ConsumerChecklist", "Ack timing: which side effects must complete before the ack?"), {},
            {}, Verdict::Missing);
    }

    void replayProof()
    {
        // Berth is the replay tool: the command, the dry run's no-op rate and the four-eyes approval are its
        // own. What the policy must still say is the no-op rate it expects.
        QString answer;
        Verdict verdict = Verdict::Missing;
        if (!reviewed("replayProof") && m_consumer.replayAllowed != ReplayAllowance::NotStated) {
            answer = tr("berth replay request \u2192 dry run (predicted no-op rate) \u2192 approval by a second "
                        "database role; the expected no-op rate is not stated");
            verdict = Verdict::Caution;
        }
        add("replayProof",
            QT_TRANSLATE_NOOP("ConsumerChecklist", "Replay proof: the command, the expected no-op rate, and who approves it?"),
            answer, {}, verdict);
    }

    const ConsumerPolicy &m_consumer;
    const ChecklistEvidence &m_all;
    const ConsumerEvidence m_live;
    QList<const TopicPolicy *> m_topics;
    QHash<QString, QString> m_review;
    QList<ChecklistItem> m_items;
};

QString markdownCell(QString text)
{
    return text.replace(u'|', u"\\|"_s).replace(u'\n', u' ');
}
} // namespace

int ConsumerChecklist::count(ChecklistItem::Verdict verdict) const
{
    return int(std::count_if(items.cbegin(), items.cend(), [verdict](const ChecklistItem &i) { return i.verdict == verdict; }));
}

QString verdictName(ChecklistItem::Verdict verdict)
{
    switch (verdict) {
    case Verdict::Answered:
        return ChecklistText::tr("answered");
    case Verdict::Missing:
        return ChecklistText::tr("missing");
    case Verdict::Contradicted:
        return ChecklistText::tr("contradicted");
    case Verdict::Caution:
        return ChecklistText::tr("caution");
    }
    return {};
}

QStringList checklistQuestionKeys()
{
    const ConsumerPolicy silent;
    QStringList keys;
    for (const ChecklistItem &item : Builder(DeliveryPolicy{}, silent, ChecklistEvidence{}).build())
        keys << item.key;
    return keys;
}

QList<ConsumerChecklist> evaluateChecklists(const DeliveryPolicy &policy, const ChecklistEvidence &evidence)
{
    QList<ConsumerChecklist> out;
    for (const ConsumerPolicy &consumer : policy.consumers)
        out.append({consumer.name, Builder(policy, consumer, evidence).build()});
    return out;
}

QString checklistMarkdown(const QList<ConsumerChecklist> &checklists, const QString &policySource)
{
    QString md = u"# "_s + ChecklistText::tr("Consumer review checklist") + u"\n\n"_s
                 + ChecklistText::tr("Policy: %1. Evidence as of %2 (UTC).")
                       .arg(policySource, QDateTime::currentDateTimeUtc().toString(u"yyyy-MM-dd HH:mm"_s))
                 + u"\n"_s;
    for (const ConsumerChecklist &c : checklists) {
        md += u"\n## "_s + c.consumer + u"\n\n| "_s + ChecklistText::tr("Question") + u" | "_s
              + ChecklistText::tr("Policy") + u" | "_s + ChecklistText::tr("Evidence") + u" | "_s
              + ChecklistText::tr("Verdict") + u" |\n|---|---|---|---|\n"_s;
        for (const ChecklistItem &item : c.items)
            md += u"| "_s + markdownCell(item.question) + u" | "_s + markdownCell(item.answer) + u" | "_s
                  + markdownCell(item.evidence) + u" | "_s + verdictName(item.verdict) + u" |\n"_s;
    }
    return md;
}
