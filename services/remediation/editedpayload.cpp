#include "editedpayload.h"

#include "services/payload/payloaddecoder.h"
#include "services/payload/payloadencoder.h"
#include "services/payload/payloadmask.h"

#include <QJsonDocument>
#include <QJsonParseError>

using namespace Qt::StringLiterals;

namespace EditedPayload {
Result prepare(const KafkaRecord &original, const QByteArray &edited, const QString &topic,
               const QString &originalTopic, SchemaCatalog *schemas, const DeliveryPolicy &policy, bool revealed)
{
    Result out;
    const DecodedPayload decoded =
        PayloadDecoder::decode(original.value, original.value.isNull(), topic, schemas, originalTopic);
    QByteArray edit = edited;
    const MaskRule rule = policy.maskFor(topic, originalTopic);
    if (!rule.fields.isEmpty() && !revealed) {
        if (!decoded.isJson()) {
            out.error = u"the payload is masked whole (no schema decoded it): reveal the record before editing it"_s;
            return out;
        }
        if (!PayloadMask::restoreMasked(rule, decoded.json, edit, revealed, &out.error))
            return out;
    }
    if (decoded.kind == DecodedPayload::Kind::Json) {
        QJsonParseError parse;
        QJsonDocument::fromJson(edit, &parse);
        if (parse.error != QJsonParseError::NoError) {
            out.error = u"the edited payload is not valid JSON: "_s + parse.errorString();
            return out;
        }
        // Nothing changed but the layout: the original's bytes.
        out.bytes = QJsonDocument::fromJson(edit) == QJsonDocument::fromJson(decoded.json) ? original.value : edit;
        return out;
    }
    const EncodedPayload encoded = PayloadEncoder::encodeLike(original.value, edit, topic, schemas, originalTopic);
    if (!encoded.ok) {
        out.error = encoded.error;
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
