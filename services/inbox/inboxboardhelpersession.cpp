#include "services/inbox/inboxboardhelpersession.h"

#include "services/support/logging.h"

#include <QCryptographicHash>
#include <QRegularExpression>

#include <algorithm>

using namespace Qt::StringLiterals;

InboxBoardHelperSession::~InboxBoardHelperSession()
{
    finish();
    m_session.close();
}

void InboxBoardHelperSession::start(const QString &conninfo, const QString &snapshot, int statementTimeoutMs)
{
    join();
    m_thread = std::thread([this, conninfo, snapshot, statementTimeoutMs] {
        const QByteArray hash = QCryptographicHash::hash(conninfo.toUtf8(), QCryptographicHash::Sha256);
        if (m_session.isOpen() && hash != m_conninfoHash)
            m_session.close(); // the board's database or role changed
        QString error;
        // An open session may have been ended by the server while idle (pg_terminate_backend, a restart):
        // libpq learns of it only now, when entering the snapshot fails. Then once more on a new connection.
        for (int attempt = 0; attempt < 2; ++attempt) {
            const bool fresh = !m_session.isOpen();
            if (fresh) {
                if (!m_session.connect(conninfo, &error))
                    break;
                m_conninfoHash = hash;
                ++m_connects;
            }
            if (enterSnapshot(snapshot, statementTimeoutMs, &error)) {
                m_error.clear();
                return;
            }
            m_session.close();
            if (fresh)
                break;
        }
        qCDebug(lcInbox).noquote() << "board: no second session, counting on one:" << error;
        m_error = error;
        m_session.close();
    });
}

bool InboxBoardHelperSession::enterSnapshot(const QString &snapshot, int statementTimeoutMs, QString *error)
{
    // The id is the server's own ("00000003-0000001B-1"); checked all the same, as it is spliced.
    static const QRegularExpression idPattern(u"^[0-9A-Fa-f-]+$"_s);
    if (!idPattern.match(snapshot).hasMatch()) {
        *error = u"the exported snapshot id \u201c%1\u201d is not one"_s.arg(snapshot);
        return false;
    }
    // One round trip: the transaction, its snapshot and its bounds (the timeout is a number formatted here).
    m_inSnapshot = m_session.execScript(
        u"BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SET TRANSACTION SNAPSHOT '"_s + snapshot
            + u"'; SET LOCAL statement_timeout = "_s + QString::number(std::max(1, statementTimeoutMs))
            + u"; SET LOCAL jit = off"_s,
        error);
    return m_inSnapshot;
}

PgSession *InboxBoardHelperSession::take()
{
    join();
    return m_session.isOpen() && m_inSnapshot ? &m_session : nullptr;
}

bool InboxBoardHelperSession::send(const QString &sql, const QVariantList &params)
{
    PgSession *session = take();
    m_inFlight = session && session->send(sql, params, nullptr);
    return m_inFlight;
}

PgResult InboxBoardHelperSession::receive()
{
    m_inFlight = false;
    return m_session.receive();
}

void InboxBoardHelperSession::finish()
{
    join();
    if (m_inFlight) {
        // Abandoned mid-statement (the board failed or was cancelled): stop it, then end the transaction.
        PgStatementCanceller canceller;
        canceller.arm(m_session);
        canceller.cancel();
        canceller.disarm();
        m_session.receive();
        m_inFlight = false;
    }
    // Ends the snapshot's transaction: an idle session holds no snapshot back from vacuum.
    if (m_inSnapshot && m_session.isOpen() && !m_session.exec(u"ROLLBACK"_s).ok)
        m_session.close();
    m_inSnapshot = false;
    m_error.clear(); // each board's start() says anew
}

void InboxBoardHelperSession::join()
{
    if (m_thread.joinable())
        m_thread.join();
}
