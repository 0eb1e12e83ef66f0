#include "inboxboardquery.h"

#include "services/inbox/inboxboardhelpersession.h"
#include "services/inbox/inboxtableinfo.h"
#include "services/inbox/inboxwatch.h"
#include "services/inbox/pgsession.h"
#include "services/payload/payloadmask.h"
#include "services/support/logging.h"

#include <QElapsedTimer>
#include <QHash>
#include <QMap>

#include <QRegularExpression>

#include <algorithm>
#include <mutex>
#include <optional>
#include <thread>

using namespace Qt::StringLiterals;

namespace {
QString displayTable(const QString &schema, const QString &table)
{
    return schema.isEmpty() ? table : schema + u'.' + table;
}

// The index check's readings of pg_index, per database and table (ARCHITECTURE.md, Inbox mapping): the board
// reads afresh on its clock and stores what it read; the key look-ups and the Parked tab reuse a reading
// younger than the board's interval (InboxWatch::DefaultIntervalMs), so their batches cost no catalogue
// query. Shared by every thread, under a mutex.
class IndexCatalogue final {
public:
    struct Index {
        bool partial = false;
        QString predicate;
        QStringList columns;  // key columns, in order
        QStringList included; // INCLUDE columns
    };
    using Indexes = QMap<QString, Index>; // by index oid
    struct Reading {
        Indexes indexes;
        bool reused = false; // from the cache, not read just now
    };

    static std::optional<Indexes> find(const QString &key)
    {
        Store &store = instance();
        const std::lock_guard lock(store.mutex);
        const auto it = store.readings.constFind(key);
        if (it == store.readings.cend() || it->readAt.elapsed() >= InboxWatch::DefaultIntervalMs)
            return std::nullopt;
        return it->indexes;
    }

    static void store(const QString &key, const Indexes &indexes)
    {
        Store &store = instance();
        const std::lock_guard lock(store.mutex);
        if (store.readings.size() >= MaxTables && !store.readings.contains(key))
            store.readings.clear(); // a bound, not an LRU: each is one query to read again
        Cached &cached = store.readings[key];
        cached.indexes = indexes;
        cached.readAt.start();
    }

private:
    static constexpr qsizetype MaxTables = 1000;
    struct Cached {
        Indexes indexes;
        QElapsedTimer readAt;
    };
    struct Store {
        std::mutex mutex;
        QHash<QString, Cached> readings;
    };
    static Store &instance()
    {
        static Store store;
        return store;
    }
};

// The open-rows index on ([consumer,] status, attempts) that counts a huge table's exhausted rows exactly
// (InboxMapping::isExhausted), leaving out its dominant word like the counts' index; none without
// retry.maxAttempts, or when the dominant word is itself failed-retryable (no index leaving it out serves).
std::optional<InboxIndexRequirement> exhaustedIndex(const InboxMapping &mapping, const QString &dominantStatus)
{
    if (dominantStatus.isEmpty() || mapping.attemptsColumn.isEmpty() || mapping.exhaustedAfterAttempts <= 0
        || mapping.statusesFor(InboxState::FailedRetryable).isEmpty()
        || mapping.stateOf(dominantStatus) == InboxState::FailedRetryable)
        return std::nullopt;
    InboxIndexRequirement need;
    need.table = mapping.qualifiedTable();
    if (!mapping.consumerColumn.isEmpty())
        need.leadingColumns << mapping.consumerColumn;
    need.leadingColumns << mapping.statusColumn << mapping.attemptsColumn;
    need.excludedStatus = dominantStatus;
    need.wholeIndexServes = true;
    need.purpose = u"the exact count of exhausted retries on a table this large (estimated without it)"_s;
    return need;
}

// Reads one board on one open session. SQL text is assembled only from escaped identifiers and fixed
// keywords; everything that varies by data (statuses, consumers, durations) travels as parameters.
class BoardReader final {
    // A huge table's exact counts go out in this many chunks (ARCHITECTURE.md, Performance notes): enough
    // for two sessions to even out, few enough that each statement's own cost stays small.
    static constexpr qsizetype CountChunks = 8;

public:
    BoardReader(PgSession &session, const InboxMapping &mapping, const JobControl &control,
                InboxBoardHelperSession &second)
        : m_db(session)
        , m_mapping(mapping)
        , m_control(control)
        , m_second(second)
    {
        m_table = qualified(mapping.schema, mapping.table);
        m_status = m_db.escapeIdentifier(mapping.statusColumn);
        m_updated = m_db.escapeIdentifier(mapping.updatedColumn);
        m_id = m_db.escapeIdentifier(mapping.messageIdColumn);
        if (!mapping.consumerColumn.isEmpty())
            m_consumer = m_db.escapeIdentifier(mapping.consumerColumn);
    }

    void setIdMaskedConsumers(const QStringList &consumers) { m_idMaskedConsumers = consumers; }

    void read(InboxBoard &board, int statementTimeoutMs)
    {
        if (!begin(board, statementTimeoutMs) || !inspect(board))
            return;

        // A huge table is read by seeks only: each state counted exactly through the index except the
        // dominant one, which the catalogue estimates (ARCHITECTURE.md, Performance notes). Without the
        // index the board says which to create rather than scan the table.
        m_large = !m_isView && board.estimatedRows >= InboxBoardQuery::LargeTableRows;
        if (m_large) {
            if (!startSecondSession(board, statementTimeoutMs))
                return;
            // The statistics first: the dominant word decides which partial index serves the exact counts.
            if (!readFrequencies(board) || !checkIndexes(board, requirements()))
                return;
            if (m_boardIndexMissing) {
                board.error = u"%1 has about %2 rows and no index the board can seek on: %3"_s.arg(
                    board.table, QString::number(board.estimatedRows), board.missingIndexes.first());
                return;
            }
        }
        // Exhausted rows are read once the counts are in: they need the failed-retryable totals.
        const bool ok = (m_large ? readCountsLarge(board) : readCounts(board)) && readStuck(board)
                        && readErrors(board) && (m_large || checkIndexes(board, requirements()));
        if (ok && (!m_large || finishCountsLarge(board)) && readExhausted(board))
            readOutbox(board); // last: its failure (a missing outbox table) must not cost the inbox board
        m_db.exec(u"ROLLBACK"_s);
    }

private:
    QString qualified(const QString &schema, const QString &table) const { return m_db.escapeTable(schema, table); }

    bool begin(InboxBoard &board, int statementTimeoutMs)
    {
        // One snapshot for every query: the counts, the stuck row and the errors describe the same moment.
        if (!step(board, u"start"_s, u"BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"_s))
            return false;
        // A bound on each statement, and no JIT: the planner's generic estimates for the per-(consumer,
        // status) seeks look expensive enough to trigger it, and compiling costs more than the seeks.
        if (!step(board, u"session settings"_s,
                  u"SELECT set_config('statement_timeout', $1, true), set_config('jit', 'off', true)"_s,
                  {QString::number(std::max(1, statementTimeoutMs))}))
            return false;
        const PgResult now = run(board, u"clock"_s, u"SELECT now() AS taken_at"_s);
        if (!now.ok)
            return false;
        board.takenAt = now.value(0, u"taken_at").toDateTime();
        return true;
    }

    // Exports this transaction's snapshot and starts connecting the second session in it. A server that
    // cannot export one (pg_export_snapshot fails and aborts the transaction) gets the transaction begun
    // again: the board then counts on this session alone. False only when that fails too.
    bool startSecondSession(InboxBoard &board, int statementTimeoutMs)
    {
        const QString conninfo = m_db.sameParameters(nullptr);
        const PgResult exported = m_db.exec(u"SELECT pg_export_snapshot()"_s);
        if (!exported.ok || conninfo.isEmpty()) {
            qCDebug(lcInbox).noquote() << "board" << board.table << "counts on one session:" << exported.error;
            if (!exported.ok && !(step(board, u"start"_s, u"ROLLBACK"_s) && begin(board, statementTimeoutMs)))
                return false;
            return true;
        }
        m_second.start(conninfo, exported.rows.value(0).value(0).toString(), statementTimeoutMs);
        return true;
    }

