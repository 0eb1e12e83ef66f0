// The one builder of every non-committing reader's properties (KafkaConfig::readerProperties), read back
// from the configuration librdkafka itself builds from them: what a reader counts on must hold whatever
// the cluster's profile says.
#include "services/demo/mockkafkacluster.h"
#include "services/kafka/kafkaconfig.h"

#include <QMutex>
#include <QStringList>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {
struct Conf {
    rd_kafka_conf_t *conf = nullptr;
    ~Conf()
    {
        if (conf)
            rd_kafka_conf_destroy(conf);
    }
    // The effective value librdkafka holds for a property ("<unset>" for one without a value or default).
    QString operator[](const char *name) const
    {
        char value[512];
        size_t size = sizeof value;
        if (rd_kafka_conf_get(conf, name, value, &size) != RD_KAFKA_CONF_OK)
            return u"<unset>"_s;
        return QString::fromUtf8(value);
    }
};

Conf built(const KafkaProperties &properties)
{
    QString error;
    Conf c{KafkaConfig::build(properties, &error)};
    if (!c.conf)
        qWarning("librdkafka refused the reader's properties: %s", qPrintable(error));
    return c;
}

const KafkaProperties kCluster = {{u"bootstrap.servers"_s, u"broker-1:9092"_s},
                                  {u"group.id"_s, u"payments-service"_s},
                                  {u"enable.auto.commit"_s, u"true"_s},
                                  {u"fetch.wait.max.ms"_s, u"500"_s},
                                  {u"security.protocol"_s, u"plaintext"_s}};

// librdkafka's log lines as Berth's logging receives them, while one lives.
QMutex g_capturedLock;
QStringList g_captured;
QtMessageHandler g_previous = nullptr;
void capture(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    {
        const QMutexLocker lock(&g_capturedLock);
        g_captured.append(message);
    }
    g_previous(type, context, message);
}
} // namespace

class TestKafkaConfig final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // A reader never joins the cluster's group, never commits, never stores offsets, never creates a
    // topic, and hears of each partition's end.
    void readerNeverJoinsNorCommits()
    {
        const Conf c = built(KafkaConfig::readerProperties(kCluster, {.clientId = u"berth-test"_s}));
        QVERIFY(c.conf);
        QCOMPARE(c["group.id"], u"<unset>"_s);
        QCOMPARE(c["enable.auto.commit"], u"false"_s);
        QCOMPARE(c["enable.auto.offset.store"], u"false"_s);
        QCOMPARE(c["enable.partition.eof"], u"true"_s);
        QCOMPARE(c["allow.auto.create.topics"], u"false"_s);
        // The rest of the cluster's profile is kept.
        QCOMPARE(c["bootstrap.servers"], u"broker-1:9092"_s);
        QCOMPARE(c["security.protocol"], u"plaintext"_s);
    }

    // A reader asks the brokers for metadata before it knows their versions; librdkafka then warns
    // (AUTOCREATE) that it cannot pass allow.auto.create.topics=false, though the broker takes it. A
    // reader leaves the property at the consumer's default, false, whatever the profile says, and no
    // such warning reaches the operator.
    void readerMetadataWarnsOfNoAutoCreate()
    {
        MockKafkaCluster cluster(1);
        QVERIFY2(cluster.isValid(), qPrintable(cluster.error()));
        QVERIFY(cluster.createTopic(u"orders"_s, 2));
        KafkaProperties profile = cluster.clientProperties();
        profile.append({u"allow.auto.create.topics"_s, u"true"_s});
        const KafkaProperties props = KafkaConfig::readerProperties(profile, {.clientId = u"berth-test"_s});
        QCOMPARE(built(props)["allow.auto.create.topics"], u"false"_s);

        g_previous = qInstallMessageHandler(capture);
        QString error;
        {
            KafkaHandle rk = KafkaConfig::createClient(RD_KAFKA_CONSUMER, props, &error);
            QVERIFY2(rk, qPrintable(error));
            const rd_kafka_metadata_t *metadata = nullptr;
            QCOMPARE(rd_kafka_metadata(rk.get(), 1, nullptr, &metadata, 10'000), RD_KAFKA_RESP_ERR_NO_ERROR);
            rd_kafka_metadata_destroy(metadata);
        }
        qInstallMessageHandler(g_previous);
        const QMutexLocker lock(&g_capturedLock);
        for (const QString &line : std::as_const(g_captured))
            QVERIFY2(!line.contains(u"AUTOCREATE"_s), qPrintable(line));
    }

    // The reader's own settings win over the profile's; unset ones keep the profile's (or librdkafka's).
    void readerSettingsWin()
    {
        const Conf c = built(KafkaConfig::readerProperties(
            kCluster, {.clientId = u"berth-test"_s, .fetchWaitMs = 20, .queueMaxKbytes = 2048}));
        QVERIFY(c.conf);
        QCOMPARE(c["fetch.wait.max.ms"], u"20"_s);
        QCOMPARE(c["queued.max.messages.kbytes"], u"2048"_s);
        const Conf plain = built(KafkaConfig::readerProperties(kCluster, {.clientId = u"berth-test"_s}));
        QCOMPARE(plain["fetch.wait.max.ms"], u"500"_s);
    }

    // A reader that polls names a group of its own (never the profile's); one that resets says how.
    void groupAndResetAreTheReaders()
    {
        const Conf c = built(KafkaConfig::readerProperties(
            kCluster,
            {.clientId = u"berth-test"_s, .autoOffsetReset = u"error"_s, .groupId = u"berth-offset-peeker"_s}));
        QVERIFY(c.conf);
        QCOMPARE(c["group.id"], u"berth-offset-peeker"_s);
        QCOMPARE(c["enable.auto.commit"], u"false"_s);
        rd_kafka_topic_conf_t *topic = rd_kafka_conf_get_default_topic_conf(c.conf);
        QVERIFY(topic);
        char value[64];
        size_t size = sizeof value;
        QCOMPARE(rd_kafka_topic_conf_get(topic, "auto.offset.reset", value, &size), RD_KAFKA_CONF_OK);
        QCOMPARE(QString::fromUtf8(value), u"error"_s);
    }

    // The operator's own client.id (quotas, broker logs) wins over the reader's name for itself.
    void clusterClientIdWins()
    {
        const Conf named = built(KafkaConfig::readerProperties(kCluster, {.clientId = u"berth-test"_s}));
        QCOMPARE(named["client.id"], u"berth-test"_s);
        KafkaProperties cluster = kCluster;
        cluster.append({u"client.id"_s, u"ops-desk"_s});
        const Conf own = built(KafkaConfig::readerProperties(cluster, {.clientId = u"berth-test"_s}));
        QCOMPARE(own["client.id"], u"ops-desk"_s);
    }
};

QTEST_GUILESS_MAIN(TestKafkaConfig)
#include "tst_kafkaconfig.moc"
