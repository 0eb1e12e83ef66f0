#include "services/audit/auditchain.h"
#include "services/audit/auditmigrator.h"
#include "services/audit/auditstore.h"
#include "services/demo/temppostgres.h"
#include "services/inbox/pgconnection.h"
#include "services/inbox/pgsession.h"
#include "services/remediation/intentjournal.h"
#include "support/testsupport.h"

#include <QCryptographicHash>
#include <QFile>
#include <QSignalSpy>
#include <QTest>
#include <QThread>

#include <latch>
#include <optional>
#include <thread>

using namespace Qt::StringLiterals;

namespace {
// The people of these tests. Group memberships are set exactly (the demo schema makes bob an operator too).
//   alice: operator and approver    bob, erin: approvers only    carol: operator only
//   dave:  in neither group, but granted INSERT on approvals directly (only the trigger stops him)
const char16_t RolesScript[] = uR"(
DO $$
DECLARE
    person text;
BEGIN
    FOREACH person IN ARRAY ARRAY['alice', 'bob', 'carol', 'dave', 'erin'] LOOP
        IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = person) THEN
            EXECUTE format('CREATE ROLE %I LOGIN', person);
        END IF;
    END LOOP;
END
$$;
GRANT berth_operator, berth_approver TO alice;
GRANT berth_approver TO bob, erin;
GRANT berth_operator TO carol;
SET client_min_messages = error; -- revoking a membership that is not there only warns
REVOKE berth_operator FROM bob, erin;
REVOKE berth_approver FROM carol;
REVOKE berth_operator, berth_approver FROM dave;
RESET client_min_messages;
GRANT USAGE ON SCHEMA berth TO dave;
GRANT SELECT ON ALL TABLES IN SCHEMA berth TO dave;
GRANT INSERT ON berth.approvals TO dave;
)";

QByteArray sha256(const QByteArray &data)
{
    return QCryptographicHash::hash(data, QCryptographicHash::Sha256);
}

NewRemediationRequest sampleRequest(int itemCount = 2, RemediationAction action = RemediationAction::Replay)
{
    NewRemediationRequest r;
    r.action = action;
    r.reasonCode = u"poison-fixed"_s;
    r.reason = u"schema fix deployed in orders v2.3"_s;
    r.ticket = u"OPS-1234"_s;
    r.rateLimit = 500;
    r.dryRun = QJsonObject{{u"count"_s, itemCount}, {u"predictedNoOpRate"_s, 0.25}};
    r.policyVerdict = u"allowed"_s;
    for (int i = 0; i < itemCount; ++i) {
        RequestItem item;
        item.sourceTopic = u"orders"_s;
        item.sourcePartition = i % 3;
        item.sourceOffset = 100 + i;
        item.payloadSha256 = sha256("payload " + QByteArray::number(i));
        item.key = "order-" + QByteArray::number(i);
        item.idempotencyKey = u"idem-%1"_s.arg(i);
        r.items << item;
    }
    return r;
}

// One person's desk: a session logged in as them, and the store over it.
struct Desk {
    PgSession db;
    AuditStore store{db};
};
} // namespace

class TestAuditDb final : public QObject {
    Q_OBJECT
    std::unique_ptr<TempPostgres> m_pg;
    QString m_database;
    PgSession m_admin; // superuser, on the test's database

    bool startServer()
    {
        if (m_pg)
            return true;
        m_pg = std::make_unique<TempPostgres>();
        QString error;
        if (!m_pg->start(&error)) {
            qWarning().noquote() << error;
            m_pg.reset();
            return false;
        }
        return true;
    }

    // A fresh database per test function (and data row), so the tests stay independent when they share one
    // server; migrated (as the superuser) and with the people above unless told otherwise.
    bool prepare(bool migrate = true)
    {
        if (!startServer())
            return false;
        m_database = u"t_"_s + QString::fromLatin1(QTest::currentTestFunction()).toLower();
        if (const char *tag = QTest::currentDataTag())
            m_database += u'_' + QString::fromLatin1(tag).toLower().replace(u' ', u'_').replace(u'-', u'_');
        QString error;
        if (!m_pg->exec(u"DROP DATABASE IF EXISTS %1"_s.arg(m_database), &error)
            || !m_pg->exec(u"CREATE DATABASE %1"_s.arg(m_database), &error)
            || !m_admin.connect(m_pg->conninfo(u"postgres"_s, m_database), &error)) {
            qWarning().noquote() << error;
            return false;
        }
        if (!migrate)
            return true;
        const AuditMigrationOutcome outcome = AuditMigrator::migrate(m_admin);
        if (!outcome.ok) {
            qWarning().noquote() << outcome.error;
            return false;
        }
        return createPeople();
    }

    bool createPeople()
    {
        QString error;
        if (!m_admin.execScript(QString::fromUtf16(RolesScript), &error)) {
            qWarning().noquote() << error;
            return false;
        }
        return true;
    }

    std::unique_ptr<Desk> desk(const QString &role)
    {
        auto d = std::make_unique<Desk>();
        QString error;
        if (!d->db.connect(m_pg->conninfo(role, m_database), &error)) {
            qWarning().noquote() << error;
            return nullptr;
        }
        return d;
    }

    QVariant scalar(PgSession &db, const QString &sql, const QVariantList &params = {})
    {
        const PgResult r = db.exec(sql, params);
        if (!r.ok)
            qWarning().noquote() << r.error;
        return r.rows.value(0).value(0);
    }

    QString statusOf(qint64 requestId)
    {
        return scalar(m_admin, u"SELECT status FROM berth.requests WHERE id = $1"_s, {requestId}).toString();
    }

    qint64 count(const QString &table, qint64 requestId)
    {
        return scalar(m_admin, u"SELECT count(*) FROM berth.%1 WHERE request_id = $1"_s.arg(table),
                      {requestId})
            .toLongLong();
    }

    // What an executor writes: one pending intent per item.
    static PgResult journalIntents(PgSession &db, qint64 requestId)
    {
        return db.exec(u"INSERT INTO berth.intents (request_id, item_no, replay_id) "
                       "SELECT request_id, item_no, request_id::text || '-' || item_no::text "
                       "FROM berth.request_items WHERE request_id = $1"_s,
                       {requestId});
    }

    // Runs SQL as the superuser with triggers off (session_replication_role = replica), as an attacker would.
    bool tamper(const QString &sql)
    {
        QString error;
        if (!m_admin.execScript(u"SET session_replication_role = replica; "_s + sql
                                    + u"; RESET session_replication_role;"_s,
                                &error)) {
            qWarning().noquote() << error;
            return false;
        }
        return true;
    }

