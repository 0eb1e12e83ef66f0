#pragma once

#include "services/kafka/kafkarecord.h"
#include "services/policy/deliverypolicy.h"

#include <QByteArray>
#include <QString>

#include <memory>

class SchemaCatalog;

// The schema step of edit and replay (ARCHITECTURE.md, Data flows: edit and replay of schema payloads): the
// operator's edit of a record's display JSON becomes the bytes to produce. Masked fields the edit left as
// shown take the original's values again (a masked field cannot be edited unless the record was revealed);
// a schema payload is encoded as the original was (PayloadEncoder); a JSON original stays JSON; an edit
// equal to what was shown keeps the original's bytes exactly.
namespace EditedPayload {
struct Result {
    QByteArray bytes; // what the replay produces
    QString error;    // the edit is refused: why, with the field path
    bool ok() const { return error.isEmpty(); }
};

// original: the record as read (unmasked); topic and originalTopic: for the local schema files and the
// policy's masking rule.
Result prepare(const KafkaRecord &original, const QByteArray &edited, const QString &topic,
               const QString &originalTopic, SchemaCatalog *schemas, const DeliveryPolicy &policy, bool revealed);

// What the approver sees of an edit's bytes: decoded like any payload (display JSON of a schema payload) and
// masked by the rule for the record, as the original beside it is. Bytes no schema decodes come back as they
// are (the diff shows them as text).
QByteArray shownForReview(const QByteArray &bytes, const QString &topic, const QString &originalTopic,
                          SchemaCatalog *schemas, const QList<MaskRule> &masking);
} // namespace EditedPayload