    // The catalogue first: a missing table, a missing privilege or a column of the wrong type gets a
    // message that says so, instead of whatever the first failing query would report.
    bool inspect(InboxBoard &board)
    {
        QString error;
        const InboxTableInfo info = InboxTableInfo::read(m_db, m_mapping.schema, m_mapping.table, &error);
        if (!error.isEmpty()) {
            board.error = u"catalogue query on %1 failed: %2"_s.arg(board.table, error);
            return false;
        }
        if (!info.exists) {
            board.error = u"%1 does not exist in this database (renamed or dropped?)"_s.arg(board.table);
            return false;
        }
        if (!info.canSelect) {
            const PgResult role = m_db.exec(u"SELECT current_user::text"_s);
            board.error = u"no SELECT permission on %1 for role %2 \u2014 GRANT SELECT ON %3 TO %4"_s.arg(
                board.table, role.value(0, u"current_user").toString(), m_table,
                m_db.escapeIdentifier(role.value(0, u"current_user").toString()));
            return false;
        }
        const QString columns = info.checkColumns(m_mapping);
        if (!columns.isEmpty()) {
            board.error = u"%1: %2"_s.arg(board.table, columns);
            return false;
        }
        m_isView = info.isView;
        m_schemaName = info.schemaName;
        m_relationName = info.relationName;
        board.isView = info.isView;
        board.estimatedRows = info.estimatedRows;
        m_updatedTime.kind = info.timeKind(m_mapping.updatedColumn);
        if (!m_mapping.firstSeenColumn.isEmpty())
            m_firstSeenTime.kind = info.timeKind(m_mapping.firstSeenColumn);
        return true;
    }

    PgResult run(InboxBoard &board, const QString &what, const QString &sql, const QVariantList &params = {})
    {
        if (m_control.isCancelled()) {
            board.error = u"cancelled"_s;
            return PgResult::failure(board.error);
        }
        QElapsedTimer clock;
        clock.start();
        PgResult result = m_db.exec(sql, params);
        // berth.inbox.debug: which of a board's statements takes the time on a given table.
        qCDebug(lcInbox).noquote() << "board" << board.table << what << clock.nsecsElapsed() / 1000 << "us";
        if (!result.ok)
            board.error = u"%1 query on %2 failed: %3"_s.arg(what, board.table, result.error);
        return result;
    }

    bool step(InboxBoard &board, const QString &what, const QString &sql, const QVariantList &params = {})
    {
        return run(board, what, sql, params).ok;
    }

    // "t.col::text = c.consumer AND t.status::text = s.status": the casts are no-ops on text and varchar
    // (so the (consumer, status, updated) index still serves the seek) and make other column types compare.
    QString seekCondition() const
    {
        QString condition = u"t."_s + m_status + u"::text = s.status"_s;
        if (!m_consumer.isEmpty())
            condition = u"t."_s + m_consumer + u"::text = c.consumer AND "_s + condition;
        return condition;
    }

    // The consumers x statuses to seek, as a FROM clause over the first parameters: consumers (when the
    // mapping has a consumer column), then statuses. seekParams() fills them; more parameters follow.
    QString seekSource() const
    {
        return m_consumer.isEmpty() ? u"unnest($1::text[]) AS s(status)"_s
                                    : u"unnest($1::text[]) AS c(consumer) CROSS JOIN unnest($2::text[]) AS "
                                      u"s(status)"_s;
    }

    QVariantList seekParams(const QStringList &statuses) const
    {
        if (m_consumer.isEmpty())
            return {QVariant(statuses)};
        return {QVariant(m_consumers), QVariant(statuses)};
    }

    // "$n" for the parameter after seekParams().
    QString nextParam() const { return m_consumer.isEmpty() ? u"$2"_s : u"$3"_s; }

    bool readCounts(InboxBoard &board)
    {
        const QString consumer = m_consumer.isEmpty() ? u"''::text"_s : m_consumer + u"::text"_s;
        QString sql =
            u"SELECT "_s + consumer + u" AS consumer, "_s + m_status + u"::text AS status, count(*) AS n"_s;
        if (board.hasAttempts) {
            // Folded into the counts scan: one pass over the table instead of two.
            const QString a = m_db.escapeIdentifier(m_mapping.attemptsColumn);
            sql += u", count(*) FILTER (WHERE "_s + a + u" <= 1) AS a1"_s + u", count(*) FILTER (WHERE "_s + a
                   + u" = 2) AS a2"_s + u", count(*) FILTER (WHERE "_s + a + u" = 3) AS a3"_s
                   + u", count(*) FILTER (WHERE "_s + a + u" BETWEEN 4 AND 5) AS a4"_s
                   + u", count(*) FILTER (WHERE "_s + a + u" >= 6) AS a6"_s;
        }
        sql += u" FROM "_s + m_table;
        QVariantList params;
        if (m_mapping.filtersConsumer()) {
            sql += u" WHERE "_s + m_consumer + u"::text = $1"_s;
            params << m_mapping.consumerValue;
        }
        sql += u" GROUP BY 1, 2"_s;
        const PgResult r = run(board, u"counts"_s, sql, params);
        if (!r.ok)
            return false;

        QMap<QString, InboxStateCounts> perConsumer; // sorted by name
        QStringList unmapped;
        for (qsizetype row = 0; row < r.rows.size(); ++row) {
            const QVariant consumerValue = r.value(int(row), u"consumer");
            const QVariant statusValue = r.value(int(row), u"status");
            const QString name = m_consumer.isEmpty()        ? m_mapping.consumerLabel()
                                 : consumerValue.isValid() ? consumerValue.toString()
                                                           : QString();
            const QString status = statusValue.toString();
            const qint64 n = r.value(int(row), u"n").toLongLong();
            const InboxState state = statusValue.isValid() ? m_mapping.stateOf(status) : InboxState::Unknown;
            perConsumer[name][size_t(state)] += n;
            board.totals[size_t(state)] += n;
            const QString label = statusValue.isValid() ? status : u"NULL"_s;
            if (state == InboxState::Unknown && !unmapped.contains(label))
                unmapped << label;
            // Only real values can be sought by equality later.
            if (!m_consumer.isEmpty() && consumerValue.isValid() && !m_consumers.contains(name))
                m_consumers << name;
            if (statusValue.isValid() && state != InboxState::Completed && !m_openStatuses.contains(status))
                m_openStatuses << status;
            if (board.hasAttempts) {
                const char16_t *const columns[InboxBoard::AttemptBuckets] = {u"a1", u"a2", u"a3", u"a4",
                                                                             u"a6"};
                for (int b = 0; b < InboxBoard::AttemptBuckets; ++b)
                    board.attemptsHistogram[size_t(b)] +=
                        r.value(int(row), QStringView(columns[b])).toLongLong();
            }
        }
        for (auto it = perConsumer.cbegin(); it != perConsumer.cend(); ++it)
            board.consumers.append({it.key(), it.value()});
        std::sort(unmapped.begin(), unmapped.end());
        std::sort(m_consumers.begin(), m_consumers.end());
        std::sort(m_openStatuses.begin(), m_openStatuses.end());
        board.unmappedStatuses = unmapped;
        return true;
    }

