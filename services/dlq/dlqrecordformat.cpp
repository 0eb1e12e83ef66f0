#include "dlqrecordformat.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace {
// Deeper levels are laid out on one line: 100,000 nested arrays must not become 100,000 indented lines.
constexpr int kMaxIndentDepth = 40;

void appendVisible(QString &out, QStringView text)
{
    out.reserve(out.size() + text.size());
    for (const QChar c : text) {
        const char16_t u = c.unicode();
        if (u < 0x20 && u != u'\n' && u != u'\t')
            out += QChar(char16_t(0x2400 + u));
        else if (u == 0x7f)
            out += QChar(char16_t(0x2421));
        else if (DlqRecordFormat::isBidiControl(u))
            out += QChar(QChar::ReplacementCharacter);
        else
            out += c;
    }
}

// Where a cut may end: not inside a UTF-8 sequence.
qsizetype cutAt(QByteArrayView bytes, qsizetype max)
{
    if (bytes.size() <= max)
        return bytes.size();
    qsizetype at = max;
    while (at > 0 && (quint8(bytes[at]) & 0xc0) == 0x80)
        --at;
    return at;
}

void putJson(QJsonObject &o, const QString &field, QByteArrayView bytes, bool isNull)
{
    if (isNull)
        o.insert(field, QJsonValue::Null);
    else if (bytes.isValidUtf8())
        o.insert(field, QString::fromUtf8(bytes));
    else
        o.insert(field + u"Base64"_s, QString::fromLatin1(bytes.toByteArray().toBase64()));
}
} // namespace

