#include "monitorservice.h"

#include "services/inbox/inboxwatch.h"

MonitorService::MonitorService(QObject *parent)
    : QObject(parent)
    , m_sampler(new LagSampler(this))
    , m_deadLetters(new DeadLetterTail(this))
    , m_orderTail(new OrderTail(this))
    , m_alerts(new AlertEngine(this))
    , m_rules(std::make_unique<AlertRuleSet>(*m_alerts))
    , m_inboxWatch(new InboxWatch(this))
{
    connect(m_orderTail, &OrderTail::statsUpdated, this, [this](const OrderTailStats &stats) {
        m_orderTailStats = stats;
        m_rules->observeOrderTail(stats, QDateTime::currentMSecsSinceEpoch());
        Q_EMIT orderTailUpdated(stats);
    });
    connect(m_sampler, &LagSampler::sampled, this, &MonitorService::onSample);
    connect(m_sampler, &LagSampler::clusterUpdated, this, &MonitorService::clusterUpdated);
    connect(m_sampler, &LagSampler::stateChanged, this, &MonitorService::stateChanged);
    connect(m_deadLetters, &DeadLetterTail::arrived, this, [this](const DeadLetterArrivals &arrivals) {
        m_rules->observeDeadLetters(arrivals, QDateTime::currentMSecsSinceEpoch());
    });
    connect(m_deadLetters, &DeadLetterTail::failed, this, &MonitorService::deadLetterTailFailed);
    connect(m_inboxWatch, &InboxWatch::boardReady, this, &MonitorService::onBoard);
}

MonitorService::~MonitorService() = default;

void MonitorService::start(const Settings &settings)
{
    m_settings = settings;
    m_started = true;
    applyScope();
    if (!settings.duplicateTopics.isEmpty()) {
        delete m_duplicateTail;
        m_duplicateTail = new DuplicateTail(this);
        connect(m_duplicateTail, &DuplicateTail::statsUpdated, this, [this](const DuplicateStats &stats) {
            m_duplicates = stats;
            m_rules->observeDuplicates(stats, QDateTime::currentMSecsSinceEpoch());
            Q_EMIT duplicatesUpdated(stats);
        });
        DuplicateTail::Settings tail;
        tail.cluster = settings.sampler.cluster;
        tail.topics = settings.duplicateTopics;
        m_duplicateTail->start(tail);
    }
    m_inboxWatch->setIntervalMs(settings.inboxIntervalMs);
    m_inboxWatch->setMappings(m_inboxes);
    m_tailedSequences.clear();
    applyOrderTail();
}

void MonitorService::applyOrderTail()
{
    // The topics the policy names a sequence field for, followed from their end; a new policy that
    // changes them starts the tail afresh.
    const QHash<QString, RecordField> sequences = OrderTail::sequencesOf(m_policy);
    if (!m_started || m_settings.sampler.cluster.isEmpty() || sequences.isEmpty()) {
        m_orderTail->stop();
        m_tailedSequences.clear();
        return;
    }
    const QHash<QString, QString> deadLetters = OrderTail::deadLetterGroupsOf(m_policy);
    const QSet<QString> masked = OrderTail::maskedKeyTopicsOf(m_policy);
    if (sequences == m_tailedSequences && deadLetters == m_tailedDeadLetters && masked == m_tailedMaskedKeys
        && m_orderTail->isRunning())
        return;
    m_tailedMaskedKeys = masked;
    m_tailedSequences = sequences;
    m_tailedDeadLetters = deadLetters;
    OrderTail::Settings tail;
    tail.cluster = m_settings.sampler.cluster;
    tail.sequences = sequences;
    tail.deadLetterGroups = deadLetters;
    tail.maskedKeyTopics = masked;
    m_orderTail->start(tail);
}

void MonitorService::setInboxMappings(const InboxMappingSet &set)
{
    m_inboxes = set;
    // Boards of mappings no longer watched go, with their alerts' inputs.
    m_boards.removeIf([&](const auto &it) { return !set.find(it.key()); });
    if (m_started)
        m_inboxWatch->setMappings(set);
}