    // Failed-retryable rows at the consumer's retry limit (InboxMapping::isExhausted): one seek per (consumer,
    // failed-retryable word) on the board index, the attempts compared on the rows of that range only.
    bool readExhausted(InboxBoard &board)
    {
        const QStringList words = m_mapping.statusesFor(InboxState::FailedRetryable);
        if (!board.hasAttempts || m_mapping.exhaustedAfterAttempts <= 0 || words.isEmpty())
            return true;
        board.hasExhausted = true;
        board.exhaustedAfterAttempts = m_mapping.exhaustedAfterAttempts;
        if (board.total(InboxState::FailedRetryable) == 0 || (!m_consumer.isEmpty() && m_consumers.isEmpty()))
            return true;
        const QString consumer = m_consumer.isEmpty() ? u"''::text"_s : u"c.consumer"_s;
        const QString attempts = u"t."_s + m_db.escapeIdentifier(m_mapping.attemptsColumn);
        QVariantList params = seekParams(words);
        params << m_mapping.exhaustedAfterAttempts;
        if (m_large) {
            // A huge table: each range's attempts read from the index when it has them, else estimated, never
            // every failed row's visit to the table (ARCHITECTURE.md, Performance notes).
            const std::optional<InboxIndexRequirement> need = exhaustedIndex(m_mapping, m_dominant);
            if (!need || !serves(m_tableIndexes, *need))
                return sampleExhausted(board, consumer, attempts, params);
        }
        // With the dominant word left out as in the exact counts, so the open-rows index on (consumer, status,
        // attempts) serves ($n+1 is that word, no failed-retryable one: exhaustedIndex()).
        QString sql = u"SELECT "_s + consumer + u" AS consumer, sum(x.n)::bigint AS n FROM "_s + seekSource()
                      + u" CROSS JOIN LATERAL (SELECT count(*) AS n FROM "_s + m_table + u" AS t WHERE "_s
                      + seekCondition() + u" AND "_s + attempts + u" >= "_s + nextParam() + u"::int"_s;
        if (m_large && !m_dominantSeen.isEmpty()) {
            sql += u" AND t."_s + m_status + u" <> $"_s + QString::number(params.size() + 1);
            params << m_dominantSeen;
        }
        sql += u") AS x GROUP BY 1"_s;
        const PgResult r = run(board, u"exhausted retries"_s, sql, params);
        if (!r.ok)
            return false;
        for (qsizetype row = 0; row < r.rows.size(); ++row) {
            const QString name =
                m_consumer.isEmpty() ? m_mapping.consumerLabel() : r.value(int(row), u"consumer").toString();
            for (InboxConsumerCounts &c : board.consumers) {
                if (c.consumer == name)
                    c.exhausted = r.value(int(row), u"n").toLongLong();
            }
        }
        return true;
    }

    // A huge table without the attempts index: per (consumer, failed-retryable word), the share of its latest
    // rows (newest first, from the board index; a bounded number of visits to the table) at the limit, times
    // the range's exact count. A range no longer than its sample is read whole: exact.
    bool sampleExhausted(InboxBoard &board, const QString &consumer, const QString &attempts, const QVariantList &params)
    {
        const QStringList words = m_mapping.statusesFor(InboxState::FailedRetryable);
        const qsizetype pairs = std::max<qsizetype>(1, std::max<qsizetype>(1, m_consumers.size()) * words.size());
        const qsizetype perPair = std::max<qsizetype>(InboxBoardQuery::ErrorSampleMinPerState,
                                                      InboxBoardQuery::ExhaustedSampleRows / pairs);
        const QString sql = u"SELECT "_s + consumer + u" AS consumer, s.status, x.sampled, x.exhausted FROM "_s
                            + seekSource() + u" CROSS JOIN LATERAL (SELECT count(*) AS sampled, count(*) FILTER "
                            u"(WHERE y.a >= "_s + nextParam() + u"::int) AS exhausted FROM (SELECT "_s + attempts
                            + u" AS a FROM "_s + m_table + u" AS t WHERE "_s + seekCondition() + u" ORDER BY t."_s
                            + m_updated + u" DESC LIMIT "_s + QString::number(perPair) + u") AS y) AS x"_s;
        const PgResult r = run(board, u"exhausted retries (sample)"_s, sql, params);
        if (!r.ok)
            return false;
        // Each range's exact count, from the counts (a failed-retryable word is never the estimated one here;
        // if it were, the consumer's estimated count of the state stands in).
        QHash<QString, qint64> exact; // consumer + '\n' + status -> rows
        for (const QVariantList &row : std::as_const(m_countRows))
            exact.insert(row.value(0).toString() + u'\n' + row.value(1).toString(), row.value(2).toLongLong());
        QHash<QString, double> perConsumer;
        for (const QVariantList &row : r.rows) {
            const QString key = row.value(0).toString();
            const qint64 sampled = row.value(2).toLongLong();
            const qint64 atLimit = row.value(3).toLongLong();
            const QString name = m_consumer.isEmpty() ? m_mapping.consumerLabel() : key;
            qint64 rows = exact.value(key + u'\n' + row.value(1).toString(), -1);
            if (rows < 0) {
                rows = 0;
                for (const InboxConsumerCounts &c : std::as_const(board.consumers)) {
                    if (c.consumer == name)
                        rows = c.count(InboxState::FailedRetryable);
                }
            }
            if (sampled == 0)
                continue;
            if (sampled < rows)
                board.exhaustedEstimated = true;
            perConsumer[name] += sampled >= rows ? double(atLimit) : double(rows) * double(atLimit) / double(sampled);
        }
        for (InboxConsumerCounts &c : board.consumers)
            c.exhausted = qint64(perConsumer.value(c.consumer) + 0.5);
        return true;
    }

    // The distinct (consumer, status) pairs by a walk over the board index: one probe per pair, however
    // many rows each has. Without a consumer column (or with consumerValue) only the statuses are walked.
    bool walkPairs(InboxBoard &board, QStringList *consumers, QStringList *statuses)
    {
        const QString t = m_table;
        const QString st = m_status;
        QString sql;
        QVariantList params;
        if (!m_consumer.isEmpty() && !m_mapping.filtersConsumer()) {
            const QString c = m_consumer;
            sql = u"WITH RECURSIVE w(c, s) AS ((SELECT "_s + c + u", "_s + st + u" FROM "_s + t + u" WHERE "_s + c
                  + u" IS NOT NULL AND "_s + st + u" IS NOT NULL ORDER BY 1, 2 LIMIT 1) UNION ALL SELECT x.c, x.s "
                  u"FROM w CROSS JOIN LATERAL (SELECT "_s + c + u" AS c, "_s + st + u" AS s FROM "_s + t + u" WHERE ("_s
                  + c + u", "_s + st + u") > (w.c, w.s) AND "_s + st + u" IS NOT NULL ORDER BY 1, 2 LIMIT 1) AS x) "
                  u"SELECT c::text, s::text FROM w"_s;
        } else {
            const QString scope = m_mapping.filtersConsumer() ? m_consumer + u"::text = $1 AND "_s : QString();
            if (m_mapping.filtersConsumer())
                params << m_mapping.consumerValue;
            sql = u"WITH RECURSIVE w(s) AS ((SELECT "_s + st + u" FROM "_s + t + u" WHERE "_s + scope + st
                  + u" IS NOT NULL ORDER BY 1 LIMIT 1) UNION ALL SELECT (SELECT "_s + st + u" FROM "_s + t + u" WHERE "_s
                  + scope + st + u" > w.s ORDER BY 1 LIMIT 1) FROM w WHERE w.s IS NOT NULL) "
                  u"SELECT ''::text, s::text FROM w WHERE s IS NOT NULL"_s;
        }
        const PgResult r = run(board, u"state walk"_s, sql, params);
        if (!r.ok)
            return false;
        for (const QVariantList &row : r.rows) {
            *consumers << (m_consumer.isEmpty() ? QString() : m_mapping.filtersConsumer() ? m_mapping.consumerValue
                                                                                           : row.value(0).toString());
            *statuses << row.value(1).toString();
        }
        return true;
    }

    // The catalogue's most common values of the status and consumer columns with their shares of the
    // table (pg_stats), read once: a value not listed has no known share.
    bool readFrequencies(InboxBoard &board)
    {
        // Names as values, so the view's own indexes on pg_statistic answer.
        const PgResult r = run(board, u"statistics"_s,
                               u"SELECT p.attname::text, m.v, m.f FROM pg_stats AS p, "
                               u"unnest(p.most_common_vals::text::text[], p.most_common_freqs) AS m(v, f) "
                               u"WHERE p.schemaname = $1 AND p.tablename = $2 AND p.attname IN ($3, $4)"_s,
                               {m_schemaName, m_relationName, m_mapping.statusColumn, m_mapping.consumerColumn});
        if (!r.ok)
            return false;
        for (const QVariantList &row : r.rows)
            m_frequencies[row.value(0).toString()].insert(row.value(1).toString(), row.value(2).toDouble());
        // The dominant word: the most common status, when it holds at least half the table.
        const QHash<QString, double> statuses = m_frequencies.value(m_mapping.statusColumn);
        for (auto it = statuses.cbegin(); it != statuses.cend(); ++it) {
            if (it.value() >= 0.5 && it.value() > m_dominantShare) {
                m_dominant = it.key();
                m_dominantShare = it.value();
            }
        }
        return true;
    }

