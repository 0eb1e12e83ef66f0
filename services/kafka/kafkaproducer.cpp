#include "kafkaproducer.h"

#include <QDateTime>

using namespace Qt::StringLiterals;

std::unique_ptr<KafkaProducer> KafkaProducer::create(const KafkaProperties &properties, QString *error)
{
    KafkaProperties all = {{u"enable.idempotence"_s, u"true"_s}, {u"acks"_s, u"all"_s}, {u"linger.ms"_s, u"5"_s}};
    all.append(properties);
    rd_kafka_conf_t *conf = KafkaConfig::build(all, error);
    if (!conf)
        return {};
    std::unique_ptr<KafkaProducer> producer(new KafkaProducer);
    rd_kafka_conf_set_dr_msg_cb(conf, &KafkaProducer::onDelivery);
    rd_kafka_conf_set_opaque(conf, producer.get());
    char errstr[512];
    rd_kafka_t *rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, errstr, sizeof errstr);
    if (!rk) {
        rd_kafka_conf_destroy(conf);
        if (error)
            *error = QString::fromUtf8(errstr);
        return {};
    }
    producer->m_rk.reset(rk);
    return producer;
}

KafkaProducer::~KafkaProducer()
{
    if (m_rk)
        rd_kafka_flush(m_rk.get(), 2000);
    for (rd_kafka_topic_t *handle : std::as_const(m_topics)) {
        if (handle)
            rd_kafka_topic_destroy(handle);
    }
}

rd_kafka_topic_t *KafkaProducer::topicHandle(const QString &topic)
{
    rd_kafka_topic_t *&handle = m_topics[topic];
    if (!handle)
        handle = rd_kafka_topic_new(m_rk.get(), topic.toUtf8().constData(), nullptr);
    return handle;
}

void KafkaProducer::onDelivery(rd_kafka_t *, const rd_kafka_message_t *message, void *opaque)
{
    // Runs inside rd_kafka_poll/flush on the producing thread: counting only.
    auto *self = static_cast<KafkaProducer *>(opaque);
    if (message->err) {
        ++self->m_failed;
        self->m_lastError = QString::fromUtf8(rd_kafka_err2str(message->err));
    } else {
        ++self->m_delivered;
    }
    if (self->m_handler) {
        DeliveryReport report;
        report.tag = quint64(reinterpret_cast<quintptr>(message->_private));
        report.partition = message->partition;
        report.offset = message->offset;
        report.error = message->err;
        report.possiblyPersisted =
            message->err && rd_kafka_message_status(message) == RD_KAFKA_MSG_STATUS_POSSIBLY_PERSISTED;
        self->m_handler(report);
    }
}

void KafkaProducer::poll(int timeoutMs)
{
    rd_kafka_poll(m_rk.get(), timeoutMs);
}

int KafkaProducer::outstanding() const
{
    return rd_kafka_outq_len(m_rk.get());
}

bool KafkaProducer::produceTagged(const OutgoingRecord &record, quint64 tag, QString *error)
{
    return produceImpl(record, reinterpret_cast<void *>(quintptr(tag)), error);
}

QString KafkaProducer::lastDeliveryError() const
{
    return m_lastError;
}

bool KafkaProducer::produce(const OutgoingRecord &record, QString *error)
{
    return produceImpl(record, nullptr, error);
}

void KafkaProducer::prepareTopic(const QString &topic)
{
    // A topic handle starts the look-up; librdkafka keeps the topic (and what it learns) after the handle
    // goes.
    if (rd_kafka_topic_t *handle = rd_kafka_topic_new(m_rk.get(), topic.toUtf8().constData(), nullptr))
        rd_kafka_topic_destroy(handle);
}

bool KafkaProducer::produceImpl(const OutgoingRecord &record, void *opaque, QString *error)
{
    rd_kafka_headers_t *headers = rd_kafka_headers_new(record.headers.size());
    for (const auto &h : record.headers)
        rd_kafka_header_add(headers, h.name.constData(), h.name.size(), h.isNull ? nullptr : h.value.constData(),
                            h.isNull ? 0 : h.value.size());
    rd_kafka_topic_t *topic = topicHandle(record.topic);
    if (!topic) {
        rd_kafka_headers_destroy(headers);
        if (error)
            *error = u"Cannot produce to "_s + record.topic + u": "
                     + QString::fromUtf8(rd_kafka_err2str(rd_kafka_last_error()));
        return false;
    }
    for (;;) {
        const rd_kafka_resp_err_t err = rd_kafka_producev(
            m_rk.get(), RD_KAFKA_V_RKT(topic),
            RD_KAFKA_V_PARTITION(record.partition < 0 ? RD_KAFKA_PARTITION_UA : record.partition),
            RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
            RD_KAFKA_V_KEY(record.keyIsNull ? nullptr : record.key.constData(),
                           record.keyIsNull ? 0 : record.key.size()),
            // constData() of an empty QByteArray is never nullptr: without the flag librdkafka sends "".
            RD_KAFKA_V_VALUE(record.valueIsNull ? nullptr : const_cast<char *>(record.value.constData()),
                             record.valueIsNull ? 0 : size_t(record.value.size())),
            RD_KAFKA_V_HEADERS(headers), RD_KAFKA_V_TIMESTAMP(record.timestampMs), RD_KAFKA_V_OPAQUE(opaque),
            RD_KAFKA_V_END);
        if (err == RD_KAFKA_RESP_ERR_NO_ERROR) {
            rd_kafka_poll(m_rk.get(), 0); // serve delivery reports as we go
            return true;                  // librdkafka owns the headers now
        }
        if (err == RD_KAFKA_RESP_ERR__QUEUE_FULL) {
            rd_kafka_poll(m_rk.get(), 50);
            continue;
        }
        rd_kafka_headers_destroy(headers);
        if (error)
            *error = u"Cannot produce to "_s + record.topic + u": " + QString::fromUtf8(rd_kafka_err2str(err));
        return false;
    }
}

bool KafkaProducer::flush(int timeoutMs, QString *error)
{
    const rd_kafka_resp_err_t err = rd_kafka_flush(m_rk.get(), timeoutMs);
    if (err && error)
        *error = u"Flush incomplete: "_s + QString::fromUtf8(rd_kafka_err2str(err));
    return err == RD_KAFKA_RESP_ERR_NO_ERROR;
}
