#pragma once

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

class PgSession;

// One migration of the audit database: resources/sql/audit/NNN_name.sql is version NNN.
struct AuditMigration {
    int version = 0;
    QString name; // the file name, e.g. "003_audit_chain.sql"
    QString sql;
    QByteArray checksum() const; // SHA-256 of the UTF-8 text, recorded in berth.schema_version
};

struct AuditMigrationOutcome {
    bool ok = false;
    int versionBefore = 0; // 0: no audit schema yet
    int versionAfter = 0;
    QList<int> applied;   // by this call, in order; empty when the database was up to date
    QStringList warnings; // e.g. a shipped migration differs from the text once applied; a newer database
    QString error;
};

// Brings schema `berth` to the shipped version. Blocking: worker threads, the command line and tests only.
//
// Up to date (the daily case): two reads, no lock, no DDL, so an operator without CREATE rights connects
// fine. Otherwise, in one transaction: pg_advisory_xact_lock(MigrationLockKey), so two desks connecting at
// once do not race (the second waits, then finds nothing left to do); create the schema and the version
// table when absent; apply every missing version in order, recording each; commit. Any failure rolls back
// everything, leaving the database as it was. The first run needs a role that may create schemas and roles.
class AuditMigrator final {
public:
    static constexpr qint64 MigrationLockKey = 4775313501840034119; // 'BERTHMIG'

    // The migrations built into the application (resources), in version order.
    static QList<AuditMigration> shipped();
    static int latestVersion();

    // 0 when the audit schema is absent; -1 (and *error) when it cannot be read.
    static int currentVersion(PgSession &session, QString *error = nullptr);

    static AuditMigrationOutcome migrate(PgSession &session);
    // Tests and tools: the same with an explicit list (sorted by version here).
    static AuditMigrationOutcome migrate(PgSession &session, QList<AuditMigration> migrations);
};