    double frequency(const QString &column, const QString &value) const
    {
        return m_frequencies.value(column).value(value, -1);
    }

    // A huge table's counts, begun: the pairs walked and cut into chunks, the first chunk sent to the second
    // session (or, without one, every chunk counted here), the NULL statuses and the attempts sample read.
    // finishCountsLarge() counts the rest and folds them into the board.
    bool readCountsLarge(InboxBoard &board)
    {
        if (!walkPairs(board, &m_pairConsumers, &m_pairStatuses))
            return false;
        const QStringList &consumers = m_pairConsumers;
        const QStringList &statuses = m_pairStatuses;
        // The statistics' dominant word only if the table still has it (they may be older than the rows).
        m_dominantSeen = statuses.contains(m_dominant) ? m_dominant : QString();
        const QString &dominant = m_dominantSeen;
        if (!dominant.isEmpty())
            board.estimated[size_t(m_mapping.stateOf(dominant))] = true;
        // The exact pairs in CountChunks chunks of about as many rows each (the statistics' share of each
        // word, a consumer's rows being alike): heaviest first, each to the lightest chunk. With a second
        // session, it counts the first chunk while this one reads the stuck rows and errors; then each
        // chunk goes to whichever session is free (finishCountsLarge), so neither waits on the other.
        struct Pair {
            QString consumer;
            QString status;
            double weight;
        };
        QList<Pair> pairs;
        for (qsizetype i = 0; i < statuses.size(); ++i) {
            if (statuses.at(i) != dominant)
                pairs.append({consumers.at(i), statuses.at(i),
                              std::max(0.0, frequency(m_mapping.statusColumn, statuses.at(i))) + 1e-9});
        }
        std::stable_sort(pairs.begin(), pairs.end(), [](const Pair &a, const Pair &b) { return a.weight > b.weight; });
        const bool split = m_second.take() && pairs.size() > 1;
        if (!m_second.lastError().isEmpty()) // joined by take(): said on the board, which counts on one session
            board.helperError = m_second.lastError();
        QList<double> weights(split ? std::min<qsizetype>(CountChunks, pairs.size()) : 1, 0.0);
        m_chunks = QList<QVariantList>(weights.size(), QVariantList{QStringList(), QStringList()});
        for (const Pair &pair : std::as_const(pairs)) {
            const qsizetype lightest = std::min_element(weights.cbegin(), weights.cend()) - weights.cbegin();
            weights[lightest] += pair.weight;
            QVariantList &chunk = m_chunks[lightest];
            chunk[0] = chunk[0].toStringList() << pair.consumer;
            chunk[1] = chunk[1].toStringList() << pair.status;
        }
        // Exact counts, one index-only range per pair (an aggregate in LATERAL keeps the plan per pair).
        // "<> the dominant word" changes no count (no pair here has it) but lets the planner prove the
        // open-rows partial index's predicate and count on that small index instead of the board index.
        QString where = u"t."_s + m_status + u"::text = p.s"_s;
        if (!m_consumer.isEmpty())
            where = u"t."_s + m_consumer + u"::text = p.c AND "_s + where;
        if (!dominant.isEmpty()) {
            where += u" AND t."_s + m_status + u" <> $3"_s;
            for (QVariantList &chunk : m_chunks)
                chunk << dominant;
        }
        m_countSql = u"SELECT p.c, p.s, x.n FROM unnest($1::text[], $2::text[]) AS p(c, s) CROSS JOIN "
                     u"LATERAL (SELECT count(*) AS n FROM "_s + m_table + u" AS t WHERE "_s + where + u") AS x"_s;
        m_countsSent = split && sendToSecond();
        if (!m_countsSent) {
            // One session: every chunk now (the second may also have gone away since it connected).
            for (const QVariantList &chunk : std::as_const(m_chunks)) {
                const PgResult counts = run(board, u"counts"_s, m_countSql, chunk);
                if (!counts.ok)
                    return false;
                m_countRows += counts.rows;
            }
            m_chunks.clear();
        }
        // Rows without a status (Unknown, shown as NULL), per consumer through the same index.
        QStringList distinctConsumers = consumers;
        distinctConsumers.removeDuplicates();
        const QString nullWhere = m_consumer.isEmpty() ? QString() : u"t."_s + m_consumer + u"::text = c.c AND "_s;
        const PgResult nulls = run(board, u"NULL statuses"_s,
                                   u"SELECT c.c, (SELECT count(*) FROM "_s + m_table + u" AS t WHERE "_s + nullWhere
                                       + u"t."_s + m_status + u" IS NULL) AS n FROM unnest($1::text[]) AS c(c)"_s,
                                   {m_consumer.isEmpty() ? QStringList{QString()} : distinctConsumers});
        if (!nulls.ok)
            return false;
        m_nullRows = nulls.rows;
        if (!m_consumer.isEmpty())
            m_consumers = distinctConsumers;
        for (const QString &word : std::as_const(statuses)) {
            if (m_mapping.stateOf(word) != InboxState::Completed && !m_openStatuses.contains(word))
                m_openStatuses << word;
        }
        std::sort(m_consumers.begin(), m_consumers.end());
        std::sort(m_openStatuses.begin(), m_openStatuses.end());
        return !board.hasAttempts || readAttemptsSample(board);
    }

    // The next chunk to the second session (taken off the list once sent); false when it has no session.
    bool sendToSecond()
    {
        if (!m_second.send(m_countSql, m_chunks.constFirst()))
            return false;
        m_secondChunk = m_chunks.takeFirst();
        m_countsSent = true;
        return true;
    }

