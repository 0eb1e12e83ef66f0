#pragma once

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QObject>
#include <QString>

class QTcpServer;
class QTcpSocket;

// The subset of Confluent's Schema Registry REST API that Berth reads, served on loopback inside a test
// (Debian ships no registry): GET /schemas/ids/{id}, /schemas/ids/{id}/versions and
// /subjects/{subject}/versions/{version}. Each path answers what the test set: a status and body, after a
// delay, or nothing at all; basic auth is checked when credentials are set. Requests are counted by path.
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
    QHash<QString, int> m_requests;
    QByteArray m_authorization;
    bool m_tls = false;
};