void MonitorService::setPolicy(const DeliveryPolicy &policy)
{
    m_policy = policy;
    m_inboxWatch->setKeyMask(KeyMask(policy)); // its boards arrive masked (ARCHITECTURE.md, Masking)
    applyScope();
    applyOrderTail();
}

void MonitorService::applyScope()
{
    // The settings' groups and DLQ topics, plus every group and DLQ topic the policy names: the policy is
    // the list of what must be watched, even where the brokers cannot list groups.
    LagSampler::Settings scoped = m_settings.sampler;
    for (const QString &group : m_policy.consumerGroups()) {
        if (!scoped.namedGroups.contains(group))
            scoped.namedGroups.append(group);
    }
    for (const QString &topic : m_policy.dlqTopics()) {
        if (!scoped.extraTopics.contains(topic))
            scoped.extraTopics.append(topic);
    }
    m_rules->setPolicy(AlertPolicy::from(m_policy, m_settings.sampler.extraTopics));
    // Lag status follows each group's lag SLO (lagSlo.maxLagSeconds, else the default).
    QHash<QString, qint64> slo;
    for (const ConsumerPolicy &c : m_policy.consumers) {
        if (c.lagSloMaxLagSeconds)
            slo.insert(c.name, qint64(*c.lagSloMaxLagSeconds) * 1000);
    }
    if (slo != m_settings.sampler.evaluation.rules.maxTimeLagMsByGroup) {
        LagEvaluation evaluation = m_settings.sampler.evaluation;
        evaluation.rules.maxTimeLagMsByGroup = slo;
        m_settings.sampler.evaluation = evaluation;
        scoped.evaluation = evaluation;
        if (m_started)
            m_sampler->setEvaluation(evaluation);
    }
    if (!m_started)
        return;
    if (scoped.extraTopics != m_tailedDlqTopics) {
        m_tailedDlqTopics = scoped.extraTopics;
        m_deadLetters->start({scoped.cluster, scoped.extraTopics});
    }
    const bool scopeChanged = scoped.namedGroups != m_scoped.namedGroups || scoped.extraTopics != m_scoped.extraTopics
                              || scoped.cluster != m_scoped.cluster;
    const bool first = m_scoped.cluster.isEmpty();
    m_scoped = scoped;
    if (first || scopeChanged)
        m_sampler->start(m_scoped);
}

QStringList MonitorService::dlqTopics() const
{
    QStringList topics = m_settings.sampler.extraTopics;
    for (const QString &topic : m_policy.dlqTopics()) {
        if (!topics.contains(topic))
            topics.append(topic);
    }
    return topics;
}

void MonitorService::setEvaluation(const LagEvaluation &given)
{
    LagEvaluation evaluation = given;
    if (evaluation.rules.maxTimeLagMsByGroup.isEmpty()) // the policy's SLOs stay (applyScope sets them)
        evaluation.rules.maxTimeLagMsByGroup = m_settings.sampler.evaluation.rules.maxTimeLagMsByGroup;
    m_settings.sampler.evaluation = evaluation;
    m_scoped.evaluation = evaluation;
    m_sampler->setEvaluation(evaluation);
}

void MonitorService::sampleNow()
{
    m_sampler->sampleNow();
}

void MonitorService::onSample(const LagSnapshot &snapshot)
{
    if (snapshot.reachable) {
        m_lastSample = snapshot;
        m_rules->observeLag(snapshot);
    }
    Q_EMIT sampled(snapshot);
}

void MonitorService::refreshInbox(const InboxMapping &mapping)
{
    m_inboxWatch->refresh(mapping.name);
}

void MonitorService::observeAccounting(const AccountingResult &result)
{
    m_rules->observeAccounting(result, QDateTime::currentMSecsSinceEpoch());
}

void MonitorService::refreshAllInboxes()
{
    m_inboxWatch->refreshAll();
}

void MonitorService::onBoard(const InboxBoard &board)
{
    if (board.ok())
        m_boards.insert(board.mappingName, board);
    m_rules->observeInbox(board.mappingName, board);
    Q_EMIT boardReady(board);
}
