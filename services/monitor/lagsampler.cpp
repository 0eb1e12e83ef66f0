#include "lagsampler.h"

#include "offsetpeeker.h"
#include "services/kafka/clusterinspector.h"
#include "services/support/logging.h"

#include <QElapsedTimer>
#include <QSet>
#include <QThread>
#include <QTimer>

#include <algorithm>

using namespace Qt::StringLiterals;

// Lives on the sampler's thread; owns the client and the timer there.
class LagSampler::Worker final : public QObject {
public:
    explicit Worker(LagSampler *owner)
        : m_owner(owner)
    {
    }

    void configure(const Settings &settings)
    {
        m_settings = settings;
        m_inspector.reset();
        if (!m_timer) {
            m_timer = new QTimer(this);
            m_timer->setTimerType(Qt::PreciseTimer); // a fixed clock: status rules compare equal intervals
            connect(m_timer, &QTimer::timeout, this, &Worker::tick);
        }
        QString error;
        m_history = LagHistory();
        m_inspector = ClusterInspector::create(settings.cluster, &error);
        m_peeker = m_inspector ? OffsetPeeker::create(settings.cluster, &error) : nullptr;
        if (!m_inspector) {
            m_timer->stop();
            Q_EMIT m_owner->stateChanged(State::Rejected, error); // librdkafka refused the settings
            return;
        }
        Q_EMIT m_owner->stateChanged(State::Connecting, u"Connecting to "_s + m_inspector->bootstrap());
        m_timer->start(settings.intervalMs);
        tick();
    }

    void setEvaluation(const LagEvaluation &evaluation) { m_settings.evaluation = evaluation; }

    void halt()
    {
        if (m_timer)
            m_timer->stop();
        m_peeker.reset();
        m_inspector.reset();
        Q_EMIT m_owner->stateChanged(State::Idle, {});
    }

    void tick()
    {
        if (!m_inspector)
            return;
        ClusterSnapshot cluster;
        LagSnapshot snapshot = sampleOnce(*m_inspector, m_settings, m_history, m_peeker.get(), &cluster);
        if (snapshot.reachable)
            Q_EMIT m_owner->clusterUpdated(cluster);
        const State state = !snapshot.reachable ? State::Unreachable
                            : snapshot.problems.isEmpty() ? State::Connected : State::Degraded;
        Q_EMIT m_owner->stateChanged(state, snapshot.problems.join(u'\n'));
        Q_EMIT m_owner->sampled(snapshot);
    }

private:
    LagSampler *m_owner;
    Settings m_settings;
    std::unique_ptr<ClusterInspector> m_inspector;
    std::unique_ptr<OffsetPeeker> m_peeker;
    LagHistory m_history;
    QTimer *m_timer = nullptr;
};

