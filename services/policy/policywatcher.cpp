#include "services/policy/policywatcher.h"

#include <QFileInfo>

using namespace Qt::StringLiterals;

PolicyWatcher::PolicyWatcher(QObject *parent)
    : QObject(parent)
{
    m_debounce.setSingleShot(true);
    m_debounce.setInterval(200);
    connect(&m_debounce, &QTimer::timeout, this, &PolicyWatcher::reload);
    connect(&m_watcher, &QFileSystemWatcher::fileChanged, this, &PolicyWatcher::scheduleReload);
    connect(&m_watcher, &QFileSystemWatcher::directoryChanged, this, &PolicyWatcher::scheduleReload);
}

void PolicyWatcher::setPath(const QString &path)
{
    m_debounce.stop();
    const QStringList watched = m_watcher.files() + m_watcher.directories();
    if (!watched.isEmpty())
        m_watcher.removePaths(watched);
    m_path = path;
    m_loadedOnce = false;
    reload();
}

void PolicyWatcher::scheduleReload()
{
    m_debounce.start(); // restarts: a burst of events becomes one reload after the burst
}

void PolicyWatcher::rewatch()
{
    if (m_path.isEmpty() || m_path.startsWith(u':'))
        return;
    // Remove and re-add even when still listed: after a rename-over the listed watch follows the old inode.
    const QStringList files = m_watcher.files();
    if (!files.isEmpty())
        m_watcher.removePaths(files);
    const QFileInfo info(m_path);
    if (info.exists())
        m_watcher.addPath(info.absoluteFilePath());
    const QString dir = info.absolutePath();
    if (!m_watcher.directories().contains(dir) && QFileInfo(dir).isDir())
        m_watcher.addPath(dir);
}

void PolicyWatcher::reload()
{
    m_debounce.stop();
    rewatch(); // before reading, so a change made while we read still triggers another reload
    if (m_path.isEmpty())
        return;
    PolicyLoadResult result = loadPolicyFile(m_path);
    // Comparing the parsed result, not the bytes: a comment or whitespace-only edit changes nothing a
    // listener could show, and directory churn from other files costs no signal.
    if (m_loadedOnce && result == m_current)
        return;
    m_loadedOnce = true;
    m_current = std::move(result);
    Q_EMIT policyChanged(m_current);
}
