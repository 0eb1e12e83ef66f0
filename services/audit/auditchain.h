#pragma once

#include "services/audit/audittypes.h"
#include "services/support/jobtracker.h"

#include <QByteArray>
#include <QString>

class PgSession;

// The audit log's hash chain, recomputed on the client: what `berth audit verify` and the "Verify chain"
// button run. Each row must satisfy
//     hash = SHA-256(prev_hash || UTF-8(canonical text)),  prev_hash = the previous row's hash
// (32 zero bytes before seq 1), with seq running 1, 2, 3... without gaps. The canonical text (version 1) is
// defined in resources/sql/audit/003_audit_chain.sql and rebuilt here from the row's stored values, not
// taken from the server: the instant comes as whole seconds and microseconds and is formatted here.
class AuditChain final {
public:
    static constexpr int DefaultPageSize = 1000;
    // Pages shrink for large rows so one page stays near this many bytes (the log is streamed, never held).
    static constexpr qint64 PageByteBudget = 8 * 1024 * 1024;

    static QByteArray genesisHash(); // 32 zero bytes

    // atMicros: microseconds since the Unix epoch, UTC. requestId 0: none. detailsJson: details::text.
    static QByteArray canonicalText(qint64 seq, qint64 atMicros, const QString &actor, const QString &action,
                                    qint64 requestId, const QString &detailsJson);
    static QByteArray rowHash(const QByteArray &prevHash, const QByteArray &canonicalText);
    // "YYYY-MM-DDTHH:MM:SS.ffffffZ"
    static QString formatInstant(qint64 atMicros);

    // Blocking (worker threads, the command line, tests). Reads the whole log in seq order, in pages, inside
    // one read-only snapshot; stops at the first broken row. Progress is reported per page as (rows checked,
    // highest seq); cancellation is checked per page.
    static ChainVerification verify(PgSession &session, const JobControl &control = JobControl(),
                                    int pageSize = DefaultPageSize);
    // The same on a connection of its own (libpq conninfo or URI), closed afterwards.
    static ChainVerification verify(const QString &conninfo, const JobControl &control = JobControl(),
                                    int pageSize = DefaultPageSize);
};
