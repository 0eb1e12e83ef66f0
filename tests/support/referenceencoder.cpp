#include "referenceencoder.h"

#include "testsupport.h"

#include <QFileInfo>
#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>

using namespace Qt::StringLiterals;

namespace {
const QString kPython = u"/usr/bin/python3"_s;

QString script()
{
    return TestSupport::sourcePath(u"tests/fixtures/payloads/encode_payloads.py"_s);
}

bool run(const QString &program, const QStringList &args, const QByteArray &input, QByteArray *out, QString *error)
{
    QProcess p;
    p.start(program, args);
    if (!p.waitForStarted(10000)) {
        *error = program + u": "_s + p.errorString();
        return false;
    }
    p.write(input);
    p.closeWriteChannel();
    if (!p.waitForFinished(60000) || p.exitCode() != 0) {
        *error = program + u" failed: "_s + QString::fromUtf8(p.readAllStandardError());
        return false;
    }
    *out = p.readAllStandardOutput();
    return true;
}

QList<QByteArray> hexLines(const QByteArray &out)
{
    QList<QByteArray> records;
    for (const QByteArray &line : out.split('\n')) {
        if (!line.trimmed().isEmpty())
            records.append(QByteArray::fromHex(line.trimmed()));
    }
    return records;
}
} // namespace

namespace ReferenceEncoder {
QList<QByteArray> avro(const QString &schemaFile, int schemaId, const QJsonArray &records, QString *error)
{
    QByteArray out;
    if (!run(kPython, {script(), u"avro"_s, schemaFile, schemaId < 0 ? u"-"_s : QString::number(schemaId)},
             QJsonDocument(records).toJson(QJsonDocument::Compact), &out, error))
        return {};
    return hexLines(out);
}

QByteArray descriptorSet(const QString &protoFile, QString *error)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"set.desc"_s);
    QByteArray out;
    if (!run(u"protoc"_s,
             {u"-I"_s + QFileInfo(protoFile).absolutePath(), u"--include_imports"_s,
              u"--descriptor_set_out="_s + path, QFileInfo(protoFile).absoluteFilePath()},
             {}, &out, error))
        return {};
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = file.errorString();
        return {};
    }
    return file.readAll();
}

namespace {
// The .proto's descriptor set written into dir, for the Python scripts; its path, empty on failure.
QString writeDescriptorSet(const QString &protoFile, const QTemporaryDir &dir, QString *error)
{
    const QByteArray set = descriptorSet(protoFile, error);
    if (set.isEmpty())
        return {};
    QFile file(dir.filePath(u"set.desc"_s));
    if (!file.open(QIODevice::WriteOnly) || file.write(set) != set.size()) {
        *error = file.errorString();
        return {};
    }
    return file.fileName();
}
} // namespace

QList<QByteArray> protobuf(const QString &protoFile, const QString &message, int schemaId,
                           const std::vector<int> &indexes, const QJsonArray &records, QString *error)
{
    QTemporaryDir dir;
    const QString setFile = writeDescriptorSet(protoFile, dir, error);
    if (setFile.isEmpty())
        return {};
    QStringList list;
    for (const int i : indexes)
        list.append(QString::number(i));
    QByteArray out;
    if (!run(kPython,
             {script(), u"protobuf"_s, setFile, message, schemaId < 0 ? u"-"_s : QString::number(schemaId),
              list.join(u',')},
             QJsonDocument(records).toJson(QJsonDocument::Compact), &out, error))
        return {};
    return hexLines(out);
}

namespace {
QList<QJsonObject> decoded(const QStringList &args, const QList<QByteArray> &framed, QString *error)
{
    QByteArray input;
    for (const QByteArray &record : framed)
        input += record.toHex() + '\n';
    QByteArray out;
    if (!run(kPython, QStringList{TestSupport::sourcePath(u"tests/fixtures/payloads/decode_payloads.py"_s)} + args,
             input, &out, error))
        return {};
    QList<QJsonObject> records;
    for (const QByteArray &line : out.split('\n')) {
        if (!line.trimmed().isEmpty())
            records.append(QJsonDocument::fromJson(line).object());
    }
    return records;
}
} // namespace

QList<QJsonObject> decodeAvro(const QString &schemaFile, const QList<QByteArray> &framed, QString *error)
{
    return decoded({u"avro"_s, schemaFile}, framed, error);
}

QList<QJsonObject> decodeProtobuf(const QString &protoFile, const QString &message, const QList<QByteArray> &framed,
                                  QString *error)
{
    QTemporaryDir dir;
    const QString setFile = writeDescriptorSet(protoFile, dir, error);
    if (setFile.isEmpty())
        return {};
    return decoded({u"protobuf"_s, setFile, message}, framed, error);
}

QString fixturePath(const QString &name)
{
    return TestSupport::sourcePath(u"tests/fixtures/payloads/"_s + name);
}

QByteArray fixture(const QString &name)
{
    QFile f(fixturePath(name));
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool available(QString *why)
{
    QByteArray out;
    if (!run(kPython, {u"-c"_s, u"import avro.io, google.protobuf.message_factory"_s}, {}, &out, why))
        return false;
    if (!TestSupport::haveExecutable(u"protoc"_s)) {
        *why = u"protoc is missing (protobuf-compiler)"_s;
        return false;
    }
    return true;
}
} // namespace ReferenceEncoder
