// The inbox mapping editor, driven offscreen against a real PostgreSQL: a settlement inbox shaped
// nothing like the presets (non-public schema, no consumer column, lower-case words, epoch-millisecond
// timestamps, a word with a single row) and its outbox are written here; the dialog lists the tables,
// suggests the columns, discovers every word with a guessed state, maps the outbox, previews the board,
// saves to a profile and reopens it. Counts are checked against SQL written in the test.
#include "models/inboxboardmodel.h"
#include "services/demo/temppostgres.h"
#include "services/inbox/inboxmappingdraft.h"
#include "services/inbox/inboxmappingexplorer.h"
#include "services/inbox/pgsession.h"
#include "services/policy/inboxpolicyyaml.h"
#include "services/policy/policyloader.h"
#include "services/support/profilestore.h"
#include "views/inboxmappingdialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using namespace Qt::StringLiterals;

namespace {
const char16_t kSchema[] = uR"(
CREATE SCHEMA settle;
CREATE TABLE settle.settlement_inbox (
    settlement_key text PRIMARY KEY,
    state text,
    changed_ms bigint NOT NULL,
    received_ms bigint NOT NULL,
    tries int NOT NULL DEFAULT 1,
    failure_reason text
);
CREATE INDEX ON settle.settlement_inbox (state, changed_ms);
INSERT INTO settle.settlement_inbox
SELECT 's-' || g, w, (extract(epoch FROM now()) * 1000)::bigint - g, 0, 1 + g % 3,
       CASE WHEN w IN ('retry_later', 'gave_up') THEN 'bank timeout' END
FROM (SELECT g, CASE WHEN g <= 200 THEN 'done' WHEN g <= 205 THEN 'in_flight' WHEN g <= 208 THEN 'retry_later'
                     WHEN g <= 210 THEN 'gave_up' WHEN g <= 211 THEN 'held_manual' WHEN g <= 215 THEN 'zebra'
                     ELSE NULL END AS w FROM generate_series(1, 217) AS g) AS s;
CREATE TABLE settle.settlement_outbox (id bigserial PRIMARY KEY, publish_state text NOT NULL, created_ms bigint NOT NULL);
CREATE INDEX ON settle.settlement_outbox (created_ms) WHERE publish_state = 'queued';
INSERT INTO settle.settlement_outbox (publish_state, created_ms)
SELECT CASE WHEN g <= 7 THEN 'queued' ELSE 'published' END, (extract(epoch FROM now()) * 1000)::bigint
FROM generate_series(1, 27) AS g;
CREATE TABLE public.unrelated (id int);
ANALYZE;
)";

int rowOfWord(QTableWidget *words, const QString &word)
{
    for (int row = 0; row < words->rowCount(); ++row) {
        if (words->item(row, 0) && words->item(row, 0)->text() == word)
            return row;
    }
    return -1;
}

QComboBox *stateBox(QTableWidget *words, const QString &word)
{
    const int row = rowOfWord(words, word);
    return row < 0 ? nullptr : qobject_cast<QComboBox *>(words->cellWidget(row, 2));
}
} // namespace

class TestInboxMappingEditor final : public QObject {
    Q_OBJECT

    std::unique_ptr<TempPostgres> m_pg;
    PgSession m_sql;
    QString conninfo() const { return m_pg->conninfo(u"postgres"_s, u"billing"_s); }
    InboxMappingSet databases() const { return InboxMappingSet::resolve({}, {}, conninfo()); }

    qint64 count(const QString &sql)
    {
        const PgResult r = m_sql.exec(sql);
        return r.ok ? r.rows.value(0).value(0).toLongLong() : -1;
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_pg = std::make_unique<TempPostgres>();
        QString error;
        QVERIFY2(m_pg->start(&error), qPrintable(error));
        QVERIFY(m_pg->exec(u"CREATE DATABASE billing"_s, &error));
        QVERIFY2(m_sql.connect(conninfo(), &error), qPrintable(error));
        QVERIFY2(m_sql.execScript(QString::fromUtf16(kSchema), &error), qPrintable(error));
    }

