#include "schemacatalog.h"

#include <QDateTime>

void SchemaCatalog::setFetcher(std::function<void(int)> fetch)
{
    std::lock_guard lock(m_mutex);
    m_fetch = std::move(fetch);
}

bool SchemaCatalog::hasRegistry() const
{
    std::lock_guard lock(m_mutex);
    return bool(m_fetch);
}

SchemaCatalog::Lookup SchemaCatalog::byId(int id)
{
    std::function<void(int)> fetch;
    Lookup out;
    {
        std::lock_guard lock(m_mutex);
        auto it = m_byId.find(id);
        if (it != m_byId.end() && it->retryAtMs >= 0 && QDateTime::currentMSecsSinceEpoch() >= it->retryAtMs) {
            m_byId.erase(it);
            it = m_byId.end();
        }
        if (it != m_byId.end()) {
            out.state = it->state;
            out.schema = it->schema;
            out.reason = it->reason;
            return out;
        }
        if (!m_fetch)
            return out; // NoRegistry
        m_byId.insert(id, Entry{});
        fetch = m_fetch;
        out.state = Lookup::State::Pending;
    }
    fetch(id);
    return out;
}

void SchemaCatalog::insert(int id, std::shared_ptr<const PayloadSchema> schema)
{
    {
        std::lock_guard lock(m_mutex);
        m_byId.insert(id, Entry{Lookup::State::Ready, std::move(schema), QString(), -1});
    }
    m_answered.notify_all();
}

bool SchemaCatalog::waitForAnswer(int id, int timeoutMs)
{
    std::unique_lock lock(m_mutex);
    return m_answered.wait_for(lock, std::chrono::milliseconds(timeoutMs), [&] {
        const auto it = m_byId.constFind(id);
        return it == m_byId.cend() || it->state != Lookup::State::Pending;
    });
}

void SchemaCatalog::fail(int id, const QString &reason, bool mayPass, qint64 retryAfterMs)
{
    {
        std::lock_guard lock(m_mutex);
        m_byId.insert(id, Entry{Lookup::State::Failed, nullptr, reason,
                                mayPass ? QDateTime::currentMSecsSinceEpoch() + retryAfterMs : -1});
    }
    m_answered.notify_all();
}

void SchemaCatalog::setVersionsFetcher(std::function<void(const QString &)> fetch)
{
    std::lock_guard lock(m_mutex);
    m_versionsFetch = std::move(fetch);
}

void SchemaCatalog::answerVersions(const QString &subject, const QList<SubjectVersion> &versions,
                                   const QString &error)
{
    {
        std::lock_guard lock(m_mutex);
        VersionsAnswer &answer = m_versions[subject];
        ++answer.generation;
        answer.versions = versions;
        answer.error = error;
    }
    m_answered.notify_all();
}

QList<SchemaCatalog::SubjectVersion> SchemaCatalog::subjectVersions(const QString &subject, int timeoutMs,
                                                                    QString *error)
{
    std::function<void(const QString &)> fetch;
    quint64 asked = 0;
    {
        std::lock_guard lock(m_mutex);
        if (!m_versionsFetch) {
            *error = QStringLiteral("no Schema Registry is configured");
            return {};
        }
        fetch = m_versionsFetch;
        asked = m_versions.value(subject).generation;
    }
    fetch(subject);
    std::unique_lock lock(m_mutex);
    if (!m_answered.wait_for(lock, std::chrono::milliseconds(timeoutMs),
                             [&] { return m_versions.value(subject).generation > asked; })) {
        *error = QStringLiteral("the registry did not list the versions of %1 in time").arg(subject);
        return {};
    }
    const VersionsAnswer &answer = m_versions[subject];
    *error = answer.error;
    return answer.versions;
}

void SchemaCatalog::mapTopic(const QString &topic, std::shared_ptr<const PayloadSchema> schema)
{
    std::lock_guard lock(m_mutex);
    m_byTopic.insert(topic, std::move(schema));
}

bool SchemaCatalog::mapFile(const QString &spec, QString *error)
{
    const qsizetype eq = spec.lastIndexOf(u'=');
    if (eq <= 0 || eq == spec.size() - 1) {
        *error = spec + QStringLiteral(": expected FILE=TOPIC");
        return false;
    }
    QString file = spec.left(eq);
    QString message;
    if (const qsizetype hash = file.lastIndexOf(u'#'); hash > 0) {
        message = file.mid(hash + 1);
        file.truncate(hash);
    }
    std::shared_ptr<const PayloadSchema> schema = PayloadSchema::fromFile(file, message, error);
    if (!schema)
        return false;
    mapTopic(spec.mid(eq + 1), std::move(schema));
    return true;
}

std::shared_ptr<const PayloadSchema> SchemaCatalog::forTopic(const QString &topic) const
{
    std::lock_guard lock(m_mutex);
    return m_byTopic.value(topic);
}

bool SchemaCatalog::hasTopicSchemas() const
{
    std::lock_guard lock(m_mutex);
    return !m_byTopic.isEmpty();
}
