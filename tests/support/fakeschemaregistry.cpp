#include "fakeschemaregistry.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QFile>
#include <QPointer>
#include <QSslConfiguration>
#include <QSslKey>
#include <QSslServer>
#include <QTcpServer>

#include <QTcpSocket>
#include <QTimer>
#include <algorithm>

using namespace Qt::StringLiterals;

FakeSchemaRegistry::FakeSchemaRegistry(QObject *parent)
    : QObject(parent)
    , m_server(new QTcpServer(this))
{
    connect(m_server, &QTcpServer::newConnection, this, &FakeSchemaRegistry::onConnection);
}

FakeSchemaRegistry::~FakeSchemaRegistry() = default;

bool FakeSchemaRegistry::listen()
{
    return m_server->listen(QHostAddress::LocalHost, 0);
}

bool FakeSchemaRegistry::listenTls(const QString &certificateFile, const QString &keyFile, QString *error)
{
    QFile key(keyFile);
    const QList<QSslCertificate> certificates = QSslCertificate::fromPath(certificateFile);
    if (certificates.isEmpty() || !key.open(QIODevice::ReadOnly)) {
        *error = u"cannot read "_s + certificateFile + u" or "_s + keyFile;
        return false;
    }
    QSslConfiguration tls = QSslConfiguration::defaultConfiguration();
    tls.setLocalCertificate(certificates.first());
    tls.setPrivateKey(QSslKey(&key, QSsl::Rsa));
    auto *server = new QSslServer(this);
    server->setSslConfiguration(tls);
    // Handshakes that fail (a client that does not trust the certificate) just close.
    delete m_server;
    m_server = server;
    connect(m_server, &QTcpServer::pendingConnectionAvailable, this, &FakeSchemaRegistry::onConnection);
    m_tls = true;
    if (!m_server->listen(QHostAddress::LocalHost, 0)) {
        *error = m_server->errorString();
        return false;
    }
    return true;
}

QString FakeSchemaRegistry::url() const
{
    return u"%1://127.0.0.1:%2"_s.arg(m_tls ? u"https"_s : u"http"_s).arg(m_server->serverPort());
}

void FakeSchemaRegistry::addSchema(int id, const QString &subject, int version, const QByteArray &schema,
                                   const QString &schemaType, const QByteArray &referencesJson)
{
    QJsonObject o{{u"schema"_s, QString::fromUtf8(schema)}};
    if (!schemaType.isEmpty())
        o.insert(u"schemaType"_s, schemaType);
    const QJsonArray references = QJsonDocument::fromJson(referencesJson).array();
    if (!references.isEmpty())
        o.insert(u"references"_s, references);
    setAnswer(u"/schemas/ids/%1"_s.arg(id), 200, QJsonDocument(o).toJson(QJsonDocument::Compact));
    const QJsonArray versions{QJsonObject{{u"subject"_s, subject}, {u"version"_s, version}}};
    setAnswer(u"/schemas/ids/%1/versions"_s.arg(id), 200, QJsonDocument(versions).toJson(QJsonDocument::Compact));
    // The subject's view of it: the version with its id, and the subject's list of versions.
    o.insert(u"subject"_s, subject);
    o.insert(u"version"_s, version);
    o.insert(u"id"_s, id);
    setAnswer(u"/subjects/%1/versions/%2"_s.arg(subject).arg(version), 200,
              QJsonDocument(o).toJson(QJsonDocument::Compact));
    QList<int> &listed = m_subjectVersions[subject];
    if (!listed.contains(version))
        listed.append(version);
    std::sort(listed.begin(), listed.end());
    QJsonArray list;
    for (const int v : std::as_const(listed))
        list.append(v);
    setAnswer(u"/subjects/%1/versions"_s.arg(subject), 200,
              QJsonDocument(list).toJson(QJsonDocument::Compact));
}

void FakeSchemaRegistry::addSubjectVersion(const QString &subject, int version, const QByteArray &schema)
{
    const QJsonObject o{{u"subject"_s, subject}, {u"version"_s, version}, {u"schema"_s, QString::fromUtf8(schema)}};
    setAnswer(u"/subjects/%1/versions/%2"_s.arg(subject).arg(version), 200, QJsonDocument(o).toJson(QJsonDocument::Compact));
}

void FakeSchemaRegistry::setAnswer(const QString &path, int status, const QByteArray &body, int delayMs)
{
    m_answers.insert(path, {status, body, delayMs});
}

void FakeSchemaRegistry::requireBasicAuth(const QString &username, const QString &password)
{
    m_authorization = "Basic " + (username + u':' + password).toUtf8().toBase64();
}

void FakeSchemaRegistry::onConnection()
{
    while (QTcpSocket *socket = m_server->nextPendingConnection()) {
        connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
        auto buffer = std::make_shared<QByteArray>();
        connect(socket, &QTcpSocket::readyRead, this, [this, socket, buffer] {
            *buffer += socket->readAll();
            // One request at a time per connection (GETs have no body): answer each complete head.
            qsizetype end;
            while ((end = buffer->indexOf("\r\n\r\n")) >= 0) {
                const QByteArray head = buffer->left(end);
                buffer->remove(0, end + 4);
                onRequest(socket, head);
            }
        });
    }
}

void FakeSchemaRegistry::onRequest(QTcpSocket *socket, const QByteArray &head)
{
    const QList<QByteArray> lines = head.split('\n');
    const QList<QByteArray> requestLine = lines.value(0).trimmed().split(' ');
    const QString path = QString::fromUtf8(requestLine.value(1));
    m_requests[path] += 1;
    QByteArray authorization;
    for (const QByteArray &line : lines) {
        if (line.toLower().startsWith("authorization:"))
            authorization = line.mid(14).trimmed();
    }
    Answer answer = m_answers.value(path, {404, R"({"error_code":40403,"message":"Schema not found"})", 0});
    if (!m_authorization.isEmpty() && authorization != m_authorization)
        answer = {401, R"({"error_code":401,"message":"Unauthorized"})", 0};
    if (answer.delayMs < 0)
        return; // never answers
    const QByteArray reply = "HTTP/1.1 " + QByteArray::number(answer.status) + " X\r\nContent-Type: "
                             "application/vnd.schemaregistry.v1+json\r\nContent-Length: "
                             + QByteArray::number(answer.body.size()) + "\r\n\r\n" + answer.body;
    QPointer<QTcpSocket> guarded(socket);
    QTimer::singleShot(answer.delayMs, this, [guarded, reply] {
        if (guarded)
            guarded->write(reply);
    });
}

FakeSchemaRegistryThread::FakeSchemaRegistryThread()
    : m_registry(new FakeSchemaRegistry)
{
    QObject::connect(&m_thread, &QThread::finished, m_registry, &QObject::deleteLater);
}

FakeSchemaRegistryThread::~FakeSchemaRegistryThread()
{
    if (m_thread.isRunning()) {
        m_thread.quit();
        m_thread.wait();
    } else {
        delete m_registry;
    }
}

QString FakeSchemaRegistryThread::start()
{
    if (!m_registry->listen())
        return {};
    const QString url = m_registry->url();
    m_registry->moveToThread(&m_thread);
    m_thread.start();
    return url;
}
