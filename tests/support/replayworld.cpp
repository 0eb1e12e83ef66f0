#include "replayworld.h"

#include "services/audit/auditmigrator.h"
#include "services/audit/auditstore.h"
#include "services/dlq/dlqheadercodec.h"
#include "services/kafka/kafkaproducer.h"
#include "services/remediation/topicrangereader.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>

using namespace Qt::StringLiterals;

namespace {
// alice may request and execute, bob may approve; neither may do the other's part.
const char16_t PeopleScript[] = uR"(
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'alice') THEN CREATE ROLE alice LOGIN; END IF;
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'bob') THEN CREATE ROLE bob LOGIN; END IF;
END
$$;
GRANT berth_operator TO alice;
GRANT berth_approver TO bob;
SET client_min_messages = error;
REVOKE berth_approver FROM alice;
REVOKE berth_operator FROM bob;
RESET client_min_messages;
)";
} // namespace

ReplayWorld::ReplayWorld() = default;
ReplayWorld::~ReplayWorld() = default;

QString ReplayWorld::conninfo(const QString &user) const
{
    return m_pg->conninfo(user, m_database);
}

bool ReplayWorld::start(const QString &database, QString *error, int dlqPartitions, int originalPartitions,
                        const QString &sharedBuffers)
{
    m_dlqPartitions = dlqPartitions;
    m_cluster = std::make_unique<MockKafkaCluster>(3);
    if (!m_cluster->isValid()) {
        *error = m_cluster->error();
        return false;
    }
    m_pg = std::make_unique<TempPostgres>();
    if (!sharedBuffers.isEmpty())
        m_pg->setSharedBuffers(sharedBuffers);
    if (!m_pg->start(error))
        return false;
    m_database = database;
    if (!m_pg->exec(u"DROP DATABASE IF EXISTS %1"_s.arg(database), error)
        || !m_pg->exec(u"CREATE DATABASE %1"_s.arg(database), error)
        || !m_admin.connect(m_pg->conninfo(u"postgres"_s, database), error))
        return false;
    const AuditMigrationOutcome migrated = AuditMigrator::migrate(m_admin);
    if (!migrated.ok) {
        *error = migrated.error;
        return false;
    }
    if (!m_admin.execScript(QString::fromUtf16(PeopleScript), error)
        || !m_alice.connect(conninfo(u"alice"_s), error) || !m_bob.connect(conninfo(u"bob"_s), error))
        return false;
    if (!m_cluster->createTopic(QString::fromLatin1(DlqTopic), dlqPartitions)
        || !m_cluster->createTopic(QString::fromLatin1(OriginalTopic), originalPartitions)) {
        *error = u"cannot create the topics"_s;
        return false;
    }
    return true;
}

QByteArray ReplayWorld::payloadFor(int i, int payloadBytes)
{
    QByteArray value = R"({"order":)" + QByteArray::number(i) + R"(,"note":")";
    const qsizetype pad = std::max<qsizetype>(payloadBytes - value.size() - 2, 0);
    return value + QByteArray(pad, 'x') + "\"}";
}

QByteArray ReplayWorld::payloadLines(int first, int count, int keys, int payloadBytes)
{
    QByteArray out;
    for (int i = first; i < first + count; ++i)
        out += "order-" + QByteArray::number(i % keys) + '\t' + payloadFor(i, payloadBytes) + '\n';
    return out;
}

