#include "services/accounting/inboxkeystage.h"

#include "services/inbox/inboxkeylookup.h"
#include "services/inbox/inboxsessions.h"
#include "services/inbox/inboxtableinfo.h"
#include "services/inbox/pgsession.h"

using namespace Qt::StringLiterals;

InboxKeyStage::InboxKeyStage(const InboxMappingSet &set, const InboxMapping &mapping)
    : m_mapping(mapping)
    , m_sessions(std::make_unique<InboxSessions>(set))
{
}

InboxKeyStage::~InboxKeyStage()
{
    {
        const std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
    if (m_thread.joinable())
        m_thread.join();
}

bool InboxKeyStage::open(QString *error)
{
    // The look-up skips a mapping it cannot use: say so here rather than count every record as lost.
    if (const QString invalid = m_mapping.validate(); !invalid.isEmpty()) {
        *error = u"The inbox mapping of %1 cannot be used: %2"_s.arg(m_mapping.name, invalid);
        return false;
    }
    QString problem;
    PgSession *db = m_sessions->sessionFor(m_mapping, &problem);
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
    m_thread = std::thread([this] { loop(); });
    return true;
}

void InboxKeyStage::enqueue(std::vector<quint32> ids, const std::vector<QByteArray> &keys)
{
    Batch batch;
    batch.keys.reserve(qsizetype(ids.size()));
    for (const quint32 id : ids)
        batch.keys.append(QString::fromUtf8(keys[id]));
    batch.ids = std::move(ids);
    {
        const std::lock_guard lock(m_mutex);
        m_queue.push_back(std::move(batch));
    }
    m_wake.notify_one();
}

void InboxKeyStage::loop()
{
    std::unique_lock lock(m_mutex);
    for (;;) {
        m_wake.wait(lock, [this] { return m_stop || !m_queue.empty(); });
        if (m_stop)
            return;
        Batch batch = std::move(m_queue.front());
        m_queue.pop_front();
        m_busy = true;
        lock.unlock();

        QString problem;
        InboxKeyStates found;
        if (PgSession *db = m_sessions->sessionFor(m_mapping, &problem))
            found = InboxKeyLookup::lookup(*db, {m_mapping}, batch.keys, &problem);

        lock.lock();
        m_busy = false;
        if (!problem.isEmpty()) {
            const QString said =
                u"The inbox of %1 did not answer for some keys (%2): those records are not verified"_s.arg(
                    m_mapping.name, problem);
            if (!m_answers.problems.contains(said))
                m_answers.problems << said;
            for (const quint32 id : batch.ids)
                m_answers.unanswered.insert(id);
        } else {
            for (size_t i = 0; i < batch.ids.size(); ++i) {
                const auto it = found.constFind(batch.keys[qsizetype(i)]);
                if (it != found.cend())
                    m_answers.states.insert(batch.ids[i], it->state);
            }
        }
        if (m_queue.empty())
            m_drained.notify_all();
    }
}

InboxKeyStage::Answers InboxKeyStage::finish(const std::function<bool()> &cancelled)
{
    std::unique_lock lock(m_mutex);
    while (!m_drained.wait_for(lock, std::chrono::milliseconds(100),
                               [this] { return m_queue.empty() && !m_busy; })) {
        if (cancelled && cancelled())
            break;
    }
    return std::move(m_answers);
}
