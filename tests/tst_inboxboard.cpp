#include "models/inboxboardmodel.h"
#include "models/inboxrowsmodel.h"
#include "services/demo/temppostgres.h"
#include "services/inbox/inboxboardjson.h"
#include "services/inbox/inboxboardquery.h"
#include "services/inbox/pgsession.h"
#include "services/payload/keymask.h"
#include "services/policy/policyloader.h"
#include "support/testsupport.h"
#include "views/inboxboardview.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QFile>
#include <QHeaderView>
#include <QJsonDocument>
#include <QLabel>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>
#include <QTreeWidget>

#include "views/qcustomplotinclude.h"

using namespace Qt::StringLiterals;

namespace {
using Counts = QMap<QString, QList<qint64>>; // consumer -> count per InboxState

// Independent of the board: the state is spelled out in SQL here, not taken from the mapping.
const char16_t seed000Independent[] =
    u"SELECT consumer_name, CASE status WHEN 'IN_PROGRESS' THEN 0 WHEN 'COMPLETED' THEN 1 "
    u"WHEN 'FAILED_RETRYABLE' THEN 2 WHEN 'FAILED_TERMINAL' THEN 3 WHEN 'PARKED' THEN 4 "
    u"WHEN 'SKIPPED' THEN 5 ELSE 6 END, count(*) FROM processed_message GROUP BY 1, 2";
const char16_t seed001Independent[] =
    u"SELECT consumer_group, CASE WHEN status IN ('RECEIVED', 'PROCESSING') THEN 0 WHEN status = 'COMPLETED' "
    u"THEN 1 WHEN status = 'FAILED' THEN 2 ELSE 6 END, count(*) FROM processed_events GROUP BY 1, 2";

Counts boardCounts(const InboxBoard &board)
{
    Counts out;
    for (const InboxConsumerCounts &c : board.consumers)
        out.insert(c.consumer, QList<qint64>(c.counts.begin(), c.counts.end()));
    return out;
}
} // namespace

class TestInboxBoard final : public QObject {
    Q_OBJECT
    std::unique_ptr<TempPostgres> m_pg;
    PgSession m_db; // the test's own connection: setup and the independent answers
    QString m_schema;

    bool startServer()
    {
        if (m_pg)
            return true;
        m_pg = std::make_unique<TempPostgres>();
        QString error;
        if (!m_pg->start(&error) || !m_db.connect(m_pg->conninfo(), &error)) {
            qWarning().noquote() << error;
            return false;
        }
        return true;
    }

    // A fresh schema per test (and data row) holding the demo's inbox tables and indexes, and the rows of
    // tests/fixtures/inboxboard_rows.sql (whose header lists the answers the tests expect).
    bool freshSchema()
    {
        if (!startServer())
            return false;
        m_schema = QString::fromLatin1(QTest::currentTestFunction()).toLower();
        if (const char *tag = QTest::currentDataTag())
            m_schema += u'_' + QString::fromLatin1(tag).toLower().replace(u'-', u'_');
        QFile schema(TestSupport::sourcePath(u"resources/sql/demo_schema.sql"_s));
        QFile rows(TestSupport::sourcePath(u"tests/fixtures/inboxboard_rows.sql"_s));
        if (!schema.open(QIODevice::ReadOnly) || !rows.open(QIODevice::ReadOnly)) {
            qWarning("cannot read the SQL fixtures (is BERTH_SOURCE_DIR set?)");
            return false;
        }
        const QString script =
            u"DROP SCHEMA IF EXISTS %1 CASCADE; CREATE SCHEMA %1; SET search_path TO %1;\n"_s.arg(m_schema)
            + QString::fromUtf8(schema.readAll()) + u'\n' + QString::fromUtf8(rows.readAll());
        QString error;
        if (!m_db.execScript(script, &error)) {
            qWarning().noquote() << error;
            return false;
        }
        return true;
    }

    InboxMapping mapping(const QString &preset) const
    {
        InboxMapping m = preset == u"seed000" ? InboxMapping::seed000ProcessedMessage()
                                              : InboxMapping::seed001ProcessedEvents();
        m.schema = m_schema;
        if (m.outbox.isConfigured())
            m.outbox.schema = m_schema;
        return m;
    }

    InboxBoard board(const InboxMapping &m) const { return InboxBoardQuery::collect(m_pg->conninfo(), m); }

    QVariant scalar(const QString &sql, const QVariantList &params = {})
    {
        const PgResult r = m_db.exec(sql, params);
        if (!r.ok)
            qWarning().noquote() << r.error;
        return r.rows.value(0).value(0);
    }

    Counts independentCounts(const QString &sql)
    {
        Counts out;
        const PgResult r = m_db.exec(sql);
        if (!r.ok)
            qWarning().noquote() << r.error;
        for (const QVariantList &row : r.rows) {
            QList<qint64> &counts = out[row.at(0).toString()];
            counts.resize(InboxStateCount);
            counts[row.at(1).toInt()] += row.at(2).toLongLong();
        }
        return out;
    }

private Q_SLOTS:
    void presetsMapTheSeedVocabularies()
    {
        const InboxMapping a = InboxMapping::seed000ProcessedMessage();
        QCOMPARE(a.table, u"processed_message"_s);
        QCOMPARE(a.stateOf(u"FAILED_TERMINAL"_s), InboxState::FailedTerminal);
        QCOMPARE(a.stateOf(u"PARKED"_s), InboxState::Parked);
        QCOMPARE(a.stateOf(u"SKIPPED"_s), InboxState::Skipped);
        QCOMPARE(a.stateOf(u"completed"_s), InboxState::Unknown); // status words are case-sensitive
        QCOMPARE(a.skippedStatus, u"SKIPPED"_s);
        QVERIFY(a.attemptsColumn.isEmpty());
        QVERIFY(a.validate().isEmpty());

        const InboxMapping b = InboxMapping::seed001ProcessedEvents();
        QCOMPARE(b.statusesFor(InboxState::InProgress), (QStringList{u"PROCESSING"_s, u"RECEIVED"_s}));
        QCOMPARE(b.stateOf(u"FAILED"_s), InboxState::FailedRetryable);
        QCOMPARE(b.attemptsColumn, u"attempt_count"_s);
        QCOMPARE(b.errorColumn, u"last_error"_s);
        QVERIFY(b.skippedStatus.isEmpty());
        QVERIFY(b.validate().isEmpty());
        QCOMPARE(inboxStateName(InboxState::FailedRetryable), u"failed retryable"_s);
        QCOMPARE(InboxMapping::presets().size(), 2);

        InboxMapping broken = b;
        broken.statusColumn.clear();
        QVERIFY(broken.validate().contains(u"status column"_s));
        broken = b;
        broken.statuses.remove(u"RECEIVED"_s);
        broken.statuses.remove(u"PROCESSING"_s);
        QVERIFY(broken.validate().contains(u"in progress"_s));
    }

