// The audit trail: filters by person, action and time select exactly what independent SQL selects; the
// chain verifies, and a row forged by a superuser is named; the export holds the filtered rows.
#include "app/remediationdesk.h"
#include "models/audittrailmodel.h"
#include "services/audit/audittrailquery.h"
#include "services/audit/auditwatcher.h"
#include "support/auditfixture.h"
#include "views/audittrailview.h"

#include <QAbstractItemModelTester>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

using namespace Qt::StringLiterals;

namespace {
AuditEvent makeEvent(qint64 seq, const QString &actor, const QString &action)
{
    AuditEvent e;
    e.seq = seq;
    e.actor = actor;
    e.action = action;
    e.at = QDateTime::currentDateTimeUtc();
    e.details = {{u"comment"_s, u"<b>hi</b>\nthere"_s}};
    return e;
}

QList<qint64> shownSeqs(const AuditTrailModel &model)
{
    QList<qint64> out;
    for (const AuditEvent &e : model.events())
        out << e.seq;
    return out;
}

ConnectionProfile deskProfile(const QString &conninfo)
{
    ConnectionProfile profile;
    profile.databaseConninfo = conninfo;
    return profile;
}
} // namespace

class TestAuditTrail final : public QObject {
    Q_OBJECT
    AuditFixture m_db;
    QDateTime m_afterFirst; // between the first and the second round of events
    QDateTime m_afterSecond;
    bool m_filterTrailReady = false; // populate()'s trail, untouched since: the filter rows share it

    QList<qint64> expectedSeqs(const EventFilter &f)
    {
        // Written independently of AuditStore::listEvents: a plain query per case, as the superuser.
        QString sql = u"SELECT seq FROM berth.audit_events WHERE true"_s;
        QVariantList params;
        if (!f.actor.isEmpty()) {
            params << f.actor;
            sql += u" AND actor = $%1"_s.arg(params.size());
        }
        if (!f.actions.isEmpty()) {
            params << QVariant(f.actions);
            sql += u" AND action = ANY ($%1::text[])"_s.arg(params.size());
        }
        if (f.from.isValid()) {
            params << f.from;
            sql += u" AND at >= $%1::timestamptz"_s.arg(params.size());
        }
        if (f.to.isValid()) {
            params << f.to;
            sql += u" AND at < $%1::timestamptz"_s.arg(params.size());
        }
        const PgResult r = m_db.admin().exec(sql + u" ORDER BY seq"_s, params);
        if (!r.ok)
            qWarning().noquote() << r.error;
        QList<qint64> out;
        for (const QVariantList &row : r.rows)
            out << row.value(0).toLongLong();
        return out;
    }

    // Three rounds of work a second apart: requests by alice and carol, decisions by bob, notes.
    bool populate()
    {
        m_filterTrailReady = false;
        if (!m_db.prepare())
            return false;
        const auto round = [&](int n) {
            const qint64 a =
                m_db.createRequest(u"alice"_s, AuditFixture::sampleRequest(1, u"round %1"_s.arg(n)));
            const qint64 c = m_db.createRequest(u"carol"_s, AuditFixture::sampleRequest(2));
            PgSession bob;
            QString error;
            if (!a || !c || !bob.connect(m_db.conninfo(u"bob"_s), &error))
                return false;
            AuditStore store(bob);
            return store.approve(a, u"ok %1"_s.arg(n), &error) && store.reject(c, u"no <script>"_s, &error)
                   && store.appendEvent(u"note.added"_s, 0, {{u"round"_s, n}}, &error) > 0;
        };
        const auto databaseNow = [&] { return m_db.scalar(u"SELECT clock_timestamp()"_s).toDateTime(); };
        if (!round(1))
            return false;
        QThread::msleep(1100); // whole seconds apart: the view's time fields show seconds
        m_afterFirst = databaseNow();
        if (!round(2))
            return false;
        QThread::msleep(1100);
        m_afterSecond = databaseNow();
        return round(3);
    }

private Q_SLOTS:
    void modelReplacesAndAppendsPages()
    {
        AuditTrailModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        AuditEventsPage first;
        first.events = {makeEvent(1, u"alice"_s, u"request.created"_s),
                        makeEvent(2, u"bob"_s, u"approval.approved"_s)};
        first.more = true;
        model.setPage(first);
        QCOMPARE(model.rowCount(), 2);
        QVERIFY(model.hasMore());
        QCOMPARE(model.continuation().afterSeq, 2);
        // Details are data: shown as compact JSON text, the line feed made visible.
        const QString details = model.index(0, AuditTrailModel::Details).data().toString();
        QVERIFY2(details.contains(u"<b>hi</b>\\nthere"), qPrintable(details));

        AuditEventsPage next;
        next.filter = model.continuation();
        next.append = true;
        next.events = {makeEvent(3, u"bob"_s, u"chain.verified"_s)};
        model.setPage(next);
        QCOMPARE(shownSeqs(model), (QList<qint64>{1, 2, 3}));
        QVERIFY(!model.hasMore());
        // A continuation of an older selection is not glued onto a newer one.
        next.filter.afterSeq = 1;
        model.setPage(next);
        QCOMPARE(shownSeqs(model), (QList<qint64>{3}));
        model.setPage(AuditEventsPage());
        QCOMPARE(model.rowCount(), 0);
    }

