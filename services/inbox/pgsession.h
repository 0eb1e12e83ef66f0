#pragma once

#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>
#include <QVariant>

#include <memory>
#include <mutex>

typedef struct pg_conn PGconn;
typedef struct pg_cancel PGcancel;
typedef struct pg_result PGresult;

// The outcome of one statement, as plain values (safe to copy across threads).
struct PgResult {
    bool ok = false;
    QString error;    // one readable line, empty when ok
    QString sqlState; // e.g. "23505"; empty for client-side errors (connection lost, not connected)
    QStringList columns;
    QList<QVariantList> rows; // NULL is an invalid QVariant
    qint64 affected = 0;      // rows touched by INSERT/UPDATE/DELETE/SELECT (PQcmdTuples)

    int columnIndex(QStringView name) const;
    // Convenience for the common "first row, named column" read; invalid when absent.
    QVariant value(int row, QStringView column) const;

    static PgResult failure(const QString &error, const QString &sqlState = {});
};
Q_DECLARE_METATYPE(PgResult)

// One blocking libpq connection. Every call can wait on the network: use it on worker threads only
// (demo services, PgConnection's worker, samplers), never on the UI thread.
class PgSession final {
public:
    PgSession() = default;
    ~PgSession();
    PgSession(const PgSession &) = delete;
    PgSession &operator=(const PgSession &) = delete;
    PgSession(PgSession &&other) noexcept;
    PgSession &operator=(PgSession &&other) noexcept;

    // Closes any previous connection first. The session always talks UTF-8 and ISO dates.
    bool connect(const QString &conninfo, QString *error);
    // A second connection with the same parameters (host, role, database, password...) as an open session:
    // for a worker that writes in parallel under the same identity.
    bool connectLike(const PgSession &other, QString *error);
    // The conninfo connectLike() connects with: every parameter of this open session, the password too, so
    // it stays in memory. Read it on the thread that uses this session; connect with it on any other.
    QString sameParameters(QString *error) const;
    // "role@host:port/database" of the open session: which database a cached catalogue reading is of.
    QString serverIdentity() const;
    bool isOpen() const;
    void close();

    // Always PQexecParams with text parameters, so values are never spliced into SQL. The server infers
    // each parameter's type from its context; cast in SQL ($1::bytea) where the context cannot tell.
    // Parameter encoding: invalid QVariant (or one holding nullptr) -> NULL, but a null QString is ''
    // (Qt 6 semantics); bool -> t/f; QDateTime -> ISO 8601 in UTC; QByteArray -> bytea hex text
    // ("\x..."); QStringList -> array literal; numbers in C locale; anything else via toString().
    PgResult exec(const QString &sql, const QVariantList &params = {});
    // exec() in two halves, so a statement runs on this session while its caller works on another: send()
    // queues one statement (false and *error when it cannot), receive() waits for its result. Nothing else
    // may run on the session in between.
    bool send(const QString &sql, const QVariantList &params, QString *error);
    PgResult receive();
    // After send(): whether the result is still being computed (reads what has arrived, never waits).
    bool isBusy();
    // PQexec: several statements in one go (migrations, setup). No parameters by design.
    bool execScript(const QString &sql, QString *error);

    // PQescapeIdentifier on an open connection; plain double-quoting otherwise.
    QString escapeIdentifier(const QString &identifier) const;
    // "schema"."table" (or just "table" when schema is empty: the search_path decides), each part escaped.
    QString escapeTable(const QString &schema, const QString &table) const;
    // The latest libpq error for this connection, on one line, with the server's reason when it sent
    // one before closing ("terminating connection due to administrator command").
    QString lastError() const;

    PGconn *handle() const { return m_conn; }

    // Shared with PgConnection: libpq's multi-line messages turned into one readable line.
    static QString readableError(const char *message);
    // A failed result's error as Berth shows and logs it, on one line (conn: for a null result). The one
    // rule for server errors that could quote row values (ARCHITECTURE.md, Masking: server errors): an
    // integrity violation (SQLSTATE class 23) keeps its primary message and names the constraint and table,
    // never the DETAIL that quotes the key or row; a data exception (class 22) has the value it quotes
    // taken out and no DETAIL; other errors keep their DETAIL.
    static QString resultError(const PGresult *res, PGconn *conn);

private:
    PGconn *m_conn = nullptr;
    // Heap-held so libpq's notice callback keeps a stable address when the session is moved.
    std::unique_ptr<QString> m_lastFatal = std::make_unique<QString>();
};

// Interrupts the statement a session is blocked in, from another thread (PQcancel), so one-shot work on a
// slow or huge table can be stopped mid-statement rather than only between statements. The worker arms it
// after connecting and disarms it before the session closes; cancel() may come from any thread, before,
// during or after. A cancel before a statement is sent interrupts nothing (the server ignores it): the
// worker checks isCancelled() after arming and before each statement.
class PgStatementCanceller final {
public:
    PgStatementCanceller() = default;
    ~PgStatementCanceller();
    PgStatementCanceller(const PgStatementCanceller &) = delete;
    PgStatementCanceller &operator=(const PgStatementCanceller &) = delete;

    void arm(const PgSession &session);
    void disarm();
    void cancel();
    bool isCancelled() const;

private:
    mutable std::mutex m_mutex;
    PGcancel *m_cancel = nullptr;
    bool m_cancelled = false;
};
