#include "audittransaction.h"

#include "services/inbox/pgsession.h"

#include <libpq-fe.h>

using namespace Qt::StringLiterals;

namespace {
const QString SavepointName = u"berth_audit"_s;
}

AuditTransaction::AuditTransaction(PgSession &session, const QString &options)
    : m_db(session)
{
    if (!m_db.handle()) {
        m_error = u"not connected to the database"_s;
        return;
    }
    const PGTransactionStatusType state = PQtransactionStatus(m_db.handle());
    if (state == PQTRANS_INERROR) {
        m_error = u"the session's transaction already failed; roll it back first"_s;
        return;
    }
    m_nested = state == PQTRANS_INTRANS;
    const QString sql =
        m_nested ? u"SAVEPOINT "_s + SavepointName : (options.isEmpty() ? u"BEGIN"_s : u"BEGIN "_s + options);
    const PgResult r = m_db.exec(sql);
    m_open = r.ok;
    if (!r.ok)
        m_error = r.error;
}

AuditTransaction::~AuditTransaction()
{
    rollback();
}

bool AuditTransaction::commit()
{
    if (!m_open)
        return false;
    // COMMIT of a failed transaction answers "ROLLBACK" without an error: refuse it here instead.
    if (PQtransactionStatus(m_db.handle()) == PQTRANS_INERROR) {
        m_error = u"the transaction failed earlier; rolled back"_s;
        rollback();
        return false;
    }
    m_open = false;
    const PgResult r = m_db.exec(m_nested ? u"RELEASE SAVEPOINT "_s + SavepointName : u"COMMIT"_s);
    if (!r.ok) {
        m_error = r.error;
        if (m_nested) // a failed release leaves the savepoint: undo it, the caller's transaction survives
            m_db.exec(u"ROLLBACK TO SAVEPOINT "_s + SavepointName);
        return false;
    }
    return true;
}

void AuditTransaction::rollback()
{
    if (!m_open)
        return;
    m_open = false;
    if (m_nested) {
        m_db.exec(u"ROLLBACK TO SAVEPOINT "_s + SavepointName);
        m_db.exec(u"RELEASE SAVEPOINT "_s + SavepointName);
    } else {
        m_db.exec(u"ROLLBACK"_s);
    }
}
