#include "replayrun.h"

#include "services/inbox/inboxsessions.h"
#include "services/inbox/pgsession.h"
#include "services/remediation/inboxremediation.h"

using namespace Qt::StringLiterals;

namespace ReplayRunDetail {
bool Run::disposeItems(QString *error)
{
    const bool remove = m_request.action == RemediationAction::Delete;
    const QString kind = remove ? u"deleted"_s : u"skipped"_s;
    QList<int> alreadyDisposed;
    if (!m_journal.disposed(&alreadyDisposed, error))
        return false;
    const QSet<int> disposed(alreadyDisposed.cbegin(), alreadyDisposed.cend());
    const QList<InboxMapping> &mappings = m_options.inboxMappings.mappings;
    // Each row in its mapping's own database; the default database is the run's inbox session.
    InboxSessions sessions(m_options.inboxMappings, m_inbox);
    const QJsonObject why{{u"reason_code"_s, m_request.reasonCode},
                          {u"reason"_s, m_request.reason},
                          {u"ticket"_s, m_request.ticket}};
    QList<int> todo;
    for (const RequestItem &item : std::as_const(m_items)) {
        const State s = m_intents.value(item.itemNo).state;
        if (s == State::None || s == State::Pending || s == State::Failed)
            todo.append(item.itemNo);
    }
    for (qsizetype pos = 0; pos < todo.size() && !m_control.isCancelled(); pos += m_options.batchSize) {
        const QList<int> batch = todo.mid(pos, m_options.batchSize);
        QList<IntentJournal::Update> journal;
        for (int no : batch) {
            if (m_intents.value(no).state == State::None)
                journal.append({no, State::Pending, {}, -1, -1, {}});
        }
        if (!m_journal.journal(journal, error))
            return false;
        for (const IntentJournal::Update &u : std::as_const(journal))
            m_intents[u.itemNo].state = State::Pending;
        QList<IntentJournal::Update> settle;
        QHash<int, QJsonObject> details;
        for (int no : batch) {
            const RequestItem &item = m_items.at(m_index.value(no));
            IntentJournal::Update u = updateOf(no, State::Skipped);
            QJsonObject d = why;
            QString failure;
            if (!item.inboxRef.isEmpty()) {
                const InboxMapping *mapping = InboxRemediation::mappingFor(item.inboxRef, mappings);
                int rows = 0;
                PgSession *db = mapping ? sessions.sessionFor(*mapping, &failure) : nullptr;
                if (!mapping) {
                    failure = u"no inbox mapping named "_s + item.inboxRef.value(u"mapping"_s).toString();
                } else if (!db) {
                    failure = u"no inbox database to act on: "_s + failure;
                } else if (remove) {
                    // The row's content goes into the disposition (and so the audit log) before it is
                    // deleted; a table Berth may not delete from (a view, no privilege) is refused first.
                    QJsonObject row;
                    if (!InboxRemediation::checkWritable(*db, *mapping, true, &failure)) {
                    } else if (!InboxRemediation::readRow(*db, *mapping, item.inboxRef, &row, &failure)) {
                    } else if (!row.isEmpty()
                               && !mapping->statusesFor(InboxState::Parked)
                                       .contains(row.value(mapping->statusColumn).toString())) {
                        // Checked before the disposition is written, so the audit never says "deleted" for a
                        // row that the DELETE below would refuse.
                        failure = u"the inbox row is not parked: not deleted"_s;
                    } else if (!disposed.contains(no)) {
                        d.insert(u"inbox_row"_s, InboxRemediation::rowForAudit(*mapping, item.inboxRef, row));
                        d.insert(u"table"_s, mapping->qualifiedTable());
                        if (!m_journal.recordDisposition(no, kind, d, error))
                            return false;
                    }
                    if (failure.isEmpty()
                        && InboxRemediation::deleteParked(*db, *mapping, item.inboxRef, &rows, &failure)
                        && rows == 0 && !row.isEmpty())
                        failure = u"the inbox row is not parked: not deleted"_s;
                } else if (InboxRemediation::markSkipped(*db, *mapping, item.inboxRef, &rows,
                                                         &failure)) {
                    d.insert(u"inbox_status"_s, mapping->skippedStatus);
                    d.insert(u"inbox_rows"_s, rows);
                }
            }
            if (!failure.isEmpty()) {
                u.state = State::Failed;
                u.error = failure;
                problem(no, failure);
            }
            details.insert(no, d);
            settle.append(u);
        }
        // Delete recorded its disposition with the row already; skip records it with the intent.
        if (!m_journal.settle(settle, remove ? QString() : kind, details, error))
            return false;
        for (const IntentJournal::Update &u : std::as_const(settle))
            m_intents[u.itemNo].state = u.state;
        report(ReplayPhase::Producing);
    }
    return true;
}

} // namespace ReplayRunDetail
