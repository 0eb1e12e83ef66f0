#pragma once

#include "deadletterarrival.h"
#include "services/kafka/kafkaconfig.h"

#include <QObject>
#include <QStringList>

// Reads what arrives on the dead-letter topics, from their end, without a group or commits, and hands each
// record's DLQ headers (any dialect) to the alert rules as DeadLetterArrivals, batched about once a second.
// Payloads are not kept. Owned thread (ARCHITECTURE.md, Threads): stop sets a flag the poll loop sees.
class DeadLetterTail final : public QObject {
    Q_OBJECT
public:
    struct Settings {
        KafkaProperties cluster;
        QStringList topics;
        int maxRecordsPerSecond = 20000; // beyond this, arrivals are counted as skipped, not judged
    };
    explicit DeadLetterTail(QObject *parent = nullptr);
    ~DeadLetterTail() override;

    void start(const Settings &settings);
    void stop();

Q_SIGNALS:
    void arrived(const DeadLetterArrivals &arrivals); // only when something arrived
    void failed(const QString &error);

private:
    class Worker;
    Worker *m_worker = nullptr;
};
