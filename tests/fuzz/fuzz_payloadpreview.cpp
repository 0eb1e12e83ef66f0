// The inspector's payload preview: any bytes become plain text with control characters made visible,
// within the size limit asked for; the hex dump covers exactly the bytes shown; the JSON export of a
// record gives its value back byte for byte; a shell-quoted word reads back as itself.
#include "fuzzinput.h"
#include "services/dlq/dlqheadercodec.h"
#include "services/dlq/dlqrecordformat.h"

#include <QJsonDocument>
#include <QJsonObject>

#include <cstdio>
#include <cstdlib>

namespace {
[[noreturn]] void fail(const char *what)
{
    std::fprintf(stderr, "fuzz_payloadpreview: %s\n", what);
    std::abort();
}

void checkVisible(const QString &text, const char *what)
{
    for (const QChar c : text) {
        const char16_t u = c.unicode();
        if ((u < 0x20 && u != u'\n' && u != u'\t') || u == 0x7f)
            fail(what);
    }
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FuzzInput in(data, size);
    const qsizetype limit = in.u16() % 4096;
    const QByteArray key = in.bytes().toByteArray();
    const QByteArrayView payload = in.rest();

    const DlqRecordFormat::Text pretty = DlqRecordFormat::prettyJson(payload, limit);
    if (pretty.shownBytes > payload.size() || pretty.shownBytes > limit)
        fail("prettyJson shows more than it was given or allowed");
    if (pretty.truncated != (pretty.shownBytes < payload.size()))
        fail("prettyJson's truncated flag is wrong");
    checkVisible(pretty.text, "prettyJson left a control character in the text");

    const DlqRecordFormat::Text hex = DlqRecordFormat::hexDump(payload, limit);
    if (hex.shownBytes != qMin(payload.size(), limit))
        fail("hexDump shows the wrong number of bytes");
    if (hex.text.count(u'\n') != (hex.shownBytes + 15) / 16)
        fail("hexDump has the wrong number of lines");

    checkVisible(DlqRecordFormat::visibleText(payload), "visibleText left a control character");
    (void)DlqRecordFormat::jsonProblem(payload);

    // Export: the value comes back as text or base64, exactly.
    KafkaRecord record;
    record.topic = QString::fromUtf8(key);
    record.partition = 1;
    record.offset = 2;
    record.keyIsNull = key.isEmpty();
    record.key = key;
    record.value = payload.toByteArray();
    record.headers.append({"dlq-reason", key, false});
    record.headers.append({key, payload.first(qMin<qsizetype>(payload.size(), 64)).toByteArray(), false});
    const QJsonObject json = DlqRecordFormat::recordToJson(record, decodeDlqHeaders(record.headers));
    const QJsonObject back = QJsonDocument::fromJson(QJsonDocument(json).toJson()).object();
    const QByteArray value =
        back.contains(QLatin1StringView("valueBase64"))
            ? QByteArray::fromBase64(back.value(QLatin1StringView("valueBase64")).toString().toLatin1())
            : back.value(QLatin1StringView("value")).toString().toUtf8();
    if (value != record.value)
        fail("the JSON export does not give the value back");

    // Shell quoting: undoing POSIX single quotes gives the word back.
    const QString word = QString::fromUtf8(key);
    const QString quoted = DlqRecordFormat::shellQuote(word);
    if (quoted.startsWith(u'\'')) {
        if (!quoted.endsWith(u'\'') || quoted.size() < 2)
            fail("shellQuote left a quote open");
        QString inner = quoted.mid(1, quoted.size() - 2);
        inner.replace(QStringLiteral("'\\''"), QStringLiteral("'"));
        if (inner != word)
            fail("shellQuote does not read back as the word");
    } else if (quoted != word || word.isEmpty()) {
        fail("shellQuote left a word unquoted that needs quotes");
    }
    (void)DlqRecordFormat::kcatCommand(word, word, 0, 0);
    return 0;
}
