#pragma once

#include "models/dlqentrystore.h"
#include "services/inbox/inboxkeylookup.h"

#include <QHash>
#include <QString>

#include <vector>

class StringPool;

// The browser's "Inbox status" column: which idempotency keys of a scan were sent to the inbox look-up,
// which were answered, and what the inbox said. Keyed by the key's id in the scan's string pool, so a
// key repeated a thousand times (a poison message) is looked up once, and the bookkeeping costs a byte
// per distinct key.
class DlqInboxColumn final {
public:
    enum class Cell { NoKey, NotAsked, Pending, Failed, NotFound, Found };

    void reset();
    // Distinct keys of the entries appended since the previous call that were never asked about.
    void collect(const DlqEntryStore &store, const StringPool &strings, QList<quint32> *ids, QStringList *keys);
    void apply(const InboxKeyLookupResult &result);

    Cell cell(const DlqIndexEntry &entry) const;
    QString text(const DlqIndexEntry &entry) const;
    QString toolTip(const DlqIndexEntry &entry) const;
    // COMPLETED: a replay of this entry would be a no-op.
    bool isCompleted(const DlqIndexEntry &entry) const;

private:
    enum Mark : quint8 { Unasked = 0, Asked, Answered, AnswerFailed };
    Mark mark(quint32 keyId) const { return keyId < m_marks.size() ? Mark(m_marks[keyId]) : Unasked; }

    std::vector<quint8> m_marks; // by key id
    QHash<quint32, InboxKeyState> m_found;
    QString m_lastError;
    quint32 m_cursor = 0; // entries [0, m_cursor) were collected
};
