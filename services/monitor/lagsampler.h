#pragma once

#include "lagevaluator.h"
#include "lagsnapshot.h"
#include "services/kafka/kafkaconfig.h"

#include <QObject>
#include <QStringList>

#include <atomic>
#include <memory>

class ClusterInspector;
class OffsetPeeker;
class QThread;
class QTimer;

// Samples every group's lag on a fixed clock, on a thread of its own. Results arrive as value snapshots
// through queued signals; the caller never waits.
class LagSampler final : public QObject {
    Q_OBJECT
public:
    struct Settings {
        KafkaProperties cluster;
        QStringList namedGroups; // used when the brokers cannot list groups, and always included
        int intervalMs = 5000;
        int requestTimeoutMs = 4000;
        int groupConcurrency = 8;
        QStringList extraTopics; // end offsets watched for rates (DLQ topics), though no group reads them
        LagEvaluation evaluation;
    };
    enum class State { Idle, Connecting, Connected, Degraded, Unreachable, Rejected };
    Q_ENUM(State)

    explicit LagSampler(QObject *parent = nullptr);
    ~LagSampler() override;

    // (Re)starts sampling with these settings; the first sample is taken at once.
    void start(const Settings &settings);
    void stop();
    void sampleNow();
    // New status rules and peek budget from the next sample on; history and connections are kept.
    void setEvaluation(const LagEvaluation &evaluation);

    // The same work, blocking, for the command line and benchmarks.
    // Without a history (one-shot use), time lag comes from peeking at the records.
    static LagSnapshot sampleOnce(ClusterInspector &inspector, const Settings &settings, LagHistory &history,
                                  OffsetPeeker *peeker, ClusterSnapshot *cluster = nullptr);

Q_SIGNALS:
    void sampled(const LagSnapshot &snapshot);
    void clusterUpdated(const ClusterSnapshot &cluster);
    void stateChanged(LagSampler::State state, const QString &detail);

private:
    class Worker;
    QThread *m_thread = nullptr;
    Worker *m_worker = nullptr;
};
