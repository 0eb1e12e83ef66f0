#pragma once

#include <QString>

class PgSession;

// One unit of work on a PgSession that is rolled back unless committed: BEGIN (with the given options) when
// the session is idle, a savepoint when the caller already runs a transaction, so the audit services compose
// with a caller's own transaction instead of committing it behind its back.
class AuditTransaction final {
public:
    explicit AuditTransaction(PgSession &session, const QString &options = {});
    ~AuditTransaction();
    AuditTransaction(const AuditTransaction &) = delete;
    AuditTransaction &operator=(const AuditTransaction &) = delete;

    bool isOpen() const { return m_open; }
    QString error() const { return m_error; } // why it could not begin, or commit

    bool commit();
    void rollback();

private:
    PgSession &m_db;
    bool m_open = false;
    bool m_nested = false;
    QString m_error;
};
