#pragma once

#include <QByteArray>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <vector>

// Encodes payloads with an implementation independent of Berth: Debian's python3-avro and python3-protobuf
// run by tests/fixtures/payloads/encode_payloads.py, which also frames them in Confluent's wire format
// itself. Records are given in display form (ISO times, decimal strings), as Berth should show them back.
namespace ReferenceEncoder {
// schemaId < 0: the bare body, no wire-format header.
QList<QByteArray> avro(const QString &schemaFile, int schemaId, const QJsonArray &records, QString *error);
QList<QByteArray> protobuf(const QString &protoFile, const QString &message, int schemaId,
                           const std::vector<int> &indexes, const QJsonArray &records, QString *error);
// The other way, for what Berth encodes (tests/fixtures/payloads/decode_payloads.py): each framed record
// decoded by the reference library into {"schemaId": N, ("indexes": [...],) "value": {...}}, values in
// display form.
QList<QJsonObject> decodeAvro(const QString &schemaFile, const QList<QByteArray> &framed, QString *error);
QList<QJsonObject> decodeProtobuf(const QString &protoFile, const QString &message, const QList<QByteArray> &framed,
                                  QString *error);
// protoc --include_imports --descriptor_set_out for a .proto of the fixtures.
QByteArray descriptorSet(const QString &protoFile, QString *error);
// The reference libraries and protoc are there (scripts/berth.sh installs them).
bool available(QString *why);

// The payload fixtures of tests/fixtures/payloads/: a file's path and its bytes.
QString fixturePath(const QString &name);
QByteArray fixture(const QString &name);
} // namespace ReferenceEncoder

// A JSON object written in the test's source.
inline QJsonObject jsonObject(const char *json)
{
    return QJsonDocument::fromJson(json).object();
}
namespace ReferenceEncoder {
} // namespace ReferenceEncoder
