#pragma once

#include <QProcess>
#include <QString>
#include <QTemporaryDir>

// A Secret Service of the test's own: a session bus and gnome-keyring-daemon with an unlocked login keyring
// in a temporary home. The test process's DBus address points at it while it lives.
class PrivateKeychain final {
public:
    PrivateKeychain() = default;
    ~PrivateKeychain();

    // home: where the keyring keeps its files (HOME, XDG_DATA_HOME=home/data); empty: a temporary directory.
    bool start(QString *error, const QString &home = {});

private:
    QTemporaryDir m_home;
    QProcess m_bus;
    QProcess m_keyring;
};
