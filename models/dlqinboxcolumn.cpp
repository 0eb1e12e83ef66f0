#include "dlqinboxcolumn.h"

#include "services/dlq/dlqentryfields.h"
#include "services/dlq/dlqlookupkeys.h"
#include "services/dlq/stringpool.h"

#include <QCoreApplication>

void DlqInboxColumn::setMappingOf(MappingOf mappingOf)
{
    m_mappingOf = std::move(mappingOf);
    reset();
}

void DlqInboxColumn::setLookupKeys(std::shared_ptr<const DlqLookupKeys> lookupKeys)
{
    m_lookupKeys = std::move(lookupKeys);
    reset();
}

quint32 DlqInboxColumn::keyIdOf(const DlqIndexEntry &entry) const
{
    if (m_lookupKeys && entry.idempotencyKeyId != 0) {
        if (const auto hidden = m_lookupKeys->find(entry.partition, entry.offset);
            hidden && hidden->idempotencyKeyId)
            return hidden->idempotencyKeyId | HiddenKey;
    }
    return entry.idempotencyKeyId;
}

void DlqInboxColumn::reset()
{
    m_mappings.clear();
    m_routeMapping.clear();
    m_marks.clear();
    m_found.clear();
    m_lastError.clear();
    m_cursor = 0;
}

int DlqInboxColumn::mappingIndexOf(const DlqIndexEntry &entry) const
{
    return m_routeMapping.value(entry.routeId, NotResolved);
}

DlqInboxColumn::Mark DlqInboxColumn::mark(int mapping, quint32 keyId) const
{
    const size_t at = size_t(mapping) * 2 + (keyId & HiddenKey ? 1 : 0);
    if (mapping < 0 || at >= m_marks.size())
        return Unasked;
    const std::vector<quint8> &marks = m_marks[at];
    const quint32 id = keyId & ~HiddenKey;
    return id < marks.size() ? Mark(marks[id]) : Unasked;
}

std::vector<quint8> *DlqInboxColumn::marksOf(int mapping, quint32 keyId)
{
    const size_t at = size_t(mapping) * 2 + (keyId & HiddenKey ? 1 : 0);
    return at < m_marks.size() ? &m_marks[at] : nullptr;
}

QList<DlqInboxColumn::Request> DlqInboxColumn::collect(const DlqEntryStore &store, const StringPool &strings)
{
    QList<Request> requests;
    for (; m_cursor < store.size(); ++m_cursor) {
        const DlqIndexEntry &e = store.at(m_cursor);
        auto route = m_routeMapping.find(e.routeId);
        if (route == m_routeMapping.end()) {
            const QString name = m_mappingOf ? m_mappingOf(DlqEntryText::consumer(e, strings)) : QString();
            int index = NoMapping;
            if (!name.isEmpty()) {
                index = int(m_mappings.indexOf(name));
                if (index < 0) {
                    index = int(m_mappings.size());
                    m_mappings.append(name);
                    m_marks.emplace_back();
                    m_marks.emplace_back();
                }
            }
            route = m_routeMapping.insert(e.routeId, index);
        }
        const int mapping = *route;
        if (e.idempotencyKeyId == 0 || mapping < 0)
            continue;
        const quint32 id = keyIdOf(e);
        if (mark(mapping, id) != Unasked)
            continue;
        std::vector<quint8> &marks = *marksOf(mapping, id);
        const quint32 at = id & ~HiddenKey;
        if (at >= marks.size())
            marks.resize(size_t(at) + 1 + marks.size() / 2, Unasked);
        marks[at] = Asked;
        auto request = std::find_if(requests.begin(), requests.end(),
                                    [&](const Request &r) { return r.mapping == m_mappings.at(mapping); });
        if (request == requests.end()) {
            requests.append(Request{m_mappings.at(mapping), {}, {}});
            request = requests.end() - 1;
        }
        request->ids.append(id);
        if (id & HiddenKey)
            request->keys.append(
                m_lookupKeys->find(e.partition, e.offset)->idempotencyKey.value_or(QString()));
        else
            request->keys.append(strings.text(id));
    }
    return requests;
}

