#include "services/inbox/inboxmappingexplorer.h"

#include "services/inbox/inboxboardquery.h"
#include "services/inbox/inboxmappingdraft.h"
#include "services/inbox/pgsession.h"

using namespace Qt::StringLiterals;

namespace {
enum ExplorerSlot {
    TablesSlot,
    InboxRelationSlot,
    OutboxRelationSlot,
    InboxWordsSlot,
    OutboxWordsSlot,
    PreviewSlot
};

// A connection for one question, bounded by the discovery timeout and armed for cancel().
bool openForQuestion(PgSession &session, const QString &conninfo, PgStatementCanceller *canceller,
                     QString *error)
{
    if (conninfo.trimmed().isEmpty()) {
        *error = u"no database is chosen"_s;
        return false;
    }
    if (!session.connect(conninfo, error)) {
        *error = u"cannot connect: %1"_s.arg(*error);
        return false;
    }
    if (canceller) {
        canceller->arm(session);
        if (canceller->isCancelled()) {
            *error = u"cancelled"_s;
            return false;
        }
    }
    const PgResult r = session.exec(u"SELECT set_config('statement_timeout', $1, false)"_s,
                                    {QString::number(InboxDiscovery::StatementTimeoutMs)});
    if (!r.ok)
        *error = r.error;
    return r.ok;
}

void closeAfterQuestion(PgSession &session, PgStatementCanceller *canceller)
{
    if (canceller)
        canceller->disarm();
    session.close();
}
} // namespace

InboxMappingExplorer::InboxMappingExplorer(QObject *parent)
    : QObject(parent)
{
}

InboxMappingExplorer::~InboxMappingExplorer()
{
    cancel();
}

std::shared_ptr<PgStatementCanceller>
InboxMappingExplorer::freshCanceller(std::shared_ptr<PgStatementCanceller> &slot)
{
    if (slot)
        slot->cancel(); // the superseded job's statement stops now rather than at its timeout
    slot = std::make_shared<PgStatementCanceller>();
    return slot;
}

void InboxMappingExplorer::cancel()
{
    for (JobTracker *job : {&m_tablesJob, &m_inboxRelationJob, &m_outboxRelationJob, &m_inboxWordsJob,
                            &m_outboxWordsJob, &m_previewJob})
        job->cancel();
    for (const auto &canceller : m_cancellers) {
        if (canceller)
            canceller->cancel();
    }
}

bool InboxMappingExplorer::isBusy() const
{
    return m_tablesJob.isRunning() || m_inboxRelationJob.isRunning() || m_outboxRelationJob.isRunning()
           || m_inboxWordsJob.isRunning() || m_outboxWordsJob.isRunning() || m_previewJob.isRunning();
}

void InboxMappingExplorer::listTables(const QString &conninfo)
{
    auto canceller = freshCanceller(m_cancellers[TablesSlot]);
    m_tablesJob.start(
        [conninfo, canceller](const JobControl &) { return readTables(conninfo, canceller.get()); },
        [this](Tables tables) { Q_EMIT tablesReady(tables); });
}

void InboxMappingExplorer::inspectTable(Side side, const QString &conninfo, const QString &schema,
                                        const QString &table)
{
    const bool inbox = side == Side::Inbox;
    auto canceller = freshCanceller(m_cancellers[inbox ? InboxRelationSlot : OutboxRelationSlot]);
    (inbox ? m_inboxRelationJob : m_outboxRelationJob)
        .start([conninfo, schema, table, canceller](
                   const JobControl &) { return readRelation(conninfo, schema, table, canceller.get()); },
               [this, side](Relation relation) { Q_EMIT relationReady(side, relation); });
}

void InboxMappingExplorer::discoverWords(Side side, const QString &conninfo, const QString &schema,
                                         const QString &table, const QString &statusColumn,
                                         const QString &consumerColumn)
{
    const bool inbox = side == Side::Inbox;
    auto canceller = freshCanceller(m_cancellers[inbox ? InboxWordsSlot : OutboxWordsSlot]);
    (inbox ? m_inboxWordsJob : m_outboxWordsJob)
        .start(
            [conninfo, schema, table, statusColumn, consumerColumn, canceller](const JobControl &) {
                return readWords(conninfo, schema, table, statusColumn, consumerColumn, canceller.get());
            },
            [this, side](Words words) { Q_EMIT wordsReady(side, words); });
}

void InboxMappingExplorer::preview(const QString &conninfo, const InboxMapping &mapping)
{
    auto canceller = freshCanceller(m_cancellers[PreviewSlot]);
    m_previewJob.start(
        [conninfo, mapping, canceller, mask = m_mask](const JobControl &control) {
            return InboxBoardQuery::collect(conninfo, mapping, control,
                                            InboxBoardQuery::DefaultStatementTimeoutMs, canceller.get(),
                                            nullptr, mask);
        },
        [this](InboxBoard board) { Q_EMIT previewReady(board); });
}

InboxMappingExplorer::Tables InboxMappingExplorer::readTables(const QString &conninfo,
                                                              PgStatementCanceller *canceller)
{
    Tables out;
    PgSession session;
    if (openForQuestion(session, conninfo, canceller, &out.error))
        out.tables = InboxDiscovery::tables(session, &out.error);
    closeAfterQuestion(session, canceller);
    return out;
}

InboxMappingExplorer::Relation InboxMappingExplorer::readRelation(const QString &conninfo,
                                                                  const QString &schema, const QString &table,
                                                                  PgStatementCanceller *canceller)
{
    Relation out;
    out.schema = schema;
    out.table = table;
    PgSession session;
    if (openForQuestion(session, conninfo, canceller, &out.error)) {
        out.info = InboxTableInfo::read(session, schema, table, &out.error);
        if (out.error.isEmpty() && !out.info.exists)
            out.error =
                u"%1 is not there (renamed or dropped?)"_s.arg(InboxMapping::tableText(schema, table));
        else if (out.error.isEmpty() && !out.info.canSelect)
            out.error = u"no SELECT privilege on %1"_s.arg(InboxMapping::tableText(schema, table));
        out.suggested = InboxDiscovery::suggestColumns(out.info.types);
        out.suggestedOutbox = InboxMappingDraft::suggestOutbox(out.info.types);
    }
    closeAfterQuestion(session, canceller);
    return out;
}

InboxMappingExplorer::Words InboxMappingExplorer::readWords(const QString &conninfo, const QString &schema,
                                                            const QString &table, const QString &statusColumn,
                                                            const QString &consumerColumn,
                                                            PgStatementCanceller *canceller)
{
    Words out;
    PgSession session;
    if (openForQuestion(session, conninfo, canceller, &out.error))
        out.words =
            InboxDiscovery::statusWords(session, schema, table, statusColumn, consumerColumn, &out.error);
    closeAfterQuestion(session, canceller);
    return out;
}
