#pragma once

#include "alertengine.h"
#include "alertrules.h"
#include "deadlettertail.h"
#include "duplicatetail.h"
#include "lagsampler.h"
#include "ordertail.h"
#include "services/inbox/inboxboard.h"
#include "services/inbox/inboxmappingset.h"
#include "services/policy/deliverypolicy.h"

#include <QHash>
#include <QObject>

#include <memory>

class InboxWatch;

// Everything Berth watches, without a window: the lag sampler, the DLQ and duplicate tails, the inbox
// boards of every mapping on a clock, and the alert rules fed from all of them. The console shows what it
// emits; `berth watch` prints its alerts and serves its metrics. The policy decides the scope (its groups
// and DLQ topics join the settings') and the thresholds.
class MonitorService final : public QObject {
    Q_OBJECT
public:
    struct Settings {
        LagSampler::Settings sampler;   // cluster, groups, DLQ topics (extraTopics), clock
        QStringList duplicateTopics;    // tailed for duplicate keys; none: no tail
        int inboxIntervalMs = 15000;
    };
    explicit MonitorService(QObject *parent = nullptr);
    ~MonitorService() override;

    void start(const Settings &settings);
    // The policy's groups and DLQ topics join the watched scope; its keys become the alert thresholds.
    void setPolicy(const DeliveryPolicy &policy);
    // The inbox tables watched (each in its own database, on its own clock); before or after start().
    void setInboxMappings(const InboxMappingSet &set);
    void setEvaluation(const LagEvaluation &evaluation);
    void sampleNow();
    // Reads one mapping's board now (the inbox view's refresh); the result arrives as boardReady.
    void refreshInbox(const InboxMapping &mapping);
    void refreshAllInboxes();
    // A finished delivery accounting (the console's Accounting view): its alert rules.
    void observeAccounting(const AccountingResult &result);

    AlertEngine *alerts() const { return m_alerts; }
    const AlertRuleSet &rules() const { return *m_rules; }
    const Settings &settings() const { return m_settings; }
    QStringList dlqTopics() const; // the settings' and the policy's
    // The latest of each input, for metrics and the checklist.
    const LagSnapshot &lastSample() const { return m_lastSample; }
    const QHash<QString, InboxBoard> &lastBoards() const { return m_boards; } // by mapping name
    const DuplicateStats &lastDuplicates() const { return m_duplicates; }
    const OrderTailStats &lastOrderTail() const { return m_orderTailStats; }

Q_SIGNALS:
    void sampled(const LagSnapshot &snapshot);
    void clusterUpdated(const ClusterSnapshot &cluster);
    void stateChanged(LagSampler::State state, const QString &detail);
    void boardReady(const InboxBoard &board);
    void duplicatesUpdated(const DuplicateStats &stats);
    // The live order tail of the topics the policy names a sequence field for.
    void orderTailUpdated(const OrderTailStats &stats);
    void deadLetterTailFailed(const QString &error);

private:
    void applyScope();
    void onSample(const LagSnapshot &snapshot);
    void onBoard(const InboxBoard &board);
    void applyOrderTail();

    Settings m_settings;
    LagSampler::Settings m_scoped; // the settings' scope plus the policy's
    DeliveryPolicy m_policy;
    bool m_started = false;
    LagSampler *m_sampler;
    DeadLetterTail *m_deadLetters;
    DuplicateTail *m_duplicateTail = nullptr;
    OrderTail *m_orderTail;
    QHash<QString, RecordField> m_tailedSequences; // what the order tail follows
    QHash<QString, QString> m_tailedDeadLetters;    // and the DLQ topics it reads for DLQ-and-continue breaks
    QSet<QString> m_tailedMaskedKeys;               // and whose keys it shows masked
    OrderTailStats m_orderTailStats;
    AlertEngine *m_alerts;
    std::unique_ptr<AlertRuleSet> m_rules;
    InboxWatch *m_inboxWatch;
    InboxMappingSet m_inboxes;
    LagSnapshot m_lastSample;
    QHash<QString, InboxBoard> m_boards;
    DuplicateStats m_duplicates;
    QStringList m_tailedDlqTopics;
};