void DlqInboxColumn::apply(const InboxKeyLookupResult &result)
{
    const int mapping = int(m_mappings.indexOf(result.mapping));
    if (mapping < 0)
        return; // asked before a reset
    const bool failed = !result.error.isEmpty();
    if (failed)
        m_lastError = result.error;
    for (qsizetype i = 0; i < result.ids.size(); ++i) {
        const quint32 id = result.ids[i];
        const auto hit = result.found.constFind(result.keys[i]);
        if (hit != result.found.cend())
            m_found.insert(slot(mapping, id), *hit);
        std::vector<quint8> *marks = marksOf(mapping, id);
        if (marks && (id & ~HiddenKey) < marks->size())
            (*marks)[id & ~HiddenKey] = hit != result.found.cend() || !failed ? Answered : AnswerFailed;
    }
}

DlqInboxColumn::Cell DlqInboxColumn::cell(const DlqIndexEntry &entry) const
{
    if (entry.idempotencyKeyId == 0)
        return Cell::NoKey;
    const quint32 id = keyIdOf(entry);
    const int mapping = mappingIndexOf(entry);
    if (mapping == NotResolved)
        return Cell::NotAsked;
    if (mapping == NoMapping)
        return Cell::NoConsumer;
    switch (mark(mapping, id)) {
    case Unasked:
        return Cell::NotAsked;
    case Asked:
        return Cell::Pending;
    case AnswerFailed:
        return Cell::Failed;
    case Answered:
        break;
    }
    return m_found.contains(slot(mapping, id)) ? Cell::Found : Cell::NotFound;
}

bool DlqInboxColumn::isCompleted(const DlqIndexEntry &entry) const
{
    const int mapping = mappingIndexOf(entry);
    if (mapping < 0)
        return false;
    const auto it = m_found.constFind(slot(mapping, keyIdOf(entry)));
    return it != m_found.cend() && it->state == InboxState::Completed;
}

QString DlqInboxColumn::text(const DlqIndexEntry &entry) const
{
    switch (cell(entry)) {
    case Cell::NoKey:
    case Cell::NotAsked:
        return {};
    case Cell::NoConsumer:
        return QCoreApplication::translate("DlqInboxColumn", "no consumer");
    case Cell::Pending:
        return QCoreApplication::translate("DlqInboxColumn", "looking up…");
    case Cell::Failed:
        return QCoreApplication::translate("DlqInboxColumn", "look-up failed");
    case Cell::NotFound:
        return QCoreApplication::translate("DlqInboxColumn", "not in inbox");
    case Cell::Found:
        break;
    }
    const InboxKeyState &s = *m_found.constFind(slot(mappingIndexOf(entry), keyIdOf(entry)));
    const QString state = inboxStateName(s.state);
    return s.consumer.isEmpty() ? state : state + u" (" + s.consumer + u')';
}

QString DlqInboxColumn::toolTip(const DlqIndexEntry &entry) const
{
    switch (cell(entry)) {
    case Cell::NoKey:
        return QCoreApplication::translate("DlqInboxColumn", "This dead letter carries no idempotency key.");
    case Cell::NoConsumer:
        return QCoreApplication::translate(
            "DlqInboxColumn", "No inbox is asked: the record names no mapped consumer and no mapped "
                              "policy consumer has this DLQ topic (another consumer's inbox says "
                              "nothing about this one).");
    case Cell::NotAsked:
        return QCoreApplication::translate("DlqInboxColumn", "No inbox database is configured.");
    case Cell::Pending:
        return QCoreApplication::translate("DlqInboxColumn", "Asking the inbox database…");
    case Cell::Failed:
        return QCoreApplication::translate("DlqInboxColumn", "The inbox database did not answer: %1").arg(m_lastError);
    case Cell::NotFound:
        return QCoreApplication::translate(
            "DlqInboxColumn", "The consumer's inbox table does not know this key: it never recorded it.");
    case Cell::Found:
        break;
    }
    const InboxKeyState &s = *m_found.constFind(slot(mappingIndexOf(entry), keyIdOf(entry)));
    QString tip = QCoreApplication::translate("DlqInboxColumn", "%1 has this key as %2 (state: %3).")
                      .arg(s.table, s.status, inboxStateName(s.state));
    if (s.state == InboxState::Completed)
        tip += u' ' + QCoreApplication::translate("DlqInboxColumn", "A replay would be a no-op.");
    return tip;
}
