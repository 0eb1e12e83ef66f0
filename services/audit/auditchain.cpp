#include "auditchain.h"

#include "services/audit/audittransaction.h"
#include "services/inbox/pgsession.h"

#include <QCryptographicHash>
#include <QElapsedTimer>

#include <algorithm>
#include <limits>

using namespace Qt::StringLiterals;

namespace {
constexpr qint64 MicrosPerSecond = 1'000'000;

// The canonical text's escaping: backslash doubled, then line feed as backslash + n.
QByteArray escaped(const QString &value)
{
    QByteArray bytes = value.toUtf8();
    bytes.replace('\\', QByteArrayView("\\\\"));
    bytes.replace('\n', QByteArrayView("\\n"));
    return bytes;
}

// One stored row as the verifier reads it: the instant as whole seconds plus microseconds, so it is formatted
// here rather than by the server, and details as jsonb's own text rendering.
struct StoredRow {
    qint64 seq = 0;
    qint64 atMicros = 0;
    QString actor;
    QString action;
    qint64 requestId = 0;
    QString details;
    QByteArray prevHash;
    QByteArray hash;

    static StoredRow from(const QVariantList &row)
    {
        StoredRow r;
        r.seq = row.value(0).toLongLong();
        r.atMicros = row.value(1).toLongLong() * MicrosPerSecond + row.value(2).toLongLong();
        r.actor = row.value(3).toString();
        r.action = row.value(4).toString();
        r.requestId = row.value(5).toLongLong();
        r.details = row.value(6).toString();
        r.prevHash = row.value(7).toByteArray();
        r.hash = row.value(8).toByteArray();
        return r;
    }

    QByteArray recomputedHash() const
    {
        return AuditChain::rowHash(
            prevHash, AuditChain::canonicalText(seq, atMicros, actor, action, requestId, details));
    }

    qint64 approximateBytes() const { return 2 * (details.size() + actor.size() + action.size()) + 160; }
};

const QString PageQuery = u"SELECT seq, extract(epoch FROM date_trunc('second', at))::bigint, "
                          "extract(microseconds FROM at AT TIME ZONE 'UTC')::bigint % 1000000, "
                          "actor, action, request_id, details::text, prev_hash, hash "
                          "FROM berth.audit_events WHERE seq > $1 ORDER BY seq LIMIT $2"_s;
} // namespace

QByteArray AuditChain::genesisHash()
{
    return QByteArray(32, '\0');
}

QString AuditChain::formatInstant(qint64 atMicros)
{
    qint64 seconds = atMicros / MicrosPerSecond;
    qint64 micros = atMicros % MicrosPerSecond;
    if (micros < 0) {
        micros += MicrosPerSecond;
        --seconds;
    }
    const QDateTime instant = QDateTime::fromSecsSinceEpoch(seconds, Qt::UTC);
    return instant.toString(u"yyyy-MM-dd'T'HH:mm:ss"_s) + u'.'
           + QString::number(micros).rightJustified(6, u'0') + u'Z';
}

QByteArray AuditChain::canonicalText(qint64 seq, qint64 atMicros, const QString &actor, const QString &action,
                                     qint64 requestId, const QString &detailsJson)
{
    QByteArray text = "berth-audit-v1";
    text.append('\n').append(QByteArray::number(seq));
    text.append('\n').append(formatInstant(atMicros).toLatin1());
    text.append('\n').append(escaped(actor));
    text.append('\n').append(escaped(action));
    text.append('\n');
    if (requestId != 0)
        text.append(QByteArray::number(requestId));
    text.append('\n').append(escaped(detailsJson));
    return text;
}

QByteArray AuditChain::rowHash(const QByteArray &prevHash, const QByteArray &canonicalText)
{
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(prevHash);
    hash.addData(canonicalText);
    return hash.result();
}