    // A huge table's counts, finished: the chunks left counted on whichever session is free, all joined, the
    // dominant word estimated, the stuck count made exact.
    bool finishCountsLarge(InboxBoard &board)
    {
        // The chunks left: the next to the second session whenever it is free, else counted here.
        const auto takeSecond = [&]() {
            QElapsedTimer clock;
            clock.start();
            const PgResult counts = m_second.receive();
            qCDebug(lcInbox).noquote() << "board" << board.table << "second session's counts (waited)"
                                       << clock.nsecsElapsed() / 1000 << "us";
            m_countsSent = false;
            if (counts.ok) {
                board.countSessions = 2;
                m_countRows += counts.rows;
                return true;
            }
            if (m_second.isConnected()) {
                board.error = u"counts query on %1 failed: %2"_s.arg(board.table, counts.error);
                return false;
            }
            // The server ended the second session mid-statement: its chunk is counted here, nothing lost,
            // and the next refresh connects it anew.
            board.helperError = counts.error;
            const PgResult again = run(board, u"counts"_s, m_countSql, m_secondChunk);
            m_countRows += again.rows;
            return again.ok;
        };
        while (!m_chunks.isEmpty()) {
            if (m_second.isFree()) {
                if (!takeSecond())
                    return false;
                if (sendToSecond())
                    continue;
            }
            const PgResult counts = run(board, u"counts"_s, m_countSql, m_chunks.takeLast());
            if (!counts.ok)
                return false;
            m_countRows += counts.rows;
        }
        if (m_countsSent && !takeSecond())
            return false;
        const QString &dominant = m_dominantSeen;
        QMap<QString, InboxStateCounts> perConsumer;
        QHash<QString, qint64> exactPerConsumer; // every exactly counted row, by consumer
        for (const QVariantList &row : std::as_const(m_countRows)) {
            const QString name = m_consumer.isEmpty() ? m_mapping.consumerLabel() : row.value(0).toString();
            const InboxState state = m_mapping.stateOf(row.value(1).toString());
            const qint64 n = row.value(2).toLongLong();
            perConsumer[name][size_t(state)] += n;
            board.totals[size_t(state)] += n;
            exactPerConsumer[name] += n;
            if (state == InboxState::Unknown && !board.unmappedStatuses.contains(row.value(1).toString()))
                board.unmappedStatuses << row.value(1).toString();
        }
        for (const QVariantList &row : std::as_const(m_nullRows)) {
            const qint64 n = row.value(1).toLongLong();
            if (n == 0)
                continue;
            const QString name = m_consumer.isEmpty() ? m_mapping.consumerLabel() : row.value(0).toString();
            perConsumer[name][size_t(InboxState::Unknown)] += n;
            board.totals[size_t(InboxState::Unknown)] += n;
            exactPerConsumer[name] += n;
            if (!board.unmappedStatuses.contains(u"NULL"_s))
                board.unmappedStatuses << u"NULL"_s;
        }
        // The dominant word's rows, estimated: a consumer's share of the table's rows (the catalogue's
        // estimate and the statistics' share) minus its rows counted exactly. A consumer whose share the
        // statistics do not list gets an equal part of what the known shares leave.
        if (!dominant.isEmpty()) {
            const InboxState state = m_mapping.stateOf(dominant);
            QStringList owners; // consumers that have the dominant word
            for (qsizetype i = 0; i < m_pairStatuses.size(); ++i) {
                if (m_pairStatuses.at(i) == dominant)
                    owners << (m_consumer.isEmpty() ? m_mapping.consumerLabel() : m_pairConsumers.at(i));
            }
            // Without a consumer column every row is the one consumer's: its share is the whole table.
            const auto shareOf = [this](const QString &owner) {
                return m_consumer.isEmpty() ? 1.0 : frequency(m_mapping.consumerColumn, owner);
            };
            double knownShare = 0;
            int unknownOwners = 0;
            for (const QString &owner : std::as_const(owners)) {
                if (const double f = shareOf(owner); f >= 0)
                    knownShare += f;
                else
                    ++unknownOwners;
            }
            const double rows = double(board.estimatedRows);
            for (const QString &owner : std::as_const(owners)) {
                const double f = shareOf(owner);
                // Unknown share: the word's share of what the listed consumers leave, split evenly.
                const qint64 n = f >= 0 ? std::max<qint64>(0, qint64(rows * f + 0.5) - exactPerConsumer.value(owner))
                                        : qint64(rows * m_dominantShare * std::max(0.0, 1.0 - knownShare)
                                                     / double(unknownOwners) + 0.5);
                perConsumer[owner][size_t(state)] += n;
                board.totals[size_t(state)] += n;
            }
        }
        for (auto it = perConsumer.cbegin(); it != perConsumer.cend(); ++it)
            board.consumers.append({it.key(), it.value()});
        std::sort(board.unmappedStatuses.begin(), board.unmappedStatuses.end());
        if (m_notStuck >= 0)
            board.stuckCount = std::max<qint64>(0, board.total(InboxState::InProgress) - m_notStuck);
        return true;
    }

    // The attempts histogram from a sample of the table's pages (about 5,000 rows), scaled to the table.
    bool readAttemptsSample(InboxBoard &board)
    {
        const QString a = m_db.escapeIdentifier(m_mapping.attemptsColumn);
        const double percent = std::clamp(5000.0 * 100.0 / double(std::max<qint64>(1, board.estimatedRows)), 0.001, 100.0);
        QString sql = u"SELECT count(*) FILTER (WHERE "_s + a + u" <= 1), count(*) FILTER (WHERE "_s + a
                      + u" = 2), count(*) FILTER (WHERE "_s + a + u" = 3), count(*) FILTER (WHERE "_s + a
                      + u" BETWEEN 4 AND 5), count(*) FILTER (WHERE "_s + a + u" >= 6), count(*) FROM "_s + m_table
                      + u" TABLESAMPLE SYSTEM ("_s + QString::number(percent, 'f', 4) + u')';
        QVariantList params;
        if (m_mapping.filtersConsumer()) {
            sql += u" WHERE "_s + m_consumer + u"::text = $1"_s;
            params << m_mapping.consumerValue;
        }
        const PgResult r = run(board, u"attempts sample"_s, sql, params);
        if (!r.ok)
            return false;
        const double scale = 100.0 / percent;
        for (int b = 0; b < InboxBoard::AttemptBuckets; ++b)
            board.attemptsHistogram[size_t(b)] = qint64(r.rows.value(0).value(b).toDouble() * scale + 0.5);
        board.attemptsSampled = true;
        return true;
    }

    // Per (consumer, in-progress status): the oldest row by `updated`, straight from the index; then the
    // oldest of those. No sort over the table, however large.
    bool readStuck(InboxBoard &board)
    {
        const QStringList inProgress = m_mapping.statusesFor(InboxState::InProgress);
        if (inProgress.isEmpty() || (!m_consumer.isEmpty() && m_consumers.isEmpty()))
            return true;
        // The raw column against a threshold in its own type: an index on it serves the comparison.
        const QString older = u"t."_s + m_updated + u" < "_s
                              + m_updatedTime.fromTimestamptz(u"now() - make_interval(secs => "_s + nextParam()
                                                              + u')');
        const QString firstSeen =
            m_mapping.firstSeenColumn.isEmpty()
                ? u"NULL::timestamptz"_s
                : m_firstSeenTime.asTimestamptz(u"t."_s + m_db.escapeIdentifier(m_mapping.firstSeenColumn));
        const QString consumer = m_consumer.isEmpty() ? u"''::text"_s : u"c.consumer"_s;
        const QString oldest = u"SELECT "_s + consumer
                               + u" AS consumer, x.id, x.status, x.updated, x.first_seen, "
                                 u"EXTRACT(EPOCH FROM (now() - x.updated))::float8 AS age FROM "_s
                               + seekSource() + u" CROSS JOIN LATERAL (SELECT t."_s + m_id
                               + u"::text AS id, t."_s + m_status + u"::text AS status, "_s
                               + m_updatedTime.asTimestamptz(u"t."_s + m_updated) + u" AS updated, "_s + firstSeen + u" AS first_seen FROM "_s + m_table
                               + u" AS t WHERE "_s + seekCondition() + u" AND "_s + older + u" ORDER BY t."_s
                               + m_updated + u" LIMIT 1) AS x ORDER BY x.updated LIMIT 1"_s;
        QVariantList params = seekParams(inProgress);
        params << m_mapping.stuckAfterSeconds;
        const PgResult r = run(board, u"stuck rows"_s, oldest, params);
        if (!r.ok)
            return false;
        if (!r.rows.isEmpty()) {
            board.hasStuck = true;
            board.oldestStuck.consumer =
                m_consumer.isEmpty() ? m_mapping.consumerLabel() : r.value(0, u"consumer").toString();
            board.oldestStuck.messageId = r.value(0, u"id").toString();
            board.oldestStuck.status = r.value(0, u"status").toString();
            board.oldestStuck.updatedAt = r.value(0, u"updated").toDateTime();
            board.oldestStuck.firstSeenAt = r.value(0, u"first_seen").toDateTime();
            board.oldestStuck.ageSeconds = r.value(0, u"age").toDouble();
        }
        if (m_large && !board.estimated[size_t(InboxState::InProgress)]) {
            // A huge table: its in-progress rows are already counted exactly, so the stuck ones are those
            // minus the rows that are not stuck, read from the recent end of each range (normally a few),
            // and those without an updated time.
            const QString recent = u"SELECT coalesce(sum(x.n), 0)::int8 AS n FROM "_s + seekSource()
                                   + u" CROSS JOIN LATERAL (SELECT (SELECT count(*) FROM "_s + m_table
                                   + u" AS t WHERE "_s + seekCondition() + u" AND t."_s + m_updated + u" >= "_s
                                   + m_updatedTime.fromTimestamptz(u"now() - make_interval(secs => "_s + nextParam()
                                                                   + u')')
                                   + u") + (SELECT count(*) FROM "_s + m_table + u" AS t WHERE "_s + seekCondition()
                                   + u" AND t."_s + m_updated + u" IS NULL) AS n) AS x"_s;
            const PgResult n = run(board, u"stuck count"_s, recent, params);
            if (!n.ok)
                return false;
            m_notStuck = n.value(0, u"n").toLongLong(); // subtracted once every count is in (finishCountsLarge)
            return true;
        }
        // An aggregate inside LATERAL is not flattened into a join, so the planner keeps one index range per
        // (consumer, status) instead of hashing the whole table against the lists.
        const QString count = u"SELECT coalesce(sum(x.n), 0)::int8 AS n FROM "_s + seekSource()
                              + u" CROSS JOIN LATERAL (SELECT count(*) AS n FROM "_s + m_table
                              + u" AS t WHERE "_s + seekCondition() + u" AND "_s + older + u") AS x"_s;
        const PgResult n = run(board, u"stuck count"_s, count, params);
        if (!n.ok)
            return false;
        board.stuckCount = n.value(0, u"n").toLongLong();
        return true;
    }

