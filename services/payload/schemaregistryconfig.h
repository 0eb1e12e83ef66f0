#pragma once

#include <QString>

// Where a profile's Schema Registry is and how to reach it. The password lives in the keychain
// (ProfileSecrets id "registry/password"), never in settings.
struct SchemaRegistryConfig {
    QString url;      // http(s)://host:port[/prefix]; empty: no registry
    QString username; // basic auth, with password
    QString password;
    QString caFile;   // PEM file of CA certificates to trust besides the system's, for https
    int timeoutMs = 10000; // per request

    bool isSet() const { return !url.trimmed().isEmpty(); }
    friend bool operator==(const SchemaRegistryConfig &, const SchemaRegistryConfig &) = default;
};
