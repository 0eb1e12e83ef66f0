#pragma once

#include <QString>
#include <QStringList>

// What a schema decoder says about one body: it appends display JSON to the caller's buffer and reports
// whether the whole body decoded, and if not why and at which byte of the body.
struct BodyDecode {
    bool ok = true;
    QString error;            // why not, for the operator: "truncated: ... at $.items[2].price"
    qsizetype errorOffset = -1; // byte of the body where decoding stopped
    QStringList notes;        // decoded, but with something to say (unknown Protobuf fields, ...)
};
