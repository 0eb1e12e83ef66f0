#pragma once

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QObject>
#include <QString>
#include <QThread>

class QTcpServer;
class QTcpSocket;

// The subset of Confluent's Schema Registry REST API that Berth reads, served on loopback inside a test
// (Debian ships no registry): GET /schemas/ids/{id}, /schemas/ids/{id}/versions,
// /subjects/{subject}/versions/{version} and /subjects/{subject}/versions. Each path answers what the test
// set: a status and body, after a delay, or nothing at all; basic auth is checked when credentials are set.
// Requests are counted by path.
class FakeSchemaRegistry final : public QObject {
    Q_OBJECT
public:
    explicit FakeSchemaRegistry(QObject *parent = nullptr);
    ~FakeSchemaRegistry() override;

    bool listen();
    // Serves https with this certificate and key (PEM files) instead of http.
    bool listenTls(const QString &certificateFile, const QString &keyFile, QString *error);
    QString url() const;

    // A schema as the registry stores it; schemaType "" (Avro), "PROTOBUF" or "JSON".
    void addSchema(int id, const QString &subject, int version, const QByteArray &schema,
                   const QString &schemaType = {}, const QByteArray &referencesJson = "[]");
    void addSubjectVersion(const QString &subject, int version, const QByteArray &schema);
    // Any other answer for one path: status, body, delay before answering (-1: never answer).
    void setAnswer(const QString &path, int status, const QByteArray &body, int delayMs = 0);
    void requireBasicAuth(const QString &username, const QString &password);

    int requests(const QString &path) const { return m_requests.value(path); }

private:
    struct Answer {
        int status = 404;
        QByteArray body;
        int delayMs = 0;
    };
    void onConnection();
    void onRequest(QTcpSocket *socket, const QByteArray &head);

    QTcpServer *m_server;
    QHash<QString, Answer> m_answers;
    QHash<QString, QList<int>> m_subjectVersions; // addSchema's, for /subjects/{subject}/versions
    QHash<QString, int> m_requests;
    QByteArray m_authorization;
    bool m_tls = false;
};

// A registry answering on a thread of its own, for a test whose own thread blocks (a command run in the
// test's process, or a child process waited for). Set it up through registry() before start(); it stops
// when this goes.
class FakeSchemaRegistryThread final {
public:
    FakeSchemaRegistryThread();
    ~FakeSchemaRegistryThread();
    FakeSchemaRegistryThread(const FakeSchemaRegistryThread &) = delete;
    FakeSchemaRegistryThread &operator=(const FakeSchemaRegistryThread &) = delete;

    FakeSchemaRegistry &registry() { return *m_registry; }
    // Listens on loopback and hands the registry to its thread; its url, empty when it cannot listen.
    QString start();

private:
    QThread m_thread;
    FakeSchemaRegistry *m_registry; // deleted on its thread when the thread finishes
};
