#pragma once

#include <QString>
#include <QStringList>

#include <memory>

class QTemporaryDir;

// A throwaway PostgreSQL server for tests and the demo world: initdb + pg_ctl, reachable only through a
// Unix socket (no TCP). PostgreSQL refuses to run as root, so when we are root the server runs as the
// `postgres` system user. All calls block; construct and drive it from one thread.
// Two machine-wide helpers live next to the runtime dirs in $TMPDIR: a pristine template cluster
// (berth-pg-template-*, copied instead of running initdb each time) and an owner.pid per runtime dir, so
// start() can stop servers whose owning process died (crash, test timeout).
class TempPostgres final {
public:
    // Empty dataDir: a temporary directory removed on destruction. Otherwise a persistent cluster in
    // dataDir (initialised on first start, reused afterwards); its socket and log still live in a
    // temporary runtime directory, because socket paths are length-limited.
    explicit TempPostgres(const QString &dataDir = {});
    ~TempPostgres(); // stops the server (pg_ctl stop -m fast) if we started it
    TempPostgres(const TempPostgres &) = delete;
    TempPostgres &operator=(const TempPostgres &) = delete;

    // The server's shared buffers from the next start on (16MB unless set: tests read small tables). A
    // benchmark on a large table sets a production-like size; ALTER SYSTEM cannot, the command line wins.
    void setSharedBuffers(const QString &size) { m_sharedBuffers = size; }

    bool start(QString *error);
    void stop();
    bool restart(QString *error); // drops every client connection, like a database that went away
    bool isRunning() const { return m_running; }

    QString socketDir() const;
    int port() const { return m_port; }
    QString dataDir() const { return m_dataDir; }
    QString logFile() const;
    QString binDir() const { return m_binDir; }
    // "host=<socketdir> port=<port> user=.. dbname=.." (values quoted when needed).
    QString conninfo(const QString &user = QStringLiteral("postgres"),
                     const QString &dbname = QStringLiteral("postgres")) const;

    // Blocking superuser helper for setup; a multi-statement script is fine.
    bool exec(const QString &sql, QString *error = nullptr) const;

    // Highest installed server: pg_config --bindir, else /usr/lib/postgresql/<n>/bin. Empty if none.
    static QString findBinDir();

private:
    bool prepareDirectories(QString *error);
    void reapOrphans() const;
    bool initdb(QString *error);
    bool runInitdb(const QString &dataDir, QString *error) const;
    bool copyTemplate();
    bool handOver(const QString &dir) const;
    uint serverUid() const;
    // `tool` is a server tool name, or an absolute path (cp).
    bool runTool(const QString &tool, const QStringList &args, int timeoutMs, QString *output) const;
    QStringList serverOptions() const;
    QString failure(const QString &what, const QString &output) const;

    std::unique_ptr<QTemporaryDir> m_runtime; // socket, log, and the data dir when not persistent
    QString m_dataDir;
    QString m_binDir;
    int m_port = 0;
    bool m_running = false;
    bool m_asPostgresUser = false; // we are root: tools run as `postgres`
    unsigned m_uid = 0;
    unsigned m_gid = 0;
    QString m_setupError; // a constructor-time failure, reported by start()
    QString m_sharedBuffers = QStringLiteral("16MB");
};
