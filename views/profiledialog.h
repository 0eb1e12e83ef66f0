#pragma once

#include "services/support/connectionprofile.h"
#include "services/support/jobtracker.h"
#include "services/support/profilestore.h"

#include <QDialog>

#include <functional>
#include <optional>

class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class SecretStore;

// Named connection profiles: edit, test, save (secrets to the keychain, the rest to the settings file)
// and connect. Emits connectRequested with the secrets filled in, asking for any the keychain cannot give.
class ProfileDialog final : public QDialog {
    Q_OBJECT
public:
    ProfileDialog(ProfileStore *store, SecretStore *secrets, QWidget *parent = nullptr);

    void selectProfile(const QString &name);
    // Opens on the profile the console is connected with: the stored one of that name, else the profile
    // itself (a demo's, a command line's), its secrets left out.
    void showProfileInUse(const ConnectionProfile &inUse);
    // True when the form differs from what was loaded or last saved.
    bool hasUnsavedEdits() const;
    // Close with unsaved edits asks first (Escape, the Close button, the window's close).
    void reject() override;
    // The form as a profile, secrets as typed (not yet stripped).
    ConnectionProfile formProfile() const;
    void setFormProfile(const ConnectionProfile &profile, const QStringList &storedSecretIds = {});
    QString resultText() const;

    // Saves the form; the keychain write finishes asynchronously (savedSecrets reports it).
    bool save();
    void testConnection();

    // Fills in a stored profile's secrets from the keychain, asking the operator (with the reason) for any
    // it cannot give. Blocks in a local event loop; nullopt when the operator cancels a prompt.
    static std::optional<ConnectionProfile> resolveSecrets(const StoredProfile &stored, SecretStore *secrets,
                                                           QWidget *parent);

Q_SIGNALS:
    void connectRequested(const ConnectionProfile &profile);
    void tested(bool kafkaOk, bool databaseOk);
    void savedSecrets(bool ok, const QString &message);

private:
    void reloadNames();
    void onSelectionChanged();
    void showResult(const QString &text);
    void connectSelected();
    void removeSelected();
    void editInboxMappings();
    // Runs `then` with the profile's secrets: those typed in the form, the rest from the keychain.
    void withSecrets(ConnectionProfile profile, std::function<void(const ConnectionProfile &)> then);
    void showMappingCount();
    QStringList formState() const;
    void markClean();

    ProfileStore *m_store;
    SecretStore *m_secrets;
    QListWidget *m_names;
    QLineEdit *m_name;
    QLineEdit *m_bootstrap;
    QPlainTextEdit *m_properties;
    QLineEdit *m_groups;
    QLineEdit *m_dlqTopics;
    QLineEdit *m_duplicateTopics;
    QLineEdit *m_database;
    QLineEdit *m_databasePassword;
    QLabel *m_sslMode;
    QLineEdit *m_policy;
    QSpinBox *m_interval;
    QPushButton *m_editMappings;
    QLabel *m_mappingCount;
    QLabel *m_result;
    QPushButton *m_test;
    QStringList m_storedSecretIds; // of the profile being edited: empty fields keep the keychain's value
    QHash<QString, QString> m_typedSecrets;
    // Kept from the stored profile, edited by the inbox mapping editor, saved with the form.
    QList<InboxMapping> m_inboxMappings;
    QMap<QString, QString> m_databases;
    JobTracker m_testJobs{this};
    QStringList m_cleanState;
    bool m_mappingsEdited = false;
    bool m_showingTest = false; // the result pane holds a test's outcome, which edits make stale
};