    bool appendNotes(Desk &desk, int n, const QString &action = u"note.added"_s)
    {
        for (int i = 0; i < n; ++i) {
            QString error;
            if (desk.store.appendEvent(action, 0, {{u"n"_s, i}, {u"text"_s, u"note\n\\ %1 «ü»"_s.arg(i)}},
                                       &error)
                == 0) {
                qWarning().noquote() << error;
                return false;
            }
        }
        return true;
    }

private Q_SLOTS:
    void migrationsApplyOnceAndConcurrently()
    {
        QVERIFY(prepare(false));
        const QList<AuditMigration> shipped = AuditMigrator::shipped();
        // Versions 1..N without a gap, the last the latest.
        const int latest = int(shipped.size());
        QVERIFY(latest >= 9);
        QList<int> versions;
        for (const AuditMigration &m : shipped)
            versions << m.version;
        QList<int> contiguous;
        for (int v = 1; v <= latest; ++v)
            contiguous << v;
        QCOMPARE(versions, contiguous);
        QCOMPARE(shipped.first().name, u"001_roles_and_tables.sql"_s);
        QCOMPARE(AuditMigrator::latestVersion(), latest);
        QCOMPARE(AuditMigrator::currentVersion(m_admin), 0);

        // Two desks connect at the same moment to a database without the audit schema.
        std::latch start(2);
        AuditMigrationOutcome outcomes[2];
        auto run = [&](int i) {
            PgSession db;
            QString error;
            if (!db.connect(m_pg->conninfo(u"postgres"_s, m_database), &error)) {
                outcomes[i].error = error;
                return;
            }
            start.arrive_and_wait();
            outcomes[i] = AuditMigrator::migrate(db);
        };
        std::thread first(run, 0);
        std::thread second(run, 1);
        first.join();
        second.join();
        QVERIFY2(outcomes[0].ok, qPrintable(outcomes[0].error));
        QVERIFY2(outcomes[1].ok, qPrintable(outcomes[1].error));
        // One applied everything, the other waited for the lock and found nothing left to do.
        QCOMPARE(outcomes[0].applied.size() + outcomes[1].applied.size(), latest);
        const AuditMigrationOutcome &winner = outcomes[0].applied.isEmpty() ? outcomes[1] : outcomes[0];
        QCOMPARE(winner.applied, contiguous);
        QCOMPARE(outcomes[0].versionAfter, latest);
        QCOMPARE(outcomes[1].versionAfter, latest);

        // Again: nothing to do, no warnings.
        AuditMigrationOutcome again = AuditMigrator::migrate(m_admin);
        QVERIFY2(again.ok, qPrintable(again.error));
        QVERIFY(again.applied.isEmpty());
        QCOMPARE(again.versionBefore, latest);
        QVERIFY2(again.warnings.isEmpty(), qPrintable(again.warnings.join(u"; ")));
        QCOMPARE(scalar(m_admin, u"SELECT count(*) FROM berth.schema_version"_s).toInt(), latest);

        // An operator without CREATE rights connects every day: the up-to-date path needs none.
        QVERIFY(createPeople());
        auto carol = desk(u"carol"_s);
        QVERIFY(carol);
        again = AuditMigrator::migrate(carol->db);
        QVERIFY2(again.ok, qPrintable(again.error));
        QVERIFY(again.applied.isEmpty());
        QCOMPARE(AuditMigrator::currentVersion(carol->db), latest);

        // A shipped migration edited after it was applied is reported.
        QList<AuditMigration> edited = AuditMigrator::shipped();
        edited[2].sql += u"\n-- edited"_s;
        again = AuditMigrator::migrate(m_admin, edited);
        QVERIFY(again.ok);
        QCOMPARE(again.warnings.size(), 1);
        QVERIFY(again.warnings.first().contains(u"003_audit_chain.sql"_s));
    }

    void failedMigrationChangesNothing()
    {
        QVERIFY(prepare(false));
        QList<AuditMigration> migrations = AuditMigrator::shipped();
        const int latest = AuditMigrator::latestVersion();
        migrations << AuditMigration{latest + 1, u"999_broken.sql"_s,
                                     u"CREATE TABLE berth.half_done (x int); SELECT 1/0;"_s};

        AuditMigrationOutcome outcome = AuditMigrator::migrate(m_admin, migrations);
        QVERIFY(!outcome.ok);
        QVERIFY2(outcome.error.contains(u"999_broken.sql"_s), qPrintable(outcome.error));
        QVERIFY2(outcome.error.contains(u"division by zero"_s), qPrintable(outcome.error));
        QVERIFY(outcome.applied.isEmpty());
        // All or nothing: not even the schema is left behind.
        QCOMPARE(AuditMigrator::currentVersion(m_admin), 0);
        QVERIFY(scalar(m_admin, u"SELECT to_regnamespace('berth') IS NULL"_s).toBool());

        outcome = AuditMigrator::migrate(m_admin);
        QVERIFY2(outcome.ok, qPrintable(outcome.error));
        QCOMPARE(outcome.versionAfter, latest);
        outcome = AuditMigrator::migrate(m_admin, migrations);
        QVERIFY(!outcome.ok);
        QCOMPARE(AuditMigrator::currentVersion(m_admin), latest);
        QVERIFY(scalar(m_admin, u"SELECT to_regclass('berth.half_done') IS NULL"_s).toBool());
    }

    void canonicalTextMatchesTheServer()
    {
        // A known answer, spelled out: the escaping and the instant format.
        const QByteArray known = AuditChain::canonicalText(7, Q_INT64_C(1700000000123456), u"a\\b"_s,
                                                           u"x\ny"_s, 0, u"{\"k\": \"v\"}"_s);
        QCOMPARE(
            known,
            QByteArray("berth-audit-v1\n7\n2023-11-14T22:13:20.123456Z\na\\\\b\nx\\ny\n\n{\"k\": \"v\"}"));
        QCOMPARE(AuditChain::formatInstant(5), u"1970-01-01T00:00:00.000005Z"_s);
        QCOMPARE(AuditChain::genesisHash(), QByteArray(32, '\0'));

        QVERIFY(prepare());
        auto alice = desk(u"alice"_s);
        QVERIFY(alice);
        QString error;
        const qint64 requestId = alice->store.createRequest(sampleRequest(), &error);
        QVERIFY2(requestId > 0, qPrintable(error));
        QVERIFY(appendNotes(*alice, 3));
        QVERIFY(alice->store.appendEvent(u"note.added"_s, requestId,
                                         {{u"quote"_s, u"\"\\\n\t\u0001 ☃ 𝄞"_s}, {u"n"_s, 1.5e300}}, &error));

        // The client's text is built from the stored values; the server's by its own function.
        const PgResult rows = m_admin.exec(
            u"SELECT seq, extract(epoch FROM date_trunc('second', at))::bigint, "
            "extract(microseconds FROM at AT TIME ZONE 'UTC')::bigint % 1000000, actor, action, request_id, "
            "details::text, prev_hash, hash, "
            "convert_to(berth.audit_canonical_text(seq, at, actor, action, request_id, details), 'UTF8') "
            "FROM berth.audit_events ORDER BY seq"_s);
        QVERIFY2(rows.ok, qPrintable(rows.error));
        QCOMPARE(rows.rows.size(), 6); // request.created, request.items_added, 3 notes, 1 note on the request
        QByteArray prev = AuditChain::genesisHash();
        for (const QVariantList &row : rows.rows) {
            const qint64 at = row.at(1).toLongLong() * 1'000'000 + row.at(2).toLongLong();
            const QByteArray text =
                AuditChain::canonicalText(row.at(0).toLongLong(), at, row.at(3).toString(),
                                          row.at(4).toString(), row.at(5).toLongLong(), row.at(6).toString());
            QCOMPARE(text, row.at(9).toByteArray());
            QCOMPARE(row.at(7).toByteArray(), prev);
            QCOMPARE(AuditChain::rowHash(prev, text), row.at(8).toByteArray());
            prev = row.at(8).toByteArray();
        }
    }

    void selfApprovalIsRefused()
    {
        QVERIFY(prepare());
        auto alice = desk(u"alice"_s);
        auto bob = desk(u"bob"_s);
        QVERIFY(alice && bob);
        QString error;
        const qint64 id = alice->store.createRequest(sampleRequest(), &error);
        QVERIFY2(id > 0, qPrintable(error));

        // Through the service: alice is an approver, but not of her own request.
        QVERIFY(!alice->store.approve(id, u"lgtm"_s, &error));
        QVERIFY2(error.contains(u"must differ from the requester"_s), qPrintable(error));
        QCOMPARE(alice->store.lastSqlState(), u"42501"_s);
        QVERIFY(!alice->store.reject(id, {}, &error));
        QVERIFY2(error.contains(u"must differ from the requester"_s), qPrintable(error));

        // Raw SQL, naming someone else as the approver: the database writes session_user and refuses.
        PgResult raw = alice->db.exec(
            u"INSERT INTO berth.approvals (request_id, approver, decision) VALUES ($1, 'bob', 'approve')"_s,
            {id});
        QVERIFY(!raw.ok);
        QVERIFY2(raw.error.contains(u"must differ from the requester"_s), qPrintable(raw.error));
        QCOMPARE(count(u"approvals"_s, id), 0);
        QCOMPARE(statusOf(id), u"pending"_s);

        // Someone else may.
        QVERIFY2(bob->store.approve(id, u"checked the dry run"_s, &error), qPrintable(error));
        QCOMPARE(statusOf(id), u"approved"_s);
        const std::optional<RequestDetail> detail = bob->store.requestDetail(id, &error);
        QVERIFY2(detail, qPrintable(error));
        QCOMPARE(detail->request.requestedBy, u"alice"_s);
        QCOMPARE(detail->approvals.size(), 1);
        QCOMPARE(detail->approvals.first().approver, u"bob"_s);
        QVERIFY(detail->approvals.first().approved);
    }

