// `berth watch` as an operator or Alertmanager setup runs it: a child process against a quiet mock cluster
// whose lag this test arranges. The test scrapes /metrics itself, has a real Prometheus server scrape it
// and answer a PromQL query, reads the JSON alert lines, and stops the watch with SIGTERM.
#include "services/demo/mockkafkacluster.h"
#include "services/dlq/dlqheadercodec.h"
#include "services/kafka/kafkaproducer.h"
#include "services/kafka/offsetcommitter.h"
#include "support/berthcli.h"

#include <QDateTime>
#include <QEventLoop>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <QUrlQuery>

using namespace Qt::StringLiterals;

namespace {
constexpr int produced = 100;
constexpr int committed = 40; // lag: 60 records
constexpr qint64 recordAgeMs = 3600 * 1000;

// The metric names `berth watch` exports (ARCHITECTURE.md, Contracts: Metrics).
const QStringList metricNames = {
    u"berth_consumergroup_lag_messages"_s,    u"berth_consumergroup_lag_seconds"_s,
    u"berth_consumergroup_status"_s,          u"berth_dlq_records_total"_s,
    u"berth_duplicate_records_total"_s,       u"berth_inbox_rows"_s,
    u"berth_inbox_oldest_stuck_age_seconds"_s, u"berth_outbox_pending_rows"_s,
    u"berth_alerts_firing"_s};

struct Exposition {
    QHash<QString, double> samples; // the whole sample line left of the value -> value
    QStringList helped;             // families with HELP and TYPE lines
    QString problem;                // the first line that is not valid text format
};

// A strict-enough reader of the text format: comments, then `name{label="value",...} number` lines.
Exposition parseExposition(const QByteArray &text)
{
    static const QRegularExpression sampleLine(
        u"^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(?:[a-zA-Z_][a-zA-Z0-9_]*=\"(?:[^\"\\\\\\n]|\\\\.)*\",?)*\\})? (\\S+)$"_s);
    Exposition e;
    for (const QByteArray &raw : text.split('\n')) {
        const QString line = QString::fromUtf8(raw);
        if (line.isEmpty())
            continue;
        if (line.startsWith(u"# TYPE "_s)) {
            e.helped << line.section(u' ', 2, 2);
            continue;
        }
        if (line.startsWith(u'#'))
            continue;
        const auto m = sampleLine.match(line);
        bool ok = false;
        const double value = m.hasMatch() ? m.captured(3).toDouble(&ok) : 0;
        if (!ok) {
            if (e.problem.isEmpty())
                e.problem = line;
            continue;
        }
        e.samples.insert(m.captured(1) + m.captured(2), value);
    }
    return e;
}

QByteArray httpGet(QNetworkAccessManager &network, const QUrl &url)
{
    QNetworkReply *reply = network.get(QNetworkRequest(url));
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    QTimer::singleShot(5000, &loop, &QEventLoop::quit);
    loop.exec();
    const QByteArray body = reply->isFinished() && reply->error() == QNetworkReply::NoError ? reply->readAll() : QByteArray();
    reply->abort();
    reply->deleteLater();
    return body;
}

quint16 freePort()
{
    QTcpServer probe;
    probe.listen(QHostAddress::LocalHost, 0);
    return probe.serverPort();
}
} // namespace

class TestWatch : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void metricsShowTheArrangedLag();
    void prometheusScrapesAndAnswersPromQl();
    void deadLettersBecomeJsonAlertLines();
    void rulesFilePassesPromtoolAndNamesExportedMetrics();
    void badMetricsAddressIsRefused();
    void unreadableInboxIsSaidOnStderr();
    void stopsCleanlyOnSigterm();

private:
    void produceDeadLetter();
    QList<QJsonObject> alertLines();

    std::unique_ptr<MockKafkaCluster> m_cluster;
    QTemporaryDir m_dir;
    QProcess m_watch;
    QByteArray m_out;
    QUrl m_metrics;
    QNetworkAccessManager m_network;
};

