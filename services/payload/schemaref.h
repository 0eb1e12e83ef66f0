#pragma once

#include <QMetaType>
#include <QString>

// Which schema a payload was decoded with (or was meant to be): the registry's subject, version and id,
// or the local file mapped to the topic. Unknown numbers are -1.
struct SchemaRef {
    enum class Format { Avro, Protobuf, JsonSchema };
    Format format = Format::Avro;
    QString subject;
    int version = -1;
    int id = -1;
    QString file;        // a local schema file, when the schema came from one
    QString messageName; // Protobuf: the message type decoded

    static QString formatName(Format format); // "avro", "protobuf", "json"
    // Parses the registry's schemaType ("AVRO" or absent, "PROTOBUF", "JSON"); false for anything else.
    static bool formatFromRegistry(const QString &schemaType, Format *format);
    // "orders-value v3 (id 42)", "orders.avsc", "id 42" as far as known.
    QString describe() const;

    friend bool operator==(const SchemaRef &, const SchemaRef &) = default;
};

Q_DECLARE_METATYPE(SchemaRef)