    void countsMatchIndependentSql_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<bool>("withoutConsumer");
        QTest::newRow("seed000") << u"seed000"_s << false;
        QTest::newRow("seed001") << u"seed001"_s << false;
        QTest::newRow("seed001-whole-table") << u"seed001"_s << true;
    }
    void countsMatchIndependentSql()
    {
        QFETCH(QString, preset);
        QFETCH(bool, withoutConsumer);
        QVERIFY(freshSchema());
        InboxMapping m = mapping(preset);
        // The expected numbers, written out, guard the independent SQL as much as the board.
        Counts expected;
        if (preset == u"seed000") {
            expected[u"orders"_s] = {3, 5, 2, 1, 1, 1, 0};
            expected[u"emails"_s] = {1, 2, 3, 0, 0, 0, 0};
        } else {
            expected[u"payments"_s] = {3, 5, 3, 0, 0, 0, 1};
            expected[u"refunds"_s] = {1, 2, 1, 0, 0, 0, 0};
        }
        Counts independent = independentCounts(
            QString::fromUtf16(preset == u"seed000" ? seed000Independent : seed001Independent));
        QCOMPARE(independent, expected);
        if (withoutConsumer) {
            m.consumerColumn.clear();
            QList<qint64> sum(InboxStateCount, 0);
            for (const QList<qint64> &counts : std::as_const(independent)) {
                for (int s = 0; s < InboxStateCount; ++s)
                    sum[s] += counts[s];
            }
            independent = {{m.name, sum}}; // without a consumer column the rows are the mapping's consumer's
        }

        const InboxBoard b = board(m);
        QVERIFY2(b.ok(), qPrintable(b.error));
        QCOMPARE(boardCounts(b), independent);
        qint64 total = 0;
        for (int s = 0; s < InboxStateCount; ++s) {
            qint64 sum = 0;
            for (const QList<qint64> &counts : std::as_const(independent))
                sum += counts[s];
            QCOMPARE(b.total(InboxState(s)), sum);
            total += sum;
        }
        QCOMPARE(b.grandTotal(), total);
        QCOMPARE(b.unmappedStatuses, preset == u"seed001" ? QStringList{u"WEIRD"_s} : QStringList());
        QVERIFY(b.takenAt.isValid());
    }

    void oldestStuckRowIsFound_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<QString>("consumer");
        QTest::addColumn<QString>("id");
        QTest::addColumn<QString>("status");
        QTest::addColumn<int>("ageSeconds");
        QTest::addColumn<qint64>("stuck");
        QTest::newRow("seed000") << u"seed000"_s << u"emails"_s << u"e-ip-stuck"_s << u"IN_PROGRESS"_s
                                 << 3 * 3600 << qint64(3);
        QTest::newRow("seed001") << u"seed001"_s << u"payments"_s << u"p-r-stuck"_s << u"RECEIVED"_s
                                 << 6 * 3600 << qint64(2);
    }
    void oldestStuckRowIsFound()
    {
        QFETCH(QString, preset);
        QFETCH(QString, consumer);
        QFETCH(QString, id);
        QFETCH(QString, status);
        QFETCH(int, ageSeconds);
        QFETCH(qint64, stuck);
        QVERIFY(freshSchema());
        InboxMapping m = mapping(preset);
        const InboxBoard b = board(m);
        QVERIFY2(b.ok(), qPrintable(b.error));
        QVERIFY(b.hasStuck);
        QCOMPARE(b.oldestStuck.consumer, consumer);
        QCOMPARE(b.oldestStuck.messageId, id);
        QCOMPARE(b.oldestStuck.status, status);
        QVERIFY2(b.oldestStuck.ageSeconds >= ageSeconds && b.oldestStuck.ageSeconds < ageSeconds + 120,
                 qPrintable(QString::number(b.oldestStuck.ageSeconds)));
        const QString table = preset == u"seed000" ? u"processed_message"_s : u"processed_events"_s;
        const QString key = preset == u"seed000" ? u"message_id"_s : u"idempotency_key"_s;
        QCOMPARE(b.oldestStuck.updatedAt,
                 scalar(u"SELECT updated_at FROM %1 WHERE %2 = $1"_s.arg(table, key), {id}).toDateTime());
        QCOMPARE(b.stuckCount, stuck);

        // A longer threshold leaves only the oldest row; a longer one still, none.
        m.stuckAfterSeconds = ageSeconds - 600;
        QCOMPARE(board(m).stuckCount, qint64(1));
        QCOMPARE(board(m).oldestStuck.messageId, id);
        m.stuckAfterSeconds = ageSeconds + 600;
        const InboxBoard none = board(m);
        QVERIFY2(none.ok(), qPrintable(none.error));
        QVERIFY(!none.hasStuck);
        QCOMPARE(none.stuckCount, qint64(0));
    }

    void attemptsHistogramMatches()
    {
        QVERIFY(freshSchema());
        const std::array<qint64, InboxBoard::AttemptBuckets> expected{9, 2, 1, 2, 2};
        const PgResult r = m_db.exec(
            u"SELECT count(*) FILTER (WHERE attempt_count <= 1), count(*) FILTER (WHERE attempt_count = 2), "
            u"count(*) FILTER (WHERE attempt_count = 3), count(*) FILTER (WHERE attempt_count IN (4, 5)), "
            u"count(*) FILTER (WHERE attempt_count >= 6) FROM processed_events"_s);
        QVERIFY2(r.ok, qPrintable(r.error));
        for (int i = 0; i < InboxBoard::AttemptBuckets; ++i)
            QCOMPARE(r.rows.at(0).at(i).toLongLong(), expected[size_t(i)]);

        const InboxBoard b = board(mapping(u"seed001"_s));
        QVERIFY2(b.ok(), qPrintable(b.error));
        QVERIFY(b.hasAttempts);
        QCOMPARE(b.attemptsHistogram, expected);
        QCOMPARE(InboxBoard::attemptBucketLabel(3), u"4\u20135"_s);

        const InboxBoard noAttempts = board(mapping(u"seed000"_s));
        QVERIFY2(noAttempts.ok(), qPrintable(noAttempts.error));
        QVERIFY(!noAttempts.hasAttempts);
        QCOMPARE(noAttempts.attemptsHistogram, (std::array<qint64, InboxBoard::AttemptBuckets>{}));
    }

    void redeliveriesMatchIndependentSql()
    {
        QVERIFY(freshSchema());
        const auto count = [this](const QString &sql) {
            const PgResult r = m_db.exec(sql);
            return r.ok ? r.rows.at(0).at(0).toLongLong() : -1;
        };
        InboxBoardModel model;
        InboxBoard first = board(mapping(u"seed001"_s));
        QVERIFY2(first.ok(), qPrintable(first.error));
        QCOMPARE(first.redeliveredRows(), count(u"SELECT count(*) FROM processed_events WHERE attempt_count > 1"_s));
        model.setBoard(first);
        QCOMPARE(model.redeliveriesPerMinute(), -1.0); // nothing to compare with yet
        QVERIFY(model.redeliveryLine().contains(QString::number(first.redeliveredRows())));

        // Three first-attempt rows are delivered again.
        const PgResult bump = m_db.exec(
            u"UPDATE processed_events SET attempt_count = 2 WHERE idempotency_key IN "
            u"(SELECT idempotency_key FROM processed_events WHERE attempt_count <= 1 ORDER BY 1 LIMIT 3)"_s);
        QVERIFY2(bump.ok && bump.affected == 3, qPrintable(bump.error));
        InboxBoard second = board(mapping(u"seed001"_s));
        QCOMPARE(second.redeliveredRows(), first.redeliveredRows() + 3);
        // Pretend the readings were two minutes apart: 3 new redeliveries over 2 minutes.
        second.takenAt = first.takenAt.addSecs(120);
        model.setBoard(second);
        QCOMPARE(model.redeliveriesPerMinute(), 1.5);
        const qint64 rows = count(u"SELECT count(*) FROM processed_events"_s);
        const QString percent = QString::number(100.0 * double(second.redeliveredRows()) / double(rows), 'f', 1);
        QVERIFY2(model.redeliveryLine().contains(percent), qPrintable(model.redeliveryLine()));

        // Another inbox next: no rate across tables.
        model.setBoard(board(mapping(u"seed000"_s)));
        QCOMPARE(model.redeliveriesPerMinute(), -1.0);
        QVERIFY(model.redeliveryLine().isEmpty()); // seed 000 has no attempts column
    }

    void triageRowsMatchIndependentSql()
    {
        QVERIFY(freshSchema());
        const InboxMapping m = mapping(u"seed000"_s);
        const PgResult expected = m_db.exec(
            u"SELECT message_id FROM processed_message WHERE status IN ('PARKED', 'FAILED_TERMINAL') ORDER BY updated_at"_s);
        QVERIFY2(expected.ok, qPrintable(expected.error));
        const InboxRowsPage page = InboxRowsQuery::read(m_db, m, {InboxState::Parked, InboxState::FailedTerminal});
        QVERIFY2(page.error.isEmpty(), qPrintable(page.error));
        QCOMPARE(page.rows.size(), expected.rows.size());
        QVERIFY(!page.rows.isEmpty());
        for (qsizetype i = 0; i < page.rows.size(); ++i) {
            QCOMPARE(page.rows[i].messageId, expected.rows[i].at(0).toString()); // longest-waiting first
            QVERIFY(page.rows[i].state == InboxState::Parked || page.rows[i].state == InboxState::FailedTerminal);
        }
        QVERIFY(!page.more);

        // A limit below the count says there is more.
        const InboxRowsPage first = InboxRowsQuery::read(m_db, m, {InboxState::Parked, InboxState::FailedTerminal}, {}, 1);
        QCOMPARE(first.rows.size(), 1);
        QCOMPARE(first.more, expected.rows.size() > 1);

        // Filter text is literal: wildcards and quotes match themselves, and nothing is injected.
        const QString id = page.rows.first().messageId;
        const InboxRowsPage byId = InboxRowsQuery::read(m_db, m, {InboxState::Parked, InboxState::FailedTerminal},
                                                        id.mid(1, id.size() - 2));
        QVERIFY(std::any_of(byId.rows.cbegin(), byId.rows.cend(), [&](const InboxRow &r) { return r.messageId == id; }));
        QVERIFY(InboxRowsQuery::read(m_db, m, {InboxState::Parked}, u"%"_s).rows.isEmpty());
        const InboxRowsPage hostile = InboxRowsQuery::read(m_db, m, {InboxState::Parked}, u"'); DROP TABLE processed_message; --"_s);
        QVERIFY2(hostile.error.isEmpty(), qPrintable(hostile.error));
        QVERIFY(m_db.exec(u"SELECT 1 FROM processed_message LIMIT 1"_s).ok);

        // The model shows them as plain text, under the tester.
        InboxRowsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setPage(page);
        QCOMPARE(model.rowCount(), int(page.rows.size()));
        QCOMPARE(model.index(0, InboxRowsModel::MessageId).data().toString(), id);
        QVERIFY(model.statusLine().contains(QString::number(page.rows.size())));
    }

    // A row's message id is the idempotency key of a record its consumer reads: where the policy masks
    // that key, the Parked view shows "(masked)" in the id column and in the error quoting it, while the
    // page keeps the id requests are filed by. Another consumer's rows show theirs.
    void maskedMessageIdsAreNotShown()
    {
        const PolicyLoadResult loaded = loadPolicy(
            "deliverySemantics:\n  consumers:\n"
            "    order-projection:\n      topics: [orders]\n      idempotencyKey: {header: idempotency-key}\n"
            "    email-sender:\n      topics: [notifications]\n      idempotencyKey: {header: idempotency-key}\n"
            "masking:\n  - topic: orders\n    headers: [idempotency-key]\n",
            u"masked.yaml"_s);
        QVERIFY2(loaded.ok(), qPrintable(loaded.messages().join(u"; "_s)));
        InboxRowsPage page;
        page.table = u"processed_message"_s;
        page.mappingName = u"order-projection"_s;
        InboxRow secret;
        secret.consumer = u"order-projection"_s;
        secret.messageId = u"card-4111-1111"_s;
        secret.error = u"duplicate key card-4111-1111 refused"_s;
        InboxRow other = secret;
        other.consumer = u"email-sender"_s;
        other.messageId = u"ntf-0001"_s;
        other.error = u"smtp down for ntf-0001"_s;
        page.rows = {secret, other};

        InboxRowsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setPage(page);
        QCOMPARE(model.index(0, InboxRowsModel::MessageId).data().toString(), secret.messageId); // no policy yet
        model.setKeyMask(KeyMask(loaded.policy));
        for (int column = 0; column < model.columnCount(); ++column) {
            for (const int role : {int(Qt::DisplayRole), int(Qt::ToolTipRole), InboxRowsModel::SortRole})
                QVERIFY(!model.index(0, column).data(role).toString().contains(u"4111"_s));
        }
        QCOMPARE(model.index(0, InboxRowsModel::MessageId).data().toString(), u"(masked)"_s);
        QCOMPARE(model.index(0, InboxRowsModel::Error).data().toString(), u"duplicate key (masked) refused"_s);
        QCOMPARE(model.index(1, InboxRowsModel::MessageId).data().toString(), other.messageId);
        QCOMPARE(model.index(1, InboxRowsModel::Error).data().toString(), other.error);
        QCOMPARE(model.page().rows.first().messageId, secret.messageId);
    }

    // The Parked view's filter never finds a row by the value of a masked message id, nor by the error
    // beside it (which may quote the id), and says so; another consumer's rows are searched as before.
    void maskedMessageIdsAreNotSearched()
    {
        QVERIFY(freshSchema());
        const PgResult planted =
            m_db.exec(u"INSERT INTO processed_message (consumer_name, message_id, status, first_seen_at, "
                      u"updated_at, error_code) "
                      u"VALUES ('orders', 'card-4111-1111', 'PARKED', now(), now(), 'dup card-4111-1111'), "
                      u"('emails', 'mail-4222-2222', 'PARKED', now(), now(), 'bounce mail-4222-2222')"_s);
        QVERIFY2(planted.ok, qPrintable(planted.error));
        const PolicyLoadResult loaded = loadPolicy(
            "deliverySemantics:\n  consumers:\n"
            "    orders:\n      topics: [orders]\n      idempotencyKey: {header: idempotency-key}\n"
            "    emails:\n      topics: [notifications]\n      idempotencyKey: {header: idempotency-key}\n"
            "masking:\n  - topic: orders\n    headers: [idempotency-key]\n",
            u"masked.yaml"_s);
        QVERIFY2(loaded.ok(), qPrintable(loaded.messages().join(u"; "_s)));
        const KeyMask mask(loaded.policy);
        const QList<InboxState> states{InboxState::Parked, InboxState::FailedTerminal};
        const auto ids = [](const InboxRowsPage &page) {
            QStringList out;
            for (const InboxRow &row : page.rows)
                out << row.messageId;
            return out;
        };

        // One table, both consumers (the consumer column): the masked consumer's rows match no text.
        const InboxMapping shared = mapping(u"seed000"_s);
        QCOMPARE(ids(InboxRowsQuery::read(m_db, shared, states, u"4111"_s)),
                 QStringList{u"card-4111-1111"_s});
        const InboxRowsPage byId = InboxRowsQuery::read(m_db, shared, states, u"4111"_s, 100, mask);
        QVERIFY2(byId.error.isEmpty(), qPrintable(byId.error));
        QVERIFY(byId.rows.isEmpty());
        QCOMPARE(byId.maskedIdConsumers, QStringList{u"orders"_s});
        QVERIFY(InboxRowsQuery::read(m_db, shared, states, u"o-pk-1"_s, 100, mask).rows.isEmpty());
        QVERIFY(InboxRowsQuery::read(m_db, shared, states, u"E_SCHEMA"_s, 100, mask).rows.isEmpty());
        QCOMPARE(ids(InboxRowsQuery::read(m_db, shared, states, u"4222"_s, 100, mask)),
                 QStringList{u"mail-4222-2222"_s});
        QCOMPARE(ids(InboxRowsQuery::read(m_db, shared, states, u"bounce"_s, 100, mask)),
                 QStringList{u"mail-4222-2222"_s});
        // Without text every row is listed, the masked ones too (shown masked by the model).
        QVERIFY(ids(InboxRowsQuery::read(m_db, shared, states, {}, 100, mask)).contains(u"card-4111-1111"_s));

        // The view says so: in the status line of a filtered page and in the filter's placeholder.
        InboxRowsModel model;
        model.setKeyMask(mask);
        model.setPage(byId);
        QVERIFY2(model.statusLine().contains(u"The message ids of orders are masked"_s),
                 qPrintable(model.statusLine()));
        QVERIFY(model.filterPlaceholder().contains(u"orders"_s));

        // A mapping of the masked consumer alone: no text finds anything; the other consumer's still works.
        InboxMapping orders = shared;
        orders.consumerValue = u"orders"_s;
        QVERIFY(InboxRowsQuery::read(m_db, orders, states, u"4111"_s, 100, mask).rows.isEmpty());
        QVERIFY(InboxRowsQuery::read(m_db, orders, states, u"dup"_s, 100, mask).rows.isEmpty());
        QCOMPARE(InboxRowsQuery::read(m_db, orders, states, u"dup"_s, 100, mask).maskedIdConsumers,
                 QStringList{u"orders"_s});
        InboxMapping emails = shared;
        emails.consumerValue = u"emails"_s;
        const InboxRowsPage mail = InboxRowsQuery::read(m_db, emails, states, u"4222"_s, 100, mask);
        QCOMPARE(ids(mail), QStringList{u"mail-4222-2222"_s});
        QVERIFY(mail.maskedIdConsumers.isEmpty());
        model.setPage(mail);
        QVERIFY2(!model.statusLine().contains(u"are masked"_s), qPrintable(model.statusLine()));
        QVERIFY(!model.filterPlaceholder().contains(u"masked"_s));
    }

    // The board's oldest stuck row names its message id: where the policy masks that consumer's ids, the
    // board as shown, alerted on and printed (MonitorService, berth lag) says "(masked)", also in the top
    // errors quoting it; another consumer's id shows as it is.
    void maskedStuckIdIsNotShown()
    {
        QVERIFY(freshSchema());
        const PgResult quoted = m_db.exec(
            u"UPDATE processed_message SET error_code = 'still busy with e-ip-stuck' WHERE message_id = 'e-ip-stuck'"_s);
        QVERIFY2(quoted.ok && quoted.affected == 1, qPrintable(quoted.error));
        InboxMapping m = mapping(u"seed000"_s);
        const InboxBoard read = board(m);
        QVERIFY2(read.ok(), qPrintable(read.error));
        QVERIFY(read.hasStuck);
        QCOMPARE(read.oldestStuck.messageId, u"e-ip-stuck"_s); // the fixture's oldest stuck row (emails)
        const auto policy = [](const char *maskedTopic) {
            return KeyMask(loadPolicy(QByteArray("deliverySemantics:\n  consumers:\n"
                                                 "    orders:\n      topics: [orders]\n      idempotencyKey: "
                                                 "{header: idempotency-key}\n"
                                                 "    emails:\n      topics: [notifications]\n      "
                                                 "idempotencyKey: {header: idempotency-key}\n"
                                                 "masking:\n  - topic: ")
                                          + maskedTopic + "\n    headers: [idempotency-key]\n",
                                      u"masked.yaml"_s)
                               .policy);
        };
        const InboxBoard shown = read.masked(policy("notifications"));
        QCOMPARE(shown.oldestStuck.messageId, u"(masked)"_s);
        QCOMPARE(shown.oldestStuck.consumer, u"emails"_s);
        QCOMPARE(shown.stuckCount, read.stuckCount);
        InboxBoardModel model;
        model.setBoard(shown);
        QVERIFY2(!model.stuckLine().contains(u"e-ip-stuck"_s), qPrintable(model.stuckLine()));
        const QByteArray json = QJsonDocument(inboxBoardToJson(shown)).toJson();
        QVERIFY2(!json.contains("e-ip-stuck"), json.constData());
        for (const InboxErrorCount &error : shown.topErrors)
            QVERIFY2(!error.error.contains(u"e-ip-stuck"_s), qPrintable(error.error));
        // Another consumer's ids masked: this one shows.
        QCOMPARE(read.masked(policy("orders")).oldestStuck.messageId, u"e-ip-stuck"_s);
        QCOMPARE(read.masked(KeyMask()).oldestStuck.messageId, u"e-ip-stuck"_s);

        // Any row's error quoting its masked id: the board counts it with the id taken out.
        const PgResult parked =
            m_db.exec(u"INSERT INTO processed_message (consumer_name, message_id, status, first_seen_at, "
                      u"updated_at, error_code) "
                      u"VALUES ('orders', 'card-4111-1111', 'PARKED', now(), now(), 'dup card-4111-1111')"_s);
        QVERIFY2(parked.ok, qPrintable(parked.error));
        const auto errors = [](const InboxBoard &b) {
            QStringList out;
            for (const InboxErrorCount &e : b.topErrors)
                out << e.error;
            return out;
        };
        QVERIFY(errors(board(m)).contains(u"dup card-4111-1111"_s)); // no policy: as written
        const KeyMask orders = policy("orders");
        QCOMPARE(orders.idMaskedConsumersOf(m), QStringList{u"orders"_s});
        for (const bool one : {false, true}) {
            InboxMapping scoped = m;
            if (one)
                scoped.consumerValue = u"orders"_s;
            const InboxBoard counted = InboxBoardQuery::collect(
                m_pg->conninfo(), scoped, JobControl(), InboxBoardQuery::DefaultStatementTimeoutMs, nullptr,
                nullptr, orders);
            QVERIFY2(counted.ok(), qPrintable(counted.error));
            QVERIFY2(errors(counted).contains(u"dup (masked)"_s), qPrintable(errors(counted).join(u" | "_s)));
            QVERIFY2(!errors(counted).join(u' ').contains(u"4111"_s),
                     qPrintable(errors(counted).join(u" | "_s)));
            QVERIFY(errors(counted).contains(u"E_SCHEMA"_s)); // errors without an id as they are
        }
    }

    void topErrorsMatch_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<QString>("independent");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("seed000")
            << u"seed000"_s
            << u"SELECT error_code, count(*) FROM processed_message WHERE error_code IS NOT NULL AND "
               u"status <> 'COMPLETED' GROUP BY 1 ORDER BY 2 DESC, 1"_s
            << QStringList{u"E_SMTP=3"_s, u"E_SCHEMA=2"_s, u"E_TIMEOUT=2"_s};
        QTest::newRow("seed001")
            << u"seed001"_s
            << u"SELECT last_error, count(*) FROM processed_events WHERE last_error IS NOT NULL AND "
               u"status <> 'COMPLETED' GROUP BY 1 ORDER BY 2 DESC, 1"_s
            << QStringList{u"card declined=2"_s, u"gateway timeout=2"_s, u"huh=1"_s};
    }
    void topErrorsMatch()
    {
        QFETCH(QString, preset);
        QFETCH(QString, independent);
        QFETCH(QStringList, expected);
        QVERIFY(freshSchema());
        const PgResult r = m_db.exec(independent);
        QVERIFY2(r.ok, qPrintable(r.error));
        QStringList fromSql;
        for (const QVariantList &row : r.rows)
            fromSql << row.at(0).toString() + u'=' + QString::number(row.at(1).toLongLong());
        QCOMPARE(fromSql, expected);

        const InboxBoard b = board(mapping(preset));
        QVERIFY2(b.ok(), qPrintable(b.error));
        QVERIFY(b.hasErrors);
        QStringList fromBoard;
        for (const InboxErrorCount &e : b.topErrors)
            fromBoard << e.error + u'=' + QString::number(e.count);
        QCOMPARE(fromBoard, expected);

        // Only the ten most frequent.
        QVERIFY(
            m_db.execScript(u"INSERT INTO processed_message SELECT 'orders', 'many-' || g, 'PARKED', now(), "
                            u"now(), 'E_' || (g % 12) FROM generate_series(1, 24) AS g"_s,
                            nullptr));
        QCOMPARE(board(mapping(u"seed000"_s)).topErrors.size(), qsizetype(InboxBoardQuery::TopErrorLimit));
    }

    void outboxBacklogMatches()
    {
        QVERIFY(freshSchema());
        QCOMPARE(scalar(u"SELECT count(*) FROM outbox WHERE status = 'pending'"_s).toLongLong(), qint64(3));
        const double oldest =
            scalar(
                u"SELECT EXTRACT(EPOCH FROM now() - min(created_at))::float8 FROM outbox WHERE status = 'pending'"_s)
                .toDouble();
        QVERIFY2(oldest >= 90 * 60 && oldest < 90 * 60 + 60, qPrintable(QString::number(oldest)));

        const InboxBoard b = board(mapping(u"seed001"_s));
        QVERIFY2(b.ok(), qPrintable(b.error));
        QVERIFY(b.hasOutbox);
        QVERIFY(b.outboxError.isEmpty());
        QCOMPARE(b.outbox.pending, qint64(3));
        QVERIFY2(b.outbox.oldestPendingAgeSeconds >= 90 * 60
                     && b.outbox.oldestPendingAgeSeconds < 90 * 60 + 60,
                 qPrintable(QString::number(b.outbox.oldestPendingAgeSeconds)));

        QVERIFY(m_db.execScript(u"UPDATE outbox SET status = 'published'"_s, nullptr));
        const InboxBoard drained = board(mapping(u"seed001"_s));
        QCOMPARE(drained.outbox.pending, qint64(0));
        QCOMPARE(drained.outbox.oldestPendingAgeSeconds, -1.0);
        QVERIFY(!board(mapping(u"seed000"_s)).hasOutbox);

        // A missing outbox costs the outbox line, not the inbox board.
        InboxMapping m = mapping(u"seed001"_s);
        m.outbox.table = u"no_such_outbox"_s;
        const InboxBoard partial = board(m);
        QVERIFY2(partial.ok(), qPrintable(partial.error));
        QVERIFY2(partial.outboxError.contains(u"does not exist"_s), qPrintable(partial.outboxError));
        QCOMPARE(partial.total(InboxState::Completed), qint64(7));
    }

    void missingIndexReportedUntilCreated()
    {
        QVERIFY(freshSchema());
        const InboxMapping m = mapping(u"seed001"_s);
        QCOMPARE(board(m).missingIndexes, QStringList()); // the demo schema documents and creates them

        QVERIFY(m_db.execScript(u"DROP INDEX idx_processed_events_status; DROP INDEX outbox_pending;"_s,
                                nullptr));
        // An index with other leading columns does not count; neither does a partial one on other rows.
        QVERIFY(m_db.execScript(
            u"CREATE INDEX wrong_order ON processed_events (status, consumer_group, updated_at);"
            u"CREATE INDEX wrong_rows ON outbox (created_at) WHERE status = 'published';"_s,
            nullptr));
        InboxBoard b = board(m);
        QVERIFY2(b.ok(), qPrintable(b.error));
        QCOMPARE(b.missingIndexes.size(), 2);
        QVERIFY2(b.missingIndexes.at(0).contains(u"consumer_group, status, updated_at"_s),
                 qPrintable(b.missingIndexes.at(0)));
        QVERIFY2(b.missingIndexes.at(1).contains(u"outbox"_s), qPrintable(b.missingIndexes.at(1)));

        QVERIFY(m_db.execScript(u"CREATE INDEX ON processed_events (consumer_group, status, updated_at)"_s,
                                nullptr));
        b = board(m);
        QCOMPARE(b.missingIndexes.size(), 1);
        QVERIFY(b.missingIndexes.at(0).contains(u"outbox"_s));
        QVERIFY(m_db.execScript(u"CREATE INDEX ON outbox (created_at) WHERE status = 'pending'"_s, nullptr));
        QCOMPARE(board(m).missingIndexes, QStringList());
        // A plain (status, created_at) index serves the backlog as well.
        QVERIFY(m_db.execScript(
            u"DROP INDEX outbox_created_at_idx; CREATE INDEX ON outbox (status, created_at)"_s, nullptr));
        QCOMPARE(board(m).missingIndexes, QStringList());
    }

    void injectionInMappingFailsSafely_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("expectedError");
        const QString drop = u"processed_message; DROP TABLE processed_message; --"_s;
        QTest::newRow("table") << u"table"_s << drop << u"does not exist"_s;
        QTest::newRow("schema") << u"schema"_s << u"public; DROP TABLE processed_message; --"_s
                                << u"does not exist"_s;
        QTest::newRow("status-column")
            << u"status"_s << u"status\" FROM pg_class; DROP TABLE processed_message; --"_s
            << u"does not exist"_s;
        QTest::newRow("error-column")
            << u"error"_s << u"error_code\"); CREATE TABLE pwned (); --"_s << u"does not exist"_s;
        QTest::newRow("too-long")
            << u"consumer"_s << u"consumer_name\"; DROP TABLE processed_message; CREATE TABLE pwned (); --"_s
            << u"63-byte identifier limit"_s;
    }
    void injectionInMappingFailsSafely()
    {
        QFETCH(QString, field);
        QFETCH(QString, value);
        QFETCH(QString, expectedError);
        QVERIFY(freshSchema());
        InboxMapping m = mapping(u"seed000"_s);
        if (field == u"table")
            m.table = value;
        else if (field == u"schema")
            m.schema = value;
        else if (field == u"status")
            m.statusColumn = value;
        else if (field == u"error")
            m.errorColumn = value;
        else
            m.consumerColumn = value;
        const InboxBoard b = board(m);
        QVERIFY(!b.ok());
        QVERIFY2(b.error.contains(expectedError), qPrintable(b.error));
        QVERIFY(b.consumers.isEmpty());
        // Nothing ran: the table is still there with all its rows, and nothing was created.
        QCOMPARE(
            scalar(u"SELECT to_regclass($1) IS NOT NULL"_s, {QString(m_schema + u".processed_message"_s)}),
            QVariant(true));
        QCOMPARE(scalar(u"SELECT count(*) FROM processed_message"_s).toLongLong(), qint64(19));
        QCOMPARE(scalar(u"SELECT count(*) FROM pg_class WHERE relname = 'pwned'"_s).toLongLong(), qint64(0));

        // An injection in the outbox costs only the outbox line.
        InboxMapping o = mapping(u"seed001"_s);
        o.outbox.table = u"outbox; DROP TABLE outbox; --"_s;
        const InboxBoard ob = board(o);
        QVERIFY2(ob.ok(), qPrintable(ob.error));
        QVERIFY2(ob.outboxError.contains(u"does not exist"_s), qPrintable(ob.outboxError));
        QCOMPARE(scalar(u"SELECT count(*) FROM outbox"_s).toLongLong(), qint64(5));
    }

    void unreachableDatabaseIsAClearError()
    {
        QTemporaryDir nowhere;
        const InboxBoard b =
            InboxBoardQuery::collect(u"host=%1 port=1 dbname=x connect_timeout=2"_s.arg(nowhere.path()),
                                     InboxMapping::seed000ProcessedMessage());
        QVERIFY(!b.ok());
        QVERIFY2(b.error.startsWith(u"cannot connect to the inbox database"_s), qPrintable(b.error));
        QCOMPARE(b.mappingName, InboxMapping::seed000ProcessedMessage().name);
    }

    void refreshDeliversOnlyTheLatestBoard()
    {
        QVERIFY(freshSchema());
        InboxBoardQuery query;
        query.setConninfo(m_pg->conninfo());
        QSignalSpy ready(&query, &InboxBoardQuery::boardReady);
        InboxMapping first = mapping(u"seed000"_s);
        first.name = u"first"_s;
        InboxMapping second = mapping(u"seed001"_s);
        second.name = u"second"_s;
        query.refresh(first);
        query.refresh(second); // supersedes the first before it can deliver
        QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 1, 15'000);
        QVERIFY(JobTracker::backgroundPool()->waitForDone(15'000));
        QCoreApplication::processEvents();
        QCOMPARE(ready.count(), 1);
        const auto b = ready.at(0).at(0).value<InboxBoard>();
        QCOMPARE(b.mappingName, u"second"_s);
        QVERIFY2(b.ok(), qPrintable(b.error));
        QCOMPARE(b.total(InboxState::Unknown), qint64(1));
        QVERIFY(!query.isRunning());
    }

    void modelPassesTesterThroughRefreshes()
    {
        QVERIFY(freshSchema());
        InboxBoardModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 0);

        const InboxBoard b = board(mapping(u"seed000"_s));
        QVERIFY2(b.ok(), qPrintable(b.error));
        model.setBoard(b);
        QCOMPARE(model.rowCount(), 3); // emails, orders, all consumers
        QCOMPARE(model.columnCount(), int(InboxBoardModel::ColumnCount));
        QCOMPARE(model.index(0, InboxBoardModel::Consumer).data().toString(), u"emails"_s);
        QCOMPARE(
            model.index(1, InboxBoardModel::FailedRetryable).data(InboxBoardModel::SortRole).toLongLong(),
            qint64(2));
        QCOMPARE(model.index(1, InboxBoardModel::Total).data(InboxBoardModel::SortRole).toLongLong(),
                 qint64(13));
        QVERIFY(model.isTotalRow(2));
        QCOMPARE(model.index(2, InboxBoardModel::InProgress).data(InboxBoardModel::SortRole).toLongLong(),
                 qint64(4));
        QCOMPARE(model.index(2, InboxBoardModel::Total).data(InboxBoardModel::SortRole).toLongLong(),
                 qint64(19));
        QCOMPARE(model.index(2, 0).data(Qt::FontRole).value<QFont>().bold(), true);
        QCOMPARE(InboxBoardModel::stateOfColumn(InboxBoardModel::Parked), InboxState::Parked);
        QVERIFY(model.stuckLine().contains(u"emails / e-ip-stuck"_s));
        QVERIFY(model.stuckLine().contains(u"3 row"_s));

        // Same consumers, new numbers: updated in place.
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        QVERIFY(m_db.execScript(
            u"UPDATE processed_message SET status = 'COMPLETED' WHERE consumer_name = 'emails'"_s, nullptr));
        model.setBoard(board(mapping(u"seed000"_s)));
        QCOMPARE(changed.count(), 1);
        QCOMPARE(reset.count(), 0);
        QCOMPARE(model.index(0, InboxBoardModel::Completed).data(InboxBoardModel::SortRole).toLongLong(),
                 qint64(6));

        // Other consumers: reset; an unmapped status explains itself in a tooltip.
        model.setBoard(board(mapping(u"seed001"_s)));
        QCOMPARE(reset.count(), 1);
        QCOMPARE(model.rowCount(), 3);
        QVERIFY(
            model.index(0, InboxBoardModel::Unknown).data(Qt::ToolTipRole).toString().contains(u"WEIRD"_s));
        QVERIFY(model.outboxLine().contains(u"3 pending"_s));

        // A failed read shows no stale numbers.
        InboxMapping broken = mapping(u"seed001"_s);
        broken.table = u"gone"_s;
        model.setBoard(board(broken));
        QCOMPARE(model.rowCount(), 0);
        QVERIFY(model.statusLine().contains(u"does not exist"_s));
        QCOMPARE(InboxBoardModel::formatDuration(3725), u"1 h 2 min"_s);
        QCOMPARE(InboxBoardModel::formatDuration(300), u"5 min"_s);
    }

    void viewShowsEverySectionAsPlainText()
    {
        QVERIFY(freshSchema());
        InboxBoardModel model;
        InboxBoardView view(&model);
        QList<InboxMapping> mappings{mapping(u"seed000"_s), mapping(u"seed001"_s)};
        view.setMappings(mappings);
        QSignalSpy asked(&view, &InboxBoardView::refreshRequested);
        view.mappingSelector()->setCurrentIndex(1);
        QCOMPARE(asked.count(), 1);
        QCOMPARE(asked.at(0).at(0).value<InboxMapping>().table, u"processed_events"_s);

        // Markup in data stays text.
        QVERIFY(m_db.execScript(
            u"UPDATE processed_events SET last_error = '<b>bold</b>' WHERE last_error = 'huh';"
            u"DROP INDEX outbox_pending"_s,
            nullptr));
        view.setBoard(board(mapping(u"seed001"_s)));
        for (QLabel *label :
             {view.statusLabel(), view.stuckLabel(), view.outboxLabel(), view.indexWarningLabel()})
            QCOMPARE(label->textFormat(), Qt::PlainText);
        QVERIFY(view.indexWarningLabel()->isVisibleTo(&view));
        QVERIFY(view.indexWarningLabel()->text().contains(u"outbox"_s));
        QVERIFY(view.stuckLabel()->text().contains(u"p-r-stuck"_s));
        QVERIFY(view.outboxLabel()->text().contains(u"3 pending"_s));
        QCOMPARE(view.errorList()->topLevelItemCount(), 3);
        QCOMPARE(view.errorList()->topLevelItem(2)->text(1), u"<b>bold</b>"_s);
        auto *bars = qobject_cast<QCPBars *>(view.attemptsPlot()->plottable(0));
        QVERIFY(bars);
        QCOMPARE(bars->data()->size(), InboxBoard::AttemptBuckets);
        QCOMPARE(bars->data()->at(0)->value, 9.0);
        QVERIFY(!view.attemptsPlot()->xAxis->label().isEmpty());
        QVERIFY(!view.attemptsPlot()->yAxis->label().isEmpty());
        QCOMPARE(view.table()->model()->rowCount(), 3);

        QVERIFY(m_db.execScript(u"CREATE INDEX ON outbox (created_at) WHERE status = 'pending'"_s, nullptr));
        view.setBoard(board(mapping(u"seed000"_s)));
        QVERIFY(!view.indexWarningLabel()->isVisibleTo(&view));
        QVERIFY(!view.attemptsPlot()->isVisibleTo(&view)); // seed 000 has no attempts column

        // Few consumers and no attempts column leave no empty band: the table is as tall as its rows,
        // the histogram's place goes to the errors.
        view.resize(1400, 800);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QVERIFY(!view.attemptsPane()->isVisibleTo(&view));
        const QTableView *table = view.table();
        const int rowsHeight = table->horizontalHeader()->height()
                               + table->model()->rowCount() * table->verticalHeader()->defaultSectionSize();
        QVERIFY2(table->height()
                     <= rowsHeight + 4 * table->frameWidth() + table->horizontalScrollBar()->height(),
                 qPrintable(u"%1 > %2"_s.arg(table->height()).arg(rowsHeight)));
        QVERIFY(view.errorList()->width() > view.width() * 3 / 4);
    }
};

QTEST_MAIN(TestInboxBoard)
#include "tst_inboxboard.moc"