void TestWatch::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_cluster = std::make_unique<MockKafkaCluster>(1);
    QVERIFY2(m_cluster->isValid(), qPrintable(m_cluster->error()));
    QVERIFY(m_cluster->createTopic(u"orders"_s, 1));
    QVERIFY(m_cluster->createTopic(u"orders-dlt"_s, 1));
    QString error;
    auto producer = KafkaProducer::create(m_cluster->clientProperties(), &error);
    QVERIFY2(producer, qPrintable(error));
    const qint64 then = QDateTime::currentMSecsSinceEpoch() - recordAgeMs;
    for (int i = 0; i < produced; ++i)
        QVERIFY(producer->produce({u"orders"_s, 0, "k", false, "v", {}, then + i}, &error));
    QVERIFY2(producer->flush(10000, &error), qPrintable(error));
    QVERIFY2(OffsetCommitter::commit(m_cluster->clientProperties(), u"projection"_s, {{{u"orders"_s, 0}, committed}},
                                     &error),
             qPrintable(error));

    const QString policy = m_dir.filePath(u"policy.yaml"_s);
    QFile file(policy);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"(deliverySemantics:
  consumers:
    projection:
      topics: [orders]
      dlq: {enabled: true, topic: orders-dlt, owner: team-projection, critical: true}
      poison: {maxAttemptsBeforePark: 3}
      lagSlo: {maxLagSeconds: 30}
)");
    file.close();

    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"XDG_CONFIG_HOME"_s, m_dir.filePath(u"config"_s)); // no saved profile leaks in
    m_watch.setProcessEnvironment(env);
    connect(&m_watch, &QProcess::readyReadStandardOutput, this, [this] { m_out += m_watch.readAllStandardOutput(); });
    m_watch.start(BerthCli::executable(), {u"watch"_s, u"--bootstrap"_s, m_cluster->bootstrapServers(), u"--group"_s,
                                           u"projection"_s, u"--policy"_s, policy, u"--metrics-address"_s,
                                           u"127.0.0.1:0"_s, u"--interval"_s, u"1000"_s});
    QVERIFY(m_watch.waitForStarted(10000));
    QTRY_VERIFY_WITH_TIMEOUT(m_out.contains("\"listening\""), 15000);
    const QJsonObject listening = QJsonDocument::fromJson(m_out.left(m_out.indexOf('\n'))).object();
    m_metrics = QUrl(listening.value(u"metrics"_s).toString());
    QVERIFY2(m_metrics.isValid() && m_metrics.port() > 0, m_out.constData());
}

void TestWatch::cleanupTestCase()
{
    if (m_watch.state() != QProcess::NotRunning) {
        m_watch.terminate();
        if (!m_watch.waitForFinished(10000))
            m_watch.kill();
        m_watch.waitForFinished();
    }
}

void TestWatch::metricsShowTheArrangedLag()
{
    const QString lagKey = u"berth_consumergroup_lag_messages{group=\"projection\",topic=\"orders\",partition=\"0\"}"_s;
    Exposition e;
    QTRY_VERIFY_WITH_TIMEOUT((e = parseExposition(httpGet(m_network, m_metrics))).samples.contains(lagKey), 20000);
    QVERIFY2(e.problem.isEmpty(), qPrintable(e.problem));
    QCOMPARE(e.samples.value(lagKey), double(produced - committed));
    // The time lag is the age of the record at the committed offset, about an hour.
    const double seconds = e.samples.value(
        u"berth_consumergroup_lag_seconds{group=\"projection\",topic=\"orders\",partition=\"0\"}"_s, -1);
    QVERIFY2(seconds > 3500 && seconds < 3700, qPrintable(QString::number(seconds)));
    // Exactly one status is current.
    double current = 0;
    for (const char *status : {"OK", "WARN", "REWIND", "STALL", "STOP"})
        current += e.samples.value(u"berth_consumergroup_status{group=\"projection\",status=\"%1\"}"_s.arg(QLatin1StringView(status)), -100);
    QCOMPARE(current, 1.0);
    QVERIFY(e.samples.contains(u"berth_dlq_records_total{topic=\"orders-dlt\"}"_s));
    // Every family of the contract, and nothing else.
    QStringList helped = e.helped;
    helped.sort();
    QStringList expected = metricNames;
    expected.sort();
    QCOMPARE(helped, expected);
    for (auto it = e.samples.cbegin(); it != e.samples.cend(); ++it)
        QVERIFY2(metricNames.contains(it.key().section(u'{', 0, 0)), qPrintable(it.key()));
}