    void approvalNeedsTheApproverRole()
    {
        QVERIFY(prepare());
        auto alice = desk(u"alice"_s);
        auto carol = desk(u"carol"_s);
        auto dave = desk(u"dave"_s);
        auto bob = desk(u"bob"_s);
        QVERIFY(alice && carol && dave && bob);
        QString error;
        const qint64 id = alice->store.createRequest(sampleRequest(), &error);
        QVERIFY2(id > 0, qPrintable(error));

        const std::optional<AuditIdentity> carolIs = carol->store.identity(&error);
        QVERIFY2(carolIs, qPrintable(error));
        QCOMPARE(carolIs->role, u"carol"_s);
        QVERIFY(carolIs->isOperator);
        QVERIFY(!carolIs->isApprover);

        // carol is an operator only: no grant to approve.
        QVERIFY(!carol->store.approve(id, {}, &error));
        QVERIFY2(error.contains(u"permission denied"_s), qPrintable(error));
        // dave holds the table grant but is no approver: the trigger refuses.
        PgResult raw = dave->db.exec(
            u"INSERT INTO berth.approvals (request_id, decision) VALUES ($1, 'approve')"_s, {id});
        QVERIFY(!raw.ok);
        QVERIFY2(raw.error.contains(u"not a member of berth_approver"_s), qPrintable(raw.error));
        QCOMPARE(count(u"approvals"_s, id), 0);
        QCOMPARE(statusOf(id), u"pending"_s);

        // And bob, an approver only, cannot request.
        QVERIFY(bob->store.createRequest(sampleRequest(), &error) == 0);
        QVERIFY2(error.contains(u"permission denied"_s), qPrintable(error));
        QVERIFY2(bob->store.approve(id, {}, &error), qPrintable(error));
    }

    void requiredApprovalsAreDistinctPeople()
    {
        QVERIFY(prepare());
        auto alice = desk(u"alice"_s);
        auto bob = desk(u"bob"_s);
        auto erin = desk(u"erin"_s);
        QVERIFY(alice && bob && erin);
        NewRemediationRequest request = sampleRequest();
        request.requiredApprovals = 2;
        QString error;
        const qint64 id = alice->store.createRequest(request, &error);
        QVERIFY2(id > 0, qPrintable(error));

        QVERIFY2(bob->store.approve(id, {}, &error), qPrintable(error));
        QCOMPARE(statusOf(id), u"pending"_s);
        QVERIFY(!bob->store.approve(id, u"again"_s, &error)); // one decision per person
        QVERIFY(!alice->store.setStatus(id, RequestStatus::Executing, &error));
        PgResult raw = alice->db.exec(u"UPDATE berth.requests SET status = 'approved' WHERE id = $1"_s, {id});
        QVERIFY(!raw.ok);
        QVERIFY2(raw.error.contains(u"1 of the 2 approvals"_s), qPrintable(raw.error));
        QCOMPARE(statusOf(id), u"pending"_s);

        QVERIFY2(erin->store.approve(id, {}, &error), qPrintable(error));
        QCOMPARE(statusOf(id), u"approved"_s);
        QVERIFY2(alice->store.setStatus(id, RequestStatus::Executing, &error), qPrintable(error));
        QCOMPARE(statusOf(id), u"executing"_s);
    }

    void requestsAreImmutableAndIdentityIsTheRole()
    {
        QVERIFY(prepare());
        auto alice = desk(u"alice"_s);
        auto carol = desk(u"carol"_s);
        auto bob = desk(u"bob"_s);
        QVERIFY(alice && carol && bob);

        // Whatever the client claims, the requester is session_user and a new request is pending.
        PgResult raw =
            alice->db.exec(u"INSERT INTO berth.requests (action, requested_by, status) "
                           "VALUES ('skip', 'bob', 'approved') RETURNING id, requested_by, status"_s);
        QVERIFY2(raw.ok, qPrintable(raw.error));
        QCOMPARE(raw.value(0, u"requested_by").toString(), u"alice"_s);
        QCOMPARE(raw.value(0, u"status").toString(), u"pending"_s);

        NewRemediationRequest request = sampleRequest();
        request.requiredApprovals = 2;
        QString error;
        const qint64 id = alice->store.createRequest(request, &error);
        QVERIFY2(id > 0, qPrintable(error));
        // An operator may update the status column only; the table's owner is stopped by the trigger.
        const QString rewrite = u"UPDATE berth.requests SET reason = 'something else' WHERE id = $1"_s;
        raw = alice->db.exec(rewrite, {id});
        QVERIFY(!raw.ok);
        QVERIFY2(raw.error.contains(u"permission denied"_s), qPrintable(raw.error));
        raw = m_admin.exec(rewrite, {id});
        QVERIFY(!raw.ok);
        QVERIFY2(raw.error.contains(u"only its status may change"_s), qPrintable(raw.error));
        QCOMPARE(scalar(m_admin, u"SELECT reason FROM berth.requests WHERE id = $1"_s, {id}).toString(),
                 request.reason);

        const QString addItem = u"INSERT INTO berth.request_items (request_id, item_no, source_topic, "
                                u"source_partition, source_offset, "
                                "payload_sha256) VALUES ($1, 99, 'orders', 0, 999, sha256('x'))"_s;
        raw = carol->db.exec(addItem, {id});
        QVERIFY(!raw.ok);
        QVERIFY2(raw.error.contains(u"only the requester"_s), qPrintable(raw.error));
        QVERIFY2(bob->store.approve(id, {}, &error), qPrintable(error));
        raw = alice->db.exec(addItem, {id});
        QVERIFY(!raw.ok);
        QVERIFY2(raw.error.contains(u"items are frozen"_s), qPrintable(raw.error));
        raw =
            alice->db.exec(u"UPDATE berth.request_items SET source_offset = 1 WHERE request_id = $1"_s, {id});
        QVERIFY(!raw.ok);
        QCOMPARE(count(u"request_items"_s, id), 2);

        // An edited payload belongs to edit_replay only; a whole request fails with its item.
        NewRemediationRequest edited = sampleRequest(1);
        edited.items[0].editedPayload = QByteArray("{\"fixed\":true}");
        QCOMPARE(alice->store.createRequest(edited, &error), 0);
        QVERIFY2(error.contains(u"only edit_replay items carry an edited payload"_s), qPrintable(error));
        edited.action = RemediationAction::EditReplay;
        const qint64 editId = alice->store.createRequest(edited, &error);
        QVERIFY2(editId > 0, qPrintable(error));
        const std::optional<RequestDetail> detail = alice->store.requestDetail(editId, &error);
        QVERIFY2(detail, qPrintable(error));
        QCOMPARE(detail->items.size(), 1);
        QCOMPARE(detail->items.first().editedPayload.value_or(QByteArray()), QByteArray("{\"fixed\":true}"));
        QCOMPARE(detail->items.first().key.value_or(QByteArray()), QByteArray("order-0"));
        QCOMPARE(detail->items.first().payloadSha256, sha256("payload 0"));
        QCOMPARE(detail->request.action, RemediationAction::EditReplay);
        QCOMPARE(detail->request.dryRun.value(u"count"_s).toInt(), 1);
        QCOMPARE(detail->request.rateLimit, 500.0);
    }