ChainVerification AuditChain::verify(PgSession &session, const JobControl &control, int pageSize)
{
    QElapsedTimer timer;
    timer.start();
    ChainVerification out;
    out.lastHash = genesisHash();
    const auto finish = [&](const QString &error = {}) {
        out.error = error;
        out.completed = error.isEmpty();
        out.ok = out.completed && out.firstBrokenSeq == 0;
        out.elapsedMs = timer.elapsed();
        return out;
    };

    // One snapshot for every page: rows committed meanwhile are for the next verify.
    AuditTransaction tx(session, u"ISOLATION LEVEL REPEATABLE READ READ ONLY"_s);
    if (!tx.isOpen())
        return finish(u"cannot start a read-only snapshot: "_s + tx.error());
    const PgResult top = session.exec(u"SELECT coalesce(max(seq), 0) FROM berth.audit_events"_s);
    if (!top.ok)
        return finish(u"cannot read the audit log: "_s + top.error);
    const qint64 highest = top.rows.value(0).value(0).toLongLong();
    control.reportProgress(0, highest);

    const int maxRows = std::max(1, pageSize);
    int rows = maxRows;
    // Starts below any seq, so a row with a forged seq of 0 or less is read (and reported) too.
    qint64 cursor = std::numeric_limits<qint64>::min();
    qint64 expectedSeq = 1;
    QByteArray expectedPrev = genesisHash();
    qint64 priorSeq = 0; // the row before the last one checked, should the last one turn out re-hashed
    QByteArray priorHash = genesisHash();
    for (;;) {
        if (control.isCancelled())
            return finish(u"cancelled"_s);
        const PgResult page = session.exec(PageQuery, {cursor, rows});
        if (!page.ok)
            return finish(u"cannot read the audit log after seq %1: %2"_s.arg(out.lastSeq).arg(page.error));
        if (page.rows.isEmpty())
            break;
        ++out.pages;
        qint64 bytes = 0;
        for (const QVariantList &values : page.rows) {
            const StoredRow row = StoredRow::from(values);
            bytes += row.approximateBytes();
            const bool selfConsistent = row.recomputedHash() == row.hash;
            if (row.seq != expectedSeq) {
                out.firstBrokenSeq = std::min(row.seq, expectedSeq);
                out.problem =
                    row.seq > expectedSeq
                        ? u"seq %1 is missing: the log jumps from seq %2 to seq %3"_s.arg(expectedSeq)
                              .arg(expectedSeq - 1)
                              .arg(row.seq)
                        : u"seq %1 is out of sequence (expected seq %2)"_s.arg(row.seq).arg(expectedSeq);
                return finish();
            }
            if (row.prevHash != expectedPrev) {
                if (row.seq > 1 && selfConsistent) {
                    // This row still hashes correctly over what it recorded as its predecessor's hash: the
                    // predecessor is what changed (and was re-hashed to look consistent by itself).
                    out.firstBrokenSeq = row.seq - 1;
                    --out.checkedRows;
                    out.lastSeq = priorSeq;
                    out.lastHash = priorHash;
                    out.problem = u"seq %1 was re-hashed: its hash differs from the one seq %2 recorded as "
                                  "its predecessor's"_s.arg(row.seq - 1)
                                      .arg(row.seq);
                } else {
                    out.firstBrokenSeq = row.seq;
                    out.problem =
                        row.seq == 1
                            ? u"seq 1 does not start from the genesis hash"_s
                            : u"prev_hash of seq %1 does not match the hash of seq %2"_s.arg(row.seq).arg(
                                row.seq - 1);
                }
                return finish();
            }
            if (!selfConsistent) {
                out.firstBrokenSeq = row.seq;
                out.problem =
                    u"seq %1 does not match its hash: the row was changed after it was written"_s.arg(
                        row.seq);
                return finish();
            }
            priorSeq = out.lastSeq;
            priorHash = out.lastHash;
            expectedPrev = row.hash;
            ++expectedSeq;
            cursor = row.seq;
            out.lastSeq = row.seq;
            out.lastHash = row.hash;
            ++out.checkedRows;
        }
        control.reportProgress(out.checkedRows, highest);
        // Keep a page near the byte budget: a log of large events (item lists) is read in smaller pages.
        const qint64 perRow = std::max<qint64>(1, bytes / page.rows.size());
        rows = int(std::clamp<qint64>(PageByteBudget / perRow, 1, maxRows));
    }
    tx.commit();
    return finish();
}

ChainVerification AuditChain::verify(const QString &conninfo, const JobControl &control, int pageSize)
{
    PgSession session;
    QString error;
    if (!session.connect(conninfo, &error)) {
        ChainVerification out;
        out.error = u"cannot connect to the audit database: "_s + error;
        return out;
    }
    return verify(session, control, pageSize);
}
