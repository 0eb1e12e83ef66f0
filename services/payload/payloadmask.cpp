#include "payloadmask.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace {
const QString kMaskedText = QString::fromLatin1(PayloadMask::kMasked);

// Every scalar under a value, as text: what must not appear anywhere else either.
void collectLeaves(const QJsonValue &v, QStringList &out)
{
    if (v.isObject()) {
        const QJsonObject o = v.toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            collectLeaves(it.value(), out);
    } else if (v.isArray()) {
        for (const QJsonValue &item : v.toArray())
            collectLeaves(item, out);
    } else if (v.isString()) {
        out.append(v.toString());
    } else if (v.isDouble()) {
        out.append(QString::fromUtf8(QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact)).mid(1).chopped(1));
    }
}

// Replaces the value at steps[at...] under v; true when something was there.
bool maskAt(QJsonValue &v, const QStringList &steps, qsizetype at, QStringList &values)
{
    if (at == steps.size()) {
        if (v.isNull() || v.isUndefined())
            return false;
        collectLeaves(v, values);
        v = kMaskedText;
        return true;
    }
    const QString &step = steps[at];
    bool found = false;
    if (v.isObject() && !step.startsWith(u'[')) {
        QJsonObject o = v.toObject();
        auto it = o.find(step);
        if (it == o.end())
            return false;
        QJsonValue inner = it.value();
        found = maskAt(inner, steps, at + 1, values);
        it.value() = inner;
        v = o;
    } else if (v.isArray() && step.startsWith(u'[')) {
        QJsonArray a = v.toArray();
        const QString inside = step.mid(1, step.size() - 2);
        for (qsizetype i = 0; i < a.size(); ++i) {
            if (inside != u"*"_s && inside.toLongLong() != i)
                continue;
            QJsonValue inner = a.at(i);
            if (maskAt(inner, steps, at + 1, values)) {
                a.replace(i, inner);
                found = true;
            }
        }
        v = a;
    }
    return found;
}

void scrubBytes(QByteArray &bytes, const QStringList &values)
{
    for (const QString &value : values)
        bytes.replace(value.toUtf8(), PayloadMask::kMasked);
}

// Every string of the payload scrubbed (a summary field that repeats a masked e-mail address).
void scrubStrings(QJsonValue &v, const QStringList &values)
{
    if (v.isString()) {
        QString s = v.toString();
        PayloadMask::scrub(s, values);
        v = s;
    } else if (v.isObject()) {
        QJsonObject o = v.toObject();
        for (auto it = o.begin(); it != o.end(); ++it) {
            QJsonValue inner = it.value();
            scrubStrings(inner, values);
            it.value() = inner;
        }
        v = o;
    } else if (v.isArray()) {
        QJsonArray a = v.toArray();
        for (qsizetype i = 0; i < a.size(); ++i) {
            QJsonValue inner = a.at(i);
            scrubStrings(inner, values);
            a.replace(i, inner);
        }
        v = a;
    }
}
} // namespace

namespace PayloadMask {
void scrub(QString &text, const QStringList &values)
{
    for (const QString &value : values)
        text.replace(value, kMaskedText);
}

QStringList pathSteps(const QString &path)
{
    static const QRegularExpression step(u"\\.([^.\\[\\]]+)|(\\[(?:\\d+|\\*)\\])"_s);
    if (!path.startsWith(u'$'))
        return {};
    QStringList steps;
    qsizetype at = 1;
    while (at < path.size()) {
        const QRegularExpressionMatch m = step.match(path, at, QRegularExpression::NormalMatch,
                                                     QRegularExpression::AnchorAtOffsetMatchOption);
        if (!m.hasMatch())
            return {};
        steps.append(m.hasCaptured(1) ? m.captured(1) : m.captured(2));
        at = m.capturedEnd();
    }
    return steps;
}

Outcome apply(const MaskRule &rule, KafkaRecord &record, DlqMetadata &metadata, DecodedPayload &payload,
              QStringList *verbatim)
{
    Outcome out;
    QStringList values;
    if (!rule.fields.isEmpty() && !record.value.isNull()) {
        if (payload.isJson()) {
            QJsonValue root = QJsonDocument::fromJson('[' + payload.json + ']').array().at(0);
            for (const QString &path : rule.fields) {
                const QStringList steps = pathSteps(path);
                if (!steps.isEmpty() && maskAt(root, steps, 0, values))
                    out.fieldPaths.append(path);
            }
            values.removeIf([](const QString &v) { return v.size() < kMinVerbatim; });
            scrubStrings(root, values);
            payload.json = QJsonDocument(QJsonArray{root}).toJson(QJsonDocument::Compact).mid(1).chopped(1);
        } else {
            // Not decoded: the fields cannot be found, so none of it is shown.
            payload.kind = DecodedPayload::Kind::Text;
            payload.json.clear();
            out.fieldPaths = rule.fields;
        }
        record.value = QByteArray(""); // the bytes hold the fields: never shown raw
        out.rawHidden = true;
        payload.notes.append(u"the payload's raw bytes are hidden: it has masked fields"_s);
    }
    for (RecordHeader &h : record.headers) {
        if (rule.headers.contains(QString::fromUtf8(h.name), Qt::CaseInsensitive) && !h.isNull) {
            if (h.value.size() >= kMinVerbatim)
                values.append(QString::fromUtf8(h.value));
            h.value = kMasked;
            out.headers.append(QString::fromUtf8(h.name));
        }
    }
    if (rule.key && !record.keyIsNull) {
        if (record.key.size() >= kMinVerbatim)
            values.append(QString::fromUtf8(record.key));
        record.key = kMasked;
        out.key = true;
    }
    values.removeIf([](const QString &v) { return v.size() < kMinVerbatim; });
    if (values.isEmpty())
        return out;
    if (verbatim)
        *verbatim += values;
    for (RecordHeader &h : record.headers)
        scrubBytes(h.value, values);
    scrubBytes(record.key, values);
    for (QString *text : {&metadata.reason, &metadata.stackTrace, &metadata.correlationId, &metadata.idempotencyKey,
                          &metadata.originalTopic, &payload.error})
        scrub(*text, values);
    for (QString &note : metadata.notes)
        scrub(note, values);
    for (QString &note : payload.notes)
        scrub(note, values);
    if (payload.isJson()) {
        QJsonValue root = QJsonDocument::fromJson('[' + payload.json + ']').array().at(0);
        scrubStrings(root, values);
        payload.json = QJsonDocument(QJsonArray{root}).toJson(QJsonDocument::Compact).mid(1).chopped(1);
    }
    return out;
}
} // namespace PayloadMask
