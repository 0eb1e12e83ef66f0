#include "console.h"

#include "models/connectionsmodel.h"
#include "models/lagtablemodel.h"
#include "services/inbox/pgconnection.h"
#include "services/monitor/lagsampler.h"
#include "views/lagview.h"
#include "views/mainwindow.h"

#include <QDir>
#include <QLocale>
#include <QTimer>

using namespace Qt::StringLiterals;

Console::Console(const ConnectionProfile &profile, QObject *parent)
    : QObject(parent)
    , m_profile(profile)
    , m_sampler(new LagSampler(this))
    , m_database(new PgConnection(this))
    , m_connections(new ConnectionsModel(this))
    , m_lagModel(new LagTableModel(this))
    , m_window(std::make_unique<MainWindow>(m_connections, m_lagModel))
{
    wireKafka();
    wireDatabase();
}

Console::~Console()
{
    m_window.reset(); // views go before the models they show
}

void Console::wireKafka()
{
    connect(m_sampler, &LagSampler::clusterUpdated, m_connections, &ConnectionsModel::setCluster);
    connect(m_sampler, &LagSampler::sampled, this, [this](const LagSnapshot &snapshot) {
        ++m_samples;
        if (!snapshot.reachable)
            return; // keep showing the last good numbers; the banner says why they are old
        m_lagModel->setSnapshot(snapshot);
        m_connections->setGroups(snapshot.groups, snapshot.groupSource);
        qint64 total = 0;
        for (const auto &row : snapshot.rows)
            total += row.lag;
        m_window->lagView()->setSummary(tr("%n group(s), total lag %1 — sampled %2 in %3 ms", nullptr,
                                           int(snapshot.groups.size()))
                                            .arg(QLocale().toString(total),
                                                 QLocale().toString(snapshot.takenAt.toLocalTime().time(),
                                                                    QLocale::ShortFormat))
                                            .arg(snapshot.durationMs));
    });
    connect(m_sampler, &LagSampler::stateChanged, this, [this](LagSampler::State state, const QString &detail) {
        const QString bootstrap = KafkaConfig::bootstrapOf(m_profile.cluster);
        switch (state) {
        case LagSampler::State::Idle:
        case LagSampler::State::Connecting:
            m_connections->setClusterHealth(ConnectionsModel::Health::Unknown, tr("connecting…"), detail);
            m_window->setKafkaStatus(tr("Kafka: connecting to %1…").arg(bootstrap));
            break;
        case LagSampler::State::Connected:
            m_connections->setClusterHealth(ConnectionsModel::Health::Good, tr("connected"), bootstrap);
            m_window->setKafkaStatus(tr("Kafka: connected to %1").arg(bootstrap));
            m_window->setBanner(MainWindow::BannerKind::None, {});
            break;
        case LagSampler::State::Degraded:
            m_connections->setClusterHealth(ConnectionsModel::Health::Degraded, tr("degraded"), detail);
            m_window->setKafkaStatus(tr("Kafka: degraded (%1)").arg(bootstrap));
            m_window->setBanner(MainWindow::BannerKind::Warning,
                                tr("Kafka cluster %1 answered only in part; figures may be incomplete.\n%2")
                                    .arg(bootstrap, detail));
            break;
        case LagSampler::State::Rejected:
            m_connections->setClusterHealth(ConnectionsModel::Health::Down, tr("settings rejected"), detail);
            m_window->setKafkaStatus(tr("Kafka: settings rejected"));
            m_window->setBanner(MainWindow::BannerKind::Error,
                                tr("librdkafka rejected the cluster settings — fix the profile and reconnect.\n%1")
                                    .arg(detail));
            break;
        case LagSampler::State::Unreachable:
            m_connections->setClusterHealth(ConnectionsModel::Health::Down, tr("unreachable"), detail);
            m_window->setKafkaStatus(tr("Kafka: unreachable (%1)").arg(bootstrap));
            m_window->setBanner(MainWindow::BannerKind::Error,
                                tr("Kafka cluster unreachable — the lag shown is from the last good sample, "
                                   "and Berth keeps retrying.\n%1")
                                    .arg(detail));
            break;
        }
    });
    connect(m_window.get(), &MainWindow::refreshRequested, m_sampler, &LagSampler::sampleNow);

    LagSampler::Settings settings;
    settings.cluster = m_profile.cluster;
    settings.namedGroups = m_profile.namedGroups;
    settings.intervalMs = m_profile.sampleIntervalMs;
    m_sampler->start(settings);
}

void Console::wireDatabase()
{
    const QString label = m_profile.databaseLabel.isEmpty() ? tr("Inbox database") : m_profile.databaseLabel;
    if (m_profile.databaseConninfo.isEmpty()) {
        m_connections->setDatabase(label, ConnectionsModel::Health::Unknown, tr("not configured"), {});
        m_window->setDatabaseStatus(tr("Database: not configured"));
        return;
    }
    connect(m_database, &PgConnection::stateChanged, this, [this, label](PgConnection::State state, const QString &detail) {
        using Health = ConnectionsModel::Health;
        switch (state) {
        case PgConnection::State::Connected:
            m_connections->setDatabase(label, Health::Good, tr("connected"), detail);
            m_window->setDatabaseStatus(tr("Database: connected"));
            break;
        case PgConnection::State::Connecting:
            m_connections->setDatabase(label, Health::Unknown, tr("connecting…"), detail);
            m_window->setDatabaseStatus(tr("Database: connecting…"));
            break;
        case PgConnection::State::Reconnecting:
        case PgConnection::State::Failed:
            m_connections->setDatabase(label, Health::Down, tr("unavailable"), detail);
            m_window->setDatabaseStatus(tr("Database: unavailable — retrying (%1)").arg(detail.section(u'\n', 0, 0)));
            break;
        case PgConnection::State::Disconnected:
            m_connections->setDatabase(label, Health::Unknown, tr("disconnected"), detail);
            m_window->setDatabaseStatus(tr("Database: disconnected"));
            break;
        }
    });
    m_database->open(m_profile.databaseConninfo);
}

void Console::show()
{
    m_window->show();
}

void Console::writeScreenshots(const QString &dir, int warmUpMs)
{
    QTimer::singleShot(warmUpMs, this, [this, dir] {
        if (!QDir().mkpath(dir)) {
            Q_EMIT screenshotsDone(false, tr("Cannot create %1").arg(dir));
            return;
        }
        QStringList written;
        const QPixmap whole = m_window->grab();
        const QString wholePath = QDir(dir).filePath(u"console.png"_s);
        if (!whole.save(wholePath)) {
            Q_EMIT screenshotsDone(false, tr("Cannot write %1").arg(wholePath));
            return;
        }
        written << wholePath;
        for (const auto &view : m_window->mainViews()) {
            m_window->showView(view.widget);
            const QString path = QDir(dir).filePath(view.name + u".png");
            if (!(view.isTab ? m_window->grab() : view.widget->grab()).save(path)) {
                Q_EMIT screenshotsDone(false, tr("Cannot write %1").arg(path));
                return;
            }
            written << path;
        }
        Q_EMIT screenshotsDone(true, written.join(u'\n'));
    });
}
