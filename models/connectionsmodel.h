#pragma once

#include "services/kafka/kafkatypes.h"

#include <QStandardItemModel>

// The connections panel: the cluster (brokers, topics, groups) and the inbox database, each with its state.
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

    QStandardItem *clusterItem() const { return m_cluster; }
    QStandardItem *databaseItem() const { return m_database; }

private:
    void replaceChildren(QStandardItem *parent, const QList<QStandardItem *> &children);
    QStandardItem *m_cluster;
    QStandardItem *m_brokers;
    QStandardItem *m_topics;
    QStandardItem *m_groups;
    QStandardItem *m_database;
    QString m_clusterLabel;
};
