#include "kafkaconfig.h"

#include "services/support/logging.h"

using namespace Qt::StringLiterals;

void KafkaHandleDeleter::operator()(rd_kafka_t *rk) const
{
    if (rk)
        rd_kafka_destroy(rk);
}

namespace {
void routeLog(const rd_kafka_t *, int level, const char *facility, const char *message)
{
    // Syslog levels: 0..3 errors, 4 warning, 5..6 info, 7 debug. Called on librdkafka threads; the
    // logging framework is thread-safe, and nothing else happens here.
    const QString text = QString::fromUtf8(facility) + u": " + QString::fromUtf8(message);
    if (level <= 3)
        qCWarning(lcKafka).noquote() << text;
    else if (level == 4)
        qCInfo(lcKafka).noquote() << text;
    else
        qCDebug(lcKafka).noquote() << text;
}
}

namespace KafkaConfig {
rd_kafka_conf_t *build(const KafkaProperties &properties, QString *error)
{
    rd_kafka_conf_t *conf = rd_kafka_conf_new();
    char errstr[512];
    for (const auto &[key, value] : properties) {
        const QByteArray k = key.trimmed().toUtf8();
        const QByteArray v = value.toUtf8();
        if (rd_kafka_conf_set(conf, k.constData(), v.constData(), errstr, sizeof errstr) != RD_KAFKA_CONF_OK) {
            if (error)
                *error = QString::fromUtf8(errstr);
            rd_kafka_conf_destroy(conf);
            return nullptr;
        }
    }
    rd_kafka_conf_set_log_cb(conf, routeLog);
    return conf;
}

KafkaProperties readerProperties(const KafkaProperties &cluster, const QString &clientId)
{
    KafkaProperties props = {{u"client.id"_s, clientId}};
    for (const auto &kv : cluster) {
        if (kv.first.trimmed() != u"group.id"_s)
            props.append(kv);
    }
    props.append({u"enable.partition.eof"_s, u"true"_s});
    props.append({u"enable.auto.commit"_s, u"false"_s});
    props.append({u"allow.auto.create.topics"_s, u"false"_s});
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
}
