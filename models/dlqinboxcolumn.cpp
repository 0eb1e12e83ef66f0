#include "dlqinboxcolumn.h"

#include "services/dlq/stringpool.h"

#include <QCoreApplication>

void DlqInboxColumn::reset()
{
    m_marks.clear();
    m_found.clear();
    m_lastError.clear();
    m_cursor = 0;
}

void DlqInboxColumn::collect(const DlqEntryStore &store, const StringPool &strings, QList<quint32> *ids,
                             QStringList *keys)
{
    for (; m_cursor < store.size(); ++m_cursor) {
        const quint32 id = store.at(m_cursor).idempotencyKeyId;
        if (id == 0 || mark(id) != Unasked)
            continue;
        if (id >= m_marks.size())
            m_marks.resize(size_t(id) + 1 + m_marks.size() / 2, Unasked);
        m_marks[id] = Asked;
        ids->append(id);
        keys->append(strings.text(id));
    }
}

void DlqInboxColumn::apply(const InboxKeyLookupResult &result)
{
    const bool failed = !result.error.isEmpty();
    if (failed)
        m_lastError = result.error;
    for (qsizetype i = 0; i < result.ids.size(); ++i) {
        const quint32 id = result.ids[i];
        const auto hit = result.found.constFind(result.keys[i]);
        if (hit != result.found.cend())
            m_found.insert(id, *hit);
        // A failed batch may still carry answers from the tables that did respond.
        if (id < m_marks.size())
            m_marks[id] = hit != result.found.cend() || !failed ? Answered : AnswerFailed;
    }
}

DlqInboxColumn::Cell DlqInboxColumn::cell(const DlqIndexEntry &entry) const
{
    const quint32 id = entry.idempotencyKeyId;
    if (id == 0)
        return Cell::NoKey;
    switch (mark(id)) {
    case Unasked:
        return Cell::NotAsked;
    case Asked:
        return Cell::Pending;
    case AnswerFailed:
        return Cell::Failed;
    case Answered:
        break;
    }
    return m_found.contains(id) ? Cell::Found : Cell::NotFound;
}

bool DlqInboxColumn::isCompleted(const DlqIndexEntry &entry) const
{
    const auto it = m_found.constFind(entry.idempotencyKeyId);
    return it != m_found.cend() && it->state == InboxState::Completed;
}

QString DlqInboxColumn::text(const DlqIndexEntry &entry) const
{
    switch (cell(entry)) {
    case Cell::NoKey:
    case Cell::NotAsked:
        return {};
    case Cell::Pending:
        return QCoreApplication::translate("DlqInboxColumn", "looking up…");
    case Cell::Failed:
        return QCoreApplication::translate("DlqInboxColumn", "look-up failed");
    case Cell::NotFound:
        return QCoreApplication::translate("DlqInboxColumn", "not in inbox");
    case Cell::Found:
        break;
    }
    const InboxKeyState &s = *m_found.constFind(entry.idempotencyKeyId);
    const QString state = inboxStateName(s.state);
    return s.consumer.isEmpty() ? state : state + u" (" + s.consumer + u')';
}

QString DlqInboxColumn::toolTip(const DlqIndexEntry &entry) const
{
    switch (cell(entry)) {
    case Cell::NoKey:
        return QCoreApplication::translate("DlqInboxColumn", "This dead letter carries no idempotency key.");
    case Cell::NotAsked:
        return QCoreApplication::translate("DlqInboxColumn", "No inbox database is configured.");
    case Cell::Pending:
        return QCoreApplication::translate("DlqInboxColumn", "Asking the inbox database…");
    case Cell::Failed:
        return QCoreApplication::translate("DlqInboxColumn", "The inbox database did not answer: %1").arg(m_lastError);
    case Cell::NotFound:
        return QCoreApplication::translate("DlqInboxColumn",
                                           "No inbox table knows this key: the consumer never recorded it.");
    case Cell::Found:
        break;
    }
    const InboxKeyState &s = *m_found.constFind(entry.idempotencyKeyId);
    QString tip = QCoreApplication::translate("DlqInboxColumn", "%1 has this key as %2 (state: %3).")
                      .arg(s.table, s.status, inboxStateName(s.state));
    if (s.state == InboxState::Completed)
        tip += u' ' + QCoreApplication::translate("DlqInboxColumn", "A replay would be a no-op.");
    return tip;
}
