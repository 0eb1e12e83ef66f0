#pragma once

#include "services/remediation/replayexecutor.h"
#include "services/support/jobtracker.h"

#include <QObject>
#include <QString>
#include <QThreadPool>

#include <memory>

// The executor as a one-shot job for the console (ARCHITECTURE.md, Threads): progress (coalesced to at most
// ~10 per second) and the outcome arrive as queued signals on the owner's thread. Pause, resume and cancel
// never block; a cancelled run still ends with its outcome (the request marked cancelled).
class ReplayJob final : public QObject {
    Q_OBJECT
public:
    explicit ReplayJob(QObject *parent = nullptr);
    ~ReplayJob() override; // cancels and waits for the run

    // Connects (auditConninfo, and inboxConninfo when not empty) on the job's thread, migrates the audit
    // schema, and runs. False when a run is already going.
    bool start(const QString &auditConninfo, const KafkaProperties &cluster, qint64 requestId,
               const ReplayOptions &options, const QString &inboxConninfo = {});
    void pause();
    void resume();
    void cancel();
    bool isRunning() const;

Q_SIGNALS:
    void progressed(const ReplayProgress &progress);
    void finished(const ReplayOutcome &outcome);

private:
    std::shared_ptr<ReplayControl> m_control; // the current run's; pause, resume and cancel go through it
    // A pool of its own, so the destructor waits for this run and nobody else's jobs.
    QThreadPool m_pool;
    JobTracker m_run{this, &m_pool};
};
