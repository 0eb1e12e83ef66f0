#pragma once

#include "services/kafka/kafkatypes.h"

#include <QHash>
#include <QStandardItemModel>

// The connections panel: the cluster (brokers, topics, groups), the default inbox database and each
// service's own inbox database, each with its state.
class ConnectionsModel final : public QStandardItemModel {
    Q_OBJECT
public:
    enum class Health { Unknown, Good, Degraded, Down };
    static constexpr int HealthRole = Qt::UserRole + 1;

    explicit ConnectionsModel(QObject *parent = nullptr);

    void setCluster(const ClusterSnapshot &cluster);
    void setGroups(const QStringList &groups, const QString &source);
    void setClusterHealth(Health health, const QString &summary, const QString &detail);
    void setDatabase(const QString &label, Health health, const QString &summary, const QString &detail);
    // One row per further inbox database (one database per service), added on first use. key: what tells
    // the databases apart (never shown: a conninfo may hold a password); label: what is shown.
    void setInboxDatabase(const QString &key, const QString &label, Health health, const QString &summary,
                          const QString &detail);
    // Drops the rows of databases no longer in use.
    void keepInboxDatabases(const QStringList &keys);
    QStandardItem *inboxDatabaseItem(const QString &key) const { return m_inboxDatabases.value(key); }

    QStandardItem *clusterItem() const { return m_cluster; }
    QStandardItem *databaseItem() const { return m_database; }

private:
    void replaceChildren(QStandardItem *parent, const QList<QStandardItem *> &children);
    QStandardItem *m_cluster;
    QStandardItem *m_brokers;
    QStandardItem *m_topics;
    QStandardItem *m_groups;
    QStandardItem *m_database;
    QHash<QString, QStandardItem *> m_inboxDatabases; // by key
    QString m_clusterLabel;
};
