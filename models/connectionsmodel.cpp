#include "connectionsmodel.h"

#include <QColor>

namespace {
QStandardItem *readOnly(const QString &text)
{
    auto *item = new QStandardItem(text);
    item->setEditable(false);
    return item;
}

QColor healthColor(ConnectionsModel::Health health)
{
    switch (health) {
    case ConnectionsModel::Health::Good: return QColor(0x2e, 0x7d, 0x32);
    case ConnectionsModel::Health::Degraded: return QColor(0xe6, 0x8a, 0x00);
    case ConnectionsModel::Health::Down: return QColor(0xc6, 0x28, 0x28);
    case ConnectionsModel::Health::Unknown: break;
    }
    return QColor(0x88, 0x88, 0x88);
}
}

ConnectionsModel::ConnectionsModel(QObject *parent)
    : QStandardItemModel(parent)
    , m_cluster(readOnly(tr("Kafka cluster")))
    , m_brokers(readOnly(tr("Brokers")))
    , m_topics(readOnly(tr("Topics")))
    , m_groups(readOnly(tr("Consumer groups")))
    , m_database(readOnly(tr("Inbox database")))
{
    setHorizontalHeaderLabels({tr("Connection"), tr("State")});
    m_cluster->appendRow({m_brokers, readOnly({})});
    m_cluster->appendRow({m_topics, readOnly({})});
    m_cluster->appendRow({m_groups, readOnly({})});
    appendRow({m_cluster, readOnly(tr("not connected"))});
    appendRow({m_database, readOnly(tr("not connected"))});
    setClusterHealth(Health::Unknown, tr("not connected"), {});
    setDatabase(tr("Inbox database"), Health::Unknown, tr("not connected"), {});
}

void ConnectionsModel::replaceChildren(QStandardItem *parent, const QList<QStandardItem *> &children)
{
    parent->removeRows(0, parent->rowCount());
    for (auto *child : children)
        parent->appendRow({child, readOnly({})});
}

void ConnectionsModel::setCluster(const ClusterSnapshot &cluster)
{
    m_cluster->setText(tr("Kafka %1").arg(cluster.bootstrap));
    QList<QStandardItem *> brokers;
    for (const auto &b : cluster.brokers)
        brokers << readOnly(tr("Broker %1 — %2:%3").arg(b.id).arg(b.host).arg(b.port));
    replaceChildren(m_brokers, brokers);
    QList<QStandardItem *> topics;
    for (const auto &t : cluster.topics) {
        auto *item = readOnly(t.name);
        item->setToolTip(tr("%n partition(s)", nullptr, t.partitionCount()));
        topics << item;
    }
    replaceChildren(m_topics, topics);
    m_brokers->parent()->child(m_brokers->row(), 1)->setText(tr("%n broker(s)", nullptr, int(cluster.brokers.size())));
    m_topics->parent()->child(m_topics->row(), 1)->setText(tr("%n topic(s)", nullptr, int(cluster.topics.size())));
}

void ConnectionsModel::setGroups(const QStringList &groups, const QString &source)
{
    QList<QStandardItem *> items;
    for (const auto &g : groups)
        items << readOnly(g);
    replaceChildren(m_groups, items);
    auto *state = m_groups->parent()->child(m_groups->row(), 1);
    state->setText(tr("%n group(s)", nullptr, int(groups.size())));
    state->setToolTip(tr("Groups %1").arg(source));
}

void ConnectionsModel::setClusterHealth(Health health, const QString &summary, const QString &detail)
{
    auto *state = item(m_cluster->row(), 1);
    state->setText(summary);
    state->setToolTip(detail);
    state->setForeground(healthColor(health));
    state->setData(int(health), HealthRole);
}

void ConnectionsModel::setInboxDatabase(const QString &key, const QString &label, Health health,
                                        const QString &summary, const QString &detail)
{
    QStandardItem *item = m_inboxDatabases.value(key);
    if (!item) {
        item = readOnly(label);
        appendRow({item, readOnly({})});
        m_inboxDatabases.insert(key, item);
    }
    item->setText(label);
    auto *state = this->item(item->row(), 1);
    state->setText(summary);
    state->setToolTip(detail);
    state->setForeground(healthColor(health));
    state->setData(int(health), HealthRole);
}

void ConnectionsModel::keepInboxDatabases(const QStringList &keys)
{
    for (auto it = m_inboxDatabases.begin(); it != m_inboxDatabases.end();) {
        if (keys.contains(it.key())) {
            ++it;
            continue;
        }
        removeRow(it.value()->row());
        it = m_inboxDatabases.erase(it);
    }
}

void ConnectionsModel::setDatabase(const QString &label, Health health, const QString &summary, const QString &detail)
{
    m_database->setText(label);
    auto *state = item(m_database->row(), 1);
    state->setText(summary);
    state->setToolTip(detail);
    state->setForeground(healthColor(health));
    state->setData(int(health), HealthRole);
}