LagSampler::LagSampler(QObject *parent)
    : QObject(parent)
    , m_thread(new QThread)
    , m_worker(new Worker(this))
{
    qRegisterMetaType<LagSnapshot>();
    qRegisterMetaType<ClusterSnapshot>();
    m_thread->setObjectName(u"berth-lag-sampler"_s);
    m_worker->moveToThread(m_thread);
    connect(m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    m_thread->start();
}

LagSampler::~LagSampler()
{
    m_thread->quit();
    m_thread->wait();
    delete m_thread;
}

void LagSampler::start(const Settings &settings)
{
    QMetaObject::invokeMethod(m_worker, [w = m_worker, settings] { w->configure(settings); }, Qt::QueuedConnection);
}

void LagSampler::stop()
{
    QMetaObject::invokeMethod(m_worker, [w = m_worker] { w->halt(); }, Qt::QueuedConnection);
}

void LagSampler::setEvaluation(const LagEvaluation &evaluation)
{
    QMetaObject::invokeMethod(m_worker, [w = m_worker, evaluation] { w->setEvaluation(evaluation); },
                              Qt::QueuedConnection);
}

void LagSampler::sampleNow()
{
    QMetaObject::invokeMethod(m_worker, [w = m_worker] { w->tick(); }, Qt::QueuedConnection);
}

namespace {
// Committed offsets of many groups through the Admin API. Some brokers (the mock cluster among them)
// answer "all partitions" with nothing: those groups are asked again, naming partitions. A group seen
// before is then asked only for the topics it committed to then, and once the brokers have answered
// "all partitions" with nothing for every group, the known groups skip that question: asking every
// partition of every topic for thousands of groups is what would make such a broker slow.
QList<GroupOffsets> committedOffsetsOfMany(ClusterInspector &inspector, const LagSampler::Settings &settings,
                                           const QStringList &groups, const QList<TopicPartition> &everything,
                                           const QHash<QString, int> &partitionCount, LagHistory &history)
{
    QHash<QString, QList<TopicPartition>> known;
    for (const QString &group : groups) {
        const QStringList topics = history.topicsOf(group);
        if (topics.isEmpty())
            continue;
        QList<TopicPartition> &asked = known[group];
        for (const QString &topic : topics) {
            for (int p = 0; p < partitionCount.value(topic); ++p)
                asked.append({topic, p});
        }
    }
    const bool skipAllQuestion = history.brokersAnswerAllPartitions() == LagHistory::Answer::No;
    QStringList askAll;
    QStringList askNamed;
    for (const QString &group : groups)
        (skipAllQuestion && known.contains(group) ? askNamed : askAll) << group;
    QList<GroupOffsets> committed = inspector.committedOffsets(askAll, {}, settings.groupConcurrency,
                                                               settings.requestTimeoutMs);
    bool anyAnswered = false;
    for (const auto &g : std::as_const(committed)) {
        if (g.error.isEmpty() && g.committed.isEmpty())
            askNamed << g.group;
        anyAnswered = anyAnswered || !g.committed.isEmpty();
    }
    if (!askAll.isEmpty())
        history.setBrokersAnswerAllPartitions(anyAnswered ? LagHistory::Answer::Yes : LagHistory::Answer::No);
    if (askNamed.isEmpty())
        return committed;
    const auto again = inspector.committedOffsets(askNamed, everything, settings.groupConcurrency,
                                                  settings.requestTimeoutMs, &known);
    QHash<QString, qsizetype> slot;
    for (qsizetype i = 0; i < committed.size(); ++i)
        slot.insert(committed.at(i).group, i);
    for (const auto &g : again) {
        if (const auto it = slot.constFind(g.group); it != slot.cend())
            committed[*it] = g;
        else
            committed.append(g);
    }
    return committed;
}
} // namespace

LagSnapshot LagSampler::sampleOnce(ClusterInspector &inspector, const Settings &settings, LagHistory &history,
                                   OffsetPeeker *peeker, ClusterSnapshot *clusterOut)
{
    QElapsedTimer clock;
    clock.start();
    LagSnapshot snap;
    snap.bootstrap = inspector.bootstrap();
    snap.takenAt = QDateTime::currentDateTimeUtc();

    const auto md = inspector.metadata(settings.requestTimeoutMs);
    if (!md.ok()) {
        snap.problems << md.error;
        snap.durationMs = clock.elapsed();
        return snap;
    }
    snap.reachable = true;
    if (clusterOut)
        *clusterOut = md.value;

    // Groups: what the brokers list, plus those the profile names; only the named ones when listing is
    // not supported (the mock cluster, old brokers) or fails.
    QStringList groups = settings.namedGroups;
    const auto listed = inspector.listGroups(settings.requestTimeoutMs);
    if (listed.ok()) {
        groups += listed.value;
        snap.groupSource = u"listed by the brokers"_s;
    } else {
        snap.groupSource = listed.unsupported ? u"named in the profile (the brokers cannot list groups)"_s
                                              : u"named in the profile (listing failed)"_s;
        if (!listed.unsupported)
            snap.problems << listed.error;
    }
    groups.removeDuplicates();
    groups.sort();
    snap.groups = groups;

    QHash<QString, int> partitionCount;
    for (const auto &t : md.value.topics)
        partitionCount.insert(t.name, t.partitionCount());

    QList<TopicPartition> everything;
    for (const auto &t : md.value.topics) {
        for (int p = 0; p < t.partitionCount(); ++p)
            everything.append({t.name, p});
    }
    QList<GroupOffsets> committed;
    if (groups.size() <= ClusterInspector::groupHandleLimit) {
        // A handful of groups: through their own handles, which survive brokers dropping mid-request.
        committed = inspector.committedOffsetsViaGroupHandles(groups, everything, settings.requestTimeoutMs);
    } else {
        committed = committedOffsetsOfMany(inspector, settings, groups, everything, partitionCount, history);
    }

    // Every partition of every topic a group has committed to is watched, so partitions the group never
    // committed show up too (lag from the log start).
    QSet<QString> watchedTopics;
    for (const auto &g : committed) {
        if (!g.error.isEmpty())
            snap.problems << g.group + u": " + g.error;
        for (auto it = g.committed.cbegin(); it != g.committed.cend(); ++it)
            watchedTopics.insert(it.key().topic);
    }
    for (const QString &topic : settings.extraTopics)
        watchedTopics.insert(topic);
    QList<TopicPartition> partitions;
    for (const auto &topic : watchedTopics) {
        for (int p = 0; p < partitionCount.value(topic); ++p)
            partitions.append({topic, p});
    }
    const auto ends = inspector.endOffsets(partitions, settings.requestTimeoutMs);
    if (!ends.ok())
        snap.problems << ends.error;
    const auto starts = inspector.startOffsets(partitions, settings.requestTimeoutMs);
    snap.endOffsets = ends.value;

    for (const auto &g : committed) {
        QSet<QString> topics;
        for (auto it = g.committed.cbegin(); it != g.committed.cend(); ++it)
            topics.insert(it.key().topic);
        for (const auto &topic : topics) {
            for (int p = 0; p < partitionCount.value(topic); ++p) {
                const TopicPartition tp{topic, p};
                PartitionLag row;
                row.group = g.group;
                row.topic = topic;
                row.partition = p;
                row.committed = g.committed.value(tp, -1);
                row.start = starts.value.value(tp, -1);
                row.end = ends.value.value(tp, -1);
                if (row.end < 0) {
                    row.flags |= PartitionLag::EndUnknown;
                } else if (row.committed < 0) {
                    row.flags |= PartitionLag::NoCommit;
                    row.lag = row.end - std::max<qint64>(0, row.start);
                } else if (row.committed > row.end) {
                    row.flags |= PartitionLag::CommittedAhead;
                } else {
                    // A committed offset below the log start (deleted/compacted) counts only what remains.
                    row.lag = row.end - std::max(row.committed, row.start);
                }
                snap.rows.append(row);
            }
        }
    }
    std::sort(snap.rows.begin(), snap.rows.end(), [](const PartitionLag &a, const PartitionLag &b) {
        return std::tie(a.group, a.topic, a.partition) < std::tie(b.group, b.topic, b.partition);
    });
    evaluateLag(snap, history, peeker, settings.evaluation);
    snap.durationMs = clock.elapsed();
    qCDebug(lcMonitor) << "sampled" << snap.rows.size() << "partitions of" << groups.size() << "groups in"
                       << snap.durationMs << "ms";
    return snap;
}
