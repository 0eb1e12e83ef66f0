#pragma once

#include <QByteArray>
#include <QByteArrayView>

// A failure reason with what varies between occurrences replaced by placeholders: numbers (<num>), ids
// mixing letters and digits (<id>), UUIDs (<uuid>), hex (<hex>), ISO times (<time>), e-mail addresses
// (<email>) and quoted values ('<str>'); whitespace collapsed; cut at maxBytes (then ending in "…").
// Works on UTF-8 bytes, as the scan's string pool holds them: it runs for every distinct reason.
QByteArray reasonPatternUtf8(QByteArrayView reason, qsizetype maxBytes);
// The same into out (replacing what it held): for callers that reuse one buffer.
void reasonPatternUtf8(QByteArrayView reason, qsizetype maxBytes, QByteArray &out);
