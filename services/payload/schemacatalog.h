#pragma once

#include "services/payload/payloadschema.h"

#include <QHash>
#include <QList>
#include <QString>

#include <functional>
#include <memory>
#include <condition_variable>
#include <mutex>

// Where decoders find schemas (ARCHITECTURE.md, Data flows: payload decoding): a per-id cache filled from the
// Schema Registry, and local schema files mapped to topics. Look-ups never wait: an id not yet cached is
// reported as pending and handed to the fetcher (the registry client), which answers later with insert()
// or fail(); whoever shows the payload decodes again when schemaArrived fires. Thread-safe.
class SchemaCatalog final {
public:
    struct Lookup {
        enum class State { Ready, Pending, Failed, NoRegistry };
        State state = State::NoRegistry;
        std::shared_ptr<const PayloadSchema> schema;
        QString reason; // Failed: why (unknown id, registry down, schema does not parse)
    };

    // fetch(id) is called (outside the lock) the first time an id is missed; without one there is no registry.
    void setFetcher(std::function<void(int id)> fetch);
    bool hasRegistry() const;

    Lookup byId(int id);
    // A fetched schema, or why it could not be had. A failure that may pass (the registry was down, slow
    // or answered garbage) is forgotten after retryAfterMs, so a later look-up asks again.
    void insert(int id, std::shared_ptr<const PayloadSchema> schema);
    void fail(int id, const QString &reason, bool mayPass, qint64 retryAfterMs = 30000);
    // For the command line only, which has no view to decode again later: blocks until id has an answer
    // (or timeoutMs passes). False on timeout. Never called on a UI thread.
    bool waitForAnswer(int id, int timeoutMs);

    // A subject's versions and their ids (the registry's /subjects/{subject}/versions), for choosing a newer
    // version of an edited payload's schema. versionsFetch(subject) is called (outside the lock) to ask; the
    // fetcher answers with answerVersions().
    struct SubjectVersion {
        int version = -1;
        int id = -1;
        friend bool operator==(const SubjectVersion &, const SubjectVersion &) = default;
    };
    void setVersionsFetcher(std::function<void(const QString &subject)> fetch);
    void answerVersions(const QString &subject, const QList<SubjectVersion> &versions, const QString &error);
    // Blocks (never on a UI thread) until the registry has listed the subject's versions, oldest first, or
    // timeoutMs passes. Asks afresh on every call: a newer version may have been registered since. Empty
    // with *error when there is no registry, it did not answer in time, or it answered with an error.
    QList<SubjectVersion> subjectVersions(const QString &subject, int timeoutMs, QString *error);

    void mapTopic(const QString &topic, std::shared_ptr<const PayloadSchema> schema);
    // A local file mapping as the profile and `--schema` write it: "FILE=TOPIC", or "FILE#pkg.Message=TOPIC"
    // to pick a Protobuf message. False with the reason when the spec or the file is unusable.
    bool mapFile(const QString &spec, QString *error);
    std::shared_ptr<const PayloadSchema> forTopic(const QString &topic) const;
    bool hasTopicSchemas() const;

private:
    struct Entry {
        Lookup::State state = Lookup::State::Pending;
        std::shared_ptr<const PayloadSchema> schema;
        QString reason;
        qint64 retryAtMs = -1; // -1: the answer stands
    };
    mutable std::mutex m_mutex;
    std::condition_variable m_answered;
    std::function<void(int)> m_fetch;
    std::function<void(const QString &)> m_versionsFetch;
    struct VersionsAnswer {
        quint64 generation = 0; // answers counted per subject, so a waiter takes only a fresh one
        QList<SubjectVersion> versions;
        QString error;
    };
    QHash<QString, VersionsAnswer> m_versions;
    QHash<int, Entry> m_byId;
    QHash<QString, std::shared_ptr<const PayloadSchema>> m_byTopic;
};
