#pragma once

#include "services/kafka/kafkarecord.h"
#include "services/policy/deliverypolicy.h"

#include <QByteArray>
#include <QJsonDocument>

#include <librdkafka/rdkafka.h>

// Takes a policy-named value (RecordField: a header, a JSON path, the record key) out of a consumed
// record: the accounting's idempotency key and sequence number, the key a request item's digest names. The
// record is librdkafka's message or a copy of one (KafkaRecord); either is read the same way. The value is
// parsed as JSON at most once per record however many fields read it.
class RecordFieldValue final {
public:
    explicit RecordFieldValue(const rd_kafka_message_t *message)
        : m_message(message)
    {
    }
    explicit RecordFieldValue(const KafkaRecord &record)
        : m_record(&record)
    {
    }

    enum class Outcome { Found, Missing, NotJson };
    // The field as bytes (a JSON string's text, a number's decimal digits).
    Outcome bytes(const RecordField &field, QByteArray *out);
    // The same without a copy: into the message (record key, header) or this object (a JSON value); valid
    // while both live and until the next call.
    Outcome view(const RecordField &field, QByteArrayView *out);
    // The field as a whole number (a JSON integer, or decimal text in a header or string).
    Outcome integer(const RecordField &field, qint64 *out);

    // `$.a.b`, `a.b` or `$.items[0].id` into a parsed document; Undefined when absent.
    static QJsonValue walk(const QJsonDocument &document, QStringView path);

private:
    // One of the two is set.
    const rd_kafka_message_t *m_message = nullptr;
    const KafkaRecord *m_record = nullptr;
    bool m_parsed = false;
    QJsonDocument m_document;
    QByteArray m_text; // a JSON value's bytes, for view()
};
