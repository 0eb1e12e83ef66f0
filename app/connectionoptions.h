#pragma once

#include "services/inbox/inboxmappingset.h"
#include "services/policy/deliverypolicy.h"
#include "services/support/connectionprofile.h"

#include <QCommandLineParser>

// The connection options every subcommand understands: --bootstrap, --property, --group, --db, --policy,
// --profile.
namespace ConnectionOptions {
void add(QCommandLineParser &parser);
// Falls back to the last profile used by the console (settings) for what the command line leaves out.
// --profile loads a saved profile (without its secrets: their ids go to *secretIds).
ConnectionProfile read(const QCommandLineParser &parser, QStringList *secretIds = nullptr);
bool hasConnectionOptions(const QCommandLineParser &parser);
// Puts a saved profile's secrets (the ids read() returned) back from the keychain, waiting for it. Returns
// false with *error naming the secrets it could not read (no keychain service, no entry); the rest are put
// back all the same.
bool readSecrets(ConnectionProfile *profile, const QStringList &secretIds, QString *error);
void remember(const ConnectionProfile &profile);
// The profile's policy (when it names one; errors as "file:line:column: ..." lines) and the inbox mappings in
// force: the policy's over the profile's, --db as the default database.
bool readPolicy(const ConnectionProfile &profile, DeliveryPolicy *policy, InboxMappingSet *mappings, QString *error);
}