    void rejectedRequestNeverExecutes()
    {
        QVERIFY(prepare());
        auto alice = desk(u"alice"_s);
        auto bob = desk(u"bob"_s);
        auto erin = desk(u"erin"_s);
        QVERIFY(alice && bob && erin);
        QString error;
        const qint64 id = alice->store.createRequest(sampleRequest(), &error);
        QVERIFY2(id > 0, qPrintable(error));

        // Not approved yet: nothing may run.
        QVERIFY(!alice->store.setStatus(id, RequestStatus::Executing, &error));
        QVERIFY2(error.contains(u"pending: it cannot become executing"_s), qPrintable(error));

        QVERIFY2(bob->store.reject(id, u"wrong topic"_s, &error), qPrintable(error));
        QCOMPARE(statusOf(id), u"rejected"_s);
        QVERIFY(!erin->store.approve(id, {}, &error));
        QVERIFY2(error.contains(u"only pending requests"_s), qPrintable(error));

        QVERIFY(!alice->store.setStatus(id, RequestStatus::Executing, &error));
        QVERIFY2(error.contains(u"rejected: it cannot become executing"_s), qPrintable(error));
        PgResult raw = m_admin.exec(u"UPDATE berth.requests SET status = 'executing' WHERE id = $1"_s, {id});
        QVERIFY(!raw.ok); // not even the superuser
        raw = journalIntents(alice->db, id);
        QVERIFY(!raw.ok);
        QVERIFY2(raw.error.contains(u"intents are journaled only while it is executing"_s),
                 qPrintable(raw.error));
        QCOMPARE(count(u"intents"_s, id), 0);
        QCOMPARE(statusOf(id), u"rejected"_s);
    }

