#include "paymentcapture.h"

#include "demofaults.h"

#include <QJsonObject>

using namespace Qt::StringLiterals;

PaymentCapture::PaymentCapture(const Config &config)
    : ReferenceConsumer(config)
{
}

PaymentCapture::~PaymentCapture()
{
    stop();
}

void PaymentCapture::fail(const QString &key, const QString &error)
{
    db().exec(u"UPDATE processed_events SET status = 'FAILED', last_error = $2, updated_at = now() "
              "WHERE idempotency_key = $1"_s,
              {key, error});
}

ReferenceConsumer::Outcome PaymentCapture::handle(const KafkaRecord &record)
{
    const QString key = QString::fromUtf8(record.header("idempotency-key"));
    const QString group = config().group;
    // Interceptor step (seed 001): record the key, or learn that it was seen before.
    db().exec(u"BEGIN"_s);
    const PgResult existing =
        db().exec(u"SELECT status, attempt_count FROM processed_events WHERE idempotency_key = $1 FOR UPDATE"_s, {key});
    if (!existing.ok) {
        db().exec(u"ROLLBACK"_s);
        db().close();
        return Outcome::Crash;
    }
    int attempts = 1;
    if (existing.rows.isEmpty()) {
        db().exec(u"INSERT INTO processed_events (idempotency_key, consumer_group, topic, status) "
                  "VALUES ($1, $2, $3, 'RECEIVED')"_s,
                  {key, group, record.topic});
    } else if (existing.rows.first().first().toString() == u"COMPLETED") {
        db().exec(u"ROLLBACK"_s);
        countDuplicate();
        return Outcome::Duplicate; // hard duplicate: discard
    } else {
        attempts = int(existing.rows.first().at(1).toLongLong()) + 1; // a retry re-enters PROCESSING
    }
    db().exec(u"UPDATE processed_events SET status = 'PROCESSING', attempt_count = $2, updated_at = now() "
              "WHERE idempotency_key = $1"_s,
              {key, attempts});
    db().exec(u"COMMIT"_s);

    QString parseError;
    const QJsonObject payment = parseObject(record.value, &parseError);
    const qint64 seq = payment.value(u"seq"_s).toInteger(-1);
    const double amount = payment.value(u"amount"_s).toDouble();
    if (!parseError.isEmpty() || amount <= 0 || payment.value(u"currency"_s).toString().isEmpty()) {
        const QString reason = !parseError.isEmpty()
                                 ? parseError
                                 : u"Invalid capture request for "_s + payment.value(u"paymentId"_s).toString()
                                       + u": amount " + QString::number(amount, 'f', 2) + u", currency '"
                                       + payment.value(u"currency"_s).toString() + u"'";
        fail(key, reason);
        deadLetter(record, DlqDialect::BerthCanonical,
                   {.exceptionClass = u"com.example.payments.InvalidCaptureException"_s, .reason = reason,
                    .attempts = attempts, .schemaVersion = QString::fromUtf8(record.header("schema-version"))});
        return Outcome::Done;
    }

    const int failures = seq >= 0 ? DemoFaults::transientFailures(seq) : 0;
    for (int attempt = 1; attempt <= DemoFaults::maxAttempts; ++attempt, ++attempts) {
        if (attempt <= failures) {
            const QString error = u"Provider timeout after 2500 ms (stripe, attempt "_s + QString::number(attempt) + u")";
            fail(key, error);
            if (attempt < DemoFaults::maxAttempts) {
                backoff(attempt);
                db().exec(u"UPDATE processed_events SET status = 'PROCESSING', attempt_count = attempt_count + 1, "
                          "updated_at = now() WHERE idempotency_key = $1"_s,
                          {key});
                continue;
            }
            deadLetter(record, DlqDialect::BerthCanonical,
                       {.exceptionClass = u"com.example.payments.ProviderTimeoutException"_s, .reason = error,
                        .attempts = attempts, .schemaVersion = QString::fromUtf8(record.header("schema-version"))});
            return Outcome::Done;
        }
        db().exec(u"BEGIN"_s);
        const QString paymentId = payment.value(u"paymentId"_s).toString();
        const PgResult capture = db().exec(
            u"INSERT INTO payment_capture (payment_id, order_id, amount) VALUES ($1, $2, $3) "
            "ON CONFLICT (payment_id) DO NOTHING"_s,
            {paymentId, payment.value(u"orderId"_s).toString(), amount});
        const PgResult outbox = db().exec(
            u"INSERT INTO outbox (aggregate_id, topic, event_type, payload) "
            "VALUES ($1, 'payment-events', 'PaymentCaptured', $2::jsonb)"_s,
            {paymentId, QString::fromUtf8(record.value)});
        const PgResult done = db().exec(
            u"UPDATE processed_events SET status = 'COMPLETED', last_error = NULL, updated_at = now() "
            "WHERE idempotency_key = $1"_s,
            {key});
        const bool ok = capture.ok && outbox.ok && done.ok;
        db().exec(ok ? u"COMMIT"_s : u"ROLLBACK"_s);
        if (!ok)
            return Outcome::Crash;
        break;
    }
    if (seq >= 0 && DemoFaults::crashBeforeCommit(seq))
        return Outcome::Crash;
    return Outcome::Done;
}
