#pragma once

#include "services/kafka/kafkaconfig.h"
#include "services/kafka/kafkarecord.h"

#include <QHash>
#include <QList>
#include <QSet>
#include <QString>

#include <map>

// Re-reads pinned source records for the executor, forward, one partition stream each, so a batch of
// thousands costs a few fetches instead of one fetch per record. Records not wanted are dropped as they
// pass; asking for an offset behind the stream restarts it there. Blocking; one thread.
class SourceCursor final {
public:
    static std::unique_ptr<SourceCursor> create(const KafkaProperties &cluster, QString *error);
    ~SourceCursor();

    struct Position {
        QString topic;
        int partition = -1;
        qint64 offset = -1;
    };
    using Positions = QList<Position>;
    // The records at exactly these positions, by index into `positions`; a missing one has its reason in
    // *problems (deleted, compacted, past the end, unreadable).
    QHash<int, KafkaRecord> fetch(const Positions &positions, int timeoutMs, QHash<int, QString> *problems);
    // Starts reading every partition these positions are in, at its lowest wanted offset, and returns at
    // once: the brokers' first answers arrive in the background (while the caller loads the rest of its
    // work, say) instead of one partition after another inside fetch(). A stream already running is left
    // alone; fetch() restarts one that a later call wants from further back.
    void prime(const Positions &positions);

private:
    SourceCursor() = default;
    struct Stream {
        rd_kafka_topic_t *rkt = nullptr;
        int partition = -1;
        bool started = false;
        qint64 next = -1;                    // offset of the next record the stream delivers
        std::map<qint64, KafkaRecord> ahead; // read past the last batch's highest offset (at most one fetch)
    };
    Stream &stream(const QString &topic, int partition, QString *error);
    bool startAt(Stream &s, qint64 offset);
    void startIfIdle(const QString &topic, int partition, qint64 offset);
    KafkaHandle m_rk;
    QHash<QString, rd_kafka_topic_t *> m_topics;
    QHash<QString, Stream> m_streams; // "topic\npartition"
};
