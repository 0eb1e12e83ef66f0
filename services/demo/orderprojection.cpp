#include "orderprojection.h"

#include "demofaults.h"
#include "demoincident.h"

#include "services/remediation/remediationtypes.h"
#include "services/support/logging.h"

#include <QJsonObject>

using namespace Qt::StringLiterals;

namespace {
const QString kOrderProjection = u"order-projection"_s;
}

OrderProjection::OrderProjection(const Config &config, std::shared_ptr<const DemoIncident> incident)
    : ReferenceConsumer(config)
    , m_incident(std::move(incident))
{
}

bool OrderProjection::incidentOver()
{
    if (!m_incident || !m_incident->fixed())
        return false;
    if (!m_fixLogged) {
        m_fixLogged = true;
        qCInfo(lcDemo).noquote() << "order-projection 2.4.1 deployed: it handles OrderTeleported events, and the "
                                    "projection database timeouts are over; the records they dead-lettered "
                                    "can be replayed (the parked ones released first)";
    }
    return true;
}

OrderProjection::~OrderProjection()
{
    stop();
}

OrderProjection::Claim OrderProjection::claim(PgSession &db, const QString &consumer, const QString &messageId)
{
    const PgResult inserted = db.exec(
        u"INSERT INTO processed_message (consumer_name, message_id, status) VALUES ($1, $2, 'IN_PROGRESS') "
        "ON CONFLICT DO NOTHING"_s,
        {consumer, messageId});
    if (!inserted.ok)
        return Claim::Failed;
    if (inserted.affected == 1)
        return Claim::Claimed;
    // Seen before. A retryable failure may be taken again; anything else is not ours to redo.
    const PgResult retaken = db.exec(
        u"UPDATE processed_message SET status = 'IN_PROGRESS', updated_at = now() "
        "WHERE consumer_name = $1 AND message_id = $2 AND status = 'FAILED_RETRYABLE'"_s,
        {consumer, messageId});
    if (retaken.ok && retaken.affected == 1)
        return Claim::Claimed;
    const PgResult status = db.exec(
        u"SELECT status FROM processed_message WHERE consumer_name = $1 AND message_id = $2"_s, {consumer, messageId});
    if (!status.ok || status.rows.isEmpty())
        return Claim::Failed;
    return status.rows.first().first().toString() == u"IN_PROGRESS" ? Claim::InFlightElsewhere : Claim::AlreadyDone;
}

void OrderProjection::setStatus(PgSession &db, const QString &consumer, const QString &messageId,
                                const QString &status, const QString &errorCode)
{
    db.exec(u"UPDATE processed_message SET status = $3, error_code = $4, updated_at = now() "
            "WHERE consumer_name = $1 AND message_id = $2"_s,
            {consumer, messageId, status, errorCode.isEmpty() ? QVariant() : QVariant(errorCode)});
}

