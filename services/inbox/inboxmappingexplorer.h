#pragma once

#include "services/inbox/inboxboard.h"
#include "services/inbox/inboxdiscovery.h"
#include "services/inbox/inboxmapping.h"
#include "services/inbox/inboxtableinfo.h"
#include "services/payload/keymask.h"
#include "services/support/jobtracker.h"

#include <QObject>

#include <memory>

class PgStatementCanceller;

// What the mapping editor asks of a database, each question a JobTracker job with its own short
// connection (ARCHITECTURE.md, Threads: JobTracker), so the dialog never waits: the tables with the
// catalogue's estimates, one relation's columns with suggestions, the status vocabulary, and a preview
// of the board the draft would show. Every statement runs under InboxDiscovery::StatementTimeoutMs (the
// preview under the board's own timeout); cancel() stops the statements in flight (PQcancel). The inbox
// and the outbox side each have their own jobs, so reading one does not supersede the other.
class InboxMappingExplorer final : public QObject {
    Q_OBJECT
public:
    enum class Side { Inbox, Outbox };

    explicit InboxMappingExplorer(QObject *parent = nullptr);
    ~InboxMappingExplorer() override;

    void listTables(const QString &conninfo);
    void inspectTable(Side side, const QString &conninfo, const QString &schema, const QString &table);
    void discoverWords(Side side, const QString &conninfo, const QString &schema, const QString &table,
                       const QString &statusColumn, const QString &consumerColumn);
    void preview(const QString &conninfo, const InboxMapping &mapping);
    // The delivery policy's masking: the preview shows masked message ids as the desk's board does, never
    // by value (ARCHITECTURE.md, Masking).
    void setKeyMask(const KeyMask &mask) { m_mask = mask; }
    // Drops every pending answer and cancels the statements in flight.
    void cancel();
    bool isBusy() const;

    // Blocking forms of the questions, for the jobs above and for tests.
    struct Tables {
        QList<InboxDiscovery::TableEntry> tables;
        QString error;
    };
    static Tables readTables(const QString &conninfo, PgStatementCanceller *canceller = nullptr);
    struct Relation {
        QString schema;
        QString table;
        InboxTableInfo info;
        InboxMapping suggested;        // columns from names and types (InboxDiscovery::suggestColumns)
        OutboxMapping suggestedOutbox; // status and created columns for an outbox
        QString error;                 // cannot connect, not there, no privilege: one line
    };
    static Relation readRelation(const QString &conninfo, const QString &schema, const QString &table,
                                 PgStatementCanceller *canceller = nullptr);
    struct Words {
        InboxDiscovery::StatusWords words;
        QString error;
    };
    static Words readWords(const QString &conninfo, const QString &schema, const QString &table,
                           const QString &statusColumn, const QString &consumerColumn,
                           PgStatementCanceller *canceller = nullptr);

Q_SIGNALS:
    void tablesReady(const InboxMappingExplorer::Tables &tables);
    void relationReady(InboxMappingExplorer::Side side, const InboxMappingExplorer::Relation &relation);
    void wordsReady(InboxMappingExplorer::Side side, const InboxMappingExplorer::Words &words);
    void previewReady(const InboxBoard &board);

private:
    std::shared_ptr<PgStatementCanceller> freshCanceller(std::shared_ptr<PgStatementCanceller> &slot);

    JobTracker m_tablesJob{this};
    JobTracker m_inboxRelationJob{this};
    JobTracker m_outboxRelationJob{this};
    JobTracker m_inboxWordsJob{this};
    JobTracker m_outboxWordsJob{this};
    JobTracker m_previewJob{this};
    KeyMask m_mask;
    // One per job above, in that order: the statement each job has in flight.
    std::shared_ptr<PgStatementCanceller> m_cancellers[6];
};
