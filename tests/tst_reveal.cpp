// Revealing a masked record (ARCHITECTURE.md, Contracts: masking): the audit database lets only members of
// berth_revealer write the 'record.reveal' event, records who, when, the coordinates, the field paths and
// the reason, and refuses values or anything else in it; the chain still verifies.
#include "services/audit/auditchain.h"
#include "support/auditfixture.h"

#include <QJsonArray>
#include <QTest>

using namespace Qt::StringLiterals;

class TestReveal : public QObject {
    Q_OBJECT
    AuditFixture m_db;

    qint64 reveal(const QString &role, QString *error, const QStringList &fields = {u"$.customer.email"_s, u"key"_s},
                  const QString &reason = u"chargeback dispute OPS-77"_s)
    {
        PgSession session;
        if (!session.connect(m_db.conninfo(role), error))
            return 0;
        return AuditStore(session).recordReveal(u"payments-dlt"_s, 2, 4711, fields, reason, error);
    }

private Q_SLOTS:
    void init() { QVERIFY(m_db.prepare()); }

    void onlyRevealersMayReveal()
    {
        QString error;
        QCOMPARE(reveal(u"carol"_s, &error), 0); // an operator, not a revealer
        QVERIFY2(error.contains(u"not a member of berth_revealer"_s), qPrintable(error));
        QCOMPARE(reveal(u"alice"_s, &error), 0); // operator and approver: still not a revealer
        QVERIFY(m_db.admin().execScript(u"GRANT berth_revealer TO carol"_s, &error));
        const qint64 seq = reveal(u"carol"_s, &error);
        QVERIFY2(seq > 0, qPrintable(error));

        const PgResult row = m_db.admin().exec(
            u"SELECT actor, action, details::text, at > now() - interval '1 minute' FROM berth.audit_events WHERE seq = $1"_s,
            {seq});
        QVERIFY2(row.ok, qPrintable(row.error));
        QCOMPARE(row.rows[0][0].toString(), u"carol"_s); // who: the session's role, not a typed name
        QCOMPARE(row.rows[0][1].toString(), u"record.reveal"_s);
        const QJsonObject details = QJsonDocument::fromJson(row.rows[0][2].toString().toUtf8()).object();
        QCOMPARE(details.value(u"topic"_s).toString(), u"payments-dlt"_s);
        QCOMPARE(details.value(u"partition"_s).toInt(), 2);
        QCOMPARE(details.value(u"offset"_s).toInteger(), 4711);
        QCOMPARE(details.value(u"fields"_s).toArray(), (QJsonArray{u"$.customer.email"_s, u"key"_s}));
        QVERIFY(row.rows[0][3].toBool());
        const ChainVerification chain = AuditChain::verify(m_db.conninfo(u"carol"_s));
        QVERIFY2(chain.completed && chain.ok, qPrintable(chain.problem));
    }

    void aRevealCarriesNoValues()
    {
        QString error;
        QVERIFY(m_db.admin().execScript(u"GRANT berth_revealer TO bob"_s, &error));
        // A value in place of a path, an extra key, no reason: refused by the database.
        QCOMPARE(reveal(u"bob"_s, &error, {u"ada@example.com"_s}), 0);
        QVERIFY2(error.contains(u"paths"_s), qPrintable(error));
        QCOMPARE(reveal(u"bob"_s, &error, {u"$.a"_s}, u""_s), 0);
        QVERIFY2(error.contains(u"reason"_s), qPrintable(error));
        PgSession bob;
        QVERIFY(bob.connect(m_db.conninfo(u"bob"_s), &error));
        const PgResult smuggled = bob.exec(
            u"INSERT INTO berth.audit_events (action, details) VALUES ('record.reveal', $1::jsonb)"_s,
            {QByteArray(R"({"topic":"t","partition":0,"offset":1,"fields":["$.a"],"reason":"why not","value":"ada@example.com"})")});
        QVERIFY(!smuggled.ok);
        // Another reveal-looking action is reserved.
        QVERIFY(!bob.exec(u"INSERT INTO berth.audit_events (action) VALUES ('payload.reveal')"_s, {}).ok);
        QCOMPARE(m_db.scalar(u"SELECT count(*) FROM berth.audit_events WHERE action LIKE '%reveal%'"_s).toInt(), 0);
    }

    // An edit of masked fields (RequestItem::editedMasked, set by the builder for an edit made on the
    // revealed payload) is filed only when the requester's reveal of that very record is in the audit log:
    // the desk's claim that it was revealed is not enough, nor is someone else's reveal or another record's.
    void maskedEditNeedsTheRequestersReveal()
    {
        QString error;
        QVERIFY(m_db.admin().execScript(u"GRANT berth_revealer TO bob, carol"_s, &error));
        PgSession carol;
        QVERIFY2(carol.connect(m_db.conninfo(u"carol"_s), &error), qPrintable(error));
        AuditStore store(carol);
        const auto file = [&](const QStringList &editedMasked) {
            NewRemediationRequest request;
            request.action = RemediationAction::EditReplay;
            request.reason = u"fix the e-mail address"_s;
            RequestItem item;
            item.sourceTopic = u"payments-dlt"_s;
            item.sourcePartition = 2;
            item.sourceOffset = 4711;
            item.payloadSha256 = QByteArray(32, 'x');
            item.editedPayload = QByteArray(R"({"customer":{"email":"ada@example.org"}})");
            item.editedMasked = editedMasked;
            request.items = {item};
            return store.createRequest(request, &error);
        };
        QVERIFY2(file({}) > 0, qPrintable(error)); // an edit that left masked fields alone needs no reveal
        const QStringList fields{u"$.customer.email"_s};
        QCOMPARE(file(fields), 0); // no reveal at all
        QVERIFY2(error.contains(u"no reveal"_s) && error.contains(u"$.customer.email"_s), qPrintable(error));
        QVERIFY(!error.contains(u"ada@"_s));   // the refusal names paths, never values
        QVERIFY(reveal(u"bob"_s, &error) > 0); // someone else's reveal of the record
        QCOMPARE(file(fields), 0);
        QVERIFY(
            AuditStore(carol).recordReveal(u"payments-dlt"_s, 2, 4712, fields, u"the next record"_s, &error)
            > 0);
        QCOMPARE(file(fields), 0);                 // a reveal of another record
        QCOMPARE(file({u"ada@example.com"_s}), 0); // values in place of paths
        QVERIFY2(error.contains(u"paths"_s), qPrintable(error));
        QVERIFY2(reveal(u"carol"_s, &error) > 0, qPrintable(error));
        const qint64 id = file(fields);
        QVERIFY2(id > 0, qPrintable(error));
        QCOMPARE(
            m_db.scalar(
                    u"SELECT array_to_string(edited_masked, ',') FROM berth.request_items WHERE request_id = "_s
                    + QString::number(id))
                .toString(),
            u"$.customer.email"_s);
    }
};

QTEST_GUILESS_MAIN(TestReveal)
#include "tst_reveal.moc"
