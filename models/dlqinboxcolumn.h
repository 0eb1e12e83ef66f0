#pragma once

#include "models/dlqentrystore.h"
#include "services/inbox/inboxkeylookup.h"

#include <QHash>
#include <QString>

#include <functional>
#include <memory>
#include <vector>

class DlqLookupKeys;
class StringPool;

// The browser's "Inbox status" column: which idempotency keys of a scan were sent to the inbox look-up,
// which were answered, and what the inbox said. A dead letter is asked about only in the inbox of the
// consumer it belongs to (ARCHITECTURE.md, Data flows: Inbox): its consumer header, else the policy
// consumer whose DLQ topic was scanned, else nobody (never "any consumer"). Bookkeeping is per mapping
// and keyed by the key's id in the scan's string pool, so a key repeated a thousand times (a poison
// message) is looked up once, and it costs a byte per distinct key. Where masking hid an entry's key, the
// look-up asks for the real one from the scan's DlqLookupKeys (ARCHITECTURE.md, Masking: look-up keys);
// the column shows only the inbox's answer, never the key.
class DlqInboxColumn final {
public:
    enum class Cell { NoKey, NoConsumer, NotAsked, Pending, Failed, NotFound, Found };

    // Which mapping answers for a dead letter with this consumer header (empty header: none); empty
    // when none does. Set before collecting; setting it again starts the bookkeeping afresh.
    using MappingOf = std::function<QString(const QString &consumerHeader)>;
    void setMappingOf(MappingOf mappingOf);
    // The scan's real keys where masking hid them (null: none); set with each scan, before collecting.
    void setLookupKeys(std::shared_ptr<const DlqLookupKeys> lookupKeys);

    void reset();
    // One mapping's share of the keys to ask about.
    struct Request {
        QString mapping;
        QList<quint32> ids;
        QStringList keys;
    };
    // Distinct keys, per mapping, of the entries appended since the previous call that were never asked
    // about.
    QList<Request> collect(const DlqEntryStore &store, const StringPool &strings);
    void apply(const InboxKeyLookupResult &result);

    Cell cell(const DlqIndexEntry &entry) const;
    QString text(const DlqIndexEntry &entry) const;
    QString toolTip(const DlqIndexEntry &entry) const;
    // COMPLETED in its consumer's inbox: a replay of this entry would be a no-op.
    bool isCompleted(const DlqIndexEntry &entry) const;

private:
    enum Mark : quint8 { Unasked = 0, Asked, Answered, AnswerFailed };
    static constexpr int NoMapping = -1;
    static constexpr int NotResolved = -2;
    int mappingIndexOf(const DlqIndexEntry &entry) const; // NotResolved until collect() saw its route
    // The id the entry's key is kept under: the pool's id of its idempotency key, or, where masking hid it,
    // the look-up keys' id with HiddenKey set (the two never meet).
    static constexpr quint32 HiddenKey = 0x80000000u;
    quint32 keyIdOf(const DlqIndexEntry &entry) const;
    Mark mark(int mapping, quint32 keyId) const;
    std::vector<quint8> *marksOf(int mapping, quint32 keyId);
    static quint64 slot(int mapping, quint32 keyId) { return (quint64(quint32(mapping)) << 32) | keyId; }

    MappingOf m_mappingOf;
    std::shared_ptr<const DlqLookupKeys> m_lookupKeys;
    QStringList m_mappings;             // mapping names met so far, by index
    QHash<quint32, int> m_routeMapping; // route id (original topic, consumer) -> mapping index or NoMapping
    std::vector<std::vector<quint8>> m_marks; // by mapping index * 2 (+ 1 for hidden keys), then key id
    QHash<quint64, InboxKeyState> m_found;    // by slot(mapping, key id)
    QString m_lastError;
    quint32 m_cursor = 0; // entries [0, m_cursor) were collected
};
