#include "audittrailexport.h"

#include "models/audittrailmodel.h"
#include "services/audit/auditstore.h"
#include "services/audit/audittransaction.h"
#include "services/inbox/pgsession.h"
#include "services/remediation/requestmask.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>

using namespace Qt::StringLiterals;

namespace AuditTrailExport {
namespace {
constexpr int PageRows = 2000;

QByteArray csvLine(const QStringList &fields)
{
    QStringList quoted;
    quoted.reserve(fields.size());
    for (const QString &f : fields)
        quoted << DlqExport::csvField(f);
    return quoted.join(u',').toUtf8() + "\r\n"; // RFC 4180 line ends
}

QByteArray line(const AuditEvent &e, Format format)
{
    const QString time = e.at.toUTC().toString(Qt::ISODateWithMs);
    const QString hash = QString::fromLatin1(e.hash.toHex());
    const QString prevHash = QString::fromLatin1(e.prevHash.toHex());
    if (format == Format::Csv)
        return csvLine({QString::number(e.seq), time, e.actor, e.action,
                        e.requestId ? QString::number(e.requestId) : QString(),
                        AuditTrailModel::detailsText(e.details), prevHash, hash});
    QJsonObject o{{u"seq"_s, e.seq},       {u"at"_s, time},           {u"actor"_s, e.actor},
                  {u"action"_s, e.action}, {u"details"_s, e.details}, {u"prev_hash"_s, prevHash},
                  {u"hash"_s, hash}};
    o.insert(u"request_id"_s, e.requestId ? QJsonValue(e.requestId) : QJsonValue(QJsonValue::Null));
    return QJsonDocument(o).toJson(QJsonDocument::Compact) + '\n';
}

QJsonObject filterJson(const EventFilter &filter)
{
    return {{u"actor"_s, filter.actor},
            {u"actions"_s, QJsonArray::fromStringList(filter.actions)},
            {u"from"_s, filter.from.isValid() ? filter.from.toUTC().toString(Qt::ISODateWithMs) : QString()},
            {u"to"_s, filter.to.isValid() ? filter.to.toUTC().toString(Qt::ISODateWithMs) : QString()},
            {u"request_id"_s, filter.requestId}};
}
} // namespace

Outcome write(PgSession &session, const EventFilter &filter, const QString &path, Format format,
              const JobControl &control, const KeyMask &mask)
{
    Outcome out;
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        out.error = file.errorString();
        return out;
    }
    // One snapshot: rows committed while the export runs belong to the next export, not half to this one.
    AuditTransaction tx(session, u"ISOLATION LEVEL REPEATABLE READ READ ONLY"_s);
    if (!tx.isOpen()) {
        out.error = tx.error();
        return out;
    }
    if (format == Format::Csv)
        file.write(csvLine({u"seq"_s, u"at"_s, u"actor"_s, u"action"_s, u"request_id"_s, u"details"_s,
                            u"prev_hash"_s, u"hash"_s}));
    AuditStore store(session);
    EventFilter page = filter;
    page.limit = PageRows;
    for (;;) {
        if (control.isCancelled()) {
            file.cancelWriting();
            out.error = u"cancelled"_s;
            return out;
        }
        QString error;
        QList<AuditEvent> events = store.listEvents(page, &error);
        if (!error.isEmpty()) {
            file.cancelWriting();
            out.error = error;
            return out;
        }
        QByteArray buffer;
        for (AuditEvent &e : events) {
            RequestMask::apply(mask, e);
            buffer += line(e, format);
        }
        if (file.write(buffer) != buffer.size()) {
            out.error = file.errorString();
            file.cancelWriting();
            return out;
        }
        out.rows += events.size();
        control.reportProgress(out.rows, 0);
        if (events.size() < PageRows)
            break;
        page.afterSeq = events.last().seq;
    }
    tx.commit();
    if (!file.commit())
        out.error = file.errorString();
    return out;
}

Outcome writeAndRecord(const QString &conninfo, const EventFilter &filter, const QString &path,
                       const JobControl &control, const KeyMask &mask)
{
    PgSession session;
    Outcome out;
    if (!session.connect(conninfo, &out.error))
        return out;
    out = write(session, filter, path, DlqExport::formatForPath(path), control, mask);
    if (!out.error.isEmpty())
        return out;
    // Taking the log out of the building is an event in it: who, which filter, how many rows, which file.
    AuditStore store(session);
    QJsonObject details = filterJson(filter);
    details.insert(u"rows"_s, out.rows);
    details.insert(u"file"_s, QFileInfo(path).fileName());
    QString error;
    if (store.appendEvent(u"trail.exported"_s, 0, details, &error) == 0)
        out.error = u"written, but the export could not be recorded in the audit log: "_s + error;
    return out;
}
} // namespace AuditTrailExport
