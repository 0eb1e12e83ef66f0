#include "audittrailquery.h"

#include "services/audit/auditchain.h"
#include "services/audit/auditstore.h"
#include "services/inbox/pgsession.h"
#include "services/support/logging.h"

using namespace Qt::StringLiterals;

AuditTrailQuery::AuditTrailQuery(QObject *parent)
    : QObject(parent)
{
    qRegisterMetaType<AuditEventsPage>();
    qRegisterMetaType<ChainVerification>();
}

void AuditTrailQuery::fetch(const EventFilter &filter)
{
    m_fetches.start(
        [conninfo = m_conninfo, filter](const JobControl &) {
            AuditEventsPage page;
            page.filter = filter;
            page.append = filter.afterSeq > 0;
            PgSession session;
            QString error;
            if (conninfo.isEmpty() || !session.connect(conninfo, &error)) {
                page.error = conninfo.isEmpty() ? u"no audit database is configured"_s
                                                : u"cannot connect to the audit database: "_s + error;
                return page;
            }
            // One row beyond the limit tells whether more match, without counting them all.
            EventFilter probe = filter;
            probe.limit = std::max(1, filter.limit) + 1;
            AuditStore store(session);
            page.events = store.listEvents(probe, &page.error);
            page.more = page.events.size() > std::max(1, filter.limit);
            if (page.more)
                page.events.removeLast();
            return page;
        },
        [this](const AuditEventsPage &page) { Q_EMIT pageReady(page); });
}

void AuditTrailQuery::verify()
{
    m_verifies.start(
        [conninfo = m_conninfo](const JobControl &control) {
            PgSession session;
            ChainVerification result;
            if (conninfo.isEmpty() || !session.connect(conninfo, &result.error)) {
                if (conninfo.isEmpty())
                    result.error = u"no audit database is configured"_s;
                return result;
            }
            result = AuditChain::verify(session, control);
            if (!result.completed)
                return result;
            // Who verified, when, and what they saw is itself audit evidence. The chain anchor (last seq and
            // hash) lets a later verify show that nothing before it was cut off.
            AuditStore store(session);
            QString error;
            store.appendEvent(u"chain.verified"_s, 0,
                              {{u"ok"_s, result.ok},
                               {u"checked_rows"_s, result.checkedRows},
                               {u"last_seq"_s, result.lastSeq},
                               {u"last_hash"_s, QString::fromLatin1(result.lastHash.toHex())},
                               {u"first_broken_seq"_s, result.firstBrokenSeq},
                               {u"problem"_s, result.problem}},
                              &error);
            if (!error.isEmpty())
                qCWarning(lcAudit).noquote() << "could not record the chain verification:" << error;
            return result;
        },
        [this](const ChainVerification &result) { Q_EMIT verified(result); },
        [this](qint64 done, qint64 total) { Q_EMIT verifyProgress(done, total); });
}

void AuditTrailQuery::cancelVerify()
{
    if (!m_verifies.isRunning())
        return;
    m_verifies.cancel();
    ChainVerification cancelled;
    cancelled.error = u"cancelled"_s;
    Q_EMIT verified(cancelled);
}
