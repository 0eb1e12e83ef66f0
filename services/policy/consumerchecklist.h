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
    qint64 redeliveredRows = -1;   // in its inbox: attempts > 1
};

struct ChecklistEvidence {
    bool clusterKnown = false;               // at least one sample arrived (else "not seen" means nothing)
    QStringList clusterTopics;
    QHash<QString, ConsumerEvidence> groups; // by consumer group
};

struct ChecklistItem {
    enum class Verdict { Answered, Missing, Contradicted, Caution };
    QString question;
    QString answer;   // from the policy, in words; empty when the policy is silent
    QString evidence; // what Berth sees, in words; empty when nothing applies
    Verdict verdict = Verdict::Missing;
};

struct ConsumerChecklist {
    QString consumer;
    QList<ChecklistItem> items;
    int count(ChecklistItem::Verdict verdict) const;
};

QList<ConsumerChecklist> evaluateChecklists(const DeliveryPolicy &policy, const ChecklistEvidence &evidence);
// The whole checklist as a markdown document (a review artefact to attach to a ticket).
QString checklistMarkdown(const QList<ConsumerChecklist> &checklists, const QString &policySource);
QString verdictName(ChecklistItem::Verdict verdict);
