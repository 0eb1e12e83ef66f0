#pragma once

#include "services/policy/policyloader.h"

#include <QFileSystemWatcher>
#include <QObject>
#include <QTimer>

// Keeps a policy file loaded: reloads shortly after it changes and emits the new result.
//
// Editors save in two ways: rewriting the file in place, or writing a temporary file and renaming it over
// the original. The second leaves QFileSystemWatcher watching the old, now unlinked inode, so every reload
// re-adds the path, and the parent directory is watched as well so a file that disappears and comes back
// is noticed. Bursts of events (truncate + write + close, directory churn) are coalesced by a single-shot
// timer; a reload whose result equals the last one emits nothing, so unrelated directory changes are free.
class PolicyWatcher final : public QObject {
    Q_OBJECT
public:
    explicit PolicyWatcher(QObject *parent = nullptr);

    // Loads `path` now (current() is valid on return), emits policyChanged, and watches it from then on.
    // Resource paths (":/...") are loaded but cannot change, so they are not watched.
    void setPath(const QString &path);
    QString path() const { return m_path; }

    const PolicyLoadResult &current() const { return m_current; }

    // Default 200 ms: long enough to span an editor's save, short enough to feel immediate.
    void setDebounceInterval(int ms) { m_debounce.setInterval(ms); }
    int debounceInterval() const { return m_debounce.interval(); }

    // Reads the file now; emits only when the result (policy or diagnostics) differs from current().
    void reload();

Q_SIGNALS:
    void policyChanged(const PolicyLoadResult &result);

private:
    void scheduleReload();
    void rewatch();

    QString m_path;
    QFileSystemWatcher m_watcher;
    QTimer m_debounce;
    PolicyLoadResult m_current;
    bool m_loadedOnce = false;
};
