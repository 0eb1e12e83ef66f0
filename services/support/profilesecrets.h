#pragma once

#include "services/support/connectionprofile.h"

#include <QHash>
#include <QString>
#include <QStringList>

// Which parts of a connection profile are secrets, and moving them out of (and back into) a profile, so
// the settings file only ever sees the rest. Secrets are named by an id that is stable across runs:
// "kafka/<property>" for a librdkafka property, "db/password" for the database password,
// "registry/password" for the Schema Registry's basic-auth password.
namespace ProfileSecrets {
inline constexpr char DatabasePasswordId[] = "db/password";
inline constexpr char RegistryPasswordId[] = "registry/password";
// The secret id of a named database's password ("db/<name>/password").
QString namedDatabasePasswordId(const QString &name);

// librdkafka properties that hold a secret (passwords, client secrets, private keys), as opposed to paths.
bool isSecretKafkaProperty(QStringView key);
// Takes every secret out of *profile (Kafka secret properties keep their key with an empty value; the
// conninfo loses its password) and returns them by id. Nothing else in the profile changes.
QHash<QString, QString> extract(ConnectionProfile *profile);
// Whether the profile can use the secret `id` (its Kafka property is present; a database is configured).
bool hasPlaceFor(const ConnectionProfile &profile, const QString &id);
// Puts secrets back (the inverse of extract); ids the profile does not know are ignored.
void apply(ConnectionProfile *profile, const QHash<QString, QString> &secrets);

// The conninfo without its password (keyword/value form when one was removed; unchanged otherwise, so
// URIs and service= names stay as the operator wrote them). *password receives it; empty when none.
QString stripPassword(const QString &conninfo, QString *password);
// The conninfo with `password` set (keyword/value form). Returns conninfo unchanged when it cannot be
// parsed: libpq will then say what is wrong with it on connect.
QString withPassword(const QString &conninfo, const QString &password);
// libpq's error for a conninfo it cannot parse quotes the piece it stumbled on (`missing "=" after "horse"`,
// `invalid percent-encoded token: "p%ZZ"`), and that piece can be part of a password typed without quotes.
// Such pieces, when they come from where a password would be, are shown as "…"; the rest of the error, and
// every error of a conninfo that parses, stays as libpq wrote it.
QString hidePasswordInParseError(const QString &conninfo, const QString &error);
// "sslmode" of the conninfo as libpq would use it: the explicit value, or its default ("prefer").
QString sslModeOf(const QString &conninfo);
} // namespace ProfileSecrets
