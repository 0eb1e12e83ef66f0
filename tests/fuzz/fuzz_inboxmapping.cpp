// Inbox mappings: Berth has no mapping file format yet (mappings are the presets, built in code), so this
// fuzzes what every mapping goes through before it reaches SQL: InboxMapping::validate(), the status
// vocabulary, and identifier escaping (PgSession::escapeIdentifier/escapeTable without a connection, the
// fallback path; with one, libpq's PQescapeIdentifier does the same quoting). Oracles: a mapping that
// validates has every identifier non-empty where required, within PostgreSQL's 63 bytes and NUL-free;
// an escaped identifier is one double-quoted token that unquotes to exactly the input.
#include "fuzzinput.h"
#include "services/inbox/inboxmapping.h"
#include "services/inbox/pgsession.h"

#include <cstdio>
#include <cstdlib>

namespace {
[[noreturn]] void fail(const char *what)
{
    std::fprintf(stderr, "fuzz_inboxmapping: %s\n", what);
    std::abort();
}

// One quoted identifier: "..." with every inner quote doubled; returns the unquoted text.
QString unquote(const QString &escaped)
{
    if (escaped.size() < 2 || !escaped.startsWith(u'"') || !escaped.endsWith(u'"'))
        fail("an escaped identifier is not double-quoted");
    const QString inner = escaped.mid(1, escaped.size() - 2);
    QString out;
    for (qsizetype i = 0; i < inner.size(); ++i) {
        if (inner[i] == u'"') {
            if (i + 1 >= inner.size() || inner[i + 1] != u'"')
                fail("a lone quote inside an escaped identifier ends it early");
            ++i;
        }
        out += inner[i];
    }
    return out;
}

void checkIdentifier(const PgSession &session, const QString &value, bool required)
{
    if (value.isEmpty()) {
        if (required)
            fail("a mapping without a required identifier validated");
        return;
    }
    if (value.toUtf8().size() > 63 || value.contains(QChar(0)))
        fail("an identifier PostgreSQL would truncate or cut validated");
    if (unquote(session.escapeIdentifier(value)) != value)
        fail("an escaped identifier does not unquote to itself");
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FuzzInput in(data, size);
    InboxMapping m;
    auto text = [&in] { return QString::fromUtf8(in.bytes()); };
    m.name = text();
    QString *const fields[] = {&m.schema,
                               &m.table,
                               &m.consumerColumn,
                               &m.messageIdColumn,
                               &m.statusColumn,
                               &m.firstSeenColumn,
                               &m.updatedColumn,
                               &m.attemptsColumn,
                               &m.errorColumn,
                               &m.topicColumn,
                               &m.payloadColumn,
                               &m.outbox.schema,
                               &m.outbox.table,
                               &m.outbox.statusColumn,
                               &m.outbox.createdColumn,
                               &m.outbox.pendingStatus,
                               &m.skippedStatus};
    for (QString *field : fields)
        *field = text();
    m.stuckAfterSeconds = int(qint16(in.u16()));
    while (!in.atEnd()) {
        const QString word = text();
        m.statuses.insert(word, InboxState(in.byte() % InboxStateCount));
    }

    // The vocabulary: every word is listed under exactly its own state, sorted.
    qsizetype listed = 0;
    for (int s = 0; s < InboxStateCount; ++s) {
        const QStringList words = m.statusesFor(InboxState(s));
        listed += words.size();
        for (qsizetype i = 0; i < words.size(); ++i) {
            if (m.stateOf(words[i]) != InboxState(s))
                fail("statusesFor lists a word under another state");
            if (i > 0 && !(words[i - 1] < words[i]))
                fail("statusesFor is not sorted");
        }
    }
    if (listed != m.statuses.size())
        fail("statusesFor lost or invented a word");
    (void)inboxStateName(m.stateOf(m.name));
    (void)m.qualifiedTable();

    const QString problem = m.validate();
    if (!problem.isEmpty())
        return 0;
    const PgSession offline;
    checkIdentifier(offline, m.schema, false);
    checkIdentifier(offline, m.table, true);
    checkIdentifier(offline, m.consumerColumn, false);
    checkIdentifier(offline, m.messageIdColumn, true);
    checkIdentifier(offline, m.statusColumn, true);
    checkIdentifier(offline, m.firstSeenColumn, false);
    checkIdentifier(offline, m.updatedColumn, true);
    checkIdentifier(offline, m.attemptsColumn, false);
    checkIdentifier(offline, m.errorColumn, false);
    checkIdentifier(offline, m.topicColumn, false);
    checkIdentifier(offline, m.payloadColumn, false);
    checkIdentifier(offline, m.outbox.schema, false);
    checkIdentifier(offline, m.outbox.table, false);
    checkIdentifier(offline, m.outbox.statusColumn, m.outbox.isConfigured());
    checkIdentifier(offline, m.outbox.createdColumn, m.outbox.isConfigured());
    if (m.statusesFor(InboxState::InProgress).isEmpty() || m.stuckAfterSeconds <= 0)
        fail("a mapping without in-progress words or a stuck-after time validated");
    // "schema"."table": two tokens joined by one dot, each unquoting to its part.
    const QString table = offline.escapeTable(m.schema, m.table);
    if (m.schema.isEmpty()) {
        if (unquote(table) != m.table)
            fail("escapeTable without a schema is not the escaped table");
    } else if (table != offline.escapeIdentifier(m.schema) + u'.' + offline.escapeIdentifier(m.table)) {
        fail("escapeTable is not schema.table, each escaped");
    }
    return 0;
}
