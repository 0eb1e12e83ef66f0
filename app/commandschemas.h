#pragma once

#include "services/payload/schemaregistryconfig.h"

#include <QCommandLineParser>
#include <QStringList>
#include <QThread>

#include <memory>

class SchemaCatalog;
class SchemaRegistryClient;

// Where the subcommands that decode or encode payloads (`berth dlq scan`, `berth replay request --edit`) find
// schemas (ARCHITECTURE.md, Data flows: payload decoding): --schema-registry URL (else the profile's
// registry) and --schema FILE=TOPIC (after the profile's schema files). One definition of the options and of
// the registry client's thread: the command's own thread blocks in its work, so the client runs on a thread
// of its own with an event loop, and whoever needs a schema waits for it (SchemaCatalog::waitForAnswer).
class CommandSchemas final {
public:
    static void addOptions(QCommandLineParser &parser);

    CommandSchemas();
    ~CommandSchemas(); // stops the registry client and its thread
    CommandSchemas(const CommandSchemas &) = delete;
    CommandSchemas &operator=(const CommandSchemas &) = delete;

    // The registry the command asks: --schema-registry over the profile's, with timeoutMs per request.
    void setRegistry(const QCommandLineParser &parser, const SchemaRegistryConfig &profileRegistry,
                     int timeoutMs);
    const SchemaRegistryConfig &registry() const { return m_registry; }
    // Maps the schema files (profileFiles, then --schema) and starts the registry client when there is a
    // registry. False with the reason (a file that cannot be used, a spec that cannot be read).
    bool open(const QCommandLineParser &parser, const QStringList &profileFiles, QString *error);
    const std::shared_ptr<SchemaCatalog> &catalog() const { return m_catalog; }

private:
    SchemaRegistryConfig m_registry;
    std::shared_ptr<SchemaCatalog> m_catalog;
    QThread m_registryThread;
    std::unique_ptr<SchemaRegistryClient> m_registryClient;
};
