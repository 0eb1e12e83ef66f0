#include "schemaref.h"

using namespace Qt::StringLiterals;

QString SchemaRef::formatName(Format format)
{
    switch (format) {
    case Format::Avro:
        return u"avro"_s;
    case Format::Protobuf:
        return u"protobuf"_s;
    case Format::JsonSchema:
        return u"json"_s;
    }
    return {};
}

bool SchemaRef::formatFromRegistry(const QString &schemaType, Format *format)
{
    if (schemaType.isEmpty() || schemaType == u"AVRO"_s)
        *format = Format::Avro;
    else if (schemaType == u"PROTOBUF"_s)
        *format = Format::Protobuf;
    else if (schemaType == u"JSON"_s)
        *format = Format::JsonSchema;
    else
        return false;
    return true;
}

QString SchemaRef::describe() const
{
    QString out;
    if (!subject.isEmpty())
        out = subject;
    if (version >= 0)
        out += (out.isEmpty() ? u"v"_s : u" v"_s) + QString::number(version);
    if (id >= 0)
        out += out.isEmpty() ? QString(u"id "_s + QString::number(id)) : QString(u" (id "_s + QString::number(id) + u')');
    if (!file.isEmpty())
        out += out.isEmpty() ? file : QString(u" from "_s + file);
    if (!messageName.isEmpty())
        out += u", message "_s + messageName;
    return out;
}
