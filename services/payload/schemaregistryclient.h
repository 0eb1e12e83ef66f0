#pragma once

#include "services/payload/schemaregistryconfig.h"

#include <QHash>
#include <QObject>
#include <QQueue>

#include <memory>

class QJsonArray;
class QJsonObject;
class QNetworkAccessManager;
class QNetworkReply;
class SchemaCatalog;

// Fetches schemas by id from a Confluent Schema Registry (GET /schemas/ids/{id}, its subject and version
// from /schemas/ids/{id}/versions, Protobuf imports from /subjects/{subject}/versions/{version}) and puts
// them, or why they could not be had, into a SchemaCatalog (ARCHITECTURE.md, Data flows: payload decoding).
// Qt Network's asynchronous requests on the thread the client lives on (the UI thread in the console):
// nothing waits. It installs itself as the catalog's fetcher, so a look-up of an id not yet cached asks
// for it from any thread; schemaArrived(id) then says the catalog has an answer. Basic auth and TLS (a CA
// file besides the system's); each request has a timeout; a few ids are fetched at a time.
class SchemaRegistryClient final : public QObject {
    Q_OBJECT
public:
    static constexpr int kMaxInFlight = 4;

    SchemaRegistryClient(const SchemaRegistryConfig &config, SchemaCatalog *catalog, QObject *parent = nullptr);
    ~SchemaRegistryClient() override;

    // Thread-safe: queues a fetch of id on the client's thread.
    void requestSchema(int id);
    // Thread-safe: lists a subject's versions and their ids (GET /subjects/{subject}/versions, then
    // /subjects/{subject}/versions/{v} for the kMaxListedVersions newest) into the catalog
    // (SchemaCatalog::answerVersions); the schemas themselves are fetched by id as any other.
    void requestSubjectVersions(const QString &subject);
    static constexpr int kMaxListedVersions = 20;
    // Ids asked for and not yet answered.
    int outstanding() const { return int(m_queue.size() + m_fetches.size()); }

Q_SIGNALS:
    void schemaArrived(int id);

private:
    struct Fetch;
    void startNext();
    QNetworkReply *get(const QString &path);
    // One of an id's requests answered: the reply is let go and the fetch counts one fewer pending
    // request; null when the fetch is gone.
    std::shared_ptr<Fetch> answered(int id, QNetworkReply *reply);
    void onSchema(int id, QNetworkReply *reply);
    void onVersions(int id, QNetworkReply *reply);
    void onReference(int id, const QString &name, int depth, QNetworkReply *reply);
    void requestReferences(int id, const QJsonArray &references, int depth);
    void onSubjectVersions(const QString &subject, QNetworkReply *reply);
    void finishIfDone(int id);
    void finish(int id, const QString &failure, bool mayPass);
    // The operator's reason for a reply that is not a 200 with JSON; empty when it is one.
    QString replyProblem(QNetworkReply *reply, const QByteArray &body, bool *mayPass, bool *notFound) const;
    // A reply that should hold {"schema": ...}: the object, or *problem says why not.
    QJsonObject schemaAnswer(QNetworkReply *reply, QString *problem, bool *mayPass, bool *notFound) const;

    SchemaRegistryConfig m_config;
    SchemaCatalog *m_catalog;
    QNetworkAccessManager *m_network;
    QByteArray m_authorization;
    QQueue<int> m_queue;
    QHash<int, std::shared_ptr<Fetch>> m_fetches;
    struct Gate;
    std::shared_ptr<Gate> m_gate; // lets the catalog's fetcher reach this object only while it lives
};
