#include "schemaregistryclient.h"

#include "services/payload/payloadschema.h"
#include "services/payload/schemacatalog.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QPointer>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QUrl>

#include <algorithm>
#include <mutex>

using namespace Qt::StringLiterals;

namespace {
// Imports of imports: real schemas have a few levels; a cycle or a chain longer than this is refused.
constexpr int kMaxReferenceDepth = 8;
constexpr int kMaxReferences = 64;
// Answers larger than this are not schemas.
constexpr qint64 kMaxAnswerBytes = 8 << 20;
} // namespace

struct SchemaRegistryClient::Gate {
    std::mutex mutex;
    SchemaRegistryClient *client = nullptr;
};

struct SchemaRegistryClient::Fetch {
    int pending = 0; // replies still expected
    QByteArray schemaText;
    QString schemaType;
    QString subject;
    int version = -1;
    QHash<QString, QByteArray> references;
    int referenceCount = 0;
    QString failure;
    bool mayPass = false;
};

SchemaRegistryClient::SchemaRegistryClient(const SchemaRegistryConfig &config, SchemaCatalog *catalog, QObject *parent)
    : QObject(parent)
    , m_config(config)
    , m_catalog(catalog)
    , m_network(new QNetworkAccessManager(this))
    , m_gate(std::make_shared<Gate>())
{
    if (!m_config.username.isEmpty() || !m_config.password.isEmpty())
        m_authorization = "Basic " + (m_config.username + u':' + m_config.password).toUtf8().toBase64();
    m_gate->client = this;
    std::weak_ptr<Gate> gate = m_gate;
    m_catalog->setFetcher([gate](int id) {
        if (const std::shared_ptr<Gate> g = gate.lock()) {
            std::lock_guard lock(g->mutex);
            if (g->client)
                g->client->requestSchema(id);
        }
    });
    m_catalog->setVersionsFetcher([gate](const QString &subject) {
        if (const std::shared_ptr<Gate> g = gate.lock()) {
            std::lock_guard lock(g->mutex);
            if (g->client)
                g->client->requestSubjectVersions(subject);
        }
    });
}

SchemaRegistryClient::~SchemaRegistryClient()
{
    // The catalog may already be gone (its owner's members go before its QObject children): it is not
    // touched here; its fetcher reaches nothing once the gate is closed.
    std::lock_guard lock(m_gate->mutex);
    m_gate->client = nullptr;
}

void SchemaRegistryClient::requestSchema(int id)
{
    QMetaObject::invokeMethod(
        this,
        [this, id] {
            if (!m_queue.contains(id) && !m_fetches.contains(id))
                m_queue.enqueue(id);
            startNext();
        },
        Qt::QueuedConnection);
}

void SchemaRegistryClient::requestSubjectVersions(const QString &subject)
{
    QMetaObject::invokeMethod(
        this,
        [this, subject] {
            QNetworkReply *reply =
                get(u"/subjects/%1/versions"_s.arg(QString::fromLatin1(QUrl::toPercentEncoding(subject))));
            connect(reply, &QNetworkReply::finished, this,
                    [this, subject, reply] { onSubjectVersions(subject, reply); });
        },
        Qt::QueuedConnection);
}

void SchemaRegistryClient::onSubjectVersions(const QString &subject, QNetworkReply *reply)
{
    reply->deleteLater();
    const QByteArray body = reply->read(kMaxAnswerBytes);
    bool mayPass = true, notFound = false;
    QString problem = replyProblem(reply, body, &mayPass, &notFound);
    const QJsonDocument list = QJsonDocument::fromJson(body);
    if (problem.isEmpty() && !list.isArray())
        problem = u"the registry's answer is not a list of versions"_s;
    if (!problem.isEmpty()) {
        m_catalog->answerVersions(subject, {}, problem);
        return;
    }
    QList<int> versions;
    for (const QJsonValue &v : list.array()) {
        if (v.isDouble() && v.toInt(-1) > 0)
            versions << v.toInt();
    }
    std::sort(versions.begin(), versions.end());
    versions = versions.mid(std::max<qsizetype>(0, versions.size() - kMaxListedVersions));
    if (versions.isEmpty()) {
        m_catalog->answerVersions(subject, {}, QString());
        return;
    }
    // Each version's id, from its own answer; the list is answered when the last one is in.
    struct Listing {
        QList<SchemaCatalog::SubjectVersion> found;
        int pending = 0;
        QString problem;
    };
    auto listing = std::make_shared<Listing>();
    listing->pending = int(versions.size());
    for (const int version : std::as_const(versions)) {
        QNetworkReply *one = get(u"/subjects/%1/versions/%2"_s.arg(
            QString::fromLatin1(QUrl::toPercentEncoding(subject)), QString::number(version)));
        connect(one, &QNetworkReply::finished, this, [this, subject, version, one, listing] {
            one->deleteLater();
            bool mayPass = true, notFound = false;
            QString problem;
            const QJsonObject answer = schemaAnswer(one, &problem, &mayPass, &notFound);
            const int id = answer.value("id"_L1).toInt(-1);
            if (problem.isEmpty() && id > 0)
                listing->found.append({version, id});
            else if (listing->problem.isEmpty())
                listing->problem = u"version %1: %2"_s.arg(version).arg(
                    problem.isEmpty() ? u"the registry's answer names no id"_s : problem);
            if (--listing->pending > 0)
                return;
            std::sort(listing->found.begin(), listing->found.end(),
                      [](const auto &a, const auto &b) { return a.version < b.version; });
            m_catalog->answerVersions(subject, listing->found,
                                      listing->found.isEmpty() ? listing->problem : QString());
        });
    }
}