    // The editor's decisions, without a widget: guesses the operator confirms, unseen and Unknown words
    // flagged, an outbox's columns and pending word.
    void draftGuessesAndFlags()
    {
        InboxDiscovery::StatusWords found;
        found.words = {u"NULL"_s, u"done"_s, u"zebra"_s, u"in_flight"_s};
        const QHash<QString, InboxState> current{{u"in_flight"_s, InboxState::Parked},
                                                 {u"gone"_s, InboxState::Completed}};
        const QList<InboxMappingDraft::Word> words = InboxMappingDraft::vocabulary(found, current);
        QCOMPARE(words.size(), 5);
        const auto word = [&words](const QString &w) {
            return *std::find_if(words.cbegin(), words.cend(),
                                 [&w](const InboxMappingDraft::Word &x) { return x.word == w; });
        };
        QCOMPARE(word(u"done"_s).state, InboxState::Completed); // guessed
        QVERIFY(!word(u"done"_s).fromMapping);
        QCOMPARE(word(u"in_flight"_s).state, InboxState::Parked); // the mapping's own answer beats a guess
        QVERIFY(word(u"zebra"_s).needsAttention());
        QCOMPARE(word(u"NULL"_s).state, InboxState::Unknown);
        QVERIFY(!word(u"gone"_s).seen);
        QVERIFY(word(u"gone"_s).needsAttention()); // stated but not in the table: flagged, kept
        const QHash<QString, InboxState> statuses = InboxMappingDraft::statusesOf(words);
        QVERIFY(!statuses.contains(u"zebra"_s)); // unmapped stays Unknown on the board
        QVERIFY(!statuses.contains(u"NULL"_s));
        QCOMPARE(statuses.value(u"gone"_s), InboxState::Completed);
        QCOMPARE(InboxMappingDraft::guessPendingWord({u"published"_s, u"QUEUED"_s}), u"QUEUED"_s);
        QCOMPARE(InboxMappingDraft::guessPendingWord({u"published"_s}), QString());
        const OutboxMapping outbox = InboxMappingDraft::suggestOutbox(
            {{u"id"_s, u"bigint"_s}, {u"publish_state"_s, u"text"_s}, {u"created_ms"_s, u"bigint"_s}});
        QCOMPARE(outbox.statusColumn, u"publish_state"_s);
        QCOMPARE(outbox.createdColumn, u"created_ms"_s);
        InboxMapping unnamed;
        QVERIFY(!InboxMappingDraft::problem(unnamed, {}).isEmpty());
    }

