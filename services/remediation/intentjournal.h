#pragma once

#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QString>

class PgSession;

// The executor's writes to berth.intents and berth.dispositions, in batches: each statement writes one
// chained audit event (004), so a batch of thousands costs one event, not thousands. Every value is a
// parameter (arrays through unnest).
class IntentJournal final {
public:
    enum class State { None, Pending, Delivered, Failed, Skipped };

    struct Intent {
        State state = State::None;
        QString destTopic;
        int destPartition = -1;
        qint64 destOffset = -1;
        int attempts = 0;
        QString error;
    };

    // One row to write: who, and what became of it.
    struct Update {
        int itemNo = 0;
        State state = State::Pending;
        QString destTopic;
        int destPartition = -1;
        qint64 destOffset = -1;
        QString error;
        // Where the item's record was read (its request item's coordinates; empty and -1 for an inbox row):
        // a disposition carries them, sent rather than looked up, and the database checks them (013).
        QString sourceTopic;
        int sourcePartition = -1;
        qint64 sourceOffset = -1;
    };

    IntentJournal(PgSession &db, qint64 requestId)
        : m_db(db)
        , m_requestId(requestId)
    {
    }

    // Every intent of the request, by item number, its state derived (delivered: a replayed disposition).
    bool load(QHash<int, Intent> *intents, QString *error);
    // INSERT pending intents (journaled before anything is produced).
    bool journal(const QList<Update> &rows, QString *error);
    // Record what became of the rows, in one statement: a delivered row is its "replayed" disposition, which
    // carries where the record went (its intent is not updated: ARCHITECTURE.md, Audit database); failed,
    // skipped or pending-again rows UPDATE their intents, and skipped ones also get the disposition
    // `skipDisposition` (details per item). A delivered row whose error is "reconciled" was found in the
    // destination rather than produced (its disposition's details say so).
    bool settle(const QList<Update> &rows, const QString &skipDisposition,
                const QHash<int, QJsonObject> &dispositionDetails, QString *error);
    // Items that already have a disposition (a resumed skip/delete does not record it twice).
    bool disposed(QList<int> *itemNos, QString *error);
    bool recordDisposition(int itemNo, const QString &disposition, const QJsonObject &details,
                           QString *error);

    static QString stateName(State state);
    static State stateFromName(const QString &name);

private:
    PgSession &m_db;
    qint64 m_requestId;
};