    // Errors of rows that are not completed (a completed row's leftover error is history, not a problem),
    // read through the same per-(consumer, status) seeks, so completed rows are never visited.
    bool readErrors(InboxBoard &board)
    {
        if (!board.hasErrors || m_openStatuses.isEmpty() || (!m_consumer.isEmpty() && m_consumers.isEmpty()))
            return true;
        const QString error = m_db.escapeIdentifier(m_mapping.errorColumn);
        // A masked message id quoted in its row's error is taken out, as the Parked view shows the error
        // (ARCHITECTURE.md, Masking): values of four characters or more, like PayloadMask's.
        QVariantList params = seekParams(m_openStatuses);
        QString err = u"t."_s + error + u"::text"_s;
        if (!m_idMaskedConsumers.isEmpty()) {
            QString masked =
                u"length(t."_s + m_id + u"::text) >= "_s + QString::number(PayloadMask::kMinVerbatim);
            if (!m_mapping.readsOneConsumer()) {
                params << QVariant(m_idMaskedConsumers);
                masked = u"c.consumer = ANY("_s + nextParam() + u"::text[]) AND "_s + masked;
            }
            err = u"CASE WHEN "_s + masked + u" THEN replace("_s + err + u", t."_s + m_id + u"::text, '"_s
                  + QLatin1StringView(PayloadMask::kMasked) + u"') ELSE "_s + err + u" END"_s;
        }
        if (m_large) {
            // A huge table: the errors of each pair's latest rows (newest first, from the index), not of
            // every open row, which could mean reading much of the table.
            board.errorsSampled = true;
            const qsizetype pairs = std::max<qsizetype>(1, std::max<qsizetype>(1, m_consumers.size()) * m_openStatuses.size());
            const qsizetype perPair = std::max<qsizetype>(InboxBoardQuery::ErrorSampleMinPerState,
                                                          InboxBoardQuery::ErrorSampleRows / pairs);
            const QString sql = u"SELECT x.err, count(*)::int8 AS n FROM "_s + seekSource()
                                + u" CROSS JOIN LATERAL (SELECT "_s + err + u" AS err FROM "_s + m_table
                                + u" AS t WHERE "_s + seekCondition() + u" ORDER BY t."_s + m_updated
                                + u" DESC LIMIT "_s + QString::number(perPair)
                                + u") AS x WHERE x.err <> '' GROUP BY x.err ORDER BY n DESC, x.err LIMIT "_s
                                + QString::number(InboxBoardQuery::TopErrorLimit);
            const PgResult r = run(board, u"top errors"_s, sql, params);
            if (!r.ok)
                return false;
            for (qsizetype row = 0; row < r.rows.size(); ++row)
                board.topErrors.append({r.value(int(row), u"err").toString(), r.value(int(row), u"n").toLongLong()});
            return true;
        }
        // Grouped inside LATERAL for the same reason as the stuck count: one index range per pair.
        const QString sql = u"SELECT x.err, sum(x.n)::int8 AS n FROM "_s + seekSource()
                            + u" CROSS JOIN LATERAL (SELECT "_s + err + u" AS err, count(*) AS n FROM "_s
                            + m_table + u" AS t WHERE "_s + seekCondition() + u" AND t."_s + error
                            + u" IS NOT NULL GROUP BY 1) AS x "_s
                              u"WHERE x.err <> '' GROUP BY x.err ORDER BY n DESC, x.err LIMIT "_s
                            + QString::number(InboxBoardQuery::TopErrorLimit);
        const PgResult r = run(board, u"top errors"_s, sql, params);
        if (!r.ok)
            return false;
        for (qsizetype row = 0; row < r.rows.size(); ++row)
            board.topErrors.append(
                {r.value(int(row), u"err").toString(), r.value(int(row), u"n").toLongLong()});
        return true;
    }

    QList<InboxIndexRequirement> requirements() const
    {
        return InboxBoardQuery::indexRequirements(m_mapping, m_large ? m_dominant : QString());
    }

public:
    // Adds to board.missingIndexes a line for each requirement no valid index serves, with the CREATE INDEX
    // that does; also the key look-ups' and the Parked tab's check (InboxBoardQuery::missingIndexes), which
    // may reuse a reading of the catalogue (reuse: IndexCatalogue).
    bool checkIndexes(InboxBoard &board, const QList<InboxIndexRequirement> &requirements, bool reuse = false)
    {
        if (m_isView)
            return true; // a view has no indexes of its own: its tables' indexes decide
        QHash<QString, IndexCatalogue::Reading> tables; // escaped table -> its indexes, each table read once
        for (const InboxIndexRequirement &need : requirements) {
            const bool outbox = !need.partialLeadingColumns.isEmpty();
            const bool openRows = !need.excludedStatus.isEmpty();
            const QString escapedTable =
                outbox ? qualified(m_mapping.outbox.schema, m_mapping.outbox.table) : m_table;
            if (!tables.contains(escapedTable) && !readIndexes(board, escapedTable, reuse, &tables[escapedTable]))
                return false;
            // A reused reading that lacks the index is read again: one created since is seen at once.
            if (!serves(tables[escapedTable].indexes, need) && tables[escapedTable].reused
                && !readIndexes(board, escapedTable, false, &tables[escapedTable]))
                return false;
            if (!outbox)
                m_tableIndexes = tables[escapedTable].indexes;
            if (serves(tables[escapedTable].indexes, need))
                continue;
            if (!outbox && !openRows && need.includedColumns.isEmpty() && need.keptStatuses.isEmpty())
                m_boardIndexMissing = true;
            // The word as pg_get_expr writes it in a predicate: "(status <> 'completed'::text)".
            const QString excludedLiteral = sqlLiteral(need.excludedStatus);
            QStringList escaped;
            for (const QString &column : need.leadingColumns)
                escaped << m_db.escapeIdentifier(column);
            QStringList included;
            for (const QString &column : need.includedColumns)
                included << m_db.escapeIdentifier(column);
            const QString where = openRows ? u" WHERE %1 <> %2"_s.arg(m_status, excludedLiteral)
                                  : included.isEmpty() ? QString()
                                                       : u" INCLUDE (%1)"_s.arg(included.join(u", "_s));
            board.missingIndexes << u"%1 (%2)%3 for %4 \u2014 CREATE INDEX ON %5 (%6)%7"_s.arg(
                need.table, need.leadingColumns.join(u", "_s),
                openRows ? u" WHERE %1 <> %2"_s.arg(m_mapping.statusColumn, excludedLiteral)
                : need.includedColumns.isEmpty() ? QString()
                                                 : u" INCLUDE (%1)"_s.arg(need.includedColumns.join(u", "_s)),
                need.purpose, escapedTable, escaped.join(u", "_s), where);
        }
        return true;
    }

private:
    static QString sqlLiteral(const QString &word) { return u"'"_s + QString(word).replace(u"'"_s, u"''"_s) + u"'"_s; }

