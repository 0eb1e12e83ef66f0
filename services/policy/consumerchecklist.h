#pragma once

#include "services/policy/deliverypolicy.h"

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

// The consumer review checklist (seed 000 §37, seed 002 "Consumer Review Checklist"): each question
// answered from the delivery policy and checked against what Berth sees live. A policy that says one
// thing while the cluster shows another is the most useful finding, so "contradicted" is its own verdict.

// What Berth knows live about one consumer group; all optional (-1 / empty: not known yet).
struct ConsumerEvidence {
    bool groupSeen = false;        // the group has committed offsets the sampler saw
    QString lagStatus;             // OK, WARN, STALL, STOP, REWIND
    qint64 maxTimeLagMs = -1;
    double dlqRatePerMinute = -1;  // arrivals on the policy's DLQ topic
    bool dlqTopicExists = false;   // the policy's DLQ topic is in the cluster's metadata
    qint64 dlqRecords = -1;        // records on the DLQ topic (end - start), -1: unknown
    double duplicatePercent = -1;  // of its topics' arrivals, from the duplicate tail
    qint64 parkedRows = -1;        // in its inbox: parked + failed terminal
    qint64 exhaustedRows = -1;     // in its inbox: failed rows at retry.maxAttempts (InboxBoard::hasExhausted)
    qint64 redeliveredRows = -1;   // in its inbox: attempts > 1
    qint64 lagP95Ms = -1;          // p95 of its time lag over the last 15 min
    qint64 deserializationFailures = -1; // dead letters on its DLQ with a (de)serialization exception, 15 min
    qint64 retriesExhausted = -1;  // dead letters / inbox rows at poison.maxAttemptsBeforePark, 15 min
    // From a delivery accounting of the group (DeliverySemantics::addToEvidence); empty: none ran.
    QString deliverySemantics;             // e.g. "accounting shows at-most-once (policy: effectively-once)"
    QStringList semanticsContradictions;   // where the accounting contradicts the policy, in words
};

struct ChecklistEvidence {
    bool clusterKnown = false;               // at least one sample arrived (else "not seen" means nothing)
    QStringList clusterTopics;
    QHash<QString, ConsumerEvidence> groups; // by consumer group
};

struct ChecklistItem {
    enum class Verdict { Answered, Missing, Contradicted, Caution };
    QString question;
    // From the policy's keys, else its `review:` answer (prefixed "review:"), else "manual — not stated".
    QString answer;
    QString evidence; // what Berth sees, in words; empty when nothing applies
    Verdict verdict = Verdict::Missing;
    QString key; // the question's key, also its key under the policy's `review:` (e.g. crashBeforeAck)
};

struct ConsumerChecklist {
    QString consumer;
    QList<ChecklistItem> items;
    int count(ChecklistItem::Verdict verdict) const;
};

// Every question's key, in checklist order: seed 000 §37, then seed 002's review list.
QStringList checklistQuestionKeys();
QList<ConsumerChecklist> evaluateChecklists(const DeliveryPolicy &policy, const ChecklistEvidence &evidence);
// The whole checklist as a markdown document (a review artefact to attach to a ticket).
QString checklistMarkdown(const QList<ConsumerChecklist> &checklists, const QString &policySource);
QString verdictName(ChecklistItem::Verdict verdict);
