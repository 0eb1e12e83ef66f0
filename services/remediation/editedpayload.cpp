#include "editedpayload.h"

#include "services/payload/payloaddecoder.h"
#include "services/payload/payloadencoder.h"
#include "services/payload/payloadmask.h"
#include "services/payload/payloadschema.h"

#include <QJsonDocument>
#include <QJsonParseError>

using namespace Qt::StringLiterals;

namespace EditedPayload {
Result prepare(const KafkaRecord &original, const QByteArray &edited, const QString &topic,
               const QString &originalTopic, SchemaCatalog *schemas, const DeliveryPolicy &policy,
               bool revealed, const TargetSchema &target)
{
    Result out;
    const DecodedPayload decoded =
        PayloadDecoder::decode(original.value, original.value.isNull(), topic, schemas, originalTopic);
    QByteArray edit = edited;
    const MaskRule rule = policy.maskFor(topic, originalTopic);
    if (!rule.fields.isEmpty() && revealed) {
        KafkaRecord record;
        record.value = original.value;
        DlqMetadata metadata;
        DecodedPayload shown = decoded;
        out.maskedFields = PayloadMask::apply(rule, record, metadata, shown).fieldPaths;
        if (out.maskedFields.isEmpty())
            out.maskedFields = rule.fields;
    }
    if (!rule.fields.isEmpty() && !revealed) {
        if (!decoded.isJson()) {
            out.error = u"the payload is masked whole (no schema decoded it): reveal the record before editing it"_s;
            return out;
        }
        if (!PayloadMask::restoreMasked(rule, decoded.json, edit, revealed, &out.error)) {
            out.editInvalid = true;
            return out;
        }
    }
    if (decoded.kind == DecodedPayload::Kind::Json) {
        QJsonParseError parse;
        QJsonDocument::fromJson(edit, &parse);
        if (parse.error != QJsonParseError::NoError) {
            out.error = u"the edited payload is not valid JSON: "_s + parse.errorString();
            out.editInvalid = true;
            return out;
        }
        // Nothing changed but the layout: the original's bytes.
        out.bytes = QJsonDocument::fromJson(edit) == QJsonDocument::fromJson(decoded.json) ? original.value : edit;
        return out;
    }
    if (target.schema) {
        const SchemaRef &to = target.schema->ref();
        if (decoded.kind != DecodedPayload::Kind::Schema || decoded.schema.subject.isEmpty()
            || to.subject != decoded.schema.subject || to.version <= decoded.schema.version) {
            out.error = u"schema id %1 (%2) is not a newer version of the original's schema (%3)"_s.arg(
                QString::number(target.id), to.describe(), decoded.schema.describe());
            out.editInvalid = true;
            return out;
        }
    }
    const EncodedPayload encoded =
        target.schema ? PayloadEncoder::encodeWith(original.value, edit, *target.schema, target.id)
                      : PayloadEncoder::encodeLike(original.value, edit, topic, schemas, originalTopic);
    if (!encoded.ok) {
        out.error = encoded.error;
        out.editInvalid = encoded.editInvalid;
        return out;
    }
    out.bytes = encoded.bytes;
    return out;
}

QByteArray shownForReview(const QByteArray &bytes, const QString &topic, const QString &originalTopic,
                          SchemaCatalog *schemas, const QList<MaskRule> &masking)
{
    DecodedPayload payload = PayloadDecoder::decode(bytes, false, topic, schemas, originalTopic);
    KafkaRecord record;
    record.value = bytes;
    DlqMetadata metadata;
    DeliveryPolicy policy;
    policy.masking = masking;
    const PayloadMask::Outcome mask = PayloadMask::apply(policy.maskFor(topic, originalTopic), record, metadata, payload);
    if (payload.isJson())
        return payload.json;
    return mask.rawHidden ? QByteArray(PayloadMask::kMasked) : bytes;
}
} // namespace EditedPayload
