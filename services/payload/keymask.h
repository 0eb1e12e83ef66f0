#pragma once

#include "services/policy/deliverypolicy.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <optional>

// What of a record's keys may be shown where the record itself is not at hand: a request's pinned items,
// its dry run's samples, a runbook, the command line's request JSON (ARCHITECTURE.md, Masking: keys without
// the record). The masking is PayloadMask::apply's, so a key shows here as it shows in the inspector.
class KeyMask final {
public:
    KeyMask() = default; // masks nothing
    explicit KeyMask(const DeliveryPolicy &policy);

    bool isEmpty() const { return m_policy.masking.isEmpty(); }
    const DeliveryPolicy &policy() const { return m_policy; }

    // The rule for a record read from `topic` whose original topic is `originalTopic`
    // (DeliveryPolicy::maskFor). When the original topic is unknown (a stored request item keeps only its
    // DLQ coordinates), the rules of the topics whose dead letters `topic` holds by the policy apply too:
    // those the consumers whose dlq.topic it is consume.
    MaskRule ruleFor(const QString &topic, const QString &originalTopic = {}) const;

    struct Keys {
        std::optional<QByteArray> key; // nullopt: no key
        QString idempotencyKey;        // empty: none
        bool keyMasked = false;
        bool idempotencyKeyMasked = false;
        // The masked values of four characters or more, for scrubbing text built from them elsewhere (the
        // dry run's samples); never to be shown.
        QStringList verbatim;
    };
    // The keys of a record of `topic` (its original topic as in ruleFor) as they may be shown. The record
    // key is "(masked)" when the rule masks it. The idempotency key (the DLQ's idempotency-key header, or
    // what the record's consumer reads it from) is "(masked)" when the rule masks that header, or the
    // record's consumers (those whose dlq.topic is `topic`, or that consume it or the original topic)
    // read their idempotency key from the key, a header or a payload field (at, under or above a path) the
    // rule masks. Each has the other's masked value taken out where it appears verbatim.
    Keys shown(const QString &topic, const QString &originalTopic, const std::optional<QByteArray> &key,
               const QString &idempotencyKey) const;

    // Whether the idempotency keys of the records `consumer` (a policy consumer) consumes are masked, as
    // shown() masks them for some topic it consumes: then so are the message ids of its inbox rows, which
    // nothing may show or search by value (ARCHITECTURE.md, Masking: keys without the record).
    bool masksIdempotencyKeysOf(const QString &consumer) const;
    // Of the consumers whose rows an inbox table holds (the mapping's one consumer, or with an unfiltered
    // consumer column any of the policy's), those whose message ids are masked.
    QStringList idMaskedConsumersOf(const InboxMapping &mapping) const;

private:
    QList<const ConsumerPolicy *> consumersOf(const QString &topic, const QString &originalTopic) const;

    DeliveryPolicy m_policy;
};
