#include "services/accounting/inboxkeystage.h"

#include "services/inbox/inboxsessions.h"
#include "services/inbox/inboxtableinfo.h"
#include "services/inbox/pgsession.h"

#include "services/inbox/inboxboardquery.h"

#include <QRegularExpression>
#include <QUtf8StringView>
#include <QtEndian>

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>

#include <libpq-fe.h>

using namespace Qt::StringLiterals;

InboxKeyStage::InboxKeyStage(const InboxMappingSet &set, const InboxMapping &mapping)
    : m_mapping(mapping)
    , m_set(set)
{
    m_sessions.push_back(std::make_unique<InboxSessions>(set));
}

InboxKeyStage::~InboxKeyStage()
{
    bool working = false;
    {
        const std::lock_guard lock(m_mutex);
        working = m_busy > 0 || !m_queue.empty();
    }
    // A batch still in flight is cancelled on the server rather than waited for.
    if (working)
        cancel();
    {
        const std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
    for (std::thread &thread : m_threads)
        thread.join();
}

void InboxKeyStage::cancel()
{
    {
        const std::lock_guard lock(m_mutex);
        m_cancelled = true;
        for (const Batch &batch : m_queue)
            m_answers.unanswered.unite(QSet<quint32>(batch.ids.cbegin(), batch.ids.cend()));
        m_queue.clear();
        if (m_busy == 0)
            m_drained.notify_all();
    }
    for (const std::unique_ptr<PgStatementCanceller> &canceller : m_cancellers)
        canceller->cancel();
}

bool InboxKeyStage::open(qint64 expectedKeys, int probeBatch, QString *error)
{
    // The look-up skips a mapping it cannot use: say so here rather than count every record as lost.
    if (const QString invalid = m_mapping.validate(); !invalid.isEmpty()) {
        *error = u"The inbox mapping of %1 cannot be used: %2"_s.arg(m_mapping.name, invalid);
        return false;
    }
    QString problem;
    PgSession *db = m_sessions.front()->sessionFor(m_mapping, &problem);
    if (!db) {
        *error = u"The inbox of %1 cannot be reached: %2"_s.arg(m_mapping.name, problem);
        return false;
    }
    const InboxTableInfo info = InboxTableInfo::read(*db, m_mapping.schema, m_mapping.table, &problem);
    if (!problem.isEmpty() || !info.exists) {
        *error =
            problem.isEmpty()
                ? u"The inbox table %1 of %2 does not exist"_s.arg(m_mapping.qualifiedTable(), m_mapping.name)
                : problem;
        return false;
    }
    if (const QString columns = info.checkColumns(m_mapping); !columns.isEmpty()) {
        *error = m_mapping.qualifiedTable() + u": "_s + columns;
        return false;
    }
    // The whole table when the window is a good part of it; an estimate of -1 (never analysed) says
    // nothing, and probing is what a table of any size bears.
    const bool wholeTable =
        !info.isView && info.estimatedRows > 0 && expectedKeys * WholeTableMinShareOfRows >= info.estimatedRows;
    m_probeBatch = std::max(1, probeBatch);

    // The key compared as the column's own type (without a length, which would truncate a longer key
    // into a false match), so the comparison is the index's.
    QString keyType = info.types.value(m_mapping.messageIdColumn);
    keyType.remove(QRegularExpression(u"\\([^)]*\\)"_s));
    m_uuidKeys = keyType == u"uuid"_s;
    // A text key under a deterministic collation is equal only to the same bytes, so the table's keys can be
    // compared here. Under the C collation it also sorts as its bytes do: a merge batch sorted here reaches
    // the server in the index's order, and the server's sort only checks that it is.
    bool equalAsBytes = false;
    if (wholeTable && (keyType == u"text"_s || keyType == u"character varying"_s)) {
        const PgResult collation = db->exec(
            u"SELECT COALESCE(NULLIF(c.collname, 'default'), (SELECT datcollate FROM pg_database WHERE "
            u"datname = current_database())), COALESCE(c.collisdeterministic, true) FROM pg_attribute a "
            u"LEFT JOIN pg_collation c ON c.oid = a.attcollation WHERE a.attrelid = $1::regclass AND "
            u"a.attname = $2"_s,
            {db->escapeTable(m_mapping.schema, m_mapping.table), m_mapping.messageIdColumn});
        const QString name = collation.ok ? collation.rows.value(0).value(0).toString() : QString();
        m_sortedByBytes = name == u"C"_s || name == u"POSIX"_s;
        equalAsBytes = collation.ok && collation.rows.value(0).value(1).toBool();
    }
    m_join = !wholeTable ? Join::Probe : (equalAsBytes || m_uuidKeys) ? Join::Scan : Join::Merge;
    const qint64 mergeBatch = std::max<qint64>(probeBatch, (expectedKeys + MergeBatches - 1) / MergeBatches);
    m_batchSize =
        int(std::min<qint64>(m_join == Join::Merge ? mergeBatch : m_probeBatch, std::numeric_limits<int>::max()));
    m_scanRows = std::min(info.estimatedRows, expectedKeys * WholeTableMinShareOfRows);
    m_scanCap = size_t(std::max(ScanMinCap, expectedKeys * ScanMaxRowsPerKey));
    m_answering = m_join;

    // A table the board calls large is probed or merged index-only only with the covering key index:
    // without it every key visits the table (a scan reads the table anyway). The run still goes on; the
    // note names the index (the board's own requirement, so the statement is the one the inbox board
    // shows).
    if (m_join != Join::Scan && !info.isView && info.estimatedRows >= InboxBoardQuery::LargeTableRows) {
        QStringList missing;
        QString indexError;
        if (InboxBoardQuery::missingIndexes(*db, m_mapping, {InboxBoardQuery::keyIndexRequirement(m_mapping)},
                                            &missing, &indexError)
            && !missing.isEmpty())
            m_notes << u"%1 has about %2 rows and no covering index on its message id, so each key look-up "
                       u"visits the table: %3"_s.arg(m_mapping.qualifiedTable(),
                                                     QString::number(info.estimatedRows), missing.first());
    }
    const QString table = db->escapeTable(m_mapping.schema, m_mapping.table);
    const QString status = u"r."_s + db->escapeIdentifier(m_mapping.statusColumn) + u"::text"_s;
    const QString id = u"r."_s + db->escapeIdentifier(m_mapping.messageIdColumn);
    const auto consumer = [&](int parameter) {
        return m_mapping.filtersConsumer() ? u" AND r."_s + db->escapeIdentifier(m_mapping.consumerColumn)
                                                 + u"::text = $"_s + QString::number(parameter)
                                           : QString();
    };
    // OFFSET 0 keeps the probe a parameterised subquery (a nested loop), whatever the batch size.
    const QString probe = u"SELECT "_s + status + u" AS status FROM "_s + table + u" AS r WHERE "_s + id
                          + u" = k.key::"_s + keyType + consumer(2);
    m_probeSql = (u"SELECT k.ord, t.status FROM unnest($1::text[]) WITH ORDINALITY AS k(key, ord) "_s
                  u"CROSS JOIN LATERAL ("_s
                  + probe + u" OFFSET 0) AS t"_s)
                     .toUtf8();
    // A merge: the planner would hash the whole table per batch or probe it key by key; the session's
    // settings for this statement leave it the merge with the key index, and the sort of the batch in
    // memory (mergeJoin).
    switch (m_join) {
    case Join::Probe:
        m_sql = m_probeSql;
        break;
    case Join::Scan:
        // The consumer's value through a setting: COPY takes no parameters.
        m_sql = (u"COPY (SELECT "_s + id + u"::text, "_s + status + u" FROM "_s + table + u" AS r"_s
                 + (m_mapping.filtersConsumer() ? u" WHERE r."_s + db->escapeIdentifier(m_mapping.consumerColumn)
                                                      + u"::text = current_setting('"_s + QLatin1StringView(ConsumerSetting) + u"')"_s
                                                : QString())
                 + u") TO STDOUT (FORMAT binary)"_s)
                    .toUtf8();
        break;
    case Join::Merge:
        m_sql = (u"SELECT t.status, array_agg(t.id) FROM (SELECT "_s + status + u" AS status, k.id FROM "_s
                 u"unnest($1::text[], $2::int4[]) AS k(key, id) JOIN "_s
                 + table + u" AS r ON "_s + id + u" = k.key::"_s + keyType + consumer(3)
                 + u") AS t GROUP BY t.status"_s)
                    .toUtf8();
        break;
    }
    // A scan reads the table on one connection and answers every batch from its copy; finish() waits for it
    // from now on.
    if (m_join == Join::Scan)
        m_busy = 1;
    else
        m_sessions.push_back(std::make_unique<InboxSessions>(m_set)); // connects on its first batch
    for (const std::unique_ptr<InboxSessions> &sessions : m_sessions) {
        m_cancellers.push_back(std::make_unique<PgStatementCanceller>());
        m_threads.emplace_back([this, s = sessions.get(), c = m_cancellers.back().get()] { loop(*s, *c); });
    }
    return true;
}

void InboxKeyStage::enqueue(std::vector<quint32> ids, const KeyTable &keys)
{
    Batch batch;
    size_t bytes = 0;
    for (const quint32 id : ids)
        bytes += size_t(keys[id].size());
    batch.keys.reserve(ids.size(), bytes);
    for (const quint32 id : ids)
        batch.keys.push_back(keys[id]);
    batch.ids = std::move(ids);
    {
        const std::lock_guard lock(m_mutex);
        m_queue.push_back(std::move(batch));
    }
    m_wake.notify_one();
}

void InboxKeyStage::loop(InboxSessions &sessions, PgStatementCanceller &canceller)
{
    std::unique_lock lock(m_mutex);
    if (m_join == Join::Scan) {
        // The table first, while the window is read; the batches wait for it (busy since open()).
        lock.unlock();
        QString problem;
        if (PgSession *db = sessions.sessionFor(m_mapping, &problem)) {
            canceller.arm(*db);
            if (canceller.isCancelled())
                problem = u"cancelled"_s;
            else if (!scanTable(*db, &problem) && !db->isOpen())
                db->close();
        }
        lock.lock();
        m_scanProblem = problem;
        --m_busy;
        if (m_queue.empty() && m_busy == 0)
            m_drained.notify_all();
    }
    for (;;) {
        m_wake.wait(lock, [this] { return m_stop || !m_queue.empty(); });
        if (m_stop)
            return;
        Batch batch = std::move(m_queue.front());
        m_queue.pop_front();
        ++m_busy;
        lock.unlock();

        // Keys the column cannot hold never go out: they would fail the whole statement.
        std::vector<quint32> uncastable;
        dropUncastable(batch, &uncastable);
        // Probes in key order (sorted here, off the reading thread): consecutive probes descend to
        // neighbouring index pages, which stay in the buffers. A merge has the server sort its batch, which
        // costs it one pass when the batch comes in its order (m_sortedByBytes).
        if (m_answering == Join::Probe || (m_answering == Join::Merge && m_sortedByBytes))
            sortByBytes(batch);

        QString problem;
        Rows found;
        if (m_answering == Join::Scan) {
            if (m_scanProblem.isEmpty())
                answerFromScan(batch, &found);
            else
                problem = m_scanProblem;
        } else if (PgSession *db = sessions.sessionFor(m_mapping, &problem)) {
            canceller.arm(*db);
            // A cancel from here on interrupts the statement; one that came before stops it being sent.
            const Outcome outcome = canceller.isCancelled()  ? (problem = u"cancelled"_s, Outcome::Failed)
                                    : m_answering == Join::Merge ? mergeJoin(*db, batch, &found, &problem)
                                                            : probe(*db, batch, &found, &problem);
            // A key the server could not cast (a type this side does not check): the batch again, probed so
            // that only the keys that do not cast are left out.
            if (outcome == Outcome::KeyDoesNotCast) {
                problem.clear();
                found.clear();
                probeIsolating(*db, batch, &found, &uncastable, &problem);
            }
        }

        lock.lock();
        --m_busy;
        m_answers.uncastable.unite(QSet<quint32>(uncastable.cbegin(), uncastable.cend()));
        if (!problem.isEmpty()) {
            // A cancelled run says so itself; what its batches did not answer is only unanswered.
            const QString said =
                u"The inbox of %1 did not answer for some keys (%2): those records are not verified"_s.arg(
                    m_mapping.name, problem);
            if (!m_cancelled && !m_answers.problems.contains(said))
                m_answers.problems << said;
            for (const quint32 id : batch.ids)
                m_answers.unanswered.insert(id);
        } else {
            for (const auto &[id, state] : found)
                m_answers.states.merge(id, state);
        }
        if (m_queue.empty() && m_busy == 0)
            m_drained.notify_all();
    }
}

InboxKeyStage::Answers InboxKeyStage::finish(const std::function<bool()> &cancelled)
{
    std::unique_lock lock(m_mutex);
    while (!m_drained.wait_for(lock, std::chrono::milliseconds(100),
                               [this] { return m_queue.empty() && m_busy == 0; })) {
        if (cancelled && cancelled() && !m_cancelled) {
            // The statements in flight are cancelled on the server; the threads come back at once.
            lock.unlock();
            cancel();
            lock.lock();
        }
    }
    return std::move(m_answers);
}

namespace {
// PostgreSQL's uuid syntax (uuid_in): an optional opening brace, 32 hex digits in pairs with an optional
// hyphen after every fourth digit but the last, the closing brace when opened, and nothing else.
bool isUuidText(QByteArrayView key)
{
    qsizetype at = 0;
    const bool braces = !key.isEmpty() && key[0] == '{';
    if (braces)
        ++at;
    const auto hex = [](char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    };
    for (int i = 0; i < 16; ++i) {
        if (at + 2 > key.size() || !hex(key[at]) || !hex(key[at + 1]))
            return false;
        at += 2;
        if (at < key.size() && key[at] == '-' && i % 2 == 1 && i < 15)
            ++at;
    }
    if (braces) {
        if (at >= key.size() || key[at] != '}')
            return false;
        ++at;
    }
    return at == key.size();
}

// Why a statement failed: the server's error under the one rule (PgSession::resultError), or the session's
// own when there is no result or no message (a lost connection).
QString statementError(const PgSession &db, const PGresult *res)
{
    return res && PQresultErrorMessage(res)[0] ? PgSession::resultError(res, db.handle()) : db.lastError();
}

bool isDataException(PGresult *res)
{
    const char *state = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : nullptr;
    return state && state[0] == '2' && state[1] == '2';
}
} // namespace

void InboxKeyStage::sortByBytes(Batch &batch)
{
    // Each key's first eight bytes as a big-endian number order the keys as memcmp does; only keys that
    // share them are compared whole. The comparisons stay in one flat array instead of the key bytes.
    struct Entry {
        quint64 prefix;
        quint32 index;
    };
    std::vector<Entry> entries(batch.size());
    for (quint32 i = 0; i < entries.size(); ++i) {
        const QByteArrayView key = batch.keys[i];
        quint64 prefix = 0;
        const qsizetype n = std::min<qsizetype>(8, key.size());
        for (qsizetype b = 0; b < n; ++b)
            prefix |= quint64(quint8(key[b])) << (56 - 8 * b);
        entries[i] = {prefix, i};
    }
    std::sort(entries.begin(), entries.end(), [&keys = batch.keys](const Entry &a, const Entry &b) {
        return a.prefix != b.prefix ? a.prefix < b.prefix : keys[a.index] < keys[b.index];
    });
    batch.order.resize(entries.size());
    for (size_t i = 0; i < entries.size(); ++i)
        batch.order[i] = entries[i].index;
}

void InboxKeyStage::dropUncastable(Batch &batch, std::vector<quint32> *uncastable) const
{
    if (!m_uuidKeys)
        return;
    Batch kept;
    kept.keys.reserve(batch.size(), batch.keys.byteCount());
    for (size_t i = 0; i < batch.size(); ++i) {
        if (!isUuidText(batch.keys[i])) {
            uncastable->push_back(batch.ids[i]);
            continue;
        }
        kept.ids.push_back(batch.ids[i]);
        kept.keys.push_back(batch.keys[i]);
    }
    if (kept.size() != batch.size())
        batch = std::move(kept);
}

bool InboxKeyStage::probeIsolating(PgSession &db, const Batch &batch, Rows *found,
                                   std::vector<quint32> *uncastable, QString *problem)
{
    // Ranges still to probe, as [first, last) of the batch: chunks of the probe size, split on refusal.
    std::vector<std::pair<size_t, size_t>> todo;
    for (size_t first = batch.size(); first > 0;) {
        const size_t from = first > size_t(m_probeBatch) ? first - size_t(m_probeBatch) : 0;
        todo.emplace_back(from, first);
        first = from;
    }
    while (!todo.empty()) {
        const auto [first, last] = todo.back();
        todo.pop_back();
        Batch part;
        for (size_t i = first; i < last; ++i) {
            part.ids.push_back(batch.ids[batch.at(i)]);
            part.keys.push_back(batch.keys[batch.at(i)]);
        }
        Rows rows;
        QString failed;
        switch (probe(db, part, &rows, &failed)) {
        case Outcome::Answered:
            found->insert(found->end(), rows.begin(), rows.end());
            break;
        case Outcome::KeyDoesNotCast:
            if (last - first == 1) {
                uncastable->push_back(part.ids.front());
            } else {
                const size_t middle = first + (last - first) / 2;
                todo.emplace_back(middle, last);
                todo.emplace_back(first, middle);
            }
            break;
        case Outcome::Failed:
            *problem = failed;
            return false;
        }
    }
    return true;
}

InboxKeyStage::Outcome InboxKeyStage::probe(PgSession &db, const Batch &batch, Rows *found, QString *problem)
{
    // The keys as one text[] literal; a key that is not UTF-8 goes in with its bad bytes replaced, one with
    // a NUL byte not at all (neither can match a key a text column holds, which is what they are: no row).
    // sent[i]: the batch position of the literal's i-th key.
    QByteArray keys = "{";
    std::vector<quint32> sent;
    sent.reserve(batch.size());
    for (size_t n = 0; n < batch.size(); ++n) {
        const size_t i = batch.at(n);
        const QByteArrayView raw = batch.keys[i];
        if (raw.contains('\0'))
            continue;
        QByteArray key = QUtf8StringView(raw).isValidUtf8() ? raw.toByteArray() : QString::fromUtf8(raw).toUtf8();
        if (key.contains('\\') || key.contains('"'))
            key.replace('\\', "\\\\").replace('"', "\\\"");
        if (!sent.empty())
            keys += ',';
        keys += '"' + key + '"';
        sent.push_back(quint32(i));
    }
    keys += '}';
    if (sent.empty())
        return Outcome::Answered;
    const QByteArray consumer = m_mapping.consumerValue.toUtf8();
    const char *values[2] = {keys.constData(), consumer.constData()};
    PGresult *res = PQexecParams(db.handle(), m_probeSql.constData(), m_mapping.filtersConsumer() ? 2 : 1, nullptr,
                                 values, nullptr, nullptr, 0);
    if (!res || PQresultStatus(res) != PGRES_TUPLES_OK) {
        *problem = statementError(db, res);
        const bool cast = isDataException(res);
        PQclear(res);
        return cast ? Outcome::KeyDoesNotCast : Outcome::Failed;
    }
    QHash<QByteArray, InboxState> words; // the few status words of a table, each turned into a state once
    const int rows = PQntuples(res);
    for (int row = 0; row < rows; ++row) {
        const qsizetype ord = QByteArray(PQgetvalue(res, row, 0)).toLongLong() - 1;
        if (ord < 0 || size_t(ord) >= sent.size())
            continue;
        const QByteArray word(PQgetvalue(res, row, 1), PQgetlength(res, row, 1));
        auto state = words.constFind(word);
        if (state == words.cend())
            state = words.insert(word, m_mapping.stateOf(QString::fromUtf8(word)));
        found->emplace_back(batch.ids[sent[size_t(ord)]], *state);
    }
    PQclear(res);
    return Outcome::Answered;
}

namespace {
void appendInt32(QByteArray &out, qint32 value)
{
    const qint32 big = qToBigEndian(value);
    out.append(reinterpret_cast<const char *>(&big), 4);
}

qint32 int32At(const char *p)
{
    return qFromBigEndian<qint32>(p);
}

// The header of a one-dimensional array in PostgreSQL's binary format (20 bytes); each element follows as
// its length and bytes.
void writeArrayHeader(char *at, Oid elementType, qint32 count)
{
    const qint32 fields[5] = {1 /* dimensions */, 0 /* no NULLs */, qint32(elementType), count, 1 /* lower bound */};
    for (int i = 0; i < 5; ++i)
        qToBigEndian(fields[i], at + 4 * i);
}

void clearResult(PGconn *conn, const char *sql)
{
    PQclear(PQexec(conn, sql));
}
} // namespace

InboxKeyStage::Outcome InboxKeyStage::mergeJoin(PgSession &db, const Batch &batch, Rows *found, QString *problem)
{
    constexpr Oid TextOid = 25, Int4Oid = 23, TextArrayOid = 1009, Int4ArrayOid = 1007;
    // The keys and their ids as binary arrays (no quoting, no parsing of a literal). A key that is not
    // UTF-8 goes in with its bad bytes replaced, one with a NUL byte not at all: neither can match a key
    // the column holds, which is what they are (no row).
    const qsizetype keyBytes = qsizetype(batch.keys.byteCount());
    const qsizetype Header = 20;
    QByteArray keys, ids;
    keys.reserve(Header + qsizetype(batch.size()) * 4 + keyBytes + 64);
    ids.reserve(Header + qsizetype(batch.size()) * 8);
    keys.resize(Header);
    ids.resize(Header);
    qint32 count = 0;
    for (size_t n = 0; n < batch.size(); ++n) {
        const size_t i = batch.at(n);
        const QByteArrayView raw = batch.keys[i];
        if (raw.contains('\0'))
            continue;
        if (QUtf8StringView(raw).isValidUtf8()) {
            appendInt32(keys, qint32(raw.size()));
            keys += raw;
        } else {
            const QByteArray key = QString::fromUtf8(raw).toUtf8();
            appendInt32(keys, qint32(key.size()));
            keys += key;
        }
        appendInt32(ids, 4);
        appendInt32(ids, qint32(batch.ids[i]));
        ++count;
    }
    if (count == 0)
        return Outcome::Answered;
    writeArrayHeader(keys.data(), TextOid, count);
    writeArrayHeader(ids.data(), Int4Oid, count);
    const QByteArray consumer = m_mapping.consumerValue.toUtf8();
    const char *values[3] = {keys.constData(), ids.constData(), consumer.constData()};
    const int lengths[3] = {int(keys.size()), int(ids.size()), int(consumer.size())};
    const int formats[3] = {1, 1, 0};
    const Oid types[3] = {TextArrayOid, Int4ArrayOid, TextOid};

    // The settings hold for this transaction only: the merge with the key index, and the batch's sort
    // in memory (a batch of keys and ids is a few tens of MB at most). No parallel workers: each would sort
    // the whole batch again for its share of the index.
    PGconn *conn = db.handle();
    PGresult *set = PQexec(conn, "BEGIN; SET LOCAL enable_hashjoin = off; SET LOCAL enable_nestloop = off; "
                                 "SET LOCAL work_mem = '64MB'; SET LOCAL max_parallel_workers_per_gather = 0");
    if (!set || PQresultStatus(set) != PGRES_COMMAND_OK) {
        *problem = statementError(db, set);
        PQclear(set);
        clearResult(conn, "ROLLBACK");
        return Outcome::Failed;
    }
    PQclear(set);
    PGresult *res = PQexecParams(conn, m_sql.constData(), m_mapping.filtersConsumer() ? 3 : 2, types, values,
                                 lengths, formats, 1);
    if (!res || PQresultStatus(res) != PGRES_TUPLES_OK) {
        *problem = statementError(db, res);
        const bool cast = isDataException(res);
        PQclear(res);
        clearResult(conn, "ROLLBACK");
        return cast ? Outcome::KeyDoesNotCast : Outcome::Failed;
    }
    clearResult(conn, "COMMIT");
    // One row per status word: the word (binary text is its bytes) and the ids of the keys with such a row.
    const int rows = PQntuples(res);
    for (int row = 0; row < rows; ++row) {
        const QByteArray word(PQgetvalue(res, row, 0), PQgetlength(res, row, 0));
        const InboxState state = m_mapping.stateOf(QString::fromUtf8(word));
        const char *array = PQgetvalue(res, row, 1);
        const int length = PQgetlength(res, row, 1);
        if (length < 12 || int32At(array) != 1)
            continue; // no ids (an empty array has no dimensions)
        if (length < 20)
            continue;
        const qint32 n = int32At(array + 12);
        const char *p = array + 20;
        const char *end = array + length;
        for (qint32 i = 0; i < n && p + 4 <= end; ++i) {
            const qint32 size = int32At(p);
            p += 4;
            if (size != 4 || p + 4 > end) {
                p += std::max(0, size);
                continue;
            }
            found->emplace_back(quint32(int32At(p)), state);
            p += 4;
        }
    }
    PQclear(res);
    return Outcome::Answered;
}

namespace {
// A uuid key in the text the server gives its uuids (lowercase, hyphenated 8-4-4-4-12); the key has the
// server's uuid syntax (isUuidText).
std::array<char, 36> canonicalUuid(QByteArrayView key)
{
    std::array<char, 36> out{};
    size_t at = 0;
    for (const char c : key) {
        const bool digit = c >= '0' && c <= '9';
        const bool lower = c >= 'a' && c <= 'f';
        const bool upper = c >= 'A' && c <= 'F';
        if (!digit && !lower && !upper)
            continue;
        if (at == 8 || at == 13 || at == 18 || at == 23)
            out[at++] = '-';
        if (at < out.size())
            out[at++] = upper ? char(c - 'A' + 'a') : c;
    }
    return out;
}

qint16 int16At(const char *p)
{
    return qFromBigEndian<qint16>(p);
}

// The start of a binary COPY: its signature, then the flags and the length of the header extension.
constexpr char CopySignature[11] = {'P', 'G', 'C', 'O', 'P', 'Y', '\n', '\xff', '\r', '\n', '\0'};
constexpr qsizetype CopyHeader = 11 + 4 + 4;
} // namespace

bool InboxKeyStage::scanTable(PgSession &db, QString *problem)
{
    PGconn *conn = db.handle();
    const auto failed = [&](PGresult *res) {
        *problem = statementError(db, res);
        PQclear(res);
        return false;
    };
    if (m_mapping.filtersConsumer()) {
        const QByteArray consumer = m_mapping.consumerValue.toUtf8();
        const char *values[2] = {ConsumerSetting, consumer.constData()};
        PGresult *set =
            PQexecParams(conn, "SELECT set_config($1, $2, false)", 2, nullptr, values, nullptr, nullptr, 0);
        if (!set || PQresultStatus(set) != PGRES_TUPLES_OK)
            return failed(set);
        PQclear(set);
    }
    PGresult *start = PQexec(conn, m_sql.constData());
    if (!start || PQresultStatus(start) != PGRES_COPY_OUT)
        return failed(start);
    PQclear(start);

    m_scanned.keys.reserve(size_t(m_scanRows) + 1, size_t(m_scanRows) * 16);
    m_scanned.index = std::make_unique<KeyInterner>(m_scanned.keys, size_t(m_scanRows));
    // The few status words of a table, each turned into a state once.
    std::vector<std::pair<QByteArray, InboxState>> words;
    const auto stateOf = [&](QByteArrayView word) {
        for (const auto &[known, state] : words) {
            if (known == word)
                return state;
        }
        words.emplace_back(word.toByteArray(), m_mapping.stateOf(QString::fromUtf8(word)));
        return words.back().second;
    };
    // Tuples are taken whole; a tuple (or the header) split across messages waits in `carry`.
    bool header = false;
    bool malformed = false;
    bool tooLarge = false;
    const auto parse = [&](const char *p, const char *end) {
        if (!header) {
            if (end - p < CopyHeader)
                return p;
            const qint32 extension = qFromBigEndian<qint32>(p + 15);
            if (memcmp(p, CopySignature, sizeof CopySignature) != 0 || extension < 0) {
                malformed = true;
                return end;
            }
            if (end - p < CopyHeader + extension)
                return p;
            p += CopyHeader + extension;
            header = true;
        }
        while (end - p >= 2) {
            const qint16 fields = int16At(p);
            if (fields == -1)
                return end; // the trailer
            if (fields != 2) {
                malformed = true;
                return end;
            }
            const char *f = p + 2;
            QByteArrayView values[2];
            bool isNull[2] = {false, false};
            for (int i = 0; i < 2; ++i) {
                if (end - f < 4)
                    return p;
                const qint32 length = qFromBigEndian<qint32>(f);
                f += 4;
                if (length < 0) {
                    isNull[i] = true;
                    continue;
                }
                if (end - f < length)
                    return p;
                values[i] = QByteArrayView(f, length);
                f += length;
            }
            if (!isNull[0])
                m_scanned.states.merge(m_scanned.index->intern(values[0]), stateOf(values[1]));
            p = f;
            if (m_scanned.keys.size() > m_scanCap) {
                tooLarge = true;
                return end;
            }
        }
        return p;
    };
    QByteArray carry;
    bool ok = true;
    bool cancelSent = false;
    for (;;) {
        char *buffer = nullptr;
        const int n = PQgetCopyData(conn, &buffer, 0);
        if (n < 0) {
            ok = n == -1;
            break;
        }
        if (tooLarge) { // what still comes after the cancel is dropped
            PQfreemem(buffer);
            if (!cancelSent) {
                cancelSent = true;
                if (PGcancel *cancel = PQgetCancel(conn)) {
                    char reason[256];
                    PQcancel(cancel, reason, int(sizeof reason));
                    PQfreeCancel(cancel);
                }
            }
            continue;
        }
        if (carry.isEmpty()) {
            const char *rest = parse(buffer, buffer + n);
            carry = QByteArray(rest, buffer + n - rest);
        } else {
            carry.append(buffer, n);
            const char *rest = parse(carry.constData(), carry.constData() + carry.size());
            carry = carry.mid(rest - carry.constData());
        }
        PQfreemem(buffer);
    }
    // The COPY's own result, then nothing.
    PGresult *res = PQgetResult(conn);
    if (!res || PQresultStatus(res) != PGRES_COMMAND_OK) {
        failed(res);
        ok = false;
    } else {
        PQclear(res);
    }
    while (PGresult *more = PQgetResult(conn))
        PQclear(more);
    if (tooLarge) {
        // The statement ended cancelled (or finished first): either way the session is usable again.
        m_scanned = Scanned{};
        m_answering = Join::Probe;
        problem->clear();
        const std::lock_guard lock(m_mutex);
        m_answers.problems << u"%1 holds more than %2 rows, far more than its statistics say (ANALYZE it): its "
                              u"keys were looked up in batches instead of read whole"_s.arg(
                                  m_mapping.qualifiedTable(), QString::number(m_scanCap));
        return true;
    }
    if (ok && (malformed || !header)) {
        *problem = u"the table's keys came back in a form not understood"_s;
        ok = false;
    }
    if (!ok && problem->isEmpty())
        *problem = db.lastError();
    return ok;
}

void InboxKeyStage::answerFromScan(const Batch &batch, Rows *found) const
{
    for (size_t i = 0; i < batch.size(); ++i) {
        const QByteArrayView key = batch.keys[i];
        quint32 id = 0;
        if (m_uuidKeys) {
            const std::array<char, 36> canonical = canonicalUuid(key);
            id = m_scanned.index->find(QByteArrayView(canonical.data(), qsizetype(canonical.size())));
        } else {
            id = m_scanned.index->find(key);
        }
        if (id)
            found->emplace_back(batch.ids[i], m_scanned.states.value(id));
    }
}
