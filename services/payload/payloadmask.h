#pragma once

#include "services/dlq/dlqrecord.h"
#include "services/kafka/kafkarecord.h"
#include "services/payload/decodedpayload.h"
#include "services/policy/deliverypolicy.h"

#include <QMetaType>
#include <QStringList>

// Masking (ARCHITECTURE.md, Contracts: masking): what the policy's rule for a topic names is replaced
// before a record leaves the thread that fetched it, so no view, export, command-line JSON or log sees it.
namespace PayloadMask {
// What a masked value shows as.
inline constexpr char kMasked[] = "(masked)";
// What a dead letter's reason shows as when the payload fields its rule masks could not be found (no schema at
// hand when the scan read it): the reason may repeat them, so none of it is shown.
inline constexpr char kMaskedReason[] = "(masked: the payload's masked fields could not be looked for)";
// Masked values shorter than this are not searched for in free text (a "3" would blank every reason).
constexpr qsizetype kMinVerbatim = 4;

struct Outcome {
    QStringList fieldPaths; // the paths masked, as the rule wrote them
    QStringList headers;    // header names masked
    bool key = false;
    bool rawHidden = false; // the value's bytes are hidden: they hold what was masked
    bool any() const { return !fieldPaths.isEmpty() || !headers.isEmpty() || key || rawHidden; }
    friend bool operator==(const Outcome &, const Outcome &) = default;
};

// Masks in place: the display JSON at the rule's field paths ($.a.b, $.a[0].b, $.a[*].b), the named
// headers, the key. When the rule names fields, the raw value is hidden (its bytes hold them), and a payload
// no schema decoded is hidden whole (its fields cannot be found). Every masked value (of kMinVerbatim
// characters or more) is also replaced wherever it appears verbatim: the reason, the stack trace, other
// headers, the decode's notes, other fields of the payload.
// verbatim: receives the masked values searched for, for a caller that must scrub text built elsewhere from
// the same record (the command line's failure groups); never to be shown.
Outcome apply(const MaskRule &rule, KafkaRecord &record, DlqMetadata &metadata, DecodedPayload &payload,
              QStringList *verbatim = nullptr);
// An edit of a masked payload (ARCHITECTURE.md, Masking: edits): the operator edited what apply() showed of
// original (its unmasked display JSON). What the edit leaves as shown (a "(masked)" field, a scrubbed text)
// takes the original's value again; what it changes at, under or above a masked path, or a changed text
// that still holds "(masked)", is refused unless the record was revealed (then the edit is taken as it is).
// False with the path and why; editedJson becomes the edit with the original's values restored.
bool restoreMasked(const MaskRule &rule, const QByteArray &originalJson, QByteArray &editedJson, bool revealed,
                   QString *error);

// Whether the rule hides the value `field` names in a record of its topic: the record key, a header it
// names, or a JSON path at, under or above a field path it names (pathsOverlap: a value holding a masked
// field shows it as much as the field itself). What a view,
// an export or the command line shows of such a value is kMasked; lookups may still use the bytes.
bool hides(const MaskRule &rule, const RecordField &field);

// Replaces every occurrence of the values in text.
void scrub(QString &text, const QStringList &values);

// A path of the rule's language split into steps: names, indexes, or "*" for every item. Empty when the
// path is not one (it must start with "$").
QStringList pathSteps(const QString &path);
// Whether a path (as steps) and a masked path of a rule overlap: one is the other or lies under it, the
// rule's "[*]" standing for any index. What a filter may not compare, and what a masked field hides.
bool pathsOverlap(const QStringList &path, const QStringList &masked);
} // namespace PayloadMask

Q_DECLARE_METATYPE(PayloadMask::Outcome)
