#include "services/accounting/inboxkeystage.h"

#include "services/inbox/inboxsessions.h"
#include "services/inbox/inboxtableinfo.h"
#include "services/inbox/pgsession.h"

#include <QRegularExpression>

#include <algorithm>
#include <QUtf8StringView>

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
    {
        const std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
    for (std::thread &thread : m_threads)
        thread.join();
}

bool InboxKeyStage::open(QString *error)
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
    // The key compared as the column's own type (without a length, which would truncate a longer key
    // into a false match), so each probe is an index seek; OFFSET 0 keeps the probe a parameterised
    // subquery (a nested loop), whatever the batch size.
    QString keyType = info.types.value(m_mapping.messageIdColumn);
    keyType.remove(QRegularExpression(u"\\([^)]*\\)"_s));
    QString probe = u"SELECT r."_s + db->escapeIdentifier(m_mapping.statusColumn) + u"::text AS status FROM "_s
                    + db->escapeTable(m_mapping.schema, m_mapping.table) + u" AS r WHERE r."_s
                    + db->escapeIdentifier(m_mapping.messageIdColumn) + u" = k.key::"_s + keyType;
    if (m_mapping.filtersConsumer())
        probe += u" AND r."_s + db->escapeIdentifier(m_mapping.consumerColumn) + u"::text = $2"_s;
    m_sql = (u"SELECT k.ord, t.status FROM unnest($1::text[]) WITH ORDINALITY AS k(key, ord) "_s
             u"CROSS JOIN LATERAL ("_s
             + probe + u" OFFSET 0) AS t"_s)
                .toUtf8();
    m_sessions.push_back(std::make_unique<InboxSessions>(m_set)); // connects on its first batch
    for (const std::unique_ptr<InboxSessions> &sessions : m_sessions)
        m_threads.emplace_back([this, s = sessions.get()] { loop(*s); });
    return true;
}

void InboxKeyStage::enqueue(std::vector<quint32> ids, const std::vector<QByteArray> &keys)
{
    Batch batch;
    batch.keys.reserve(ids.size());
    for (const quint32 id : ids)
        batch.keys.push_back(keys[id]);
    batch.ids = std::move(ids);
    {
        const std::lock_guard lock(m_mutex);
        m_queue.push_back(std::move(batch));
    }
    m_wake.notify_one();
}

void InboxKeyStage::loop(InboxSessions &sessions)
{
    std::unique_lock lock(m_mutex);
    for (;;) {
        m_wake.wait(lock, [this] { return m_stop || !m_queue.empty(); });
        if (m_stop)
            return;
        Batch batch = std::move(m_queue.front());
        m_queue.pop_front();
        ++m_busy;
        lock.unlock();

        // In key order (sorted here, off the reading thread): consecutive probes descend to neighbouring
        // index pages, which stay in the buffers.
        std::vector<quint32> order(batch.ids.size());
        for (quint32 i = 0; i < order.size(); ++i)
            order[i] = i;
        std::sort(order.begin(), order.end(),
                  [&batch](quint32 a, quint32 b) { return batch.keys[a] < batch.keys[b]; });
        Batch sorted;
        sorted.ids.reserve(order.size());
        sorted.keys.reserve(order.size());
        for (const quint32 i : order) {
            sorted.ids.push_back(batch.ids[i]);
            sorted.keys.push_back(std::move(batch.keys[i]));
        }
        batch = std::move(sorted);

        QString problem;
        QHash<quint32, InboxState> found;
        if (PgSession *db = sessions.sessionFor(m_mapping, &problem))
            probe(*db, batch, &found, &problem);

        lock.lock();
        --m_busy;
        if (!problem.isEmpty()) {
            const QString said =
                u"The inbox of %1 did not answer for some keys (%2): those records are not verified"_s.arg(
                    m_mapping.name, problem);
            if (!m_answers.problems.contains(said))
                m_answers.problems << said;
            for (const quint32 id : batch.ids)
                m_answers.unanswered.insert(id);
        } else {
            for (auto it = found.cbegin(); it != found.cend(); ++it)
                m_answers.states.insert(it.key(), it.value());
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
        if (cancelled && cancelled())
            break;
    }
    return std::move(m_answers);
}

bool InboxKeyStage::probe(PgSession &db, const Batch &batch, QHash<quint32, InboxState> *found, QString *problem)
{
    // The keys as one text[] literal; a key that is not UTF-8 goes in with its bad bytes replaced (it can
    // match no text key then, which is what it is: no row).
    QByteArray keys = "{";
    for (size_t i = 0; i < batch.keys.size(); ++i) {
        QByteArray key = QUtf8StringView(batch.keys[i]).isValidUtf8() ? batch.keys[i]
                                                                     : QString::fromUtf8(batch.keys[i]).toUtf8();
        if (key.contains('\\') || key.contains('"'))
            key.replace('\\', "\\\\").replace('"', "\\\"");
        if (i)
            keys += ',';
        keys += '"' + key + '"';
    }
    keys += '}';
    const QByteArray consumer = m_mapping.consumerValue.toUtf8();
    const char *values[2] = {keys.constData(), consumer.constData()};
    PGresult *res = PQexecParams(db.handle(), m_sql.constData(), m_mapping.filtersConsumer() ? 2 : 1, nullptr,
                                 values, nullptr, nullptr, 0);
    if (!res || PQresultStatus(res) != PGRES_TUPLES_OK) {
        *problem = res && PQresultErrorMessage(res)[0] ? PgSession::readableError(PQresultErrorMessage(res))
                                                       : db.lastError();
        PQclear(res);
        return false;
    }
    QHash<QByteArray, InboxState> words; // the few status words of a table, each turned into a state once
    const int rows = PQntuples(res);
    for (int row = 0; row < rows; ++row) {
        const qsizetype ord = QByteArray(PQgetvalue(res, row, 0)).toLongLong() - 1;
        if (ord < 0 || size_t(ord) >= batch.ids.size())
            continue;
        const QByteArray word(PQgetvalue(res, row, 1), PQgetlength(res, row, 1));
        auto state = words.constFind(word);
        if (state == words.cend())
            state = words.insert(word, m_mapping.stateOf(QString::fromUtf8(word)));
        const quint32 id = batch.ids[size_t(ord)];
        auto it = found->find(id);
        if (it == found->end())
            found->insert(id, *state);
        else if (*state == InboxState::Completed)
            *it = *state;
    }
    PQclear(res);
    return true;
}