    void filtersMatchIndependentSql_data()
    {
        QTest::addColumn<QString>("actor");
        QTest::addColumn<QStringList>("actions");
        QTest::addColumn<int>("fromRound"); // 0: open; 2: from the second round on
        QTest::addColumn<int>("toRound");   // 0: open; 2: before the third round
        QTest::newRow("everything") << QString() << QStringList() << 0 << 0;
        QTest::newRow("person") << u"bob"_s << QStringList() << 0 << 0;
        QTest::newRow("action") << QString() << QStringList{u"request.created"_s} << 0 << 0;
        QTest::newRow("two actions") << QString()
                                     << QStringList{u"approval.approved"_s, u"approval.rejected"_s} << 0 << 0;
        QTest::newRow("time window") << QString() << QStringList() << 2 << 2;
        QTest::newRow("all three") << u"carol"_s
                                   << QStringList{u"request.created"_s, u"request.items_added"_s} << 2 << 0;
        QTest::newRow("nobody") << u"mallory"_s << QStringList() << 0 << 0;
    }

    void filtersMatchIndependentSql()
    {
        QFETCH(QString, actor);
        QFETCH(QStringList, actions);
        QFETCH(int, fromRound);
        QFETCH(int, toRound);
        if (!m_filterTrailReady) { // each row only reads the trail: the first row writes it for all
            QVERIFY(populate());
            m_filterTrailReady = true;
        }
        RemediationDesk desk(deskProfile(m_db.conninfo(u"alice"_s)));
        QAbstractItemModelTester tester(desk.trailModel(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy pages(desk.trailQuery(), &AuditTrailQuery::pageReady);
        QTRY_VERIFY_WITH_TIMEOUT(!pages.isEmpty(), 15000); // the first read, unfiltered

        // Through the view's own fields, so what the operator sets is what is asked.
        desk.trailView()->setFilter(actor, actions, fromRound ? m_afterFirst : QDateTime(),
                                    toRound ? m_afterSecond : QDateTime());
        const EventFilter filter = desk.trailView()->currentFilter();
        QCOMPARE(filter.actor, actor);
        QCOMPARE(filter.actions, actions);
        QCOMPARE(filter.from.isValid(), fromRound != 0);
        pages.clear();
        desk.trailView()->requestRefresh();
        QTRY_VERIFY_WITH_TIMEOUT(!pages.isEmpty(), 10000);
        QVERIFY2(desk.trailModel()->error().isEmpty(), qPrintable(desk.trailModel()->error()));

        const QList<qint64> expected = expectedSeqs(filter);
        QCOMPARE(shownSeqs(*desk.trailModel()), expected);
        const qint64 total = m_db.scalar(u"SELECT count(*) FROM berth.audit_events"_s).toLongLong();
        if (QByteArrayView(QTest::currentDataTag()) == "nobody")
            QVERIFY(expected.isEmpty());
        else if (QByteArrayView(QTest::currentDataTag()) != "everything")
            QVERIFY(!expected.isEmpty() && expected.size() < total); // a real selection, not all or nothing
        for (const AuditEvent &e : desk.trailModel()->events()) {
            QVERIFY(actor.isEmpty() || e.actor == actor);
            QVERIFY(actions.isEmpty() || actions.contains(e.action));
        }
    }

    void verifyChainReportsOkThenTheForgedRow()
    {
        QVERIFY(populate());
        RemediationDesk desk(deskProfile(m_db.conninfo(u"bob"_s)));
        AuditTrailView *view = desk.trailView();
        QSignalSpy verified(desk.trailQuery(), &AuditTrailQuery::verified);
        const qint64 rows = m_db.scalar(u"SELECT count(*) FROM berth.audit_events"_s).toLongLong();

        view->startVerify();
        QTRY_COMPARE_WITH_TIMEOUT(verified.size(), 1, 15000);
        QString verdict = view->verifyLabel()->text();
        QVERIFY2(verdict.startsWith(u"Chain OK: %1 row(s) verified, seq 1 to %1"_s.arg(rows)),
                 qPrintable(verdict));
        // The verification is itself on the record, by bob, with the anchor it reached.
        const PgResult recorded = m_db.admin().exec(
            u"SELECT actor, details->>'ok', (details->>'last_seq')::bigint FROM berth.audit_events "
            "WHERE action = 'chain.verified' ORDER BY seq DESC LIMIT 1"_s);
        QVERIFY2(recorded.ok && recorded.rows.size() == 1, qPrintable(recorded.error));
        QCOMPARE(recorded.rows.at(0).value(0).toString(), u"bob"_s);
        QCOMPARE(recorded.rows.at(0).value(1).toString(), u"true"_s);
        QCOMPARE(recorded.rows.at(0).value(2).toLongLong(), rows);

        // A superuser rewrites bob's rejection comment with the triggers off.
        const qint64 forged =
            m_db.scalar(u"SELECT min(seq) FROM berth.audit_events WHERE action = 'approval.rejected'"_s)
                .toLongLong();
        QVERIFY(forged > 1);
        QVERIFY(m_db.tamper(
            u"UPDATE berth.audit_events SET details = '{\"comment\": \"fine by me\"}' WHERE seq = %1"_s.arg(
                forged)));
        view->startVerify();
        QTRY_COMPARE_WITH_TIMEOUT(verified.size(), 2, 15000);
        verdict = view->verifyLabel()->text();
        QVERIFY2(verdict.startsWith(u"Chain BROKEN at seq %1: seq %1 does not match its hash"_s.arg(forged)),
                 qPrintable(verdict));
        QVERIFY(verdict.contains(u"The %1 row(s) before it verified."_s.arg(forged - 1)));
    }

    void exportWritesTheFilteredRows()
    {
        QVERIFY(populate());
        RemediationDesk desk(deskProfile(m_db.conninfo(u"alice"_s)));
        AuditTrailView *view = desk.trailView();
        QSignalSpy status(view, &AuditTrailView::statusMessage);
        QTemporaryDir dir;
        view->setFilter(u"bob"_s, {u"approval.rejected"_s, u"note.added"_s}, m_afterFirst, {});
        const QList<qint64> expected = expectedSeqs(view->currentFilter());
        QCOMPARE(expected.size(), 4); // rounds 2 and 3: one rejection and one note each

        const QString csvPath = dir.filePath(u"trail.csv"_s);
        view->exportRows(csvPath);
        QTRY_COMPARE_WITH_TIMEOUT(status.size(), 1, 15000);
        QVERIFY2(status.at(0).at(0).toString().startsWith(u"Exported 4 audit event"),
                 qPrintable(status.at(0).at(0).toString()));
        QFile csv(csvPath);
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(csv.readAll()).split(u"\r\n"_s, Qt::SkipEmptyParts);
        QCOMPARE(lines.value(0), u"seq,at,actor,action,request_id,details,prev_hash,hash"_s);
        QList<qint64> written;
        for (qsizetype i = 1; i < lines.size(); ++i) {
            written << lines.at(i).section(u',', 0, 0).toLongLong();
            QCOMPARE(lines.at(i).section(u',', 2, 2), u"bob"_s);
        }
        QCOMPARE(written, expected);
        QVERIFY(lines.join(u'\n').contains(u"\"{\"\"comment\"\":\"\"no <script>\"\"}\""));

        const QString jsonPath = dir.filePath(u"trail.jsonl"_s);
        view->exportRows(jsonPath);
        QTRY_COMPARE_WITH_TIMEOUT(status.size(), 2, 15000);
        QFile jsonl(jsonPath);
        QVERIFY(jsonl.open(QIODevice::ReadOnly));
        written.clear();
        for (const QByteArray &line : jsonl.readAll().split('\n')) {
            if (line.isEmpty())
                continue;
            const QJsonObject o = QJsonDocument::fromJson(line).object();
            written << o.value(u"seq").toInteger();
            QCOMPARE(o.value(u"actor").toString(), u"bob"_s);
            QCOMPARE(o.value(u"hash").toString().size(), 64);
        }
        QCOMPARE(written, expected);
        // Each export is on the record: by alice, with its filter and row count.
        const PgResult recorded =
            m_db.admin().exec(u"SELECT actor, (details->>'rows')::bigint, details->>'actor', "
                              u"details->>'file' FROM berth.audit_events "
                              "WHERE action = 'trail.exported' ORDER BY seq"_s);
        QVERIFY2(recorded.ok, qPrintable(recorded.error));
        QCOMPARE(recorded.rows.size(), 2);
        QCOMPARE(recorded.rows.at(0).value(0).toString(), u"alice"_s);
        QCOMPARE(recorded.rows.at(0).value(1).toLongLong(), 4);
        QCOMPARE(recorded.rows.at(0).value(2).toString(), u"bob"_s);
        QCOMPARE(recorded.rows.at(1).value(3).toString(), u"trail.jsonl"_s);
    }

    // The database journals each filed item's key (hex) and idempotency key in request.items_added: the
    // trail and its export show a masked topic's as "(masked)", another topic's as stored.
    void maskedKeysStayOutOfTheTrailAndItsExport()
    {
        QVERIFY(m_db.prepare());
        NewRemediationRequest request = AuditFixture::sampleRequest(2);
        request.items[0].sourceTopic = u"payments-dlt"_s;
        request.items[0].key = "cust-4711-secret";
        request.items[0].idempotencyKey = u"pay-idem-4711"_s;
        const qint64 id = m_db.createRequest(u"alice"_s, request);
        QVERIFY(id > 0);
        DeliveryPolicy policy;
        policy.masking = {MaskRule{u"payments-dlt"_s, {}, {u"idempotency-key"_s}, true, 0}};
        RemediationDesk desk(deskProfile(m_db.conninfo(u"bob"_s)));
        desk.setMasking(policy);
        AuditTrailView *view = desk.trailView();
        QSignalSpy status(view, &AuditTrailView::statusMessage);
        view->setFilter({}, {u"request.items_added"_s}, {}, {});
        QTRY_COMPARE_WITH_TIMEOUT(desk.trailModel()->rowCount(), 1, 15000);
        const QString shown = desk.trailModel()->index(0, AuditTrailModel::Details).data().toString();
        const QString secretHex = QString::fromLatin1(QByteArray("cust-4711-secret").toHex());
        for (const QString &secret : {u"cust-4711"_s, secretHex, u"pay-idem-4711"_s})
            QVERIFY2(!shown.contains(secret), qPrintable(shown));
        QVERIFY2(shown.contains(u"(masked)"_s), qPrintable(shown));
        QVERIFY2(shown.contains(QString::fromLatin1(QByteArray("order-1").toHex()))
                     && shown.contains(u"idem-1"_s),
                 qPrintable(shown)); // orders-dlt: no rule

        QTemporaryDir dir;
        const QString path = dir.filePath(u"trail.jsonl"_s);
        view->exportRows(path);
        QTRY_COMPARE_WITH_TIMEOUT(status.size(), 1, 15000);
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray written = file.readAll();
        QVERIFY2(written.contains("request.items_added") && written.contains("(masked)"),
                 written.constData());
        for (const QString &secret : {u"cust-4711"_s, secretHex, u"pay-idem-4711"_s})
            QVERIFY2(!written.contains(secret.toUtf8()), written.constData());
        // The database keeps what it journaled: the chain is verified from it.
        QCOMPARE(m_db.scalar(u"SELECT count(*) FROM berth.audit_events WHERE action = 'request.items_added' "
                             u"AND details::text LIKE '%pay-idem-4711%'"_s)
                     .toInt(),
                 1);
    }

    void trailFollowsOtherDesksLive()
    {
        QVERIFY(m_db.prepare());
        RemediationDesk aliceDesk(deskProfile(m_db.conninfo(u"alice"_s)));
        QSignalSpy pages(aliceDesk.trailQuery(), &AuditTrailQuery::pageReady);
        QTRY_VERIFY_WITH_TIMEOUT(!pages.isEmpty(), 15000);
        QCOMPARE(aliceDesk.trailModel()->rowCount(), 0);
        // Carol requests on her own desk; alice's trail gains the journal rows without a refresh.
        const qint64 id = m_db.createRequest(u"carol"_s, AuditFixture::sampleRequest(1));
        QVERIFY(id > 0);
        QTRY_COMPARE_WITH_TIMEOUT(aliceDesk.trailModel()->rowCount(), 2, 10000);
        QCOMPARE(aliceDesk.trailModel()->events().at(0).action, u"request.created"_s);
        QCOMPARE(aliceDesk.trailModel()->events().at(1).action, u"request.items_added"_s);
        QCOMPARE(aliceDesk.trailModel()->events().at(0).actor, u"carol"_s);
    }
};

QTEST_MAIN(TestAuditTrail)
#include "tst_audittrail.moc"
