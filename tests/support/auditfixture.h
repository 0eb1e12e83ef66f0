#pragma once

// A throwaway audit database for the approval queue and audit trail tests: one PostgreSQL server per test
// process, a fresh database per test function, migrated as the superuser, with the demo world's people:
//   alice: operator and approver (the demo console's role)   bob: operator and approver   carol: operator
//   only
// Header-only so any test can use it without a change to the test support library.

#include "services/audit/auditmigrator.h"
#include "services/audit/auditstore.h"
#include "services/demo/temppostgres.h"
#include "services/inbox/pgsession.h"

#include <QCryptographicHash>
#include <QTest>

#include <memory>

class AuditFixture final {
public:
    bool prepare()
    {
        using namespace Qt::StringLiterals;
        if (!m_pg) {
            m_pg = std::make_unique<TempPostgres>();
            QString error;
            if (!m_pg->start(&error)) {
                qWarning().noquote() << error;
                m_pg.reset();
                return false;
            }
        }
        m_database = u"t_"_s + QString::fromLatin1(QTest::currentTestFunction()).toLower();
        if (const char *tag = QTest::currentDataTag())
            m_database += u'_' + QString::fromLatin1(tag).toLower().replace(u' ', u'_');
        QString error;
        if (!m_pg->exec(u"DROP DATABASE IF EXISTS %1"_s.arg(m_database), &error)
            || !m_pg->exec(u"CREATE DATABASE %1"_s.arg(m_database), &error)
            || !m_admin.connect(m_pg->conninfo(u"postgres"_s, m_database), &error)) {
            qWarning().noquote() << error;
            return false;
        }
        const AuditMigrationOutcome outcome = AuditMigrator::migrate(m_admin);
        if (!outcome.ok) {
            qWarning().noquote() << outcome.error;
            return false;
        }
        const QString people = uR"(
DO $$
DECLARE
    person text;
BEGIN
    FOREACH person IN ARRAY ARRAY['alice', 'bob', 'carol'] LOOP
        IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = person) THEN
            EXECUTE format('CREATE ROLE %I LOGIN', person);
        END IF;
    END LOOP;
END
$$;
GRANT berth_operator, berth_approver TO alice, bob;
GRANT berth_operator TO carol;
)"_s;
        if (!m_admin.execScript(people, &error)) {
            qWarning().noquote() << error;
            return false;
        }
        return true;
    }

    QString conninfo(const QString &role) const { return m_pg->conninfo(role, m_database); }
    PgSession &admin() { return m_admin; }

    QVariant scalar(const QString &sql, const QVariantList &params = {})
    {
        const PgResult r = m_admin.exec(sql, params);
        if (!r.ok)
            qWarning().noquote() << r.error;
        return r.rows.value(0).value(0);
    }

    // Runs SQL as the superuser with triggers off, as an attacker with full access would.
    bool tamper(const QString &sql)
    {
        using namespace Qt::StringLiterals;
        QString error;
        if (!m_admin.execScript(u"SET session_replication_role = replica; "_s + sql
                                    + u"; RESET session_replication_role;"_s,
                                &error)) {
            qWarning().noquote() << error;
            return false;
        }
        return true;
    }

    // A request made by `role` over a session of its own, as the request dialog or the CLI would.
    qint64 createRequest(const QString &role, const NewRemediationRequest &request, QString *error = nullptr)
    {
        PgSession session;
        QString why;
        if (!session.connect(conninfo(role), &why)) {
            qWarning().noquote() << why;
            return 0;
        }
        AuditStore store(session);
        const qint64 id = store.createRequest(request, &why);
        if (!id)
            qWarning().noquote() << why;
        if (error)
            *error = why;
        return id;
    }

    static QByteArray sha256(const QByteArray &data)
    {
        return QCryptographicHash::hash(data, QCryptographicHash::Sha256);
    }

    static NewRemediationRequest sampleRequest(int itemCount = 2,
                                               const QString &reason = QStringLiteral("poison fixed"))
    {
        using namespace Qt::StringLiterals;
        NewRemediationRequest r;
        r.reasonCode = u"poison-fixed"_s;
        r.reason = reason;
        r.ticket = u"OPS-1234"_s;
        r.dryRun = QJsonObject{{u"count"_s, itemCount},
                               {u"inboxChecked"_s, true},
                               {u"keysLookedUp"_s, itemCount},
                               {u"predictedNoOps"_s, 1},
                               {u"predictedNoOpRate"_s, itemCount ? 1.0 / itemCount : 0.0},
                               {u"verdict"_s, u"allowed"_s},
                               {u"requiredApprovals"_s, 1}};
        for (int i = 0; i < itemCount; ++i) {
            RequestItem item;
            item.sourceTopic = u"orders-dlt"_s;
            item.sourcePartition = i % 3;
            item.sourceOffset = 100 + i;
            item.payloadSha256 = sha256("payload " + QByteArray::number(i));
            item.key = "order-" + QByteArray::number(i);
            item.idempotencyKey = u"idem-%1"_s.arg(i);
            r.items << item;
        }
        return r;
    }

private:
    std::unique_ptr<TempPostgres> m_pg;
    QString m_database;
    PgSession m_admin;
};
