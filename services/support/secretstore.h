#pragma once

#include <QHash>
#include <QObject>
#include <QStringList>

#include <functional>

// A profile's secrets in the OS keychain (Secret Service, KWallet, macOS Keychain, Windows Credential
// Store) through QtKeychain; never in a file of Berth's. Keys are "<profile>/<secret id>" under the
// service name. Every call finishes asynchronously with exactly one call of `done`, on this object's
// thread. There is no plaintext fallback: when no keychain service exists, the outcome says so and the
// caller asks the operator each time.
class SecretStore final : public QObject {
    Q_OBJECT
public:
    struct Outcome {
        bool ok = false;
        bool keychainMissing = false;      // no keychain service on this desktop: ask each time
        QString error;                     // the keychain's own words when not ok
        QHash<QString, QString> secrets;   // fetch: what was found
        QStringList missing;               // fetch: ids the keychain has no entry for
    };
    using Done = std::function<void(const Outcome &)>;

    explicit SecretStore(const QString &service = QStringLiteral("Berth"), QObject *parent = nullptr);

    void store(const QString &profile, const QHash<QString, QString> &secrets, Done done);
    void fetch(const QString &profile, const QStringList &ids, Done done);
    void erase(const QString &profile, const QStringList &ids, Done done);

    // One sentence for the operator when secrets cannot be kept, e.g. in the password prompt.
    static QString askEachTimeReason(const Outcome &outcome);

private:
    enum class Kind { Write, Read, Delete };
    struct Step {
        Kind kind;
        QString id;
        QString value;
    };
    void runSteps(const QString &profile, QList<Step> steps, Outcome outcome, Done done);

    QString m_service;
};
