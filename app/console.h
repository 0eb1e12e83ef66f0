#pragma once

#include "services/support/connectionprofile.h"

#include <QObject>

#include <memory>

class ConnectionsModel;
class LagSampler;
class LagTableModel;
class MainWindow;
class PgConnection;

// The composition root: services -> models -> views, wired here and nowhere else.
class Console final : public QObject {
    Q_OBJECT
public:
    explicit Console(const ConnectionProfile &profile, QObject *parent = nullptr);
    ~Console() override;

    void show();
    MainWindow *window() const { return m_window.get(); }
    LagTableModel *lagModel() const { return m_lagModel; }
    // Writes one PNG per main view into dir once the first samples have arrived; then emits screenshotsDone.
    void writeScreenshots(const QString &dir, int warmUpMs);

Q_SIGNALS:
    void screenshotsDone(bool ok, const QString &message);

private:
    void wireKafka();
    void wireDatabase();

    ConnectionProfile m_profile;
    LagSampler *m_sampler;
    PgConnection *m_database;
    ConnectionsModel *m_connections;
    LagTableModel *m_lagModel;
    std::unique_ptr<MainWindow> m_window;
    int m_samples = 0;
};
