#include "replayrun.h"

#include "services/remediation/inboxremediation.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace ReplayRunDetail {
// Release and replay (ARCHITECTURE.md, Data flows: Remediation): the rows of the batch's items that carry
// a release in their inbox_ref are released right before the batch is produced, after the items' intents.
// The audit chain gets the release intent first, then what happened. Each release is conditional on the
// pinned status, so a resumed run releases nothing twice: a row already at releaseTo counts as released.
// An item whose row changed since the dry run (or cannot be released) is refused, not produced.
bool Run::releaseRows(QList<Prepared::Ready> *ready, QHash<int, QString> *refused, QString *error)
{
    QList<int> itemNos;
    QHash<int, QJsonObject> refs; // a ref naming its row by digest, by the id read from the record again
    for (const Prepared::Ready &r : std::as_const(*ready)) {
        if (m_items.at(m_index.value(r.itemNo)).inboxRef.contains(u"release"_s))
            itemNos.append(r.itemNo);
        if (!r.inboxRef.isEmpty())
            refs.insert(r.itemNo, r.inboxRef);
    }
    if (itemNos.isEmpty())
        return true;
    QJsonArray intent;
    for (int no : std::as_const(itemNos))
        intent.append(no);
    if (m_store.appendEvent(u"replay.release_intent"_s, m_requestId, {{u"items"_s, intent}}, error) == 0)
        return false;
    if (!m_releaseSessions)
        m_releaseSessions = std::make_unique<InboxSessions>(m_options.inboxMappings, m_inbox);
    QJsonArray released;
    QJsonArray already;
    QJsonArray refusedItems;
    for (int no : std::as_const(itemNos)) {
        const QJsonObject ref = refs.value(no, m_items.at(m_index.value(no)).inboxRef);
        const QString name = ref.value(u"mapping"_s).toString();
        const InboxMapping *mapping = m_options.inboxMappings.find(name);
        QString why;
        if (!mapping) {
            why = u"no inbox mapping "_s + name + u" is known to this run"_s;
        } else if (PgSession *db = m_releaseSessions->sessionFor(*mapping, &why)) {
            InboxRemediation::ReleaseResult result = InboxRemediation::ReleaseResult::Changed;
            QString now;
            if (InboxRemediation::release(*db, *mapping, ref, &result, &now, &why)) {
                if (result == InboxRemediation::ReleaseResult::Released)
                    released.append(no);
                else if (result == InboxRemediation::ReleaseResult::AlreadyReleased)
                    already.append(no);
                else if (ref.contains(u"idleForMs"_s) && now == ref.value(u"pinnedStatus"_s).toString())
                    why = u"the inbox row changed since the dry run (updated again while "_s + now
                          + u": its consumer is still working on it)"_s;
                else
                    why = u"the inbox row changed since the dry run (now "_s
                          + (now.isEmpty() ? u"gone"_s : now) + u", pinned "_s
                          + ref.value(u"pinnedStatus"_s).toString() + u')';
            }
        }
        if (!why.isEmpty()) {
            refused->insert(no, u"refused: release: "_s + why);
            refusedItems.append(QJsonObject{{u"item"_s, no}, {u"why"_s, why}});
        }
    }
    ready->removeIf([&](const Prepared::Ready &r) { return refused->contains(r.itemNo); });
    return m_store.appendEvent(
               u"replay.released"_s, m_requestId,
               {{u"released"_s, released}, {u"alreadyReleased"_s, already}, {u"refused"_s, refusedItems}},
               error)
           != 0;
}
} // namespace ReplayRunDetail