QNetworkReply *SchemaRegistryClient::get(const QString &path)
{
    QUrl url(m_config.url.trimmed());
    QString base = url.path();
    if (base.endsWith(u'/'))
        base.chop(1);
    url.setPath(base + path);
    QNetworkRequest request(url);
    request.setRawHeader("Accept", "application/vnd.schemaregistry.v1+json, application/json");
    if (!m_authorization.isEmpty())
        request.setRawHeader("Authorization", m_authorization);
    request.setTransferTimeout(m_config.timeoutMs);
    if (url.scheme() == u"https"_s && !m_config.caFile.isEmpty()) {
        QSslConfiguration tls = QSslConfiguration::defaultConfiguration();
        tls.addCaCertificates(QSslCertificate::fromPath(m_config.caFile));
        request.setSslConfiguration(tls);
    }
    QNetworkReply *reply = m_network->get(request);
    reply->setReadBufferSize(0);
    return reply;
}

void SchemaRegistryClient::startNext()
{
    while (!m_queue.isEmpty() && m_fetches.size() < kMaxInFlight) {
        const int id = m_queue.dequeue();
        auto fetch = std::make_shared<Fetch>();
        fetch->pending = 2;
        m_fetches.insert(id, fetch);
        QNetworkReply *schema = get(u"/schemas/ids/%1"_s.arg(id));
        connect(schema, &QNetworkReply::finished, this, [this, id, schema] { onSchema(id, schema); });
        QNetworkReply *versions = get(u"/schemas/ids/%1/versions"_s.arg(id));
        connect(versions, &QNetworkReply::finished, this, [this, id, versions] { onVersions(id, versions); });
    }
}

QString SchemaRegistryClient::replyProblem(QNetworkReply *reply, const QByteArray &body, bool *mayPass,
                                           bool *notFound) const
{
    *mayPass = true;
    *notFound = false;
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    // The registry's own message ({"error_code":40403,"message":"Schema not found"}) when it sent one.
    const QString message = QJsonDocument::fromJson(body).object().value("message"_L1).toString().left(300);
    if (status == 404) {
        *notFound = true;
        *mayPass = false;
        return u"the registry does not know it (404%1)"_s.arg(message.isEmpty() ? QString() : u": "_s + message);
    }
    if (status == 401 || status == 403)
        return u"the registry refused the credentials (%1%2)"_s.arg(status).arg(
            message.isEmpty() ? QString() : u": "_s + message);
    if (status >= 300)
        return u"the registry answered %1%2"_s.arg(status).arg(message.isEmpty() ? QString() : u": "_s + message);
    if (reply->error() == QNetworkReply::OperationCanceledError || reply->error() == QNetworkReply::TimeoutError)
        return u"the registry did not answer within %1 ms"_s.arg(m_config.timeoutMs);
    if (reply->error() != QNetworkReply::NoError)
        return u"the registry is unreachable: "_s + reply->errorString();
    if (body.size() >= kMaxAnswerBytes)
        return u"the registry's answer is larger than a schema can be"_s;
    return {};
}

QJsonObject SchemaRegistryClient::schemaAnswer(QNetworkReply *reply, QString *problem, bool *mayPass,
                                               bool *notFound) const
{
    const QByteArray body = reply->read(kMaxAnswerBytes);
    *problem = replyProblem(reply, body, mayPass, notFound);
    const QJsonObject answer = QJsonDocument::fromJson(body).object();
    if (problem->isEmpty() && !answer.value("schema"_L1).isString())
        *problem = u"the registry's answer is not a schema: "_s
                   + QString::fromUtf8(body.left(80)).simplified().replace(QChar::ReplacementCharacter, u'?');
    return answer;
}

std::shared_ptr<SchemaRegistryClient::Fetch> SchemaRegistryClient::answered(int id, QNetworkReply *reply)
{
    reply->deleteLater();
    const std::shared_ptr<Fetch> fetch = m_fetches.value(id);
    if (fetch)
        --fetch->pending;
    return fetch;
}

