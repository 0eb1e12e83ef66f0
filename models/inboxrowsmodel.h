#pragma once

#include "services/inbox/inboxrowsquery.h"

#include <QAbstractTableModel>

// The parked / failed rows of one inbox table, as the operator triages them. Plain text throughout.
class InboxRowsModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Consumer, MessageId, Status, Attempts, FirstSeen, Updated, Error, Topic, ColumnCount };
    static constexpr int SortRole = Qt::UserRole + 1;

    explicit InboxRowsModel(QObject *parent = nullptr);

    void setPage(const InboxRowsPage &page);
    const InboxRowsPage &page() const { return m_page; }
    QString statusLine() const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    InboxRowsPage m_page;
};
