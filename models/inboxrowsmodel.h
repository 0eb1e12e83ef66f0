#pragma once

#include "services/inbox/inboxrowsquery.h"
#include "services/payload/keymask.h"

#include <QAbstractTableModel>

// The parked / failed rows of one inbox table, as the operator triages them. Plain text throughout. A row's
// message id is the idempotency key of a record its consumer reads: where the delivery policy masks that
// key, the id is shown "(masked)" and taken out of the row's error text (ARCHITECTURE.md, Masking); the page
// keeps the real id, which requests name by digest.
class InboxRowsModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Consumer, MessageId, Status, Attempts, FirstSeen, Updated, Error, Topic, ColumnCount };
    static constexpr int SortRole = Qt::UserRole + 1;

    explicit InboxRowsModel(QObject *parent = nullptr);

    void setPage(const InboxRowsPage &page);
    void setKeyMask(const KeyMask &mask);
    const InboxRowsPage &page() const { return m_page; }
    QString statusLine() const;
    // The filter's placeholder: says whose masked message ids the filter does not search.
    QString filterPlaceholder() const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    InboxRowsPage m_page;
    KeyMask m_mask;
    // Per row of the page: the message id and error as shown.
    QStringList m_shownIds;
    QStringList m_shownErrors;
};
