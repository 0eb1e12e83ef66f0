#pragma once

#include "services/inbox/pgsession.h"

#include <QByteArray>
#include <QString>
#include <QVariantList>

#include <mutex>
#include <thread>

// The board's second session of a huge table's database: part of the exact counts runs on it, in the first
// session's snapshot (pg_export_snapshot / SET TRANSACTION SNAPSHOT), while the first reads the rest of the
// board (ARCHITECTURE.md, Performance notes). Whoever refreshes a board again and again (InboxWatch per
// mapping, InboxBoardQuery) owns one and hands it to every refresh, so it connects once and stays connected
// across refreshes, idle and outside any transaction in between; it closes with its owner. A session the
// server ended while idle (terminated, restarted) is connected anew by the next refresh; a refresh that
// cannot connect it counts on one session and says why (InboxBoard::helperError). One board at a time uses
// it (acquire): a refresh that finds it busy with an older, superseded one uses a session of its own.
//
// While a board starts, the helper (re)connects and enters the snapshot on an owned thread, joined when
// the board takes it (ARCHITECTURE.md, Threads).
class InboxBoardHelperSession final {
public:
    InboxBoardHelperSession() = default;
    InboxBoardHelperSession(const InboxBoardHelperSession &) = delete;
    InboxBoardHelperSession &operator=(const InboxBoardHelperSession &) = delete;
    ~InboxBoardHelperSession();

    // One board at a time: false when another board is using it.
    bool tryAcquire() { return m_use.try_lock(); }
    void release() { m_use.unlock(); }

    // Begins entering the snapshot on the owned thread: connects first when not connected, or connected
    // with other parameters (conninfo: the first session's, PgSession::sameParameters); a connection the
    // server has ended is connected anew once. snapshot: the first session's exported id.
    void start(const QString &conninfo, const QString &snapshot, int statementTimeoutMs);
    // Joins the owned thread; the session in the snapshot, or null (lastError() says why).
    PgSession *take();
    // Sends one statement to run on it in the snapshot; false when it has no session.
    bool send(const QString &sql, const QVariantList &params);
    PgResult receive();
    // A statement was sent and has finished: receive() would not wait.
    bool isFree() { return m_inFlight && !m_session.isBusy(); }
    // Still connected to the server (a failed statement may have been the connection's end).
    bool isConnected() const { return m_session.isOpen(); }
    // Ends the board's use: a statement still running is cancelled, the snapshot's transaction rolled back,
    // a broken connection closed. The session stays connected for the next board.
    void finish();

    // Why this board's start() left it without a session; empty when it has one (or until finish()).
    QString lastError() const { return m_error; }
    // How many connections it has opened (each start() that found none, or a dead one).
    int connects() const { return m_connects; }

private:
    void join();
    bool enterSnapshot(const QString &snapshot, int statementTimeoutMs, QString *error);

    std::mutex m_use;
    PgSession m_session;
    QByteArray m_conninfoHash; // which parameters m_session was opened with (a digest: no password kept)
    std::thread m_thread;
    bool m_inFlight = false;
    bool m_inSnapshot = false;
    QString m_error;
    int m_connects = 0;
};
