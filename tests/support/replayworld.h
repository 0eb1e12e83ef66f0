#pragma once

#include "services/demo/mockkafkacluster.h"
#include "services/demo/temppostgres.h"
#include "services/inbox/pgsession.h"
#include "services/remediation/requestbuilder.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <memory>

// What the replay tests and the replay benchmark stand on: a mock cluster, a throwaway PostgreSQL with the
// audit schema migrated, and two people logged in as themselves: alice (berth_operator: requests and
// executes) and bob (berth_approver). Nothing is mocked: the executor talks Kafka protocol and libpq.
class ReplayWorld final {
public:
    static constexpr char DlqTopic[] = "orders-dlt";
    static constexpr char OriginalTopic[] = "orders";
    static constexpr char Consumer[] = "orders-projector";

    ReplayWorld();
    ~ReplayWorld();

    // Cluster, server, database `database` (created afresh), migration, people, and the two topics. The
    // mock broker keeps only a few megabytes per partition: large runs spread over more partitions.
    // sharedBuffers: the server's shared_buffers (empty: TempPostgres's small default).
    bool start(const QString &database, QString *error, int dlqPartitions = 1, int originalPartitions = 3,
               const QString &sharedBuffers = {});

    MockKafkaCluster &cluster() { return *m_cluster; }
    KafkaProperties kafka() const { return m_cluster->clientProperties(); }
    QString bootstrap() const { return m_cluster->bootstrapServers(); }
    QString conninfo(const QString &user) const;
    TempPostgres &postgres() { return *m_pg; } // restarts: every session above must reconnect after one
    PgSession &admin() { return m_admin; } // superuser on the test database (also the consumers' inbox)
    PgSession &alice() { return m_alice; }
    PgSession &bob() { return m_bob; }

    // Dead letters i = first..first+count-1 on the DLQ (partition i % DLQ partitions, so a fresh DLQ holds
    // i at offset i / DLQ partitions): key "order-<i % keys>", JSON value {"order": i}
    // (padded to about payloadBytes), the original headers trace-id and idempotency-key ("idem-<i>"), and
    // Berth's canonical diagnostic headers naming the original topic, partition 0, offset i and the consumer.
    bool seedDlq(int first, int count, int keys, QString *error, int payloadBytes = 0);
    // One dead letter of the original topic (partition 0, originalOffset) with this key and value, on DLQ
    // partition 0: its offset there, -1 on failure.
    qint64 produceDeadLetter(const QByteArray &key, const QByteArray &value, qint64 originalOffset,
                             QString *error);
    // The same payloads as seedDlq, one "key<TAB>value" per line (for kcat -P -K '\t').
    static QByteArray payloadLines(int first, int count, int keys, int payloadBytes = 0);
    static QByteArray payloadFor(int i, int payloadBytes);

    // Dead letters [from, to) as seeded into a fresh DLQ, as a selection.
    QList<DlqSelection> dlqRange(qint64 from, qint64 to) const;
    // Build (pins, dry run) and submit as alice; the request id, 0 on failure (*error says why).
    qint64 request(const RequestDraft &draft, QString *error, BuiltRequest *built = nullptr);
    bool approve(qint64 requestId, QString *error);
    QString statusOf(qint64 requestId);
    QVariant scalar(const QString &sql, const QVariantList &params = {});

    // Every record of a topic as kcat -J prints it (kcat is the independent client), in (partition, offset)
    // order. headers is kcat's flat [name, value, name, value...] array.
    QList<QJsonObject> kcatRead(const QString &topic, QString *error) const;
    // The sum of the high watermarks of a topic (what has been written to it).
    qint64 endOffsetSum(const QString &topic, QString *error) const;

private:
    std::unique_ptr<MockKafkaCluster> m_cluster;
    std::unique_ptr<TempPostgres> m_pg;
    QString m_database;
    int m_dlqPartitions = 1;
    PgSession m_admin;
    PgSession m_alice;
    PgSession m_bob;
};

// kcat's header array as name -> every value, in order.
QMultiHash<QString, QString> kcatHeaders(const QJsonObject &record);
