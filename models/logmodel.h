#pragma once

#include "services/support/logbuffer.h"

#include <QAbstractTableModel>
#include <QTimer>

// The log panel's rows: the buffer's entries at or above a level, optionally of categories containing a
// text. Refreshes at most four times a second however fast messages arrive.
class LogModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Time, Level, Category, Message, ColumnCount };

    explicit LogModel(LogBuffer *buffer, QObject *parent = nullptr);

    void setMinimumType(QtMsgType type);
    void setCategoryFilter(const QString &text);
    void refresh(); // now, instead of at the next coalesced tick

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    static QString levelName(QtMsgType type);

private:
    bool accepts(const LogBuffer::Entry &entry) const;

    LogBuffer *m_buffer;
    QList<LogBuffer::Entry> m_rows;
    int m_minimumSeverity = 1; // info and above
    QString m_category;
    QTimer m_refresh;
};
