#pragma once

#include "services/audit/audittrailquery.h"
#include "services/payload/keymask.h"

#include <QAbstractTableModel>

// The audit log as a filter selects it, oldest first, page by page: a first page replaces the rows, a
// continuation (or the live tail after another desk's change) appends with one beginInsertRows. Actor,
// action and details are what the database recorded; details show as compact JSON, plain text.
class AuditTrailModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Seq, Time, Actor, Action, Request, Details, ColumnCount };
    static constexpr int SortRole = Qt::UserRole + 1;

    explicit AuditTrailModel(QObject *parent = nullptr);

    // The policy's masking: the items a request lists show masked (RequestMask), from the next page on.
    void setKeyMask(const KeyMask &mask) { m_keyMask = mask; }
    void setPage(const AuditEventsPage &page);
    const QList<AuditEvent> &events() const { return m_events; }
    const AuditEvent *eventAt(int row) const;
    const EventFilter &filter() const { return m_filter; }
    bool hasMore() const { return m_more; }
    QString error() const { return m_error; }
    // The filter that continues where the rows end (for "Load more" and the live tail).
    EventFilter continuation() const;
    QString statusLine() const;

    static QString detailsText(const QJsonObject &details, bool indented = false);
    static QString timeText(const QDateTime &at); // UTC, milliseconds

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QString cellText(const AuditEvent &e, int column) const;

    QList<AuditEvent> m_events;
    KeyMask m_keyMask;
    EventFilter m_filter; // as first asked (afterSeq of the first page)
    bool m_more = false;
    bool m_loaded = false;
    QString m_error;
};
