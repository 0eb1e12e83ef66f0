#include "temppostgres.h"

#include "services/inbox/pgsession.h"
#include "services/support/logging.h"

#include <QCryptographicHash>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRandomGenerator>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThread>
#include <QVersionNumber>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace {
constexpr int ToolTimeoutMs = 60'000;
constexpr int ServerWaitSeconds = 30;
// sockaddr_un.sun_path is 108 bytes including the terminator.
constexpr qsizetype MaxSocketPath = 107;

bool hasServerTools(const QString &dir)
{
    return !dir.isEmpty() && QFileInfo(dir + u"/initdb"_s).isExecutable()
           && QFileInfo(dir + u"/pg_ctl"_s).isExecutable();
}

// pg_ctl hands -o to a shell, so paths must be quoted for sh.
QString shellQuote(QString value)
{
    value.replace(u'\'', u"'\\''"_s);
    return u'\'' + value + u'\'';
}

QString conninfoValue(QString value)
{
    if (!value.isEmpty() && !value.contains(u' ') && !value.contains(u'\'') && !value.contains(u'\\'))
        return value;
    value.replace(u'\\', u"\\\\"_s).replace(u'\'', u"\\'"_s);
    return u'\'' + value + u'\'';
}

QString tail(const QString &path, int lines)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return u"(no server log at %1)"_s.arg(path);
    const QStringList all = QString::fromUtf8(file.readAll()).split(u'\n', Qt::SkipEmptyParts);
    return all.mid(std::max<qsizetype>(0, all.size() - lines)).join(u'\n');
}
} // namespace

TempPostgres::TempPostgres(const QString &dataDir)
    : m_runtime(std::make_unique<QTemporaryDir>(QDir::tempPath() + u"/berth-pg-XXXXXX"_s))
    , m_binDir(findBinDir())
    , m_port(int(QRandomGenerator::global()->bounded(20000, 60001)))
{
    m_dataDir = dataDir.isEmpty() ? m_runtime->filePath(u"data"_s) : QDir(dataDir).absolutePath();
    if (!m_runtime->isValid())
        m_setupError = u"could not create a temporary directory: %1"_s.arg(m_runtime->errorString());
    if (::geteuid() == 0) {
        // The server refuses to run as root; the Debian/RPM packages create this user.
        m_asPostgresUser = true;
        if (const passwd *pw = ::getpwnam("postgres")) {
            m_uid = pw->pw_uid;
            m_gid = pw->pw_gid;
        } else {
            m_setupError = u"running as root, but there is no 'postgres' system user to run the server as"_s;
        }
    }
}

TempPostgres::~TempPostgres()
{
    stop();
}

