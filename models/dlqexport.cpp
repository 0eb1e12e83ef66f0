#include "dlqexport.h"

#include "services/dlq/dlqentryfields.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

using namespace Qt::StringLiterals;

namespace DlqExport {
namespace {
const QStringList csvHeader = {u"time"_s,
                               u"topic"_s,
                               u"partition"_s,
                               u"offset"_s,
                               u"original_topic"_s,
                               u"original_partition"_s,
                               u"original_offset"_s,
                               u"consumer"_s,
                               u"exception"_s,
                               u"cause"_s,
                               u"reason"_s,
                               u"attempts"_s,
                               u"key"_s,
                               u"idempotency_key"_s,
                               u"value_size"_s,
                               u"dialect"_s};

QString isoTime(qint64 ms)
{
    return ms < 0 ? QString() : QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODateWithMs);
}

QByteArray csvLine(const QString &topic, const DlqEntryFields &e)
{
    const QStringList fields = {isoTime(e.timestampMs),
                                topic,
                                QString::number(e.partition),
                                QString::number(e.offset),
                                e.originalTopic,
                                e.originalPartition < 0 ? QString() : QString::number(e.originalPartition),
                                e.originalOffset < 0 ? QString() : QString::number(e.originalOffset),
                                e.consumer,
                                e.exceptionClass,
                                e.causeClass,
                                e.reason,
                                e.attempts < 0 ? QString() : QString::number(e.attempts),
                                e.key,
                                e.idempotencyKey,
                                QString::number(e.valueSize),
                                dialectName(e.dialect)};
    QStringList quoted;
    quoted.reserve(fields.size());
    for (const QString &f : fields)
        quoted << csvField(f);
    return quoted.join(u',').toUtf8() + "\r\n"; // RFC 4180 line ends
}

QByteArray jsonLine(const QString &topic, const DlqEntryFields &e)
{
    QJsonObject o{{u"time"_s, isoTime(e.timestampMs)},
                  {u"topic"_s, topic},
                  {u"partition"_s, e.partition},
                  {u"offset"_s, e.offset},
                  {u"originalTopic"_s, e.originalTopic},
                  {u"consumer"_s, e.consumer},
                  {u"exception"_s, e.exceptionClass},
                  {u"cause"_s, e.causeClass},
                  {u"reason"_s, e.reason},
                  {u"key"_s, e.key},
                  {u"idempotencyKey"_s, e.idempotencyKey},
                  {u"valueSize"_s, e.valueSize},
                  {u"dialect"_s, dialectName(e.dialect)}};
    if (e.originalPartition >= 0)
        o.insert(u"originalPartition"_s, e.originalPartition);
    if (e.originalOffset >= 0)
        o.insert(u"originalOffset"_s, e.originalOffset);
    if (e.attempts >= 0)
        o.insert(u"attempts"_s, e.attempts);
    return QJsonDocument(o).toJson(QJsonDocument::Compact) + '\n';
}
} // namespace

QString csvField(const QString &text)
{
    QString f = text;
    // A spreadsheet reads these leading characters as the start of a formula (OWASP "CSV injection"):
    // a quote in front keeps the cell text.
    if (!f.isEmpty()
        && (f.front() == u'=' || f.front() == u'+' || f.front() == u'-' || f.front() == u'@'
            || f.front() == u'\t' || f.front() == u'\r'))
        f.prepend(u'\'');
    if (f.contains(u',') || f.contains(u'"') || f.contains(u'\n') || f.contains(u'\r'))
        return u'"' + f.replace(u'"', u"\"\""_s) + u'"';
    return f;
}

Format formatForPath(const QString &path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    return suffix == u"jsonl" || suffix == u"json" || suffix == u"ndjson" ? Format::JsonLines : Format::Csv;
}

Outcome write(const QString &path, Format format, const Source &source, const JobControl &control)
{
    Outcome out;
    if (!source.strings) {
        out.error = QCoreApplication::translate("DlqExport", "Nothing to export: no scan has run.");
        return out;
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        out.error = file.errorString();
        return out;
    }
    const StringPool &pool = *source.strings;
    const quint32 total = source.rowCount();
    QByteArray buffer;
    buffer.reserve(1 << 20);
    if (format == Format::Csv)
        buffer = csvHeader.join(u',').toUtf8() + "\r\n";
    for (quint32 row = 0; row < total; ++row) {
        const DlqEntryFields e =
            DlqEntryFields::from(source.entries.at(source.identity ? row : source.rows[row]), pool);
        buffer += format == Format::Csv ? csvLine(source.topic, e) : jsonLine(source.topic, e);
        if (buffer.size() > (1 << 20) || row + 1 == total) {
            if (file.write(buffer) != buffer.size()) {
                out.error = file.errorString();
                file.cancelWriting();
                return out;
            }
            buffer.clear();
        }
        if ((row & 4095) == 0) {
            if (control.isCancelled()) {
                file.cancelWriting();
                out.error = QCoreApplication::translate("DlqExport", "cancelled");
                return out;
            }
            control.reportProgress(row, total);
        }
    }
    if (total == 0 && !buffer.isEmpty())
        file.write(buffer);
    if (!file.commit()) {
        out.error = file.errorString();
        return out;
    }
    out.rows = total;
    control.reportProgress(total, total);
    return out;
}
} // namespace DlqExport
