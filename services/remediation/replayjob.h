#pragma once

#include "services/remediation/replayexecutor.h"

#include <QObject>
#include <QString>

#include <memory>

class QThread;

// The executor on a thread of its own, for the console: progress (coalesced to at most ~10 per second) and
// the outcome arrive as queued signals on the owner's thread. Pause, resume and cancel never block.
class ReplayJob final : public QObject {
    Q_OBJECT
public:
    explicit ReplayJob(QObject *parent = nullptr);
    ~ReplayJob() override; // cancels and waits for the worker

    // Connects (auditConninfo, and inboxConninfo when not empty) on the worker thread, migrates the audit
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
    QThread *m_thread = nullptr;
    std::shared_ptr<ReplayControl> m_control;
};
