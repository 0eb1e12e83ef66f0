#pragma once

#include "services/support/connectionprofile.h"

#include <QHash>
#include <QStringList>

#include <memory>
#include <optional>

class QSettings;

// A profile as the settings file keeps it: everything but its secrets, plus the ids of the secrets it
// needs (ProfileSecrets), which live in the OS keychain or are asked for each time.
struct StoredProfile {
    ConnectionProfile profile;
    QStringList secretIds;
};

// Named connection profiles in QSettings (group "profiles"). Saving strips every secret first, so the
// settings file never holds a password, whatever the caller passes in.
class ProfileStore final {
public:
    // settings: borrowed; nullptr means the application's default QSettings.
    explicit ProfileStore(QSettings *settings = nullptr);
    ~ProfileStore();

    QStringList names() const; // sorted, case-insensitively
    std::optional<StoredProfile> load(const QString &name) const;
    // Returns the secrets taken out of the profile, for the keychain. keptSecretIds: secrets the keychain
    // already holds that the operator left untouched (an empty field); they stay listed while the profile
    // still has a place for them.
    QHash<QString, QString> save(const ConnectionProfile &profile, const QStringList &keptSecretIds = {});
    void remove(const QString &name);
    // Replaces only the inbox mappings of a stored profile (the mapping editor opened from the Inbox
    // view): no secret is touched. False when no profile of that name is stored.
    bool saveInboxMappings(const QString &name, const QList<InboxMapping> &mappings);

    QString lastUsed() const;
    void setLastUsed(const QString &name);

    // The settings group a profile's own view state is kept under ("layout/<key>"): layouts follow profiles.
    static QString layoutGroup(const QString &profileName);

private:
    QSettings &settings() const;
    QSettings *m_settings;
    std::unique_ptr<QSettings> m_owned;
};
