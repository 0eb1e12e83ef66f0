#include "emailsender.h"

#include "demofaults.h"

#include <QJsonObject>

#include <cmath>

using namespace Qt::StringLiterals;

namespace {
const QString kEmailSender = u"email-sender"_s;
}

EmailSender::EmailSender(const Config &config, double speed)
    : ReferenceConsumer(config)
    , m_speed(speed)
{
    m_clock.start();
}

EmailSender::~EmailSender()
{
    stop();
}

int EmailSender::processingDelayMs()
{
    // A 90-second wave: from about 2.5 messages/s (slower than traffic: lag builds) to 20/s (it drains).
    const double phase = std::sin(double(m_clock.elapsed()) / 90000.0 * 2.0 * M_PI);
    return int((220.0 + 170.0 * phase) / m_speed);
}

namespace {
// email-sender's own inbox (mailer.delivery_log, resources/sql/demo_notifications.sql): received, sent,
// bounced (taken again on redelivery), gave_up; times in epoch milliseconds.
enum class MailClaim { Claimed, Done, Failed };

MailClaim claimDelivery(PgSession &db, const QString &key)
{
    const PgResult inserted = db.exec(
        u"INSERT INTO mailer.delivery_log (notification_key, outcome) VALUES ($1, 'received') "
        "ON CONFLICT DO NOTHING"_s,
        {key});
    if (!inserted.ok)
        return MailClaim::Failed;
    if (inserted.affected == 1)
        return MailClaim::Claimed;
    const PgResult retaken = db.exec(
        u"UPDATE mailer.delivery_log SET outcome = 'received', tries = tries + 1, "
        "changed_ms = (extract(epoch FROM now()) * 1000)::bigint WHERE notification_key = $1 AND outcome = 'bounced'"_s,
        {key});
    if (!retaken.ok)
        return MailClaim::Failed;
    return retaken.affected == 1 ? MailClaim::Claimed : MailClaim::Done;
}

void setOutcome(PgSession &db, const QString &key, const QString &outcome, const QString &failure)
{
    db.exec(u"UPDATE mailer.delivery_log SET outcome = $2, failure = $3, "
            "changed_ms = (extract(epoch FROM now()) * 1000)::bigint WHERE notification_key = $1"_s,
            {key, outcome, failure.isEmpty() ? QVariant() : QVariant(failure)});
}
} // namespace

ReferenceConsumer::Outcome EmailSender::handle(const KafkaRecord &record)
{
    QString parseError;
    const QJsonObject mail = parseObject(record.value, &parseError);
    QString messageId = QString::fromUtf8(record.header("idempotency-key"));
    if (messageId.isEmpty())
        messageId = mail.value(u"messageId"_s).toString();
    if (parseError.isEmpty() && DemoFaults::commitBeforeSideEffect(mail.value(u"seq"_s).toInteger(-1)))
        return Outcome::Done; // committed, then gone before the claim: nothing records the message
    switch (claimDelivery(db(), messageId)) {
    case MailClaim::Claimed: break;
    case MailClaim::Done: countDuplicate(); return Outcome::Duplicate;
    case MailClaim::Failed: db().close(); return Outcome::Crash;
    }
    const QString to = mail.value(u"to"_s).toString();
    if (!parseError.isEmpty() || !to.contains(u'@')) {
        const QString reason = parseError.isEmpty() ? u"Invalid recipient address '"_s + to + u"'" : parseError;
        setOutcome(db(), messageId, u"gave_up"_s, u"invalid recipient"_s);
        deadLetter(record, DlqDialect::SpringCloudStream,
                   {.exceptionClass = u"org.springframework.messaging.MessagingException"_s,
                    .reason = reason,
                    .stackTrace = u"org.springframework.messaging.MessagingException: "_s + reason
                                + u"\n\tat com.example.mail.EmailSender.send(EmailSender.java:41)"});
        return Outcome::Done;
    }
    db().exec(u"BEGIN"_s);
    const PgResult sent = db().exec(u"INSERT INTO mailer.email_sent (message_id, recipient) VALUES ($1, $2) "
                                    "ON CONFLICT DO NOTHING"_s,
                                    {messageId, to});
    const PgResult done = db().exec(u"UPDATE mailer.delivery_log SET outcome = 'sent', "
                                    "changed_ms = (extract(epoch FROM now()) * 1000)::bigint "
                                    "WHERE notification_key = $1"_s,
                                    {messageId});
    db().exec(sent.ok && done.ok ? u"COMMIT"_s : u"ROLLBACK"_s);
    return sent.ok && done.ok ? Outcome::Done : Outcome::Crash;
}

WarehouseSink::WarehouseSink(const Config &config)
    : ReferenceConsumer(config)
{
}

WarehouseSink::~WarehouseSink()
{
    stop();
}

ReferenceConsumer::Outcome WarehouseSink::handle(const KafkaRecord &record)
{
    QString parseError;
    parseObject(record.value, &parseError);
    if (!parseError.isEmpty()) {
        deadLetter(record, DlqDialect::KafkaConnect,
                   {.exceptionClass = u"org.apache.kafka.connect.errors.DataException"_s,
                    .reason = u"Converting byte[] to Kafka Connect data failed due to serialization error: "_s + parseError,
                    .stackTrace = u"org.apache.kafka.connect.errors.DataException: Converting byte[] to Kafka Connect "
                                  "data failed due to serialization error\n\tat org.apache.kafka.connect.json."
                                  "JsonConverter.toConnectData(JsonConverter.java:324)"_s,
                    .connectorName = u"warehouse-sink"_s, .connectorTask = u"0"_s,
                    .connectorStage = u"VALUE_CONVERTER"_s,
                    .connectorClass = u"org.apache.kafka.connect.json.JsonConverter"_s});
    }
    return Outcome::Done;
}
