#include "payloadmask.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include <algorithm>

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
// Whether a concrete location ($.lines[3].card as steps) lies at or under (or, with above, above) a path
// of the rule's language, where "[*]" matches every index.
bool stepsMatch(const QStringList &rule, const QStringList &at, bool above)
{
    const qsizetype n = std::min(rule.size(), at.size());
    if (above ? rule.size() <= at.size() : rule.size() > at.size())
        return false;
    for (qsizetype i = 0; i < n; ++i) {
        if (rule[i] != at[i] && !(rule[i] == u"[*]"_s && at[i].startsWith(u'[')))
            return false;
    }
    return true;
}

class EditRestorer final {
public:
    EditRestorer(const QList<QStringList> &masked, bool revealed)
        : m_masked(masked)
        , m_revealed(revealed)
    {
    }
    QString error;

    // original: the unmasked value; shown: what the operator was shown; edit: what came back.
    bool merge(const QJsonValue &original, const QJsonValue &shown, QJsonValue &edit, QStringList &at)
    {
        if (edit == shown) {
            edit = original;
            return true;
        }
        if (m_revealed)
            return true;
        if (touches(at, false))
            return refuse(at, u"is masked: reveal the record before editing it"_s);
        if (edit.isObject() && shown.isObject()) {
            QJsonObject e = edit.toObject();
            const QJsonObject s = shown.toObject(), o = original.toObject();
            for (auto it = s.begin(); it != s.end(); ++it) {
                if (!e.contains(it.key()) && touches(at, it.key()))
                    return refuse(at, it.key(), u"is masked and cannot be removed unless the record is revealed"_s);
            }
            for (auto it = e.begin(); it != e.end(); ++it) {
                at.append(it.key());
                QJsonValue inner = it.value();
                if (!(s.contains(it.key()) ? merge(o.value(it.key()), s.value(it.key()), inner, at) : fresh(inner, at)))
                    return false;
                it.value() = inner;
                at.removeLast();
            }
            edit = e;
            return true;
        }
        if (edit.isArray() && shown.isArray()) {
            QJsonArray e = edit.toArray();
            const QJsonArray s = shown.toArray(), o = original.toArray();
            for (qsizetype i = 0; i < e.size(); ++i) {
                at.append(u'[' + QString::number(i) + u']');
                QJsonValue inner = e.at(i);
                if (!(i < s.size() ? merge(o.at(i), s.at(i), inner, at) : fresh(inner, at)))
                    return false;
                e.replace(i, inner);
                at.removeLast();
            }
            if (e.size() < s.size()) {
                QStringList removed = at;
                removed.append(u'[' + QString::number(e.size()) + u']');
                if (touches(removed, false) || touches(removed, true))
                    return refuse(removed, u"holds masked fields and cannot be removed unless the record is revealed"_s);
            }
            edit = e;
            return true;
        }
        // A changed scalar, or a container replaced by something else.
        if (touches(at, true))
            return refuse(at, u"holds masked fields and cannot be replaced unless the record is revealed"_s);
        return fresh(edit, at);
    }

private:
    // A value the operator wrote: taken, unless it lies on a masked path or still holds a masked text.
    bool fresh(const QJsonValue &v, const QStringList &at)
    {
        if (touches(at, false))
            return refuse(at, u"is masked: reveal the record before editing it"_s);
        QStringList texts;
        collectLeaves(v, texts);
        for (const QString &t : texts) {
            if (t.contains(kMaskedText))
                return refuse(at, u"still holds a masked value: reveal the record before editing it"_s);
        }
        return true;
    }
    bool touches(const QStringList &at, bool above) const
    {
        return std::any_of(m_masked.begin(), m_masked.end(),
                           [&](const QStringList &rule) { return stepsMatch(rule, at, above); });
    }
    bool touches(QStringList at, const QString &key) const
    {
        at.append(key);
        return touches(at, false) || touches(at, true);
    }
    bool refuse(const QStringList &at, const QString &why)
    {
        QString path = u"$"_s;
        for (const QString &step : at)
            path += step.startsWith(u'[') ? step : u'.' + step;
        error = path + u' ' + why;
        return false;
    }
    bool refuse(QStringList at, const QString &key, const QString &why)
    {
        at.append(key);
        return refuse(at, why);
    }

    const QList<QStringList> &m_masked;
    bool m_revealed;
};
} // namespace

namespace PayloadMask {
bool restoreMasked(const MaskRule &rule, const QByteArray &originalJson, QByteArray &editedJson, bool revealed,
                   QString *error)
{
    if (rule.fields.isEmpty())
        return true;
    // What the operator was shown: the original masked exactly as the view masks it.
    KafkaRecord record;
    record.value = "x";
    DlqMetadata metadata;
    DecodedPayload shown;
    shown.kind = DecodedPayload::Kind::Schema;
    shown.json = originalJson;
    apply(rule, record, metadata, shown);
    const auto root = [](const QByteArray &json) { return QJsonDocument::fromJson('[' + json + ']').array().at(0); };
    QJsonParseError parseError;
    QJsonDocument::fromJson(editedJson, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        *error = u"the edit is not JSON: "_s + parseError.errorString();
        return false;
    }
    QList<QStringList> masked;
    for (const QString &path : rule.fields) {
        if (const QStringList steps = pathSteps(path); !steps.isEmpty())
            masked.append(steps);
    }
    QJsonValue edit = root(editedJson);
    EditRestorer restorer(masked, revealed);
    QStringList at;
    if (!restorer.merge(root(originalJson), root(shown.json), edit, at)) {
        *error = restorer.error;
        return false;
    }
    editedJson = QJsonDocument(QJsonArray{edit}).toJson(QJsonDocument::Compact).mid(1).chopped(1);
    return true;
}

void scrub(QString &text, const QStringList &values)
{
    for (const QString &value : values)
        text.replace(value, kMaskedText);
}

bool pathsOverlap(const QStringList &path, const QStringList &masked)
{
    const qsizetype n = std::min(path.size(), masked.size());
    for (qsizetype i = 0; i < n; ++i) {
        if (masked[i] == u"[*]"_s && path[i].startsWith(u'['))
            continue;
        if (masked[i] != path[i])
            return false;
    }
    return true;
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

bool hides(const MaskRule &rule, const RecordField &field)
{
    switch (field.kind) {
    case RecordField::Kind::NotStated:
        return false;
    case RecordField::Kind::RecordKey:
        return rule.key;
    case RecordField::Kind::Header:
        return rule.headers.contains(field.name, Qt::CaseInsensitive);
    case RecordField::Kind::JsonPath: {
        const QStringList steps = pathSteps(field.name.startsWith(u'$') ? field.name : u"$."_s + field.name);
        if (steps.isEmpty())
            return false;
        return std::any_of(rule.fields.cbegin(), rule.fields.cend(), [&steps](const QString &path) {
            const QStringList masked = pathSteps(path);
            return !masked.isEmpty() && pathsOverlap(steps, masked);
        });
    }
    }
    return false;
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