void TestWatch::prometheusScrapesAndAnswersPromQl()
{
    const QString prometheus = QStandardPaths::findExecutable(u"prometheus"_s);
    QVERIFY2(!prometheus.isEmpty(), "Debian's prometheus package is part of scripts/berth.sh's PACKAGES");
    const quint16 port = freePort();
    QFile config(m_dir.filePath(u"prometheus.yml"_s));
    QVERIFY(config.open(QIODevice::WriteOnly));
    config.write(u"global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\nscrape_configs:\n  - job_name: berth\n"
                 "    static_configs:\n      - targets: ['%1:%2']\n"_s.arg(m_metrics.host()).arg(m_metrics.port()).toUtf8());
    config.close();
    QProcess server;
    server.setProcessChannelMode(QProcess::MergedChannels);
    server.start(prometheus, {u"--config.file="_s + config.fileName(), u"--storage.tsdb.path="_s + m_dir.filePath(u"tsdb"_s),
                              u"--web.listen-address=127.0.0.1:%1"_s.arg(port)});
    QVERIFY(server.waitForStarted(10000));
    auto stop = qScopeGuard([&server] {
        server.terminate();
        if (!server.waitForFinished(10000))
            server.kill();
    });
    QUrl query(u"http://127.0.0.1:%1/api/v1/query"_s.arg(port));
    query.setQuery(QUrlQuery{{u"query"_s, u"sum by (group) (berth_consumergroup_lag_messages{group=\"projection\"})"_s}});
    QJsonArray result;
    QTRY_VERIFY_WITH_TIMEOUT(
        !(result = QJsonDocument::fromJson(httpGet(m_network, query)).object().value(u"data"_s).toObject().value(u"result"_s).toArray())
             .isEmpty(),
        30000);
    const QJsonObject series = result.first().toObject();
    QCOMPARE(series.value(u"metric"_s).toObject().value(u"group"_s).toString(), u"projection"_s);
    QCOMPARE(series.value(u"value"_s).toArray().at(1).toString(), QString::number(produced - committed));
}

void TestWatch::produceDeadLetter()
{
    QString error;
    auto producer = KafkaProducer::create(m_cluster->clientProperties(), &error);
    QVERIFY2(producer, qPrintable(error));
    DlqMetadata meta;
    meta.originalTopic = u"orders"_s;
    meta.originalPartition = 0;
    meta.originalOffset = committed;
    meta.consumerGroup = u"projection"_s;
    meta.exceptionClass = u"org.apache.kafka.common.errors.SerializationException"_s;
    meta.reason = u"Unexpected character"_s;
    meta.attempts = 3;
    QVERIFY(producer->produce({u"orders-dlt"_s, 0, "k", false, "not json", encodeDlqHeaders(DlqDialect::BerthCanonical, meta), 0}));
    QVERIFY(producer->flush(10000));
}

QList<QJsonObject> TestWatch::alertLines()
{
    QList<QJsonObject> lines;
    for (const QByteArray &line : m_out.split('\n')) {
        const QJsonObject o = QJsonDocument::fromJson(line).object();
        if (o.value(u"type"_s) == u"alert"_s)
            lines << o;
    }
    return lines;
}

void TestWatch::deadLettersBecomeJsonAlertLines()
{
    // Nothing is wrong yet but the lag (whose page needs 2 minutes above 10·S): no line.
    QTest::qWait(2000);
    QVERIFY2(alertLines().isEmpty(), m_out.constData());
    // A dead letter a second until the tail (started at the end of the DLQ) has seen some.
    auto fired = [this](const QString &rule) {
        for (const QJsonObject &o : alertLines()) {
            if (o.value(u"rule"_s) == rule && o.value(u"state"_s) == u"firing"_s)
                return o;
        }
        return QJsonObject();
    };
    for (int i = 0; i < 30 && (fired(u"deserialization-failures"_s).isEmpty() || fired(u"retries-exhausted"_s).isEmpty()
                               || fired(u"dlq-arrivals"_s).isEmpty());
         ++i) {
        produceDeadLetter();
        QTest::qWait(1000);
    }
    const QJsonObject arrivals = fired(u"dlq-arrivals"_s);
    QCOMPARE(arrivals.value(u"subject"_s).toString(), u"orders-dlt"_s);
    QCOMPARE(arrivals.value(u"owner"_s).toString(), u"team-projection"_s);
    QCOMPARE(arrivals.value(u"view"_s).toString(), u"dlq"_s);
    QVERIFY(QDateTime::fromString(arrivals.value(u"firedAt"_s).toString(), Qt::ISODateWithMs).isValid());
    const QJsonObject exhausted = fired(u"retries-exhausted"_s);
    QCOMPARE(exhausted.value(u"subject"_s).toString(), u"projection"_s);
    QVERIFY2(exhausted.value(u"message"_s).toString().contains(u"3 attempts"_s), m_out.constData());
    const QJsonObject deserialization = fired(u"deserialization-failures"_s);
    QVERIFY2(deserialization.value(u"message"_s).toString().contains(u"SerializationException"_s), m_out.constData());
    // The metrics agree: the alerts are firing and the arrivals counted.
    const Exposition e = parseExposition(httpGet(m_network, m_metrics));
    QCOMPARE(e.samples.value(u"berth_alerts_firing{rule=\"dlq-arrivals\",subject=\"orders-dlt\"}"_s), 1.0);
    QVERIFY(e.samples.value(u"berth_dlq_records_total{topic=\"orders-dlt\"}"_s) >= 1);
}