    // Discover, map, preview, save, reopen.
    void discoverMapPreviewSaveReopen()
    {
        InboxMappingDialog dialog(databases(), {});
        dialog.nameEdit()->setText(u"settlement"_s);

        dialog.listTables();
        QTreeWidget *tables = dialog.tableList();
        QTRY_VERIFY_WITH_TIMEOUT(tables->topLevelItemCount() >= 3, 15000);
        const auto found = tables->findItems(u"settlement_inbox"_s, Qt::MatchExactly, 1);
        QCOMPARE(found.size(), 1);
        QCOMPARE(found.first()->text(0), u"settle"_s);
        QCOMPARE(found.first()->text(3).remove(QLocale().groupSeparator()),
                 u"217"_s); // the catalogue's estimate

        tables->setCurrentItem(found.first());
        QComboBox *status = dialog.columnSelector(u"status"_s);
        QTRY_COMPARE_WITH_TIMEOUT(status->currentData().toString(), u"state"_s, 15000);
        QCOMPARE(dialog.columnSelector(u"messageId"_s)->currentData().toString(), u"settlement_key"_s);
        QCOMPARE(dialog.columnSelector(u"updated"_s)->currentData().toString(), u"changed_ms"_s); // epoch ms
        QCOMPARE(dialog.columnSelector(u"firstSeen"_s)->currentData().toString(), u"received_ms"_s);
        QCOMPARE(dialog.columnSelector(u"attempts"_s)->currentData().toString(), u"tries"_s);
        QCOMPARE(dialog.columnSelector(u"error"_s)->currentData().toString(), u"failure_reason"_s);
        QCOMPARE(dialog.columnSelector(u"consumer"_s)->currentData().toString(),
                 QString()); // none in this table
        dialog.consumerValueEdit()->setText(u"settlement"_s);

        dialog.discoverWords();
        QTableWidget *words = dialog.wordTable();
        QTRY_VERIFY_WITH_TIMEOUT(rowOfWord(words, u"held_manual"_s) >= 0, 15000); // one row in 217, found
        QCOMPARE(words->rowCount(), 7);                                           // six words and NULL
        QCOMPARE(stateBox(words, u"done"_s)->currentData().toInt(), int(InboxState::Completed));
        QCOMPARE(stateBox(words, u"in_flight"_s)->currentData().toInt(), int(InboxState::InProgress));
        QCOMPARE(stateBox(words, u"retry_later"_s)->currentData().toInt(), int(InboxState::FailedRetryable));
        QCOMPARE(stateBox(words, u"gave_up"_s)->currentData().toInt(), int(InboxState::FailedTerminal));
        QCOMPARE(stateBox(words, u"held_manual"_s)->currentData().toInt(), int(InboxState::Parked));
        QCOMPARE(stateBox(words, u"zebra"_s)->currentData().toInt(), int(InboxState::Unknown));
        QVERIFY(words->item(rowOfWord(words, u"zebra"_s), 3)->text().contains(u"Unknown"_s)); // flagged
        QVERIFY(!stateBox(words, u"NULL"_s)->isEnabled());
        // The operator confirms the guesses and decides the one nothing guessed.
        stateBox(words, u"zebra"_s)
            ->setCurrentIndex(stateBox(words, u"zebra"_s)->findData(int(InboxState::FailedTerminal)));
        QVERIFY(!words->item(rowOfWord(words, u"zebra"_s), 3)->text().contains(u"Unknown"_s));
        QCOMPARE(dialog.formMapping().statuses.value(u"zebra"_s), InboxState::FailedTerminal);

        dialog.outboxCheck()->setChecked(true);
        QComboBox *outboxTable = dialog.outboxTableSelector();
        outboxTable->setEditText(u"settle.settlement_outbox"_s);
        Q_EMIT outboxTable->activated(0);
        QTRY_COMPARE_WITH_TIMEOUT(dialog.formMapping().outbox.statusColumn, u"publish_state"_s, 15000);
        QCOMPARE(dialog.formMapping().outbox.createdColumn, u"created_ms"_s);
        dialog.discoverOutboxWords();
        QTRY_COMPARE_WITH_TIMEOUT(dialog.outboxPendingSelector()->currentText(), u"queued"_s, 15000);

        dialog.preview();
        auto *model = qobject_cast<InboxBoardModel *>(dialog.previewTable()->model());
        QVERIFY(model);
        QTRY_VERIFY_WITH_TIMEOUT(!model->board().consumers.isEmpty() || !model->board().error.isEmpty(),
                                 15000);
        const InboxBoard &board = model->board();
        QVERIFY2(board.ok(), qPrintable(board.error));
        QCOMPARE(board.consumers.size(), 1);
        const InboxConsumerCounts &c = board.consumers.first();
        const QString t = u"SELECT count(*) FROM settle.settlement_inbox WHERE "_s;
        QCOMPARE(c.count(InboxState::Completed), count(t + u"state = 'done'"_s));
        QCOMPARE(c.count(InboxState::InProgress), count(t + u"state = 'in_flight'"_s));
        QCOMPARE(c.count(InboxState::FailedTerminal), count(t + u"state IN ('gave_up', 'zebra')"_s));
        QCOMPARE(c.count(InboxState::Parked), count(t + u"state = 'held_manual'"_s));
        QCOMPARE(c.count(InboxState::Unknown), count(t + u"state IS NULL"_s));
        QVERIFY(board.hasOutbox);
        QCOMPARE(board.outbox.pending,
                 count(u"SELECT count(*) FROM settle.settlement_outbox WHERE publish_state = 'queued'"_s));
        QVERIFY(!dialog.previewStatusLabel()->text().isEmpty());

        // "Copy as policy YAML" reads back through the policy parser as the same mapping.
        QStringList problems;
        const QList<InboxMapping> fromYaml = InboxPolicyYaml::read(dialog.policyYaml(), &problems);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u'\n')));
        QCOMPARE(fromYaml.size(), 1);
        QCOMPARE(fromYaml.first(), dialog.formMapping());

        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        const QList<InboxMapping> edited = dialog.mappings();
        QCOMPARE(edited.size(), 1);
        QCOMPARE(edited.first().schema, u"settle"_s);
        QCOMPARE(edited.first().table, u"settlement_inbox"_s);

        // Saved to the profile, never to a policy file; reopened, the editor shows the same mapping.
        QTemporaryDir dir;
        QSettings settings(dir.filePath(u"berth.ini"_s), QSettings::IniFormat);
        ProfileStore store(&settings);
        ConnectionProfile profile;
        profile.name = u"billing"_s;
        profile.databaseConninfo = conninfo();
        store.save(profile);
        QVERIFY(store.saveInboxMappings(profile.name, edited));
        const auto loaded = store.load(profile.name);
        QVERIFY(loaded);
        QCOMPARE(loaded->profile.inboxMappings, edited);
        QCOMPARE(loaded->profile.databaseConninfo, conninfo()); // the rest of the profile untouched

        InboxMappingDialog reopened(databases(), loaded->profile.inboxMappings);
        QCOMPARE(reopened.formMapping(), edited.first());
        QCOMPARE(stateBox(reopened.wordTable(), u"zebra"_s)->currentData().toInt(),
                 int(InboxState::FailedTerminal));
        // Its table is read again in the background; what the operator saved stays as saved.
        QTRY_VERIFY_WITH_TIMEOUT(!reopened.explorer()->isBusy(), 15000);
        QCOMPARE(reopened.mappings(), edited);
    }

    // A draft that cannot work is not saved, and the reason is said where the operator looks.
    void incompleteDraftIsNotSaved()
    {
        InboxMappingDialog dialog(databases(), {});
        dialog.nameEdit()->setText(u"half-done"_s);
        dialog.accept();
        QVERIFY(dialog.result() != int(QDialog::Accepted));
        QVERIFY(dialog.messageLabel()->text().contains(u"half-done"_s));
    }

    // Bad input: a table that is not there, a database that is not there.
    void badInputIsSaidInWords()
    {
        const InboxMappingExplorer::Relation missing =
            InboxMappingExplorer::readRelation(conninfo(), u"settle"_s, u"no_such_inbox"_s);
        QVERIFY(missing.error.contains(u"not there"_s));
        const InboxMappingExplorer::Tables noDb =
            InboxMappingExplorer::readTables(m_pg->conninfo(u"postgres"_s, u"no_such_db"_s));
        QVERIFY(noDb.error.startsWith(u"cannot connect"_s));
        QVERIFY(noDb.tables.isEmpty());
    }

    // The preview is a board like the desk's: message ids the policy masks are never shown by value, not
    // as the oldest stuck row's id, nor inside the top errors quoting them.
    void previewMasksTheIdsThePolicyMasks()
    {
        QString error;
        QVERIFY2(m_sql.execScript(
                     u"CREATE TABLE settle.card_inbox (card_key text PRIMARY KEY, state text NOT NULL, "
                     u"changed_at timestamptz NOT NULL, failure_reason text); "
                     u"INSERT INTO settle.card_inbox VALUES "
                     u"('card-4111-1111', 'in_flight', now() - interval '1 hour', NULL), "
                     u"('card-5555-4444', 'gave_up', now(), 'declined card-5555-4444')"_s,
                     &error),
                 qPrintable(error));
        InboxMapping m;
        m.name = u"cards"_s;
        m.schema = u"settle"_s;
        m.table = u"card_inbox"_s;
        m.messageIdColumn = u"card_key"_s;
        m.statusColumn = u"state"_s;
        m.updatedColumn = u"changed_at"_s;
        m.errorColumn = u"failure_reason"_s;
        m.statuses = {{u"in_flight"_s, InboxState::InProgress}, {u"gave_up"_s, InboxState::FailedTerminal}};
        const auto previewWith = [&](const KeyMask &mask) {
            InboxMappingExplorer explorer;
            explorer.setKeyMask(mask);
            QSignalSpy ready(&explorer, &InboxMappingExplorer::previewReady);
            explorer.preview(conninfo(), m);
            return ready.wait(15000) ? ready.first().first().value<InboxBoard>() : InboxBoard();
        };
        const InboxBoard plain = previewWith(KeyMask());
        QVERIFY2(plain.ok() && plain.hasStuck, qPrintable(plain.error));
        QCOMPARE(plain.oldestStuck.messageId, u"card-4111-1111"_s); // what masking must hide

        const KeyMask mask(loadPolicy("deliverySemantics:\n  consumers:\n    cards:\n      topics: [cards]\n"
                                      "      idempotencyKey: {header: idempotency-key}\n"
                                      "masking:\n  - topic: cards\n    headers: [idempotency-key]\n",
                                      u"cards.yaml"_s)
                               .policy);
        const InboxBoard shown = previewWith(mask);
        QVERIFY2(shown.ok() && shown.hasStuck, qPrintable(shown.error));
        QCOMPARE(shown.oldestStuck.messageId, u"(masked)"_s);
        QVERIFY(!shown.topErrors.isEmpty());
        for (const InboxErrorCount &e : shown.topErrors)
            QVERIFY2(!e.error.contains(u"card-"_s), qPrintable(e.error));
    }
};

QTEST_MAIN(TestInboxMappingEditor)
#include "tst_inboxmappingeditor.moc"
