#include "services/accounting/recordfieldvalue.h"

#include <QJsonArray>
#include <QJsonObject>

#include <cmath>

QJsonValue RecordFieldValue::walk(const QJsonDocument &document, QStringView path)
{
    if (path.startsWith(u'$'))
        path = path.sliced(1);
    QJsonValue value = document.isArray() ? QJsonValue(document.array()) : QJsonValue(document.object());
    qsizetype i = 0;
    while (i < path.size()) {
        if (path[i] == u'.') {
            ++i;
            continue;
        }
        if (path[i] == u'[') {
            const qsizetype close = path.indexOf(u']', i);
            if (close < 0)
                return QJsonValue::Undefined;
            bool ok = false;
            const int index = path.sliced(i + 1, close - i - 1).toInt(&ok);
            if (!ok || !value.isArray())
                return QJsonValue::Undefined;
            value = value.toArray().at(index);
            i = close + 1;
            continue;
        }
        qsizetype end = i;
        while (end < path.size() && path[end] != u'.' && path[end] != u'[')
            ++end;
        if (!value.isObject())
            return QJsonValue::Undefined;
        value = value.toObject().value(path.sliced(i, end - i));
        i = end;
    }
    return value;
}

RecordFieldValue::Outcome RecordFieldValue::bytes(const RecordField &field, QByteArray *out)
{
    QByteArrayView found;
    const Outcome outcome = view(field, &found);
    if (outcome == Outcome::Found)
        *out = found.toByteArray();
    return outcome;
}

RecordFieldValue::Outcome RecordFieldValue::view(const RecordField &field, QByteArrayView *out)
{
    switch (field.kind) {
    case RecordField::Kind::NotStated:
        return Outcome::Missing;
    case RecordField::Kind::RecordKey:
        if (m_record) {
            if (m_record->keyIsNull)
                return Outcome::Missing;
            *out = m_record->key;
            return Outcome::Found;
        }
        if (!m_message->key)
            return Outcome::Missing;
        *out = QByteArrayView(static_cast<const char *>(m_message->key), qsizetype(m_message->key_len));
        return Outcome::Found;
    case RecordField::Kind::Header: {
        if (m_record) {
            const QByteArray name = field.name.toUtf8();
            for (auto it = m_record->headers.crbegin(); it != m_record->headers.crend(); ++it) {
                if (it->name == name) { // the last occurrence, as librdkafka's header_get_last
                    if (it->isNull)
                        return Outcome::Missing;
                    *out = it->value;
                    return Outcome::Found;
                }
            }
            return Outcome::Missing;
        }
        // The name's bytes once per thread and name, not once per record.
        thread_local QString lastName;
        thread_local QByteArray lastNameUtf8;
        if (field.name != lastName) {
            lastName = field.name;
            lastNameUtf8 = field.name.toUtf8();
        }
        rd_kafka_headers_t *headers = nullptr;
        const void *value = nullptr;
        size_t size = 0;
        if (rd_kafka_message_headers(m_message, &headers) != RD_KAFKA_RESP_ERR_NO_ERROR || !headers
            || rd_kafka_header_get_last(headers, lastNameUtf8.constData(), &value, &size)
                   != RD_KAFKA_RESP_ERR_NO_ERROR
            || !value)
            return Outcome::Missing;
        *out = QByteArrayView(static_cast<const char *>(value), qsizetype(size));
        return Outcome::Found;
    }
    case RecordField::Kind::JsonPath: {
        if (!m_parsed) {
            m_parsed = true;
            const QByteArray payload =
                m_record ? m_record->value
                         : QByteArray::fromRawData(static_cast<const char *>(m_message->payload),
                                                   m_message->payload ? qsizetype(m_message->len) : 0);
            if (!payload.isEmpty()) {
                QJsonParseError error;
                m_document = QJsonDocument::fromJson(payload, &error);
                if (error.error != QJsonParseError::NoError)
                    m_document = {};
            }
        }
        if (m_document.isNull())
            return Outcome::NotJson;
        const QJsonValue v = walk(m_document, field.name);
        if (v.isString()) {
            m_text = v.toString().toUtf8();
            *out = m_text;
            return Outcome::Found;
        }
        if (v.isDouble()) {
            const double d = v.toDouble();
            m_text = d == std::floor(d) && std::abs(d) < 9.0e15 ? QByteArray::number(qint64(d))
                                                                : QByteArray::number(d, 'g', 17);
            *out = m_text;
            return Outcome::Found;
        }
        return Outcome::Missing;
    }
    }
    return Outcome::Missing;
}

RecordFieldValue::Outcome RecordFieldValue::integer(const RecordField &field, qint64 *out)
{
    QByteArray text;
    const Outcome outcome = bytes(field, &text);
    if (outcome != Outcome::Found)
        return outcome;
    bool ok = false;
    const qint64 n = text.trimmed().toLongLong(&ok);
    if (!ok)
        return Outcome::Missing;
    *out = n;
    return Outcome::Found;
}