    void expiredRequestNeverExecutes()
    {
        QVERIFY(prepare());
        auto alice = desk(u"alice"_s);
        auto bob = desk(u"bob"_s);
        QVERIFY(alice && bob);
        QString error;
        const QDateTime serverNow = scalar(m_admin, u"SELECT clock_timestamp()"_s).toDateTime();
        NewRemediationRequest request = sampleRequest();
        request.expiresAt = serverNow.addMSecs(1500);
        const qint64 approved = alice->store.createRequest(request, &error);
        QVERIFY2(approved > 0, qPrintable(error));
        const qint64 undecided = alice->store.createRequest(request, &error);
        QVERIFY2(undecided > 0, qPrintable(error));
        QVERIFY2(bob->store.approve(approved, {}, &error), qPrintable(error));
        QCOMPARE(statusOf(approved), u"approved"_s);

        QTRY_VERIFY_WITH_TIMEOUT(
            scalar(m_admin,
                   u"SELECT clock_timestamp() > expires_at + interval '50 ms' FROM berth.requests "
                   "WHERE id = $1"_s,
                   {approved})
                .toBool(),
            10'000);
        // Approved, but too late: it never starts.
        QVERIFY(!alice->store.setStatus(approved, RequestStatus::Executing, &error));
        QVERIFY2(error.contains(u"expired at"_s), qPrintable(error));
        PgResult raw = journalIntents(alice->db, approved);
        QVERIFY(!raw.ok);
        QCOMPARE(count(u"intents"_s, approved), 0);
        QVERIFY(!bob->store.approve(undecided, {}, &error));
        QVERIFY2(error.contains(u"can no longer be approved"_s), qPrintable(error));

        // Any desk may mark them expired; then they are final.
        const QList<qint64> expired = bob->store.expireOverdue(&error);
        QCOMPARE(expired, (QList<qint64>{approved, undecided}));
        QCOMPARE(statusOf(approved), u"expired"_s);
        QVERIFY(!alice->store.setStatus(approved, RequestStatus::Executing, &error));
        QVERIFY2(error.contains(u"expired: it cannot become executing"_s), qPrintable(error));
        raw = journalIntents(alice->db, approved);
        QVERIFY(!raw.ok);
        QCOMPARE(count(u"intents"_s, approved), 0);

        // A request cannot be born expired either.
        request.expiresAt = serverNow.addSecs(-60);
        QCOMPARE(alice->store.createRequest(request, &error), 0);
        QVERIFY2(error.contains(u"must expire in the future"_s), qPrintable(error));
    }

    void approvedRequestExecutesAndIsJournaled()
    {
        QVERIFY(prepare());
        auto alice = desk(u"alice"_s);
        auto bob = desk(u"bob"_s);
        auto carol = desk(u"carol"_s);
        QVERIFY(alice && bob && carol);
        QString error;
        const qint64 id = alice->store.createRequest(sampleRequest(), &error);
        QVERIFY2(id > 0, qPrintable(error));
        PgResult raw = journalIntents(carol->db, id);
        QVERIFY(!raw.ok); // pending: no journal yet
        QVERIFY2(bob->store.approve(id, u"ok"_s, &error), qPrintable(error));
        QVERIFY(!bob->store.setStatus(id, RequestStatus::Executing, &error)); // an approver does not execute
        QVERIFY2(carol->store.setStatus(id, RequestStatus::Executing, &error), qPrintable(error));

        raw = carol->db.exec(
            u"INSERT INTO berth.intents (request_id, item_no, replay_id, state, dest_partition, "
            "dest_offset) VALUES ($1, 1, $1::bigint::text || '-1', 'delivered', 0, 0)"_s,
            {id});
        QVERIFY(!raw.ok); // journaled before producing, so never born delivered
        QVERIFY2(raw.error.contains(u"before anything is produced"_s), qPrintable(raw.error));
        raw = carol->db.exec(u"INSERT INTO berth.intents (request_id, item_no, replay_id) "
                             "VALUES ($1, 99, $1::bigint::text || '-99')"_s,
                             {id});
        QVERIFY(!raw.ok); // the request has two items
        QVERIFY2(raw.error.contains(u"has no item 99"_s), qPrintable(raw.error));
        raw = carol->db.exec(u"INSERT INTO berth.intents (request_id, item_no, replay_id) VALUES ($1, 1, 'x')"_s,
                             {id});
        QVERIFY(!raw.ok); // the replay id names the item
        QVERIFY2(raw.error.contains(u"intents_replay_id_names_item"_s), qPrintable(raw.error));
        raw = journalIntents(carol->db, id);
        QVERIFY2(raw.ok, qPrintable(raw.error));
        // Even the owner cannot rewrite an intent's history (the check is the database's, not a grant).
        raw = m_admin.exec(u"UPDATE berth.intents SET created_at = created_at - interval '1 day' WHERE request_id = $1"_s, {id});
        QVERIFY(!raw.ok);
        QVERIFY2(raw.error.contains(u"only its delivery state may change"_s), qPrintable(raw.error));
        raw = carol->db.exec(u"UPDATE berth.intents SET state = 'pending', attempts = 1 WHERE request_id = $1"_s,
                             {id});
        QVERIFY2(raw.ok, qPrintable(raw.error)); // staying pending is no transition
        // A delivery is the item's replayed disposition (version 11), never an UPDATE of its intent.
        raw = carol->db.exec(u"UPDATE berth.intents SET state = 'delivered', dest_topic = 'orders', "
                             "dest_partition = item_no, dest_offset = 1000 + item_no WHERE request_id = $1"_s,
                             {id});
        QVERIFY(!raw.ok);
        QVERIFY2(raw.error.contains(u"is pending: it cannot become delivered"_s), qPrintable(raw.error));
        raw = carol->db.exec(
            u"INSERT INTO berth.dispositions (request_id, item_no, source_topic, source_partition, "
            "source_offset, disposition) VALUES ($1, 99, 'orders', 0, 100, 'replayed')"_s,
            {id});
        QVERIFY(!raw.ok);
        QVERIFY2(raw.error.contains(u"has no item 99"_s), qPrintable(raw.error));
        raw = carol->db.exec(
            u"INSERT INTO berth.dispositions (request_id, item_no, source_topic, source_partition, "
            "source_offset, disposition, dest_topic, dest_partition, dest_offset) "
            "VALUES ($1, 1, 'orders', 0, 101, 'replayed', 'orders', 1, 1001)"_s,
            {id});
        QVERIFY(!raw.ok); // item 1 is orders/0/100
        raw = carol->db.exec(
            u"INSERT INTO berth.dispositions (request_id, item_no, source_topic, source_partition, "
            "source_offset, disposition) SELECT request_id, item_no, source_topic, "
            "source_partition, source_offset, 'replayed' FROM berth.request_items WHERE request_id = $1"_s,
            {id});
        QVERIFY(!raw.ok); // a delivery says where the record went
        QVERIFY2(raw.error.contains(u"a replay records where it went"_s), qPrintable(raw.error));
        const QString deliver =
            u"INSERT INTO berth.dispositions (request_id, item_no, source_topic, source_partition, "
            "source_offset, disposition, dest_topic, dest_partition, dest_offset) SELECT request_id, item_no, "
            "source_topic, source_partition, source_offset, 'replayed', 'orders', item_no, 1000 + item_no "
            "FROM berth.request_items WHERE request_id = $1"_s;
        raw = carol->db.exec(deliver, {id});
        QVERIFY2(raw.ok, qPrintable(raw.error));
        raw = carol->db.exec(deliver + u" AND item_no = 1"_s, {id});
        QVERIFY(!raw.ok); // delivered at most once
        QVERIFY2(raw.error.contains(u"dispositions_delivered_once"_s), qPrintable(raw.error));
        raw = carol->db.exec(u"UPDATE berth.intents SET state = 'failed' WHERE request_id = $1"_s, {id});
        QVERIFY(!raw.ok); // a delivery is final
        QVERIFY2(raw.error.contains(u"was delivered: its delivery is final"_s), qPrintable(raw.error));
        raw = carol->db.exec(u"UPDATE berth.intents SET dest_offset = 7 WHERE request_id = $1 AND item_no = 2"_s,
                             {id});
        QVERIFY(!raw.ok);
        QVERIFY2(raw.error.contains(u"was delivered: its delivery is final"_s), qPrintable(raw.error));
        // History stays: neither the operator nor the owner may rewrite or remove a delivery.
        raw = carol->db.exec(u"UPDATE berth.dispositions SET dest_offset = 7 WHERE request_id = $1"_s, {id});
        QVERIFY(!raw.ok);
        raw = carol->db.exec(u"DELETE FROM berth.dispositions WHERE request_id = $1"_s, {id});
        QVERIFY(!raw.ok);
        QHash<int, IntentJournal::Intent> intents;
        QVERIFY2(IntentJournal(carol->db, id).load(&intents, &error), qPrintable(error));
        QCOMPARE(intents.value(2).state, IntentJournal::State::Delivered);
        QCOMPARE(intents.value(2).destPartition, 2);
        QCOMPARE(intents.value(2).destOffset, qint64(1002));
        QCOMPARE(intents.value(2).attempts, 2); // one recorded before, and the delivery
        QVERIFY2(carol->store.setStatus(id, RequestStatus::Completed, &error), qPrintable(error));

        // The journal, written by the database: who did what, in order.
        EventFilter filter;
        filter.requestId = id;
        const QList<AuditEvent> events = alice->store.listEvents(filter, &error);
        QStringList trail;
        for (const AuditEvent &e : events) {
            QString line = e.actor + u' ' + e.action;
            if (e.action == u"request.status_changed")
                line += u' ' + e.details.value(u"to"_s).toString();
            trail << line;
        }
        QCOMPARE(trail, (QStringList{u"alice request.created"_s, u"alice request.items_added"_s,
                                     u"bob approval.approved"_s, u"bob request.status_changed approved"_s,
                                     u"carol request.status_changed executing"_s, u"carol intent.journaled"_s,
                                     u"carol intent.updated"_s, u"carol disposition.recorded"_s,
                                     u"carol request.status_changed completed"_s}));
        QCOMPARE(events.at(1).details.value(u"count"_s).toInt(), 2);
        // Column-wise: one array per field, in item order; a value shared by every row written once.
        QCOMPARE(events.at(5).details.value(u"item_no"_s).toArray().size(), 2);
        QVERIFY(!events.at(5).details.contains(u"replay_id"_s)); // `<request>-<item>` by its check
        QVERIFY(!events.at(5).details.contains(u"state"_s));     // all pending
        QCOMPARE(events.at(7).details.value(u"item_no"_s).toArray().at(1).toInt(), 2);
        QCOMPARE(events.at(7).details.value(u"dest_offset"_s).toArray().at(1).toInt(), 1002);
        QCOMPARE(events.at(7).details.value(u"dest_topic"_s).toString(), u"orders"_s);
        QCOMPARE(events.at(7).details.value(u"disposition"_s).toString(), u"replayed"_s);
        const ChainVerification verified = AuditChain::verify(alice->db);
        QVERIFY2(verified.ok, qPrintable(verified.problem + verified.error));
        QCOMPARE(verified.checkedRows, qint64(9));
    }

    // The journal's checks read a dense batch's items as one range and a scattered one item by item
    // (version 13): both refuse the same rows with the same messages.
    void scatteredAndDenseBatchesAreCheckedAlike()
    {
        QVERIFY(prepare());
        auto alice = desk(u"alice"_s);
        auto bob = desk(u"bob"_s);
        auto carol = desk(u"carol"_s);
        QVERIFY(alice && bob && carol);
        QString error;
        const qint64 id = alice->store.createRequest(sampleRequest(1500), &error);
        QVERIFY2(id > 0, qPrintable(error));
        QVERIFY2(bob->store.approve(id, u"ok"_s, &error), qPrintable(error));
        QVERIFY2(carol->store.setStatus(id, RequestStatus::Executing, &error), qPrintable(error));
        const auto journal = [&](const QString &items) {
            return carol->db.exec(u"INSERT INTO berth.intents (request_id, item_no, replay_id) "
                                  "SELECT $1, n, $1::bigint::text || '-' || n FROM unnest($2::int[]) AS n"_s,
                                  {id, items});
        };
        // Items as the request pins them; `shift` moves the source offset of item `shifted`.
        const auto deliver = [&](const QString &items, int shifted = 0) {
            return carol->db.exec(
                u"INSERT INTO berth.dispositions (request_id, item_no, source_topic, source_partition, "
                "source_offset, disposition, dest_topic, dest_partition, dest_offset) "
                "SELECT request_id, item_no, source_topic, source_partition, "
                "source_offset + CASE WHEN item_no = $3 THEN 1 ELSE 0 END, 'replayed', 'orders', 0, item_no "
                "FROM berth.request_items WHERE request_id = $1 AND item_no = ANY ($2::int[])"_s,
                {id, items, shifted});
        };
        // Scattered (items 1 and 1500 of one statement), then dense (consecutive items), each refused alike.
        for (const auto &[first, last, missing] : {std::tuple{1, 1500, 1499}, std::tuple{2, 3, 4}}) {
            const QString both = u"{%1,%2}"_s.arg(first).arg(last);
            PgResult raw = journal(u"{%1,%2,1501}"_s.arg(first).arg(last));
            QVERIFY(!raw.ok);
            QVERIFY2(raw.error.contains(u"has no item 1501"_s), qPrintable(raw.error));
            raw = journal(both);
            QVERIFY2(raw.ok, qPrintable(raw.error));
            raw = deliver(both, last);
            QVERIFY(!raw.ok);
            QVERIFY2(raw.error.contains(u"item %1 of request %2 is not orders/"_s.arg(last).arg(id)),
                     qPrintable(raw.error));
            raw = deliver(u"{%1,%2}"_s.arg(first).arg(missing));
            QVERIFY(!raw.ok);
            QVERIFY2(raw.error.contains(u"item %1 of request %2 has no intent"_s.arg(missing).arg(id)),
                     qPrintable(raw.error));
            raw = deliver(both);
            QVERIFY2(raw.ok, qPrintable(raw.error));
            raw = deliver(u"{%1}"_s.arg(last));
            QVERIFY(!raw.ok);
            QVERIFY2(raw.error.contains(u"dispositions_delivered_once"_s), qPrintable(raw.error));
        }
        QCOMPARE(count(u"intents"_s, id), 4);
        QCOMPARE(count(u"dispositions"_s, id), 4);
        // A replay id is still one item's: the primary key refuses a second intent of an item.
        const PgResult again = journal(u"{1}"_s);
        QVERIFY(!again.ok);
        QVERIFY2(again.error.contains(u"intents_pkey"_s), qPrintable(again.error));
        const ChainVerification verified = AuditChain::verify(alice->db);
        QVERIFY2(verified.ok, qPrintable(verified.problem + verified.error));
    }

    // A database with a request in flight, journaled under the version-10 shape (a delivery UPDATEd its
    // intent), migrates to version 11: what was delivered stays delivered and cannot be delivered again, and
    // the rest is delivered the new way.
    void inFlightRequestResumesAfterDeliveryMigration()
    {
        QVERIFY(prepare(false));
        const QList<AuditMigration> shipped = AuditMigrator::shipped();
        QVERIFY(shipped.size() >= 11);
        AuditMigrationOutcome outcome = AuditMigrator::migrate(m_admin, shipped.first(10));
        QVERIFY2(outcome.ok, qPrintable(outcome.error));
        QVERIFY(createPeople());
        auto alice = desk(u"alice"_s);
        auto bob = desk(u"bob"_s);
        auto carol = desk(u"carol"_s);
        QVERIFY(alice && bob && carol);
        QString error;
        const qint64 id = alice->store.createRequest(sampleRequest(), &error);
        QVERIFY2(id > 0, qPrintable(error));
        QVERIFY2(bob->store.approve(id, u"ok"_s, &error), qPrintable(error));
        QVERIFY2(carol->store.setStatus(id, RequestStatus::Executing, &error), qPrintable(error));
        PgResult raw = journalIntents(carol->db, id);
        QVERIFY2(raw.ok, qPrintable(raw.error));
        // Version 10's settle of item 1: its intent delivered and its disposition, in one statement.
        raw = carol->db.exec(
            u"WITH settled AS (UPDATE berth.intents SET state = 'delivered', dest_topic = 'orders', "
            "dest_partition = 5, dest_offset = 500, attempts = 1 WHERE request_id = $1 AND item_no = 1 "
            "RETURNING item_no) "
            "INSERT INTO berth.dispositions (request_id, item_no, source_topic, source_partition, source_offset, "
            "disposition) SELECT i.request_id, i.item_no, i.source_topic, i.source_partition, i.source_offset, "
            "'replayed' FROM berth.request_items i JOIN settled s ON s.item_no = i.item_no "
            "WHERE i.request_id = $1"_s,
            {id});
        QVERIFY2(raw.ok, qPrintable(raw.error));

        outcome = AuditMigrator::migrate(m_admin);
        QVERIFY2(outcome.ok, qPrintable(outcome.error));
        QCOMPARE(outcome.versionAfter, AuditMigrator::latestVersion());
        IntentJournal journal(carol->db, id);
        QHash<int, IntentJournal::Intent> intents;
        QVERIFY2(journal.load(&intents, &error), qPrintable(error));
        QCOMPARE(intents.value(1).state, IntentJournal::State::Delivered);
        QCOMPARE(intents.value(1).destOffset, qint64(500));
        QCOMPARE(intents.value(2).state, IntentJournal::State::Pending);

        // Item 1 cannot be delivered a second time, item 2 is delivered as one disposition row.
        IntentJournal::Update again;
        again.itemNo = 1;
        again.state = IntentJournal::State::Delivered;
        again.destTopic = u"orders"_s;
        again.destPartition = 5;
        again.destOffset = 501;
        again.sourceTopic = u"orders"_s; // item 1 is orders/0/100
        again.sourcePartition = 0;
        again.sourceOffset = 100;
        QVERIFY(!journal.settle({again}, {}, {}, &error));
        QVERIFY2(error.contains(u"dispositions_delivered_once"_s), qPrintable(error));
        IntentJournal::Update second = again;
        second.itemNo = 2;
        second.destOffset = 502;
        second.sourcePartition = 1; // item 2 is orders/1/101
        second.sourceOffset = 101;
        // The source coordinates a settle sends are the item's, or the database refuses the delivery.
        IntentJournal::Update moved = second;
        moved.sourceOffset = 999;
        QVERIFY(!journal.settle({moved}, {}, {}, &error));
        QVERIFY2(error.contains(u"is not orders/1/999"_s), qPrintable(error));
        QVERIFY2(journal.settle({second}, {}, {}, &error), qPrintable(error));
        QVERIFY2(journal.load(&intents, &error), qPrintable(error));
        QCOMPARE(intents.value(1).destOffset, qint64(500));
        QCOMPARE(intents.value(2).state, IntentJournal::State::Delivered);
        QCOMPARE(intents.value(2).destOffset, qint64(502));
        QCOMPARE(intents.value(2).attempts, 1);
        QCOMPARE(scalar(m_admin, u"SELECT state FROM berth.intents WHERE request_id = $1 AND item_no = 2"_s, {id})
                     .toString(),
                 u"pending"_s); // the intent row stays as journaled
        QVERIFY(!journal.settle({second}, {}, {}, &error)); // and a delivery is final
        QVERIFY2(carol->store.setStatus(id, RequestStatus::Completed, &error), qPrintable(error));
        const ChainVerification verified = AuditChain::verify(alice->db);
        QVERIFY2(verified.ok, qPrintable(verified.problem + verified.error));
    }

    // Schema 012 pins masked keys by digest: requests filed before keep their plain keys, readable as
    // before; an item holds a key or its digest, never both, and an inbox_ref names its row one way; the
    // journal lists the digests, and the chain holds.
    void plainItemsStayReadableAfterTheDigestMigration()
    {
        QVERIFY(prepare(false));
        const QList<AuditMigration> shipped = AuditMigrator::shipped();
        QVERIFY(shipped.size() >= 12);
        AuditMigrationOutcome outcome = AuditMigrator::migrate(m_admin, shipped.first(11));
        QVERIFY2(outcome.ok, qPrintable(outcome.error));
        QVERIFY(createPeople());
        auto alice = desk(u"alice"_s);
        QVERIFY(alice);
        QString error;
        const qint64 before = alice->store.createRequest(sampleRequest(), &error);
        QVERIFY2(before > 0, qPrintable(error));
        outcome = AuditMigrator::migrate(m_admin);
        QVERIFY2(outcome.ok, qPrintable(outcome.error));
        std::optional<RequestDetail> detail = alice->store.requestDetail(before, &error);
        QVERIFY2(detail && detail->items.size() == 2, qPrintable(error));
        QCOMPARE(detail->items.at(1).key, std::optional<QByteArray>("order-1"));
        QCOMPARE(detail->items.at(1).idempotencyKey, u"idem-1"_s);
        QVERIFY(detail->items.at(1).keySha256.isEmpty()
                && detail->items.at(1).idempotencyKeySha256.isEmpty());

        NewRemediationRequest sealed = sampleRequest(1);
        RequestItem &item = sealed.items.first();
        item.keySha256 = sha256("card-4111");
        QVERIFY(!alice->store.createRequest(sealed, &error)); // the key beside its digest
        QVERIFY2(error.contains(u"request_items_key_or_digest"_s), qPrintable(error));
        item.key.reset();
        item.idempotencyKeySha256 = sha256("idem-card-4111");
        QVERIFY(!alice->store.createRequest(sealed, &error));
        QVERIFY2(error.contains(u"request_items_idempotency_key_or_digest"_s), qPrintable(error));
        item.idempotencyKey.clear();
        item.inboxRef =
            QJsonObject{{u"mapping"_s, u"orders"_s},
                        {u"messageId"_s, u"idem-card-4111"_s},
                        {u"messageIdSha256"_s, QString::fromLatin1(item.idempotencyKeySha256.toHex())}};
        QVERIFY(!alice->store.createRequest(sealed, &error));
        QVERIFY2(error.contains(u"request_items_message_id_or_digest"_s), qPrintable(error));
        item.inboxRef.remove(u"messageId"_s);
        const qint64 after = alice->store.createRequest(sealed, &error);
        QVERIFY2(after > 0, qPrintable(error));
        detail = alice->store.requestDetail(after, &error);
        QVERIFY2(detail && detail->items.size() == 1, qPrintable(error));
        QVERIFY(!detail->items.first().key && detail->items.first().idempotencyKey.isEmpty());
        QCOMPARE(detail->items.first().keySha256, sha256("card-4111"));
        QCOMPARE(detail->items.first().idempotencyKeySha256, sha256("idem-card-4111"));
        const QString journaled =
            scalar(
                m_admin,
                u"SELECT details::text FROM berth.audit_events WHERE request_id = $1 AND action = 'request.items_added'"_s,
                {after})
                .toString();
        QVERIFY2(journaled.contains(QString::fromLatin1(sha256("card-4111").toHex())), qPrintable(journaled));
        QVERIFY2(!journaled.contains(QString::fromLatin1("card-4111"_ba.toHex())), qPrintable(journaled));
        const ChainVerification verified = AuditChain::verify(alice->db);
        QVERIFY2(verified.ok, qPrintable(verified.problem + verified.error));
    }

    void auditEventsAreAppendOnly_data()
    {
        QTest::addColumn<QString>("role");
        QTest::addColumn<QString>("statement");
        QTest::addColumn<QString>("refusal");
        const QString update = u"UPDATE berth.audit_events SET details = '{}' WHERE seq = 2"_s;
        const QString remove = u"DELETE FROM berth.audit_events WHERE seq = 2"_s;
        const QString truncate = u"TRUNCATE berth.audit_events CASCADE"_s;
        QTest::newRow("operator update") << u"alice"_s << update << u"permission denied"_s;
        QTest::newRow("operator delete") << u"alice"_s << remove << u"permission denied"_s;
        QTest::newRow("operator truncate") << u"alice"_s << truncate << u"permission denied"_s;
        QTest::newRow("superuser update") << u"postgres"_s << update << u"append-only"_s;
        QTest::newRow("superuser delete") << u"postgres"_s << remove << u"append-only"_s;
        QTest::newRow("superuser truncate") << u"postgres"_s << truncate << u"append-only"_s;
    }

    void auditEventsAreAppendOnly()
    {
        QFETCH(QString, role);
        QFETCH(QString, statement);
        QFETCH(QString, refusal);
        QVERIFY(prepare());
        auto alice = desk(u"alice"_s);
        auto actor = desk(role);
        QVERIFY(alice && actor);
        QVERIFY(appendNotes(*alice, 3));
        const QVariant before = scalar(m_admin, u"SELECT string_agg(encode(hash, 'hex'), ',' ORDER BY seq) "
                                                "FROM berth.audit_events"_s);

        const PgResult r = actor->db.exec(statement);
        QVERIFY(!r.ok);
        QVERIFY2(r.error.contains(refusal), qPrintable(r.error));
        QCOMPARE(scalar(m_admin, u"SELECT string_agg(encode(hash, 'hex'), ',' ORDER BY seq) "
                                 "FROM berth.audit_events"_s),
                 before);
        QVERIFY(AuditChain::verify(m_admin).ok);
    }

    void journalActionsAreReservedAndTheActorIsTheRole()
    {
        QVERIFY(prepare());
        auto alice = desk(u"alice"_s);
        QVERIFY(alice);
        QString error;
        QCOMPARE(alice->store.appendEvent(u"approval.approved"_s, 0, {}, &error), 0);
        QVERIFY2(error.contains(u"reserved"_s), qPrintable(error));
        QCOMPARE(alice->store.appendEvent(u"Not An Action"_s, 0, {}, &error), 0);

        // Raw SQL claiming another actor, a seq and hashes of its own: the database overwrites them all.
        const PgResult raw = alice->db.exec(
            u"INSERT INTO berth.audit_events (seq, at, actor, action, details, prev_hash, hash) "
            "VALUES (999, '2001-01-01', 'bob', 'note.added', '{}', $1::bytea, $1::bytea) "
            "RETURNING seq, actor, at > now() - interval '1 minute' AS recent"_s,
            {QByteArray(32, 'x')});
        QVERIFY2(raw.ok, qPrintable(raw.error));
        QCOMPARE(raw.value(0, u"seq").toLongLong(), 1);
        QCOMPARE(raw.value(0, u"actor").toString(), u"alice"_s);
        QVERIFY(raw.value(0, u"recent").toBool());
        QVERIFY(alice->store.appendEvent(u"chain.verified"_s, 0, {{u"ok"_s, true}}, &error) == 2);
        QVERIFY(AuditChain::verify(alice->db).ok);
    }

    void tamperingIsDetected_data()
    {
        QTest::addColumn<QString>("attack");
        QTest::addColumn<qint64>("brokenSeq");
        const QString rehash =
            u"hash = sha256(prev_hash || convert_to(berth.audit_canonical_text(seq, at, actor, "
            "action, request_id, '{\"n\": 0}'::jsonb), 'UTF8'))"_s;
        QTest::newRow("details changed")
            << u"UPDATE berth.audit_events SET details = '{\"n\": 0}' WHERE seq = 7"_s << qint64(7);
        QTest::newRow("actor changed")
            << u"UPDATE berth.audit_events SET actor = 'bob' WHERE seq = 7"_s << qint64(7);
        QTest::newRow("time moved by a microsecond")
            << u"UPDATE berth.audit_events SET at = at + interval '1 microsecond' WHERE seq = 7"_s
            << qint64(7);
        QTest::newRow("prev hash changed")
            << u"UPDATE berth.audit_events SET prev_hash = sha256('x') WHERE seq = 7"_s << qint64(7);
        QTest::newRow("row deleted") << u"DELETE FROM berth.audit_events WHERE seq = 7"_s << qint64(7);
        QTest::newRow("row changed and re-hashed")
            << u"UPDATE berth.audit_events SET details = '{\"n\": 0}', "_s + rehash + u" WHERE seq = 7"
            << qint64(7);
        QTest::newRow("first row deleted") << u"DELETE FROM berth.audit_events WHERE seq = 1"_s << qint64(1);
        QTest::newRow("last row changed")
            << u"UPDATE berth.audit_events SET action = 'note.removed' WHERE seq = 20"_s << qint64(20);
    }

    void tamperingIsDetected()
    {
        QFETCH(QString, attack);
        QFETCH(qint64, brokenSeq);
        QVERIFY(prepare());
        auto alice = desk(u"alice"_s);
        auto bob = desk(u"bob"_s);
        QVERIFY(alice && bob);
        QVERIFY(appendNotes(*alice, 10));
        QVERIFY(appendNotes(*bob, 10));
        ChainVerification v = AuditChain::verify(bob->db, JobControl(), 4);
        QVERIFY2(v.ok, qPrintable(v.problem + v.error));
        QCOMPARE(v.checkedRows, qint64(20));

        QVERIFY(tamper(attack));
        v = AuditChain::verify(bob->db, JobControl(), 4);
        QVERIFY(v.completed);
        QVERIFY(!v.ok);
        QCOMPARE(v.firstBrokenSeq, brokenSeq);
        QVERIFY(!v.problem.isEmpty());
        QCOMPARE(v.checkedRows, brokenSeq - 1);
        QCOMPARE(v.lastSeq, brokenSeq - 1);
        qInfo().noquote() << "detected:" << v.problem;
    }

    void listEventsFiltersByActorActionAndTime()
    {
        QVERIFY(prepare());
        auto alice = desk(u"alice"_s);
        auto bob = desk(u"bob"_s);
        QVERIFY(alice && bob);
        QVERIFY(appendNotes(*alice, 3, u"note.a"_s));
        QThread::msleep(20);
        const QDateTime boundary = scalar(m_admin, u"SELECT clock_timestamp()"_s).toDateTime();
        QThread::msleep(20);
        QVERIFY(appendNotes(*bob, 2, u"note.b"_s));
        QVERIFY(appendNotes(*alice, 1, u"note.b"_s));

        QString error;
        EventFilter filter;
        filter.actor = u"bob"_s;
        QList<AuditEvent> events = alice->store.listEvents(filter, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(events.size(), 2);
        for (const AuditEvent &e : events) {
            QCOMPARE(e.actor, u"bob"_s);
            QCOMPARE(e.action, u"note.b"_s);
            QCOMPARE(e.hash.size(), 32);
        }
        QCOMPARE(events.first().details.value(u"text"_s).toString(), u"note\n\\ 0 «ü»"_s);

        filter = {};
        filter.actor = u"alice"_s;
        filter.actions = {u"note.a"_s};
        QCOMPARE(alice->store.listEvents(filter).size(), 3);
        filter.actions = {u"note.a"_s, u"note.b"_s};
        QCOMPARE(alice->store.listEvents(filter).size(), 4);

        filter = {};
        filter.from = boundary;
        events = alice->store.listEvents(filter);
        QCOMPARE(events.size(), 3);
        QCOMPARE(events.first().seq, 4);
        filter = {};
        filter.to = boundary;
        QCOMPARE(alice->store.listEvents(filter).size(), 3);

        // Pages, oldest first.
        filter = {};
        filter.limit = 4;
        events = alice->store.listEvents(filter);
        QCOMPARE(events.size(), 4);
        filter.afterSeq = events.last().seq;
        events = alice->store.listEvents(filter);
        QCOMPARE(events.size(), 2);
        QCOMPARE(events.first().seq, 5);
    }

    void cleanChainOfThousandsVerifies()
    {
        QVERIFY(prepare());
        auto alice = desk(u"alice"_s);
        auto bob = desk(u"bob"_s);
        QVERIFY(alice && bob);
        QString error;
        const qint64 id = alice->store.createRequest(sampleRequest(300), &error); // one event lists 300 items
        QVERIFY2(id > 0, qPrintable(error));
        QVERIFY2(bob->store.approve(id, {}, &error), qPrintable(error));
        const QString bulk = u"INSERT INTO berth.audit_events (action, details) SELECT 'load.test', "
                             "jsonb_build_object('i', g, 'text', repeat(chr(10) || '\\ü', g % 7)) "
                             "FROM generate_series(1, $1) g"_s;
        PgResult r = alice->db.exec(bulk, {3000});
        QVERIFY2(r.ok, qPrintable(r.error));
        r = bob->db.exec(bulk, {1000});
        QVERIFY2(r.ok, qPrintable(r.error));
        QVERIFY(appendNotes(*alice, 5));
        const qint64 total = scalar(m_admin, u"SELECT count(*) FROM berth.audit_events"_s).toLongLong();
        QCOMPARE(total, qint64(2 + 2 + 4000 + 5)); // created, items, approved, status, bulk, notes

        const ChainVerification v = AuditChain::verify(bob->db, JobControl(), 256);
        QVERIFY2(v.ok, qPrintable(v.problem + v.error));
        QCOMPARE(v.checkedRows, total);
        QCOMPARE(v.lastSeq, total);
        QCOMPARE(
            v.lastHash,
            scalar(m_admin, u"SELECT hash FROM berth.audit_events WHERE seq = $1"_s, {total}).toByteArray());
        // Streamed: never more than a page of rows in memory.
        QVERIFY2(v.pages >= (total + 255) / 256, qPrintable(QString::number(v.pages)));
        qInfo() << "verified" << v.checkedRows << "rows in" << v.pages << "pages," << v.elapsedMs << "ms";
    }

    void concurrentWritersKeepOneChain()
    {
        QVERIFY(prepare());
        // Two desks write at once, each in many small transactions, the other in batches: the chain lock
        // orders them into one gapless chain (without it: duplicate seqs, or two rows on one predecessor).
        std::latch start(2);
        QString errors[2];
        auto write = [&](int i, const QString &role) {
            PgSession db;
            if (!db.connect(m_pg->conninfo(role, m_database), &errors[i]))
                return;
            AuditStore store(db);
            start.arrive_and_wait();
            for (int n = 0; n < 150 && errors[i].isEmpty(); ++n) {
                if (i == 0) {
                    store.appendEvent(u"note.added"_s, 0, {{u"n"_s, n}}, &errors[i]);
                } else {
                    const PgResult r = db.exec(u"INSERT INTO berth.audit_events (action, details) "
                                               "SELECT 'note.batch', jsonb_build_object('g', g) "
                                               "FROM generate_series(1, 3) g"_s);
                    if (!r.ok)
                        errors[i] = r.error;
                }
            }
        };
        std::thread alice(write, 0, u"alice"_s);
        std::thread bob(write, 1, u"bob"_s);
        alice.join();
        bob.join();
        QVERIFY2(errors[0].isEmpty(), qPrintable(errors[0]));
        QVERIFY2(errors[1].isEmpty(), qPrintable(errors[1]));
        const ChainVerification v = AuditChain::verify(m_admin);
        QVERIFY2(v.ok, qPrintable(v.problem + v.error));
        QCOMPARE(v.checkedRows, qint64(150 + 450));
        // Both really interleaved (otherwise this test proves little).
        QVERIFY(scalar(m_admin, u"SELECT count(*) FROM (SELECT actor <> lag(actor) OVER (ORDER BY seq) AS "
                                "switched FROM berth.audit_events) s WHERE switched"_s)
                    .toInt()
                > 1);
    }

    void requestChangesAreNotified()
    {
        QVERIFY(prepare());
        auto alice = desk(u"alice"_s);
        auto bob = desk(u"bob"_s);
        QVERIFY(alice && bob);
        PgConnection listener;
        listener.open(m_pg->conninfo(u"erin"_s, m_database));
        QTRY_COMPARE_WITH_TIMEOUT(listener.state(), PgConnection::State::Connected, 10'000);
        QSignalSpy notifications(&listener, &PgConnection::notification);
        listener.listen(u"berth_requests"_s);
        bool listening = false;
        listener.query(u"SELECT 1"_s, {}, this, [&](const PgResult &) { listening = true; });
        QTRY_VERIFY(listening);

        QString error;
        const qint64 id = alice->store.createRequest(sampleRequest(), &error);
        QVERIFY2(id > 0, qPrintable(error));
        QTRY_COMPARE(notifications.count(), 1); // one per transaction and request
        QCOMPARE(notifications.at(0).at(0).toString(), u"berth_requests"_s);
        QCOMPARE(notifications.at(0).at(1).toString(), QString::number(id));
        QVERIFY2(bob->store.approve(id, {}, &error), qPrintable(error));
        QTRY_COMPARE(notifications.count(), 2);
        QCOMPARE(notifications.at(1).at(1).toString(), QString::number(id));
        // An audit event of Berth's own is not a request change.
        QVERIFY(appendNotes(*alice, 1));
        QTest::qWait(200);
        QCOMPARE(notifications.count(), 2);
    }

    // Last: the demo schema makes bob an operator, and creates the group roles itself.
    void migrationsWorkAfterTheDemoSchema()
    {
        QVERIFY(prepare(false));
        QFile schema(TestSupport::sourcePath(u"resources/sql/demo_schema.sql"_s));
        QVERIFY2(schema.open(QIODevice::ReadOnly), "cannot read the demo schema (is BERTH_SOURCE_DIR set?)");
        QString error;
        QVERIFY2(m_admin.execScript(QString::fromUtf8(schema.readAll()), &error), qPrintable(error));
        const AuditMigrationOutcome outcome = AuditMigrator::migrate(m_admin);
        QVERIFY2(outcome.ok, qPrintable(outcome.error));
        QCOMPARE(outcome.applied.size(), AuditMigrator::shipped().size());

        // The demo's people work as they are: alice requests, bob approves.
        auto alice = desk(u"alice"_s);
        auto bob = desk(u"bob"_s);
        QVERIFY(alice && bob);
        const qint64 id = alice->store.createRequest(sampleRequest(), &error);
        QVERIFY2(id > 0, qPrintable(error));
        QVERIFY2(bob->store.approve(id, {}, &error), qPrintable(error));
        QCOMPARE(bob->store.pendingRequests(&error).size(), 0);
        QCOMPARE(bob->store.listRequests({}, &error).size(), 1);
    }
};

QTEST_GUILESS_MAIN(TestAuditDb)
#include "tst_auditdb.moc"
