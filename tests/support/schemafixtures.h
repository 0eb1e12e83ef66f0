#pragma once

#include "services/payload/payloadschema.h"
#include "services/payload/schemacatalog.h"
#include "support/referenceencoder.h"

#include <QByteArray>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QtDebug>

#include <memory>

// Schemas and records the payload tests share: the fixtures' payments (tests/fixtures/payloads/) in display
// form, a schema compiled as the registry would hand it over, and a catalog with a registry that never answers
// (the tests insert what it "fetched").
namespace SchemaFixtures {
inline std::shared_ptr<const PayloadSchema> compile(SchemaRef::Format format, const QByteArray &text, int id,
                                                    const QString &subject)
{
    SchemaRef ref;
    ref.format = format;
    ref.id = id;
    ref.subject = subject;
    ref.version = 3;
    QString error;
    auto schema = PayloadSchema::compile(ref, text, {}, &error);
    if (!schema)
        qWarning("schema does not compile: %s", qPrintable(error));
    return schema;
}

struct Registry {
    SchemaCatalog catalog;
    QList<int> asked;
    Registry()
    {
        catalog.setFetcher([this](int id) { asked.append(id); });
    }
};

// payment.avsc
inline constexpr char kPaymentRecord[] = R"({"id":"6f1c2a52-8f4e-4b59-9d3a-0c5e1f2a3b4c","amount":"-1234.50","fee":"12.345",
  "createdAt":"2024-02-29T13:45:00.123Z","bookedOn":"2024-02-29","sequence":9007199254740993,"status":"CAPTURED",
  "customer":{"id":"c-42","email":"ada@example.com","tier":3},"card":{"number":"4111111111111111","expiry":"12/29"},
  "lines":[{"sku":"A-1","quantity":2,"price":9.99},{"sku":"B-2","quantity":1,"price":-0.25}],"tags":{"channel":"web","ab":"x"},
  "approved":true,"ratio":0.5,"note":null})";

// payment.avsc evolved compatibly: a later version of the subject that adds "channel" (default "web").
inline QByteArray paymentAvscWithChannel()
{
    QJsonObject schema =
        QJsonDocument::fromJson(ReferenceEncoder::fixture(QStringLiteral("payment.avsc"))).object();
    QJsonArray fields = schema.value(QStringLiteral("fields")).toArray();
    fields.append(QJsonObject{{QStringLiteral("name"), QStringLiteral("channel")},
                              {QStringLiteral("type"), QStringLiteral("string")},
                              {QStringLiteral("default"), QStringLiteral("web")}});
    schema.insert(QStringLiteral("fields"), fields);
    return QJsonDocument(schema).toJson();
}

// payment.proto's shop.payments.Payment
inline constexpr char kProtoPayment[] = R"({"payment_id":"p-1","amount_minor":"-9007199254740993","sequence_no":"18446744073709551615",
  "status":"CAPTURED","lines":[{"sku":"A","quantity":2,"price":1.5}],"tags":{"a":"b"},"created_at":"2024-02-29T13:45:00.123Z",
  "signature":"AAEC","customer_email":"ada@example.com","approved":true,"card_number":"4111"})";
} // namespace SchemaFixtures