    // One table's valid indexes: from the cache when reuse allows and it holds a reading younger than the
    // board's clock, else from pg_index (and then cached).
    bool readIndexes(InboxBoard &board, const QString &escapedTable, bool reuse, IndexCatalogue::Reading *out)
    {
        const QString key = m_db.serverIdentity() + u'\n' + escapedTable;
        if (reuse) {
            if (std::optional<IndexCatalogue::Indexes> cached = IndexCatalogue::find(key)) {
                *out = {std::move(*cached), true};
                return true;
            }
        }
        // The escaped name is a value here: to_regclass parses it, nothing is spliced into SQL.
        const PgResult r = run(board, u"index check"_s,
                               u"SELECT i.indexrelid::text AS index_id, i.indpred IS NOT NULL AS partial, "
                               u"coalesce(pg_get_expr(i.indpred, i.indrelid), '') AS predicate, k.ord, a.attname::text "
                               u"AS column, k.ord <= i.indnkeyatts AS is_key "
                               u"FROM pg_index AS i "
                               u"CROSS JOIN LATERAL unnest(i.indkey::int2[]) WITH ORDINALITY AS k(attnum, ord) "
                               u"LEFT JOIN pg_attribute AS a ON a.attrelid = i.indrelid AND a.attnum = k.attnum "
                               u"WHERE i.indrelid = to_regclass($1) AND i.indisvalid "
                               u"ORDER BY 1, 4"_s,
                               {escapedTable});
        if (!r.ok)
            return false;
        IndexCatalogue::Indexes read;
        for (qsizetype row = 0; row < r.rows.size(); ++row) {
            IndexCatalogue::Index &index = read[r.value(int(row), u"index_id").toString()];
            index.partial = r.value(int(row), u"partial").toBool();
            index.predicate = r.value(int(row), u"predicate").toString();
            const QVariant column = r.value(int(row), u"column");
            // An expression has no name: it serves no requirement.
            (r.value(int(row), u"is_key").toBool() ? index.columns : index.included)
                << (column.isValid() ? column.toString() : QString());
        }
        IndexCatalogue::store(key, read);
        *out = {std::move(read), false};
        return true;
    }

    // Whether one of a table's indexes serves a requirement.
    bool serves(const IndexCatalogue::Indexes &indexes, const InboxIndexRequirement &need) const
    {
        const bool outbox = !need.partialLeadingColumns.isEmpty();
        const bool openRows = !need.excludedStatus.isEmpty();
        const bool keeps = !need.keptStatuses.isEmpty();
        const auto startsWith = [](const QStringList &columns, const QStringList &leading) {
            return !leading.isEmpty() && columns.size() >= leading.size() && columns.mid(0, leading.size()) == leading;
        };
        const auto covers = [&need](const IndexCatalogue::Index &index) {
            for (const QString &column : need.includedColumns) {
                if (!index.columns.contains(column) && !index.included.contains(column))
                    return false;
            }
            return true;
        };
        // "status <> ..." on the mapping's status column: a partial index without some word's rows.
        const auto leavesOutAWord = [this](const IndexCatalogue::Index &index) {
            return index.partial && index.predicate.contains(m_mapping.statusColumn) && index.predicate.contains(u"<>"_s);
        };
        for (const IndexCatalogue::Index &index : indexes) {
            if (!index.partial && (!openRows || need.wholeIndexServes) && !keeps
                && (startsWith(index.columns, need.leadingColumns)
                    || startsWith(index.columns, need.alternativeLeadingColumns))
                && covers(index))
                return true;
            // The open-rows index: partial, without the dominant word's rows.
            if (openRows && leavesOutAWord(index) && startsWith(index.columns, need.leadingColumns)
                && index.predicate.contains(sqlLiteral(need.excludedStatus)))
                return true;
            // A partial index that leaves out a word but none of the words asked for.
            if (keeps && leavesOutAWord(index) && startsWith(index.columns, need.leadingColumns)
                && std::none_of(need.keptStatuses.cbegin(), need.keptStatuses.cend(), [&index](const QString &word) {
                       return index.predicate.contains(sqlLiteral(word));
                   }))
                return true;
            // A partial index is only as good as its predicate: it must select the pending rows.
            if (index.partial && outbox && startsWith(index.columns, need.partialLeadingColumns)
                && index.predicate.contains(m_mapping.outbox.statusColumn)
                && index.predicate.contains(m_mapping.outbox.pendingStatus))
                return true;
        }
        return false;
    }

    void readOutbox(InboxBoard &board)
    {
        const OutboxMapping &o = m_mapping.outbox;
        if (!o.isConfigured())
            return;
        QString error;
        const InboxTableInfo info = InboxTableInfo::read(m_db, o.schema, o.table, &error);
        if (!error.isEmpty() || !info.exists || !info.canSelect || !info.types.contains(o.createdColumn)
            || !info.types.contains(o.statusColumn)) {
            board.outboxError = !error.isEmpty() ? u"outbox catalogue query on %1 failed: %2"_s.arg(board.outboxTable, error)
                                : !info.exists   ? u"outbox %1 does not exist in this database"_s.arg(board.outboxTable)
                                : !info.canSelect
                                    ? u"no SELECT permission on the outbox %1"_s.arg(board.outboxTable)
                                    : u"outbox %1: column \u201c%2\u201d does not exist"_s.arg(
                                          board.outboxTable, info.types.contains(o.createdColumn)
                                                                 ? o.statusColumn
                                                                 : o.createdColumn);
            return;
        }
        const InboxTimeSql time{InboxTableInfo::timeKindOf(info.types.value(o.createdColumn))};
        if (time.kind == InboxTimeKind::Unsupported) {
            board.outboxError = u"the outbox's created column \u201c%1\u201d is %2, not a timestamp"_s.arg(
                o.createdColumn, info.types.value(o.createdColumn));
            return;
        }
        const QString created = time.asTimestamptz(u"min("_s + m_db.escapeIdentifier(o.createdColumn) + u')');
        const QString sql = u"SELECT count(*) AS pending, EXTRACT(EPOCH FROM (now() - "_s + created
                            + u"))::float8 AS oldest FROM "_s + qualified(o.schema, o.table) + u" WHERE "_s
                            + m_db.escapeIdentifier(o.statusColumn) + u"::text = $1"_s;
        const PgResult r = m_db.exec(sql, {o.pendingStatus});
        if (!r.ok) {
            board.outboxError = u"outbox query on %1 failed: %2"_s.arg(board.outboxTable, r.error);
            return;
        }
        board.outbox.pending = r.value(0, u"pending").toLongLong();
        const QVariant oldest = r.value(0, u"oldest");
        board.outbox.oldestPendingAgeSeconds = oldest.isValid() ? oldest.toDouble() : -1;
    }

    PgSession &m_db;
    const InboxMapping &m_mapping;
    const JobControl &m_control;
    QString m_table;
    QString m_status;
    QString m_updated;
    QString m_id;
    QString m_consumer; // empty: the mapping has no consumer column
    QStringList m_consumers;
    QStringList m_idMaskedConsumers; // whose rows' errors are counted with their ids taken out
    QStringList m_openStatuses; // seen statuses that are not completed
    bool m_isView = false;
    bool m_large = false;
    InboxBoardHelperSession &m_second; // a huge table's: part of the exact counts (startSecondSession)
    QVariantList m_secondChunk;  // the chunk the second session is counting
    QStringList m_pairConsumers; // a huge table's walked (consumer, status) pairs
    QStringList m_pairStatuses;
    QString m_dominantSeen;      // m_dominant when the walk found it, else empty
    bool m_countsSent = false;   // the second session is counting a chunk
    QString m_countSql;          // a huge table's exact counts of one chunk of (consumer, status) pairs
    QList<QVariantList> m_chunks; // the chunks not yet counted: each the count's parameters
    QList<QVariantList> m_countRows; // (consumer, status, n) counted exactly
    QList<QVariantList> m_nullRows;  // (consumer, n) of NULL statuses
    qint64 m_notStuck = -1;      // a huge table's in-progress rows not yet stuck; -1: not read
    bool m_boardIndexMissing = false; // no index on ([consumer,] status, updated): a huge table is not read
    QString m_schemaName;   // as the catalogue names it (the search_path resolved)
    QString m_relationName;
    QHash<QString, QHash<QString, double>> m_frequencies; // column -> value -> share of the table
    IndexCatalogue::Indexes m_tableIndexes; // the inbox table's valid indexes, as the index check read them
    QString m_dominant;          // a huge table's most common status word (at least half the rows), else empty
    double m_dominantShare = 0;  // its share of the table, from the statistics
    InboxTimeSql m_updatedTime;
    InboxTimeSql m_firstSeenTime;
};

InboxBoard emptyBoard(const InboxMapping &mapping)
{
    InboxBoard board;
    board.mappingName = mapping.name;
    board.table = mapping.qualifiedTable();
    board.stuckAfterSeconds = mapping.stuckAfterSeconds;
    board.hasAttempts = !mapping.attemptsColumn.isEmpty();
    board.hasErrors = !mapping.errorColumn.isEmpty();
    board.hasOutbox = mapping.outbox.isConfigured();
    if (board.hasOutbox)
        board.outboxTable = displayTable(mapping.outbox.schema, mapping.outbox.table);
    return board;
}

// A failed board keeps its labels (which mapping, which table) but none of a half-read result.
InboxBoard failedBoard(const InboxMapping &mapping, const QString &error, qint64 elapsedMs)
{
    InboxBoard board = emptyBoard(mapping);
    board.error = error;
    board.elapsedMs = elapsedMs;
    return board;
}
} // namespace

