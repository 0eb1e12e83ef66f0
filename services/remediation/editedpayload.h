#pragma once

#include "services/kafka/kafkarecord.h"
#include "services/policy/deliverypolicy.h"

#include <QByteArray>
#include <QString>

#include <memory>

class PayloadSchema;
class SchemaCatalog;

// The schema step of edit and replay (ARCHITECTURE.md, Data flows: edit and replay of schema payloads): the
// operator's edit of a record's display JSON becomes the bytes to produce. Masked fields the edit left as
// shown take the original's values again (a masked field cannot be edited unless the record was revealed);
// a schema payload is encoded as the original was (PayloadEncoder); a JSON original stays JSON; an edit
// equal to what was shown keeps the original's bytes exactly.
namespace EditedPayload {
struct Result {
    QByteArray bytes; // what the replay produces
    // Edited as revealed: the masked field paths of the record (none otherwise). The item carries them, and
    // the audit database files it only with the requester's recorded reveal of the record.
    QStringList maskedFields;
    QString error; // the edit is refused: why, with the field path
    // The edit itself is refused (not JSON, not fitting the schema, a masked field changed), as opposed to
    // the original or its schema being out of reach.
    bool editInvalid = false;
    bool ok() const { return error.isEmpty(); }
};

// original: the record as read (unmasked); topic and originalTopic: for the local schema files and the
// policy's masking rule. revealed: the operator edited the unmasked payload; masked fields may change, and
// the result names them (maskedFields) for the database to check the reveal. target: the edit is encoded
// with that newer version of the original's subject (its id in the frame) instead of the original's own;
// a version of another subject, or not newer, is refused.
// A newer version of the original's subject chosen for the edit: its schema (from the catalog) and id.
struct TargetSchema {
    std::shared_ptr<const PayloadSchema> schema;
    int id = -1;
};
Result prepare(const KafkaRecord &original, const QByteArray &edited, const QString &topic,
               const QString &originalTopic, SchemaCatalog *schemas, const DeliveryPolicy &policy,
               bool revealed, const TargetSchema &target = {});

// What the approver sees of an edit's bytes: decoded like any payload (display JSON of a schema payload) and
// masked by the rule for the record, as the original beside it is. Bytes no schema decodes come back as they
// are (the diff shows them as text).
QByteArray shownForReview(const QByteArray &bytes, const QString &topic, const QString &originalTopic,
                          SchemaCatalog *schemas, const QList<MaskRule> &masking);
} // namespace EditedPayload