QString TempPostgres::findBinDir()
{
    const QString overridden = qEnvironmentVariable("BERTH_PG_BINDIR");
    if (hasServerTools(overridden))
        return overridden;
    // Debian keeps the server tools off PATH, one directory per major version.
    QDir versions(u"/usr/lib/postgresql"_s);
    QList<QVersionNumber> found;
    for (const QString &entry : versions.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        const QVersionNumber version = QVersionNumber::fromString(entry);
        if (!version.isNull() && hasServerTools(versions.filePath(entry + u"/bin"_s)))
            found << version;
    }
    if (!found.isEmpty()) {
        std::sort(found.begin(), found.end());
        return versions.filePath(found.last().toString() + u"/bin"_s);
    }
    const QString pgConfig = QStandardPaths::findExecutable(u"pg_config"_s);
    if (!pgConfig.isEmpty()) {
        QProcess process;
        process.start(pgConfig, {u"--bindir"_s});
        if (process.waitForFinished(10'000) && process.exitCode() == 0) {
            const QString dir = QString::fromLocal8Bit(process.readAllStandardOutput()).trimmed();
            if (hasServerTools(dir))
                return dir;
        }
    }
    return {};
}

QString TempPostgres::socketDir() const
{
    return m_runtime->path();
}

QString TempPostgres::logFile() const
{
    return m_runtime->filePath(u"server.log"_s);
}

QString TempPostgres::conninfo(const QString &user, const QString &dbname) const
{
    return u"host=%1 port=%2 user=%3 dbname=%4"_s.arg(conninfoValue(socketDir()), QString::number(m_port),
                                                      conninfoValue(user), conninfoValue(dbname));
}

bool TempPostgres::start(QString *error)
{
    if (m_running)
        return true;
    QString problem = m_setupError;
    if (problem.isEmpty() && m_binDir.isEmpty())
        problem = u"PostgreSQL server tools not found (looked in $BERTH_PG_BINDIR, /usr/lib/postgresql/*/bin "
                  "and pg_config --bindir); install the postgresql package"_s;
    reapOrphans();
    if (!problem.isEmpty() || !prepareDirectories(&problem)
        || (!QFileInfo::exists(m_dataDir + u"/PG_VERSION"_s) && !initdb(&problem))) {
        if (error)
            *error = problem;
        return false;
    }

    QString output;
    const QStringList args{
        u"start"_s, u"-w"_s,   u"-t"_s, QString::number(ServerWaitSeconds), u"-D"_s, m_dataDir,
        u"-l"_s,    logFile(), u"-o"_s, serverOptions().join(u' ')};
    if (!runTool(u"pg_ctl"_s, args, ToolTimeoutMs, &output)) {
        // A server that came up too slowly may still be running: do not leave it behind.
        if (QFileInfo::exists(m_dataDir + u"/postmaster.pid"_s))
            runTool(u"pg_ctl"_s, {u"stop"_s, u"-m"_s, u"immediate"_s, u"-D"_s, m_dataDir}, ToolTimeoutMs,
                    nullptr);
        if (error)
            *error = failure(u"pg_ctl start failed"_s, output);
        return false;
    }
    m_running = true;
    qCDebug(lcDemo) << "PostgreSQL running:" << conninfo();
    return true;
}

void TempPostgres::stop()
{
    if (!m_running)
        return;
    m_running = false;
    if (!QFileInfo::exists(m_dataDir + u"/postmaster.pid"_s))
        return; // already gone (stopped from outside, or reaped)
    QString output;
    const QStringList args{u"stop"_s, u"-w"_s,   u"-t"_s, QString::number(ServerWaitSeconds),
                           u"-m"_s,   u"fast"_s, u"-D"_s, m_dataDir};
    if (!runTool(u"pg_ctl"_s, args, ToolTimeoutMs, &output)) {
        qCWarning(lcDemo).noquote() << "pg_ctl stop -m fast failed, stopping immediately:"
                                    << output.trimmed();
        runTool(u"pg_ctl"_s, {u"stop"_s, u"-w"_s, u"-m"_s, u"immediate"_s, u"-D"_s, m_dataDir}, ToolTimeoutMs,
                nullptr);
    }
}

bool TempPostgres::restart(QString *error)
{
    if (!m_running)
        return start(error);
    QString output;
    const QStringList args{u"restart"_s, u"-w"_s,   u"-t"_s, QString::number(ServerWaitSeconds),
                           u"-m"_s,      u"fast"_s, u"-D"_s, m_dataDir,
                           u"-l"_s,      logFile(), u"-o"_s, serverOptions().join(u' ')};
    if (runTool(u"pg_ctl"_s, args, ToolTimeoutMs, &output))
        return true;
    if (error)
        *error = failure(u"pg_ctl restart failed"_s, output);
    stop();
    return false;
}

bool TempPostgres::exec(const QString &sql, QString *error) const
{
    PgSession session;
    return session.connect(conninfo(), error) && session.execScript(sql, error);
}

bool TempPostgres::prepareDirectories(QString *error)
{
    const QString socketPath = socketDir() + u"/.s.PGSQL."_s + QString::number(m_port);
    if (socketPath.toLocal8Bit().size() > MaxSocketPath) {
        *error = u"socket path %1 is too long for a Unix socket; set TMPDIR to a shorter directory"_s.arg(
            socketPath);
        return false;
    }
    const QByteArray runtime = QFile::encodeName(socketDir());
    // Other local users (psql, the app run unprivileged) may connect; the data dir itself stays 0700.
    if (::chmod(runtime.constData(), 0755) != 0 || !handOver(socketDir())) {
        *error = u"could not hand %1 to the postgres user: %2"_s.arg(socketDir(),
                                                                     QString::fromLocal8Bit(strerror(errno)));
        return false;
    }
    QFile owner(socketDir() + u"/owner.pid"_s); // lets a later run reap this server if we die
    if (!owner.open(QIODevice::WriteOnly)
        || owner.write(QByteArray::number(::getpid()) + '\n' + QFile::encodeName(m_dataDir)) < 0) {
        *error = u"could not write %1: %2"_s.arg(owner.fileName(), owner.errorString());
        return false;
    }
    owner.close();
    if (m_dataDir.startsWith(socketDir() + u'/') || QFileInfo::exists(m_dataDir + u"/PG_VERSION"_s))
        return true; // initdb creates the temporary data dir itself; an existing cluster is used as is
    // A new persistent cluster: the directory must exist and belong to whoever runs the server.
    if (!QDir().mkpath(m_dataDir)) {
        *error = u"could not create the data directory %1"_s.arg(m_dataDir);
        return false;
    }
    if (!handOver(m_dataDir)) {
        *error = u"could not hand %1 to the postgres user: %2"_s.arg(m_dataDir,
                                                                     QString::fromLocal8Bit(strerror(errno)));
        return false;
    }
    return true;
}

void TempPostgres::reapOrphans() const
{
    // A test killed by a timeout or a crash leaves its server running forever; the next start stops it.
    // Only runtime dirs that belong to the server user are considered: nobody else can plant one.
    const QDir tmp(QDir::tempPath());
    for (const QFileInfo &dir : tmp.entryInfoList({u"berth-pg-*"_s}, QDir::Dirs | QDir::NoDotAndDotDot)) {
        QFile ownerFile(dir.filePath() + u"/owner.pid"_s);
        if (dir.filePath() == socketDir() || dir.ownerId() != serverUid()
            || !ownerFile.open(QIODevice::ReadOnly))
            continue;
        const QList<QByteArray> lines = ownerFile.readAll().split('\n');
        const pid_t owner = pid_t(lines.value(0).toLongLong());
        if (owner <= 0 || ::kill(owner, 0) == 0 || errno != ESRCH)
            continue;
        const QString data = QFile::decodeName(lines.value(1));
        qCInfo(lcDemo).noquote() << "stopping the PostgreSQL server left behind by process" << owner << "in"
                                 << dir.filePath();
        if (!data.isEmpty() && QFileInfo::exists(data + u"/postmaster.pid"_s))
            runTool(u"pg_ctl"_s, {u"stop"_s, u"-w"_s, u"-m"_s, u"fast"_s, u"-D"_s, data}, ToolTimeoutMs,
                    nullptr);
        // A persistent data dir lives elsewhere and is kept. pg_ctl returns once the pid file is gone, and
        // the server's last processes can still be writing as they exit (seen on loaded sanitizer runs):
        // a removal that meets a new file is tried again for a few seconds.
        QElapsedTimer removal;
        removal.start();
        while (!QDir(dir.filePath()).removeRecursively() && removal.elapsed() < 5000)
            QThread::msleep(50);
    }
}

bool TempPostgres::initdb(QString *error)
{
    // A temporary cluster is a copy of a pristine one made once per machine: initdb costs about a second,
    // which every test that needs a database would otherwise pay.
    if (m_dataDir.startsWith(socketDir() + u'/') && copyTemplate())
        return true;
    return runInitdb(m_dataDir, error);
}

bool TempPostgres::runInitdb(const QString &dataDir, QString *error) const
{
    QString output;
    const QStringList args{u"-D"_s,       dataDir,        u"-A"_s, u"trust"_s, u"-U"_s,
                           u"postgres"_s, u"--no-sync"_s, u"-E"_s, u"UTF8"_s,  u"--locale=C"_s};
    if (runTool(u"initdb"_s, args, ToolTimeoutMs, &output))
        return true;
    *error = u"initdb failed: %1"_s.arg(output.trimmed());
    return false;
}

bool TempPostgres::copyTemplate()
{
    // Keyed by server build and user; /tmp is shared, so only a template we own and nobody else can
    // write is used.
    const QByteArray key = QCryptographicHash::hash(
        (m_binDir + u':' + QString::number(serverUid()) + u":v1"_s).toUtf8(), QCryptographicHash::Sha1);
    const QString templ =
        QDir::tempPath() + u"/berth-pg-template-"_s + QString::fromLatin1(key.toHex().left(16));
    const auto trusted = [this, &templ] {
        const QFileInfo info(templ);
        return QFileInfo::exists(templ + u"/PG_VERSION"_s) && info.ownerId() == serverUid()
               && !(info.permissions() & (QFile::WriteGroup | QFile::WriteOther));
    };
    if (!trusted()) {
        QTemporaryDir staging(templ + u".XXXXXX"_s);
        const QString built = staging.filePath(u"data"_s);
        QString ignored;
        if (!staging.isValid() || !handOver(staging.path()) || !runInitdb(built, &ignored))
            return false;
        // Atomic publish; losing the race to a parallel test is fine, its template is as good.
        ::rename(QFile::encodeName(built).constData(), QFile::encodeName(templ).constData());
        if (!trusted())
            return false;
    }
    QString output;
    const QString cp = QStandardPaths::findExecutable(u"cp"_s);
    if (!cp.isEmpty() && runTool(cp, {u"-a"_s, templ, m_dataDir}, ToolTimeoutMs, &output))
        return true;
    qCWarning(lcDemo).noquote() << "could not copy the template cluster, running initdb:" << output.trimmed();
    QDir(m_dataDir).removeRecursively();
    return false;
}

bool TempPostgres::handOver(const QString &dir) const
{
    return !m_asPostgresUser || ::chown(QFile::encodeName(dir).constData(), m_uid, m_gid) == 0;
}

uint TempPostgres::serverUid() const
{
    return m_asPostgresUser ? m_uid : ::geteuid();
}

QStringList TempPostgres::serverOptions() const
{
    // Throwaway data: durability off for speed; no TCP listener at all.
    return {u"-F"_s,
            u"-c listen_addresses=''"_s,
            u"-k"_s,
            shellQuote(socketDir()),
            u"-p"_s,
            QString::number(m_port),
            u"-c shared_buffers="_s + shellQuote(m_sharedBuffers),
            u"-c synchronous_commit=off"_s,
            u"-c full_page_writes=off"_s};
}

bool TempPostgres::runTool(const QString &tool, const QStringList &args, int timeoutMs, QString *output) const
{
    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    // initdb resolves its own path relative to the working directory: it must be readable by `postgres`.
    process.setWorkingDirectory(socketDir());
    if (m_asPostgresUser) {
        const uid_t uid = m_uid;
        const gid_t gid = m_gid;
        // Runs between fork and exec: only async-signal-safe calls here.
        process.setChildProcessModifier([uid, gid] {
            if (::setgroups(1, &gid) != 0 || ::setgid(gid) != 0 || ::setuid(uid) != 0)
                ::_exit(126);
        });
    }
    process.start(QDir(m_binDir).filePath(tool), args);
    const bool finished = process.waitForFinished(timeoutMs);
    if (!finished)
        process.kill();
    const QString text = QString::fromLocal8Bit(process.readAll());
    if (output) {
        *output = text;
        if (process.error() == QProcess::FailedToStart)
            *output = u"could not run %1: %2"_s.arg(QDir(m_binDir).filePath(tool), process.errorString());
        else if (!finished)
            *output = u"%1 did not finish within %2 s. %3"_s.arg(tool).arg(timeoutMs / 1000).arg(text);
        else if (process.exitStatus() == QProcess::NormalExit && process.exitCode() == 126
                 && m_asPostgresUser)
            *output = u"could not switch to the postgres user to run %1. %2"_s.arg(tool, text);
    }
    return finished && process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0;
}

QString TempPostgres::failure(const QString &what, const QString &output) const
{
    return u"%1: %2\nServer log (%3, last lines):\n%4"_s.arg(what, output.trimmed(), logFile(),
                                                             tail(logFile(), 15));
}
