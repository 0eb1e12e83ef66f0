#include "privatekeychain.h"

#include "support/testsupport.h"

#include <QTest>

using namespace Qt::StringLiterals;

bool PrivateKeychain::start(QString *error, const QString &home)
{
    if (!TestSupport::haveExecutable(u"dbus-daemon"_s)
        || !TestSupport::haveExecutable(u"gnome-keyring-daemon"_s)) {
        *error = u"dbus-daemon and gnome-keyring-daemon are required (scripts/berth.sh deps installs them)"_s;
        return false;
    }
    const QString dir = home.isEmpty() ? m_home.path() : home;
    m_bus.start(u"dbus-daemon"_s, {u"--session"_s, u"--nofork"_s, u"--print-address=1"_s});
    if (!m_bus.waitForReadyRead(10000)) {
        *error = u"dbus-daemon did not start: "_s + QString::fromLocal8Bit(m_bus.readAllStandardError());
        return false;
    }
    const QByteArray address = m_bus.readLine().trimmed();
    qputenv("DBUS_SESSION_BUS_ADDRESS", address);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"HOME"_s, dir);
    env.insert(u"XDG_DATA_HOME"_s, dir + u"/data"_s);
    env.insert(u"XDG_RUNTIME_DIR"_s, dir);
    env.insert(u"DBUS_SESSION_BUS_ADDRESS"_s, QString::fromLatin1(address));
    m_keyring.setProcessEnvironment(env);
    m_keyring.start(u"gnome-keyring-daemon"_s, {u"--foreground"_s, u"--unlock"_s, u"--components=secrets"_s});
    if (!m_keyring.waitForStarted(10000)) {
        *error = u"gnome-keyring-daemon did not start"_s;
        return false;
    }
    m_keyring.write("keyring-test-password");
    m_keyring.closeWriteChannel();
    // Ready once it owns the Secret Service name on the bus.
    for (int i = 0; i < 100; ++i) {
        QProcess probe;
        probe.setProcessEnvironment(env);
        probe.start(u"dbus-send"_s, {u"--session"_s, u"--print-reply"_s, u"--dest=org.freedesktop.DBus"_s,
                                     u"/org/freedesktop/DBus"_s, u"org.freedesktop.DBus.NameHasOwner"_s,
                                     u"string:org.freedesktop.secrets"_s});
        probe.waitForFinished(5000);
        if (probe.readAllStandardOutput().contains("boolean true"))
            return true;
        QTest::qWait(100);
    }
    *error = u"the Secret Service never appeared on the bus: "_s
             + QString::fromLocal8Bit(m_keyring.readAllStandardError());
    return false;
}

PrivateKeychain::~PrivateKeychain()
{
    for (QProcess *p : {&m_keyring, &m_bus}) {
        p->kill();
        p->waitForFinished(5000);
    }
}
