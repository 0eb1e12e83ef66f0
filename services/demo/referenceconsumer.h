#pragma once

#include "services/dlq/dlqrecord.h"
#include "services/inbox/pgsession.h"
#include "services/kafka/kafkaconfig.h"
#include "services/kafka/kafkarecord.h"

#include <QJsonObject>

#include <atomic>
#include <memory>
#include <thread>

class KafkaProducer;

// A consumer that behaves like the seed articles' services: it joins its group, processes each record
// through its inbox, retries a bounded number of times, dead-letters poison, and commits offsets only
// after the database work is done. Subclasses hold the business rules; this class holds the loop.
class ReferenceConsumer {
public:
    struct Config {
        QString group;
        QString topic;
        QString dlqTopic;
        KafkaProperties cluster;
        QString conninfo; // empty: no database (a Connect-style sink)
        // Takes every partition of its topic by assignment instead of joining its group (it still
        // commits to the group). The mock cluster refuses every commit from outside a group that ever
        // had members, even once it is empty (a real broker accepts one then), so only a group that
        // never joins can be reset by an operator once its consumer is stopped (ARCHITECTURE.md, Data
        // flows: The demo world).
        bool assignPartitions = false;
    };
    explicit ReferenceConsumer(Config config);
    virtual ~ReferenceConsumer();

    void start();
    void requestStop(); // returns at once; stop() closes the consumer and joins
    void stop();        // must be called before the subclass is destroyed
    qint64 handled() const { return m_handled; }
    qint64 duplicates() const { return m_duplicates; }
    qint64 deadLettered() const { return m_deadLettered; }
    int restarts() const { return m_restarts; }
    const Config &config() const { return m_config; }

protected:
    enum class Outcome {
        Done,
        Duplicate,     // the inbox says it was already handled: skip, commit
        Crash,         // simulate a crash: nothing more is committed, uncommitted records come again
    };
    virtual Outcome handle(const KafkaRecord &record) = 0;
    // Extra time a record takes (a slow consumer overrides it).
    virtual int processingDelayMs() { return 0; }

    PgSession &db() { return m_db; }
    bool stopping() const { return m_stop; }
    // Writes the record to the DLQ with the given dialect's headers plus the original headers.
    void deadLetter(const KafkaRecord &record, DlqDialect dialect, DlqMetadata metadata);
    void countDuplicate() { ++m_duplicates; }
    void backoff(int attempt); // 20 ms, 40 ms, 80 ms...: bounded, as the seeds demand

    static QJsonObject parseObject(const QByteArray &payload, QString *error);

private:
    void run();
    bool ensureDatabase();
    Config m_config;
    PgSession m_db;
    std::unique_ptr<KafkaProducer> m_dlq;
    std::thread m_thread;
    std::atomic_bool m_stop = false;
    std::atomic<qint64> m_handled = 0;
    std::atomic<qint64> m_duplicates = 0;
    std::atomic<qint64> m_deadLettered = 0;
    std::atomic_int m_restarts = 0;
};
