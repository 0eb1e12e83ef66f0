#include "auditmigrator.h"

#include "services/audit/audittransaction.h"
#include "services/inbox/pgsession.h"
#include "services/support/logging.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QMap>

#include <algorithm>

using namespace Qt::StringLiterals;

// The migrations live in the services library's resources; a static library's resources must be pulled in.
static void initAuditResources()
{
    Q_INIT_RESOURCE(services);
}

namespace {
const QString MigrationDir = u":/berth/sql/audit"_s;

// Created by the migrator, not by a migration: it must exist before any migration can be recorded.
const QString Bootstrap = uR"(CREATE SCHEMA IF NOT EXISTS berth;
CREATE TABLE IF NOT EXISTS berth.schema_version (
    version    integer PRIMARY KEY,
    name       text NOT NULL,
    checksum   bytea NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now(),
    applied_by text NOT NULL DEFAULT session_user
);)"_s;

// version -> checksum of what was applied; *present false when there is no version table yet.
bool readApplied(PgSession &db, QMap<int, QByteArray> *applied, bool *present, QString *error)
{
    applied->clear();
    // A catalog query rather than to_regclass(): reading pg_class locks it, which makes the backend process
    // pending cache invalidations. After waiting for the migration lock, to_regclass() could still answer
    // from a negative cache entry made before another desk created the schema.
    PgResult r = db.exec(u"SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_class c "
                         "JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace "
                         "WHERE n.nspname = 'berth' AND c.relname = 'schema_version') AS present"_s);
    if (!r.ok) {
        *error = r.error;
        return false;
    }
    *present = r.value(0, u"present").toBool();
    if (!*present)
        return true;
    r = db.exec(u"SELECT version, checksum FROM berth.schema_version ORDER BY version"_s);
    if (!r.ok) {
        *error = r.error;
        return false;
    }
    for (const QVariantList &row : std::as_const(r.rows))
        applied->insert(row.value(0).toInt(), row.value(1).toByteArray());
    return true;
}

int highest(const QMap<int, QByteArray> &applied)
{
    return applied.isEmpty() ? 0 : applied.lastKey();
}

bool allApplied(const QList<AuditMigration> &migrations, const QMap<int, QByteArray> &applied)
{
    return std::all_of(migrations.cbegin(), migrations.cend(),
                       [&](const AuditMigration &m) { return applied.contains(m.version); });
}

void addWarnings(AuditMigrationOutcome &out, const QList<AuditMigration> &migrations,
                 const QMap<int, QByteArray> &applied)
{
    for (const AuditMigration &m : migrations) {
        const auto it = applied.constFind(m.version);
        if (it != applied.cend() && *it != m.checksum())
            out.warnings << u"migration %1 differs from the text applied to this database"_s.arg(m.name);
    }
    const int latest = migrations.isEmpty() ? 0 : migrations.last().version;
    if (highest(applied) > latest) {
        out.warnings << u"the audit schema is at version %1, newer than this Berth knows (%2)"_s
                            .arg(highest(applied))
                            .arg(latest);
    }
}
} // namespace

QByteArray AuditMigration::checksum() const
{
    return QCryptographicHash::hash(sql.toUtf8(), QCryptographicHash::Sha256);
}

QList<AuditMigration> AuditMigrator::shipped()
{
    initAuditResources();
    QList<AuditMigration> out;
    const QStringList names = QDir(MigrationDir).entryList({u"*.sql"_s}, QDir::Files, QDir::Name);
    for (const QString &name : names) {
        bool ok = false;
        const int version = name.section(u'_', 0, 0).toInt(&ok);
        QFile file(MigrationDir + u'/' + name);
        if (!ok || version <= 0 || !file.open(QIODevice::ReadOnly)) {
            qCWarning(lcAudit) << "ignoring audit migration" << name;
            continue;
        }
        out.append({version, name, QString::fromUtf8(file.readAll())});
    }
    std::sort(out.begin(), out.end(),
              [](const AuditMigration &a, const AuditMigration &b) { return a.version < b.version; });
    return out;
}

int AuditMigrator::latestVersion()
{
    const QList<AuditMigration> all = shipped();
    return all.isEmpty() ? 0 : all.last().version;
}

int AuditMigrator::currentVersion(PgSession &session, QString *error)
{
    QMap<int, QByteArray> applied;
    bool present = false;
    QString problem;
    if (!readApplied(session, &applied, &present, &problem)) {
        if (error)
            *error = problem;
        return -1;
    }
    return highest(applied);
}

AuditMigrationOutcome AuditMigrator::migrate(PgSession &session)
{
    return migrate(session, shipped());
}

AuditMigrationOutcome AuditMigrator::migrate(PgSession &session, QList<AuditMigration> migrations)
{
    std::sort(migrations.begin(), migrations.end(),
              [](const AuditMigration &a, const AuditMigration &b) { return a.version < b.version; });
    AuditMigrationOutcome out;
    for (qsizetype i = 1; i < migrations.size(); ++i) {
        if (migrations.at(i).version == migrations.at(i - 1).version) {
            out.error = u"two audit migrations claim version %1"_s.arg(migrations.at(i).version);
            return out;
        }
    }

    // The daily case first: no lock and no DDL when nothing is missing.
    QMap<int, QByteArray> applied;
    bool present = false;
    if (!readApplied(session, &applied, &present, &out.error)) {
        out.error = u"cannot read the audit schema version: "_s + out.error;
        return out;
    }
    out.versionBefore = out.versionAfter = highest(applied);
    if (present && allApplied(migrations, applied)) {
        addWarnings(out, migrations, applied);
        out.ok = true;
        return out;
    }

    AuditTransaction tx(session);
    if (!tx.isOpen()) {
        out.error = tx.error();
        return out;
    }
    const auto fail = [&](const QString &what, const QString &why) {
        out.error = what + u": "_s + why;
        out.applied.clear();
        tx.rollback();
        out.versionAfter = out.versionBefore;
        return out;
    };
    const PgResult locked = session.exec(u"SELECT pg_advisory_xact_lock($1)"_s, {MigrationLockKey});
    if (!locked.ok)
        return fail(u"cannot take the migration lock"_s, locked.error);
    // Whoever held the lock may have done the work meanwhile: read again under the lock.
    if (!readApplied(session, &applied, &present, &out.error))
        return fail(u"cannot read the audit schema version"_s, out.error);
    out.versionBefore = highest(applied);
    if (!present) {
        QString error;
        if (!session.execScript(Bootstrap, &error))
            return fail(u"cannot create schema berth"_s, error);
    }
    for (const AuditMigration &m : std::as_const(migrations)) {
        if (applied.contains(m.version))
            continue;
        QString error;
        if (!session.execScript(m.sql, &error))
            return fail(u"audit migration %1 failed"_s.arg(m.name), error);
        const PgResult recorded =
            session.exec(u"INSERT INTO berth.schema_version (version, name, checksum) VALUES ($1, $2, $3)"_s,
                         {m.version, m.name, m.checksum()});
        if (!recorded.ok)
            return fail(u"cannot record audit migration %1"_s.arg(m.name), recorded.error);
        applied.insert(m.version, m.checksum());
        out.applied << m.version;
    }
    if (!tx.commit())
        return fail(u"cannot commit the audit migrations"_s, tx.error());
    out.versionAfter = highest(applied);
    addWarnings(out, migrations, applied);
    out.ok = true;
    if (!out.applied.isEmpty())
        qCInfo(lcAudit) << "audit schema migrated from version" << out.versionBefore << "to"
                        << out.versionAfter;
    return out;
}