InboxBoardQuery::InboxBoardQuery(QObject *parent)
    : QObject(parent)
    , m_jobs(this)
    , m_helper(std::make_shared<InboxBoardHelperSession>())
{
    qRegisterMetaType<InboxBoard>();
    qRegisterMetaType<InboxMapping>();
}

InboxBoardQuery::~InboxBoardQuery() = default;

void InboxBoardQuery::setConninfo(const QString &conninfo)
{
    m_conninfo = conninfo;
}

void InboxBoardQuery::refresh(const InboxMapping &mapping)
{
    const QString conninfo = m_conninfo;
    const int timeoutMs = m_statementTimeoutMs;
    m_jobs.start([conninfo, mapping, timeoutMs, helper = m_helper](const JobControl &control) {
                     return collect(conninfo, mapping, control, timeoutMs, nullptr, helper.get());
                 },
                 [this](InboxBoard board) { Q_EMIT boardReady(board); });
}

InboxBoard InboxBoardQuery::collect(const QString &conninfo, const InboxMapping &mapping,
                                    const JobControl &control, int statementTimeoutMs,
                                    PgStatementCanceller *canceller, InboxBoardHelperSession *helper,
                                    const KeyMask &mask)
{
    QElapsedTimer clock;
    clock.start();
    const QString problem = mapping.validate();
    if (!problem.isEmpty())
        return failedBoard(mapping, u"mapping \u201c%1\u201d: %2"_s.arg(mapping.name, problem),
                           clock.elapsed());
    if (conninfo.isEmpty())
        return failedBoard(mapping, u"no inbox database is configured"_s, clock.elapsed());
    PgSession session;
    QString error;
    if (!session.connect(conninfo, &error))
        return failedBoard(mapping, u"cannot connect to the inbox database: %1"_s.arg(error),
                           clock.elapsed());
    if (canceller)
        canceller->arm(session);
    InboxBoard board =
        canceller && canceller->isCancelled()
            ? failedBoard(mapping, u"cancelled"_s, clock.elapsed())
            : collect(session, mapping, control, statementTimeoutMs, helper, mask);
    if (canceller)
        canceller->disarm();
    board.elapsedMs = clock.elapsed();
    return board;
}

InboxBoard InboxBoardQuery::collect(PgSession &session, const InboxMapping &mapping,
                                    const JobControl &control, int statementTimeoutMs,
                                    InboxBoardHelperSession *helper, const KeyMask &mask)
{
    QElapsedTimer clock;
    clock.start();
    const QString problem = mapping.validate();
    if (!problem.isEmpty())
        return failedBoard(mapping, u"mapping \u201c%1\u201d: %2"_s.arg(mapping.name, problem),
                           clock.elapsed());
    InboxBoard board = emptyBoard(mapping);
    {
        // The caller's helper, kept connected across its refreshes; a one-shot one when there is none or an
        // older refresh of the same board still holds it.
        InboxBoardHelperSession oneShot;
        const bool shared = helper && helper->tryAcquire();
        InboxBoardHelperSession &second = shared ? *helper : oneShot;
        BoardReader reader(session, mapping, control, second);
        reader.setIdMaskedConsumers(mask.idMaskedConsumersOf(mapping));
        reader.read(board, statementTimeoutMs);
        second.finish();
        if (shared)
            helper->release();
    }
    if (!board.ok()) {
        // Leave the session usable for the caller: a failed statement aborted the transaction.
        session.exec(u"ROLLBACK"_s);
        return failedBoard(mapping, board.error, clock.elapsed());
    }
    board.elapsedMs = clock.elapsed();
    return board.masked(mask);
}

bool InboxBoardQuery::missingIndexes(PgSession &session, const InboxMapping &mapping,
                                     const QList<InboxIndexRequirement> &requirements, QStringList *missing,
                                     QString *error)
{
    const JobControl control;
    InboxBoardHelperSession unused; // the check reads on this session alone
    BoardReader reader(session, mapping, control, unused);
    InboxBoard board;
    board.table = mapping.qualifiedTable();
    const bool ok = reader.checkIndexes(board, requirements, true);
    if (missing)
        *missing = board.missingIndexes;
    if (!ok && error)
        *error = board.error;
    return ok;
}

InboxIndexRequirement InboxBoardQuery::keyIndexRequirement(const InboxMapping &mapping)
{
    // The key look-ups (the DLQ inbox column, the accounting's inbox join) read the status, consumer and
    // updated time of each key: with them in the key's index, a probe never visits the table.
    InboxIndexRequirement key;
    key.table = mapping.qualifiedTable();
    key.leadingColumns << mapping.messageIdColumn;
    key.includedColumns << mapping.statusColumn;
    if (!mapping.consumerColumn.isEmpty())
        key.includedColumns << mapping.consumerColumn;
    key.includedColumns << mapping.updatedColumn;
    if (mapping.filtersConsumer()) // the probe states the consumer too
        key.alternativeLeadingColumns = {mapping.consumerColumn, mapping.messageIdColumn};
    key.purpose = u"index-only key look-ups on a table this large"_s;
    return key;
}

QList<InboxIndexRequirement> InboxBoardQuery::indexRequirements(const InboxMapping &mapping,
                                                                const QString &dominantStatus)
{
    QList<InboxIndexRequirement> out;
    InboxIndexRequirement inbox;
    inbox.table = mapping.qualifiedTable();
    if (!mapping.consumerColumn.isEmpty())
        inbox.leadingColumns << mapping.consumerColumn;
    inbox.leadingColumns << mapping.statusColumn << mapping.updatedColumn;
    inbox.purpose = u"the state counts, stuck rows and top errors"_s;
    out << inbox;
    if (!dominantStatus.isEmpty()) {
        // Small, and compact (btree deduplication: few distinct keys): the exact counts of every other word
        // are index-only ranges on it, never on the dominant word's rows.
        InboxIndexRequirement open;
        open.table = inbox.table;
        if (!mapping.consumerColumn.isEmpty())
            open.leadingColumns << mapping.consumerColumn;
        open.leadingColumns << mapping.statusColumn;
        open.excludedStatus = dominantStatus;
        open.purpose = u"the exact counts of every state but \u201c%1\u201d on a table this large"_s.arg(dominantStatus);
        out << open;
        // The Parked tab's first page on a table this large: one range in time order (InboxRowsQuery).
        InboxIndexRequirement byTime;
        byTime.table = inbox.table;
        byTime.leadingColumns = {mapping.updatedColumn, mapping.statusColumn};
        byTime.excludedStatus = dominantStatus;
        byTime.purpose = u"the Parked tab's rows in time order on a table this large"_s;
        out << byTime;
        out << keyIndexRequirement(mapping);
        if (const std::optional<InboxIndexRequirement> exhausted = exhaustedIndex(mapping, dominantStatus))
            out << *exhausted;
    }
    if (mapping.outbox.isConfigured()) {
        InboxIndexRequirement outbox;
        outbox.table = displayTable(mapping.outbox.schema, mapping.outbox.table);
        outbox.leadingColumns = {mapping.outbox.statusColumn, mapping.outbox.createdColumn};
        outbox.partialLeadingColumns = {mapping.outbox.createdColumn};
        outbox.purpose = u"the outbox backlog (or a partial index on %1 WHERE %2 = '%3')"_s.arg(
            mapping.outbox.createdColumn, mapping.outbox.statusColumn, mapping.outbox.pendingStatus);
        out << outbox;
    }
    return out;
}