void SchemaRegistryClient::onSchema(int id, QNetworkReply *reply)
{
    const std::shared_ptr<Fetch> fetch = answered(id, reply);
    if (!fetch)
        return;
    bool mayPass = true, notFound = false;
    QString problem;
    const QJsonObject answer = schemaAnswer(reply, &problem, &mayPass, &notFound);
    if (!problem.isEmpty()) {
        fetch->failure = notFound ? u"unknown schema id: "_s + problem : problem;
        fetch->mayPass = mayPass;
    } else {
        fetch->schemaText = answer.value("schema"_L1).toString().toUtf8();
        fetch->schemaType = answer.value("schemaType"_L1).toString();
        requestReferences(id, answer.value("references"_L1).toArray(), 0);
    }
    finishIfDone(id);
}

void SchemaRegistryClient::onVersions(int id, QNetworkReply *reply)
{
    const std::shared_ptr<Fetch> fetch = answered(id, reply);
    if (!fetch)
        return;
    // Older registries lack this endpoint: the schema is then named by its id alone.
    const QJsonArray versions = QJsonDocument::fromJson(reply->read(kMaxAnswerBytes)).array();
    if (reply->error() == QNetworkReply::NoError && !versions.isEmpty()) {
        const QJsonObject first = versions.first().toObject();
        fetch->subject = first.value("subject"_L1).toString();
        fetch->version = first.value("version"_L1).toInt(-1);
    }
    finishIfDone(id);
}

void SchemaRegistryClient::requestReferences(int id, const QJsonArray &references, int depth)
{
    const std::shared_ptr<Fetch> fetch = m_fetches.value(id);
    for (const QJsonValue &r : references) {
        const QJsonObject ref = r.toObject();
        const QString name = ref.value("name"_L1).toString();
        const QString subject = ref.value("subject"_L1).toString();
        const int version = ref.value("version"_L1).toInt(-1);
        if (fetch->references.contains(name))
            continue;
        if (depth >= kMaxReferenceDepth || ++fetch->referenceCount > kMaxReferences) {
            fetch->failure = u"the schema's references nest deeper or are more than Berth follows"_s;
            fetch->mayPass = false;
            return;
        }
        fetch->references.insert(name, {}); // claimed: a diamond of imports is fetched once
        ++fetch->pending;
        QNetworkReply *reply = get(u"/subjects/%1/versions/%2"_s.arg(
            QString::fromLatin1(QUrl::toPercentEncoding(subject)), version < 0 ? u"latest"_s : QString::number(version)));
        connect(reply, &QNetworkReply::finished, this,
                [this, id, name, depth, reply] { onReference(id, name, depth, reply); });
    }
}

void SchemaRegistryClient::onReference(int id, const QString &name, int depth, QNetworkReply *reply)
{
    const std::shared_ptr<Fetch> fetch = answered(id, reply);
    if (!fetch)
        return;
    bool mayPass = true, notFound = false;
    QString problem;
    const QJsonObject answer = schemaAnswer(reply, &problem, &mayPass, &notFound);
    if (!problem.isEmpty()) {
        if (fetch->failure.isEmpty()) {
            fetch->failure = u"its reference %1 could not be had: %2"_s.arg(name, problem);
            fetch->mayPass = mayPass;
        }
    } else {
        fetch->references.insert(name, answer.value("schema"_L1).toString().toUtf8());
        requestReferences(id, answer.value("references"_L1).toArray(), depth + 1);
    }
    finishIfDone(id);
}

void SchemaRegistryClient::finishIfDone(int id)
{
    const std::shared_ptr<Fetch> fetch = m_fetches.value(id);
    if (!fetch || fetch->pending > 0)
        return;
    if (!fetch->failure.isEmpty()) {
        finish(id, fetch->failure, fetch->mayPass);
        return;
    }
    SchemaRef ref;
    ref.id = id;
    ref.subject = fetch->subject;
    ref.version = fetch->version;
    if (!SchemaRef::formatFromRegistry(fetch->schemaType, &ref.format)) {
        finish(id, u"schema type %1 is not one Berth decodes"_s.arg(fetch->schemaType), false);
        return;
    }
    QString error;
    std::shared_ptr<const PayloadSchema> schema = PayloadSchema::compile(ref, fetch->schemaText, fetch->references, &error);
    if (!schema) {
        finish(id, u"the registry's schema does not parse: "_s + error, false);
        return;
    }
    m_catalog->insert(id, std::move(schema));
    m_fetches.remove(id);
    Q_EMIT schemaArrived(id);
    startNext();
}

void SchemaRegistryClient::finish(int id, const QString &failure, bool mayPass)
{
    m_catalog->fail(id, failure, mayPass);
    m_fetches.remove(id);
    Q_EMIT schemaArrived(id);
    startNext();
}
