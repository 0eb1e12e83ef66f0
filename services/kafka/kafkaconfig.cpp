#include "kafkaconfig.h"

#include "services/support/logging.h"

#include <QHash>
#include <QMutex>

using namespace Qt::StringLiterals;

namespace {
// Per client, its last error-level log line; written on librdkafka's threads, read on the caller's.
QMutex g_loggedErrorsLock;
QHash<const rd_kafka_t *, QString> g_loggedErrors;
} // namespace

void KafkaHandleDeleter::operator()(rd_kafka_t *rk) const
{
    if (!rk)
        return;
    rd_kafka_destroy(rk);
    const QMutexLocker lock(&g_loggedErrorsLock);
    g_loggedErrors.remove(rk);
}

namespace {
void routeLog(const rd_kafka_t *rk, int level, const char *facility, const char *message)
{
    // Syslog levels: 0..3 errors, 4 warning, 5..6 info, 7 debug. Called on librdkafka threads; the
    // logging framework is thread-safe, and nothing else happens here.
    const QString text = QString::fromUtf8(facility) + u": " + QString::fromUtf8(message);
    if (level <= 3) {
        qCWarning(lcKafka).noquote() << text;
        const QMutexLocker lock(&g_loggedErrorsLock);
        g_loggedErrors.insert(rk, QString::fromUtf8(message));
    } else if (level == 4)
        qCInfo(lcKafka).noquote() << text;
    else
        qCDebug(lcKafka).noquote() << text;
}
} // namespace

namespace KafkaConfig {
QString lastLoggedError(const rd_kafka_t *rk)
{
    const QMutexLocker lock(&g_loggedErrorsLock);
    return g_loggedErrors.value(rk);
}

rd_kafka_conf_t *build(const KafkaProperties &properties, QString *error)
{
    rd_kafka_conf_t *conf = rd_kafka_conf_new();
    char errstr[512];
    for (const auto &[key, value] : properties) {
        const QByteArray k = key.trimmed().toUtf8();
        const QByteArray v = value.toUtf8();
        if (rd_kafka_conf_set(conf, k.constData(), v.constData(), errstr, sizeof errstr)
            != RD_KAFKA_CONF_OK) {
            if (error)
                *error = QString::fromUtf8(errstr);
            rd_kafka_conf_destroy(conf);
            return nullptr;
        }
    }
    rd_kafka_conf_set_log_cb(conf, routeLog);
    return conf;
}

KafkaProperties readerProperties(const KafkaProperties &cluster, const ReaderOptions &options)
{
    KafkaProperties props = {{u"client.id"_s, options.clientId}};
    for (const auto &kv : cluster) {
        const QString key = kv.first.trimmed();
        // Never join a group, never commit. Never create the topic a reader looks for: librdkafka's
        // consumer default (false) holds where the profile says nothing else. It is left unset rather than
        // set to false: set, librdkafka warns (AUTOCREATE) of every metadata request it makes before it
        // knows the broker's versions, as though the broker were older than 0.11, which no cluster Berth
        // reads is (record headers need 0.11).
        if (key != u"group.id"_s && key != u"allow.auto.create.topics"_s)
            props.append(kv);
    }
    const auto setIf = [&props](const QString &key, int value) {
        if (value > 0)
            props.append({key, QString::number(value)});
    };
    setIf(u"fetch.wait.max.ms"_s, options.fetchWaitMs);
    setIf(u"fetch.message.max.bytes"_s, options.fetchPartitionBytes);
    setIf(u"fetch.max.bytes"_s, options.fetchResponseBytes);
    setIf(u"fetch.error.backoff.ms"_s, options.fetchErrorBackoffMs);
    setIf(u"queued.min.messages"_s, options.queueMinMessages);
    setIf(u"queued.max.messages.kbytes"_s, options.queueMaxKbytes);
    if (!options.groupId.isEmpty())
        props.append({u"group.id"_s, options.groupId});
    if (!options.autoOffsetReset.isEmpty())
        props.append({u"auto.offset.reset"_s, options.autoOffsetReset});
    props.append({u"enable.partition.eof"_s, u"true"_s});
    props.append({u"enable.auto.commit"_s, u"false"_s});
    props.append({u"enable.auto.offset.store"_s, u"false"_s});
    return props;
}

KafkaHandle createClient(rd_kafka_type_t type, const KafkaProperties &properties, QString *error)
{
    rd_kafka_conf_t *conf = build(properties, error);
    if (!conf)
        return {};
    char errstr[512];
    rd_kafka_t *rk = rd_kafka_new(type, conf, errstr, sizeof errstr);
    if (!rk) {
        rd_kafka_conf_destroy(conf);
        if (error)
            *error = QString::fromUtf8(errstr);
    }
    return KafkaHandle(rk);
}

QString bootstrapOf(const KafkaProperties &properties)
{
    for (const auto &[key, value] : properties) {
        if (key == u"bootstrap.servers" || key == u"metadata.broker.list")
            return value;
    }
    return {};
}

QString errorText(rd_kafka_resp_err_t err)
{
    return QString::fromUtf8(rd_kafka_err2str(err));
}
} // namespace KafkaConfig