void TestWatch::rulesFilePassesPromtoolAndNamesExportedMetrics()
{
    const QString rules = QFINDTESTDATA("../resources/prometheus/berth-alerts.yml");
    QVERIFY(!rules.isEmpty());
    const QString promtool = QStandardPaths::findExecutable(u"promtool"_s);
    QVERIFY(!promtool.isEmpty());
    QProcess check;
    check.setProcessChannelMode(QProcess::MergedChannels);
    check.start(promtool, {u"check"_s, u"rules"_s, rules});
    QVERIFY(check.waitForFinished(30000));
    QVERIFY2(check.exitCode() == 0, check.readAll().constData());
    // Every berth_ metric the rules read is one the watch exports.
    QFile file(rules);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(file.readAll());
    static const QRegularExpression name(u"\\bberth_[a-z_]+"_s);
    int seen = 0;
    for (auto it = name.globalMatch(text); it.hasNext(); ++seen) {
        const QString metric = it.next().captured();
        QVERIFY2(metricNames.contains(metric), qPrintable(metric));
    }
    QVERIFY(seen >= 7);
}

void TestWatch::badMetricsAddressIsRefused()
{
    const BerthCli::Result r = BerthCli::run({u"watch"_s, u"--bootstrap"_s, m_cluster->bootstrapServers(),
                                              u"--metrics-address"_s, u"localhost"_s},
                                             20000);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(u"HOST:PORT"_s), qPrintable(r.err));
}

void TestWatch::unreadableInboxIsSaidOnStderr()
{
    // A mapping whose database names nothing Berth can reach: the watch keeps running and says why.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString policy = dir.filePath(u"policy.yaml"_s);
    QFile file(policy);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("deliverySemantics:\n"
               "  consumers:\n"
               "    billing:\n"
               "      inbox:\n"
               "        database: nowhere-db\n"
               "        table: billing.inbox\n"
               "        columns: {messageId: id, status: status, updated: updated_at}\n"
               "        statuses: {working: inProgress, done: completed, failed: failedRetryable}\n");
    file.close();
    QProcess watch;
    watch.start(BerthCli::executable(), {u"watch"_s, u"--bootstrap"_s, m_cluster->bootstrapServers(), u"--policy"_s,
                                         policy, u"--interval"_s, u"1000"_s});
    QVERIFY(watch.waitForStarted(10000));
    QByteArray err;
    QTRY_VERIFY_WITH_TIMEOUT((err += watch.readAllStandardError()).contains("nowhere-db"), 20000);
    QVERIFY2(err.contains("berth watch: inbox billing: "), err.constData());
    QCOMPARE(watch.state(), QProcess::Running);
    watch.terminate();
    QVERIFY(watch.waitForFinished(15000));
    QCOMPARE(watch.exitCode(), 0);
}

void TestWatch::stopsCleanlyOnSigterm()
{
    QTRY_VERIFY_WITH_TIMEOUT(!parseExposition(httpGet(m_network, m_metrics)).samples.isEmpty(), 20000);
    m_watch.terminate(); // SIGTERM
    QVERIFY(m_watch.waitForFinished(15000));
    QCOMPARE(m_watch.exitStatus(), QProcess::NormalExit);
    QCOMPARE(m_watch.exitCode(), 0);
    QVERIFY(QString::fromUtf8(m_watch.readAllStandardError()).contains(u"berth watch: stopped"_s));
    QVERIFY(httpGet(m_network, m_metrics).isEmpty()); // the listener is gone
}

QTEST_GUILESS_MAIN(TestWatch)
#include "tst_watch.moc"