ReferenceConsumer::Outcome OrderProjection::handle(const KafkaRecord &record)
{
    QString messageId = QString::fromUtf8(record.header("idempotency-key"));
    QString parseError;
    const QJsonObject order = parseObject(record.value, &parseError);
    if (messageId.isEmpty())
        messageId = order.value(u"eventId"_s).toString();
    if (messageId.isEmpty()) {
        deadLetter(record, DlqDialect::SpringDlt,
                   {.exceptionClass = u"org.springframework.kafka.listener.ListenerExecutionFailedException"_s,
                    .causeClass = u"java.lang.IllegalArgumentException"_s,
                    .reason = u"Message has no id: cannot deduplicate"_s, .attempts = 1});
        return Outcome::Done;
    }

    switch (claim(db(), kOrderProjection, messageId)) {
    case Claim::Claimed: break;
    case Claim::AlreadyDone: countDuplicate(); return Outcome::Duplicate;
    case Claim::InFlightElsewhere: countDuplicate(); return Outcome::Duplicate; // the stuck row stays stuck
    case Claim::Failed:
        db().close(); // database trouble: reconnect, and do not commit (the record comes again)
        return Outcome::Crash;
    }

    const qint64 seq = order.value(u"seq"_s).toInteger(-1);
    // The instance dies mid-message on the record's first delivery: what died was the process, not the
    // message, so a reclaim's replay of it (berth-replay-id) is processed.
    if (seq >= 0 && DemoFaults::crashWhileInProgress(seq)
        && record.header(RemediationHeaders::ReplayId).isEmpty())
        return Outcome::Crash;

    if (!parseError.isEmpty()) {
        setStatus(db(), kOrderProjection, messageId, u"FAILED_TERMINAL"_s, u"DESERIALIZATION"_s);
        deadLetter(record, DlqDialect::SpringDlt,
                   {.exceptionClass = u"org.springframework.kafka.listener.ListenerExecutionFailedException"_s,
                    .causeClass = u"com.fasterxml.jackson.core.JsonParseException"_s,
                    .reason = parseError,
                    .stackTrace = u"com.fasterxml.jackson.core.JsonParseException: "_s + parseError
                                + u"\n\tat com.fasterxml.jackson.core.JsonParser._constructError(JsonParser.java:2477)"
                                  "\n\tat com.example.orders.OrderListener.onOrder(OrderListener.java:58)",
                    .attempts = 1});
        return Outcome::Done;
    }
    // OrderPlaced and OrderAmended both upsert, whatever the `version` says: this projection does not
    // guard its order (seed 000 §21), which is what a delivery accounting's sequence check reveals. Since
    // the fix (2.4.1), OrderTeleported (an order moved to another warehouse) upserts as well.
    const QString type = order.value(u"type"_s).toString();
    const bool fixed = incidentOver();
    const bool handled = type == u"OrderPlaced" || type == u"OrderAmended" || (fixed && type == u"OrderTeleported");
    if (!handled) {
        setStatus(db(), kOrderProjection, messageId, u"PARKED"_s, u"UNKNOWN_EVENT_TYPE"_s);
        deadLetter(record, DlqDialect::SpringDlt,
                   {.exceptionClass = u"org.springframework.kafka.listener.ListenerExecutionFailedException"_s,
                    .causeClass = u"com.example.orders.UnknownEventTypeException"_s,
                    .reason = u"No handler for event type "_s + order.value(u"type"_s).toString() + u" (order "
                            + order.value(u"orderId"_s).toString() + u")",
                    .attempts = 1});
        return Outcome::Done;
    }
    if (order.value(u"amount"_s).toDouble() <= 0) {
        setStatus(db(), kOrderProjection, messageId, u"FAILED_TERMINAL"_s, u"VALIDATION"_s);
        deadLetter(record, DlqDialect::SpringDlt,
                   {.exceptionClass = u"org.springframework.kafka.listener.ListenerExecutionFailedException"_s,
                    .causeClass = u"jakarta.validation.ConstraintViolationException"_s,
                    .reason = u"amount must be greater than 0 but was "_s
                            + QString::number(order.value(u"amount"_s).toDouble(), 'f', 2) + u" for order "
                            + order.value(u"orderId"_s).toString(),
                    .attempts = 1});
        return Outcome::Done;
    }

    const int failures = seq >= 0 ? DemoFaults::transientFailures(seq, fixed) : 0;
    for (int attempt = 1; attempt <= DemoFaults::maxAttempts; ++attempt) {
        if (attempt <= failures) {
            setStatus(db(), kOrderProjection, messageId, u"FAILED_RETRYABLE"_s, u"DB_TIMEOUT"_s);
            if (attempt < DemoFaults::maxAttempts) {
                backoff(attempt);
                continue;
            }
            // Retry budget spent: keep it retryable in the inbox and hand it to the DLQ owner.
            deadLetter(record, DlqDialect::SpringDlt,
                       {.exceptionClass = u"org.springframework.kafka.listener.ListenerExecutionFailedException"_s,
                        .causeClass = u"org.springframework.dao.QueryTimeoutException"_s,
                        .reason = u"Projection update timed out after 3000 ms (attempt "_s + QString::number(attempt) + u")",
                        .attempts = attempt});
            return Outcome::Done;
        }
        // The side effect and the inbox row change in one transaction.
        db().exec(u"BEGIN"_s);
        const PgResult effect = db().exec(
            u"INSERT INTO order_projection (order_id, customer, amount, version) VALUES ($1, $2, $3, 1) "
            "ON CONFLICT (order_id) DO UPDATE SET amount = EXCLUDED.amount, version = order_projection.version + 1, "
            "updated_at = now()"_s,
            {order.value(u"orderId"_s).toString(), order.value(u"customer"_s).toString(), order.value(u"amount"_s).toDouble()});
        const PgResult done = db().exec(
            u"UPDATE processed_message SET status = 'COMPLETED', error_code = NULL, updated_at = now() "
            "WHERE consumer_name = $1 AND message_id = $2"_s,
            {kOrderProjection, messageId});
        db().exec(effect.ok && done.ok ? u"COMMIT"_s : u"ROLLBACK"_s);
        if (!effect.ok || !done.ok)
            return Outcome::Crash;
        break;
    }
    if (seq >= 0 && DemoFaults::crashBeforeCommit(seq))
        return Outcome::Crash; // the effect is committed, the offset is not: a redelivery follows
    return Outcome::Done;
}
