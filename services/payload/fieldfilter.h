#pragma once

#include "services/payload/decodedpayload.h"
#include "services/payload/pathselection.h"
#include "services/policy/deliverypolicy.h"

#include <QJsonValue>
#include <QList>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

class PayloadSchema;

// A field filter over decoded payloads (ARCHITECTURE.md, Contracts: field filters), the one the DLQ view
// and `berth dlq scan --filter` share:
//
//   expr       := term ("or" term)*
//   term       := factor ("and" factor)*
//   factor     := "(" expr ")" | path "exists" | path op literal
//   op         := "==" | "!=" | "<" | "<=" | ">" | ">=" | "contains"
//   path       := "$" ("." name | "[" index "]")*       e.g. $.customer.id, $.lines[0].sku
//   literal    := "text" | 'text' | number | true | false | null
//
// Keywords are case-insensitive. It is evaluated on the decoded value (the payload's display JSON parsed
// into values, after masking): numbers compare as numbers, and so does text that is a number (Avro decimals
// show as exact decimal text); other text compares as text (ISO 8601 times sort as times); `contains`
// looks for text in a string or an equal item in an array; `exists` is true for a present, non-null value.
// A comparison with a field the payload lacks, or with a payload no schema decoded, is false (`!=` too).
class FieldFilter final {
public:
    // Parses `text`; on failure returns an empty filter and says where and why in *error.
    static FieldFilter parse(const QString &text, QString *error);

    bool isValid() const { return bool(m_root); }
    QString text() const { return m_text; }
    // The paths the filter compares by value (not those it only asks `exists` of).
    QStringList comparedPaths() const;
    // A path compared by value that one of the rules masks (the path itself, a field under it, or one
    // its [*] covers), with the rule's topic; empty when none. A masked field cannot be searched by value.
    QString maskedComparison(const QList<MaskRule> &rules) const;

    bool matches(const QJsonValue &root) const;
    // False for a payload that is not JSON (text, binary, a tombstone, a schema still pending).
    bool matches(const DecodedPayload &payload) const;
    // The same answer on a body and the schema that reads it (PayloadDecoder::route), without the display
    // JSON of the whole payload: the schema's reader writes only the values the filter names
    // (PayloadSchema::selectBody). nullopt when this way cannot answer (a schema without a selecting reader,
    // a body that does not decode, a member name written with escapes): then decode the payload and call
    // matches(). Unmasked payloads only: masking changes the display JSON (PayloadMask::apply).
    // values: scratch, reused from record to record.
    std::optional<bool> matchesBody(const PayloadSchema &schema, QByteArrayView body,
                                    PathSelection::Values &values) const;

    struct Node;

private:
    QString m_text;
    std::shared_ptr<const Node> m_root;
    std::shared_ptr<const PathSelection> m_selection; // every path of the filter, a slot each (Node::slot)
};
