#pragma once

#include "services/inbox/inboxmapping.h"
#include "services/inbox/inboxmappingset.h"
#include "services/support/jobtracker.h"

#include <QHash>
#include <QList>
#include <QMetaType>
#include <QObject>
#include <QQueue>
#include <QStringList>

#include <memory>

class PgSession;

// What a consumer's inbox says about one message id / idempotency key.
struct InboxKeyState {
    InboxState state = InboxState::Unknown;
    QString status;   // the raw word in the table
    QString consumer; // the consumer column's value, or the mapping's consumer when it has none
    QString mapping;  // the mapping (consumer) that answered
    QString table;    // schema.table as displayed
    qint64 updatedMs = -1; // the mapping's `updated` column in ms since the epoch; -1: NULL or unreadable
};
using InboxKeyStates = QHash<QString, InboxKeyState>; // by key; keys no inbox knows are absent

// One answered batch: keys asked of one mapping's table. ids are the caller's handles for the keys, passed
// through untouched.
struct InboxKeyLookupResult {
    quint64 tag = 0;
    QString mapping; // the mapping (consumer) asked
    QList<quint32> ids;
    QStringList keys;
    InboxKeyStates found;
    QString error; // one readable line; found may still hold what the other tables answered
};
Q_DECLARE_METATYPE(InboxKeyLookupResult)

// Looks idempotency keys up in a consumer's inbox table: is a dead letter's message already COMPLETED
// there (a replay would be a no-op), parked, failed, or unknown? Each batch asks the one mapping of the
// consumer the dead letters belong to (ARCHITECTURE.md, Data flows: Inbox), never every table: another
// consumer's row for the same key says nothing about this one. Batches run one at a time on the thread
// pool over one reused connection per database, so the UI thread never waits and a database sees at most
// one query from here; the keys go in as one array parameter, one index probe each.
class InboxKeyLookup final : public QObject {
    Q_OBJECT
public:
    static constexpr int BatchSize = 500;
    static constexpr int StatementTimeoutMs = 15'000;

    explicit InboxKeyLookup(QObject *parent = nullptr);
    ~InboxKeyLookup() override;

    // The mappings in force and their databases; each database gets its own reused connection.
    void setMappingSet(const InboxMappingSet &set);
    bool isConfigured() const { return !m_set.conninfos().isEmpty(); }

    const InboxMappingSet &mappingSet() const { return m_set; }

    // Keys asked of the mapping named `mapping`; queued in BatchSize pieces and answered in order by
    // resolved(). A mapping the set does not have answers with an error.
    void enqueue(quint64 tag, const QString &mapping, const QList<quint32> &ids, const QStringList &keys);
    // Drops queued batches and the answer of a running one (a new scan began).
    void clear();
    bool isIdle() const { return !m_running && m_queue.isEmpty(); }

    // Blocking, for worker threads, the command line and dry runs. Tables that do not exist in this
    // database are skipped (a mapping preset for another service); other failures are reported in error.
    // When several rows match a key, a COMPLETED one wins: that is the answer a replay decision needs.
    static InboxKeyStates lookup(PgSession &session, const QList<InboxMapping> &mappings,
                                 const QStringList &keys, QString *error);

Q_SIGNALS:
    void resolved(const InboxKeyLookupResult &result);
    // The mapping set changed: earlier answers may be wrong, and queued questions were dropped.
    void mappingsChanged();

private:
    void startNext();

    using Sessions = QHash<QString, std::shared_ptr<PgSession>>; // by conninfo
    InboxMappingSet m_set;
    QQueue<InboxKeyLookupResult> m_queue;
    std::shared_ptr<Sessions> m_sessions; // replaced on clear(), so a cancelled job keeps its own
    bool m_running = false;
    JobTracker m_jobs{this};
};