namespace DlqRecordFormat {
QString visibleText(QByteArrayView bytes)
{
    QString out;
    appendVisible(out, QString::fromUtf8(bytes));
    return out;
}

Text prettyJson(QByteArrayView bytes, qsizetype maxBytes)
{
    Text result;
    const qsizetype n = cutAt(bytes, maxBytes);
    result.shownBytes = n;
    result.truncated = n < bytes.size();
    const QByteArrayView in = bytes.first(n);
    qsizetype start = 0;
    while (start < n && (in[start] == ' ' || in[start] == '\n' || in[start] == '\r' || in[start] == '\t'))
        ++start;
    if (start == n || (in[start] != '{' && in[start] != '[')) {
        result.text = visibleText(in);
        return result;
    }
    QByteArray out;
    out.reserve(n + n / 2);
    int depth = 0;
    bool inString = false, escaped = false;
    auto newline = [&] {
        if (depth > kMaxIndentDepth)
            return;
        out += '\n';
        out.append(qsizetype(qMax(depth, 0)) * 2, ' ');
    };
    for (qsizetype i = start; i < n; ++i) {
        const char c = in[i];
        if (inString) {
            out += c;
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                inString = false;
            continue;
        }
        switch (c) {
        case '"':
            inString = true;
            out += c;
            break;
        case '{':
        case '[': {
            qsizetype j = i + 1;
            while (j < n && (in[j] == ' ' || in[j] == '\n' || in[j] == '\r' || in[j] == '\t'))
                ++j;
            if (j < n && (in[j] == (c == '{' ? '}' : ']'))) { // empty: {} or []
                out += c;
                out += in[j];
                i = j;
                break;
            }
            out += c;
            ++depth;
            newline();
            break;
        }
        case '}':
        case ']':
            --depth;
            newline();
            out += c;
            break;
        case ',':
            out += c;
            newline();
            break;
        case ':':
            out += ": ";
            break;
        case ' ':
        case '\n':
        case '\r':
        case '\t':
            break;
        default:
            out += c;
        }
    }
    result.text = visibleText(out);
    return result;
}

QString jsonProblem(QByteArrayView bytes)
{
    QJsonParseError error;
    QJsonDocument::fromJson(bytes.toByteArray(), &error);
    if (error.error == QJsonParseError::NoError)
        return {};
    return error.errorString() + u" at byte "_s + QString::number(error.offset);
}

Text hexDump(QByteArrayView bytes, qsizetype maxBytes)
{
    Text result;
    const qsizetype n = qMin(bytes.size(), maxBytes);
    result.shownBytes = n;
    result.truncated = n < bytes.size();
    static constexpr char kHex[] = "0123456789abcdef";
    QByteArray out;
    out.reserve((n / 16 + 1) * 78);
    for (qsizetype line = 0; line < n; line += 16) {
        out += QByteArray::number(line, 16).rightJustified(8, '0');
        out += "  ";
        for (qsizetype k = 0; k < 16; ++k) {
            if (line + k < n) {
                const quint8 b = quint8(bytes[line + k]);
                out += kHex[b >> 4];
                out += kHex[b & 15];
                out += ' ';
            } else {
                out += "   ";
            }
            if (k == 7)
                out += ' ';
        }
        out += " |";
        for (qsizetype k = 0; k < 16 && line + k < n; ++k) {
            const char c = bytes[line + k];
            out += (c >= 0x20 && c < 0x7f) ? c : '.';
        }
        out += "|\n";
    }
    result.text = QString::fromLatin1(out);
    return result;
}

QString shellQuote(const QString &word)
{
    static const QRegularExpression safe(u"^[A-Za-z0-9._:,/@%+=-]+$"_s);
    if (!word.isEmpty() && safe.match(word).hasMatch())
        return word;
    QString quoted = word;
    quoted.replace(u'\'', u"'\\''"_s);
    return u'\'' + quoted + u'\'';
}

QString kcatCommand(const QString &bootstrap, const QString &topic, int partition, qint64 offset)
{
    return u"kcat -b "_s + shellQuote(bootstrap) + u" -C -t "_s + shellQuote(topic) + u" -p "_s
           + QString::number(partition) + u" -o "_s + QString::number(offset) + u" -c 1 -J"_s;
}

QString schemaText(const DecodedPayload &p)
{
    if (!p.hasSchema)
        return {};
    const QString what = p.schema.describe();
    return p.kind == DecodedPayload::Kind::Schema || !p.error.isEmpty()
               ? SchemaRef::formatName(p.schema.format) + (what.isEmpty() ? QString() : u", "_s + what)
               : what;
}

PayloadText payloadText(const DecodedPayload &p, QByteArrayView value, qsizetype maxBytes)
{
    PayloadText out;
    QStringList notes;
    Text laid;
    switch (p.kind) {
    case DecodedPayload::Kind::Null:
        out.text = u"(null value: a tombstone)"_s;
        return out;
    case DecodedPayload::Kind::Schema:
        laid = prettyJson(p.json, maxBytes);
        notes.append(u"Decoded with "_s + schemaText(p) + u'.');
        break;
    case DecodedPayload::Kind::Json:
        laid = prettyJson(p.json, maxBytes);
        break;
    case DecodedPayload::Kind::Text:
        laid = prettyJson(value, maxBytes); // text that starts like JSON is laid out anyway
        if (const QString problem = jsonProblem(value); !problem.isEmpty() && laid.text.startsWith(u'{'))
            notes.append(u"Not valid JSON (%1); shown as laid out anyway."_s.arg(problem));
        break;
    case DecodedPayload::Kind::Binary:
        laid = hexDump(value, maxBytes);
        notes.append(u"Not text: shown as hex."_s);
        break;
    }
    if (!p.error.isEmpty())
        notes.prepend(u"Not decoded: "_s + p.error
                      + (p.errorOffset >= 0 ? u" (at byte %1)."_s.arg(p.errorOffset) : u"."_s));
    notes += p.notes;
    out.text = laid.text;
    out.shownBytes = laid.shownBytes;
    out.truncated = laid.truncated;
    out.note = notes.join(u' ');
    return out;
}

void putPayload(QJsonObject &o, const DecodedPayload &p, QByteArrayView value)
{
    if (p.isJson()) {
        const QJsonDocument doc = QJsonDocument::fromJson('[' + p.json + ']');
        o.insert(u"payload"_s, doc.array().at(0));
    } else if (p.kind == DecodedPayload::Kind::Text) {
        o.insert(u"payload"_s, QString::fromUtf8(value));
    } else if (p.kind == DecodedPayload::Kind::Binary) {
        o.insert(u"payloadHex"_s, QString::fromLatin1(value.toByteArray().toHex()));
    } else {
        o.insert(u"payload"_s, QJsonValue::Null);
    }
    if (p.hasSchema) {
        QJsonObject s{{u"format"_s, SchemaRef::formatName(p.schema.format)}};
        if (!p.schema.subject.isEmpty())
            s.insert(u"subject"_s, p.schema.subject);
        if (p.schema.version >= 0)
            s.insert(u"version"_s, p.schema.version);
        if (p.schema.id >= 0)
            s.insert(u"id"_s, p.schema.id);
        if (!p.schema.file.isEmpty())
            s.insert(u"file"_s, p.schema.file);
        if (!p.schema.messageName.isEmpty())
            s.insert(u"message"_s, p.schema.messageName);
        o.insert(u"schema"_s, s);
    }
    if (!p.error.isEmpty())
        o.insert(u"payloadError"_s, p.error);
    if (!p.notes.isEmpty())
        o.insert(u"payloadNotes"_s, QJsonArray::fromStringList(p.notes));
}

QJsonObject recordToJson(const KafkaRecord &record, const DlqMetadata &m, const DecodedPayload *payload)
{
    QJsonObject o;
    o.insert(u"topic"_s, record.topic);
    o.insert(u"partition"_s, record.partition);
    o.insert(u"offset"_s, record.offset);
    o.insert(u"timestamp"_s, record.timestampMs);
    putJson(o, u"key"_s, record.key, record.keyIsNull);
    putJson(o, u"value"_s, record.value, record.value.isNull());
    QJsonArray headers;
    for (const RecordHeader &h : record.headers) {
        QJsonObject jh;
        putJson(jh, u"name"_s, h.name, false);
        putJson(jh, u"value"_s, h.value, h.isNull);
        headers.append(jh);
    }
    o.insert(u"headers"_s, headers);
    QJsonObject d;
    d.insert(u"dialect"_s, dialectName(m.dialect));
    auto text = [&](const char *name, const QString &v) {
        if (!v.isEmpty())
            d.insert(QLatin1StringView(name), v);
    };
    auto number = [&](const char *name, qint64 v) {
        if (v >= 0)
            d.insert(QLatin1StringView(name), v);
    };
    text("originalTopic", m.originalTopic);
    number("originalPartition", m.originalPartition);
    number("originalOffset", m.originalOffset);
    number("originalTimestamp", m.originalTimestampMs);
    text("consumerGroup", m.consumerGroup);
    text("exceptionClass", m.exceptionClass);
    text("causeClass", m.causeClass);
    text("reason", m.reason);
    text("stackTrace", m.stackTrace);
    number("attempts", m.attempts);
    number("firstFailure", m.firstFailureMs);
    number("lastFailure", m.lastFailureMs);
    text("schemaVersion", m.schemaVersion);
    text("correlationId", m.correlationId);
    text("idempotencyKey", m.idempotencyKey);
    text("connectorName", m.connectorName);
    text("connectorTask", m.connectorTask);
    text("connectorStage", m.connectorStage);
    text("connectorClass", m.connectorClass);
    if (!m.notes.isEmpty())
        d.insert(u"notes"_s, QJsonArray::fromStringList(m.notes));
    o.insert(u"decoded"_s, d);
    if (payload)
        putPayload(o, *payload, record.value);
    return o;
}
} // namespace DlqRecordFormat