qint64 ReplayWorld::produceDeadLetter(const QByteArray &key, const QByteArray &value, qint64 originalOffset,
                                      QString *error)
{
    std::unique_ptr<KafkaProducer> producer = KafkaProducer::create(kafka(), error);
    if (!producer)
        return -1;
    DlqMetadata m;
    m.originalTopic = QString::fromLatin1(OriginalTopic);
    m.originalPartition = 0;
    m.originalOffset = originalOffset;
    OutgoingRecord r;
    r.topic = QString::fromLatin1(DlqTopic);
    r.partition = 0;
    r.key = key;
    r.value = value;
    r.headers = encodeDlqHeaders(DlqDialect::BerthCanonical, m);
    if (!producer->produce(r, error) || !producer->flush(10'000, error))
        return -1;
    const qint64 end = endOffsetSum(r.topic, error);
    return m_dlqPartitions == 1 && end > 0 ? end - 1 : -1;
}

bool ReplayWorld::seedDlq(int first, int count, int keys, QString *error, int payloadBytes)
{
    std::unique_ptr<KafkaProducer> producer =
        KafkaProducer::create(kafka() + KafkaProperties{{u"linger.ms"_s, u"20"_s}}, error);
    if (!producer)
        return false;
    for (int i = first; i < first + count; ++i) {
        OutgoingRecord r;
        r.topic = QString::fromLatin1(DlqTopic);
        r.partition = i % m_dlqPartitions;
        r.key = "order-" + QByteArray::number(i % keys);
        r.value = payloadFor(i, payloadBytes);
        r.headers = {
            {"trace-id", "trace-" + QByteArray::number(i)},
            {"idempotency-key", "idem-" + QByteArray::number(i)},
            {"dlq-original-topic", OriginalTopic},
            {"dlq-original-partition", "0"},
            {"dlq-original-offset", QByteArray::number(i)},
            {"dlq-consumer", Consumer},
            {"dlq-reason", "projection failed: order " + QByteArray::number(i)},
            {"dlq-exception-class", "java.lang.IllegalStateException"},
            {"dlq-attempts", "3"},
        };
        if (!producer->produce(r, error))
            return false;
    }
    if (!producer->flush(30'000, error))
        return false;
    if (producer->failed() > 0) {
        *error = u"seeding the DLQ: "_s + producer->lastDeliveryError();
        return false;
    }
    return true;
}

QList<DlqSelection> ReplayWorld::dlqRange(qint64 from, qint64 to) const
{
    QList<DlqSelection> out;
    out.reserve(to - from);
    for (qint64 i = from; i < to; ++i)
        out.append({QString::fromLatin1(DlqTopic), int(i % m_dlqPartitions), i / m_dlqPartitions});
    return out;
}

qint64 ReplayWorld::request(const RequestDraft &draft, QString *error, BuiltRequest *builtOut)
{
    RequestBuilderContext context;
    context.cluster = kafka();
    const BuiltRequest built = RequestBuilder::build(draft, context);
    if (builtOut)
        *builtOut = built;
    AuditStore store(m_alice);
    return RequestBuilder::submit(store, built, error);
}

bool ReplayWorld::approve(qint64 requestId, QString *error)
{
    AuditStore store(m_bob);
    return store.approve(requestId, u"looks right"_s, error);
}

QVariant ReplayWorld::scalar(const QString &sql, const QVariantList &params)
{
    const PgResult r = m_admin.exec(sql, params);
    if (!r.ok)
        qWarning().noquote() << r.error;
    return r.rows.value(0).value(0);
}

QString ReplayWorld::statusOf(qint64 requestId)
{
    return scalar(u"SELECT status FROM berth.requests WHERE id = $1"_s, {requestId}).toString();
}

QList<QJsonObject> ReplayWorld::kcatRead(const QString &topic, QString *error) const
{
    QProcess kcat;
    kcat.start(u"kcat"_s, {u"-C"_s, u"-b"_s, bootstrap(), u"-t"_s, topic, u"-o"_s, u"beginning"_s, u"-e"_s,
                           u"-J"_s, u"-q"_s});
    if (!kcat.waitForFinished(120'000) || kcat.exitStatus() != QProcess::NormalExit || kcat.exitCode() != 0) {
        *error = u"kcat failed: "_s + QString::fromUtf8(kcat.readAllStandardError());
        return {};
    }
    QList<QJsonObject> out;
    const QList<QByteArray> lines = kcat.readAllStandardOutput().split('\n');
    for (const QByteArray &line : lines) {
        if (line.trimmed().isEmpty())
            continue;
        QJsonParseError parse;
        const QJsonDocument doc = QJsonDocument::fromJson(line, &parse);
        if (!doc.isObject()) {
            *error = u"kcat printed something that is not JSON: "_s + QString::fromUtf8(line.left(200));
            return {};
        }
        out.append(doc.object());
    }
    std::stable_sort(out.begin(), out.end(), [](const QJsonObject &a, const QJsonObject &b) {
        const int pa = a.value(u"partition"_s).toInt();
        const int pb = b.value(u"partition"_s).toInt();
        return pa != pb ? pa < pb : a.value(u"offset"_s).toInteger() < b.value(u"offset"_s).toInteger();
    });
    return out;
}

qint64 ReplayWorld::endOffsetSum(const QString &topic, QString *error) const
{
    std::unique_ptr<TopicRangeReader> reader = TopicRangeReader::create(kafka(), error);
    if (!reader)
        return -1;
    const int partitions = reader->partitionCount(topic, 10'000, error);
    qint64 sum = 0;
    for (int p = 0; p < partitions; ++p) {
        qint64 low = 0;
        qint64 high = 0;
        if (!reader->watermarks(topic, p, &low, &high, 10'000, error))
            return -1;
        sum += high;
    }
    return partitions < 0 ? -1 : sum;
}

QMultiHash<QString, QString> kcatHeaders(const QJsonObject &record)
{
    QMultiHash<QString, QString> out;
    const QJsonArray flat = record.value(u"headers"_s).toArray();
    for (qsizetype i = 0; i + 1 < flat.size(); i += 2)
        out.insert(flat.at(i).toString(), flat.at(i + 1).toString());
    return out;
}
