#pragma once

#include "services/inbox/inboxboard.h"

#include <QAbstractTableModel>

// The inbox board's counts: one row per consumer (plus an "all consumers" row when there are several),
// one column per Berth state. The other sections of the board are offered as ready-to-show plain text.
class InboxBoardModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Consumer,
        InProgress,
        Completed,
        FailedRetryable,
        FailedTerminal,
        Parked,
        Skipped,
        Unknown,
        Total,
        ColumnCount
    };
    // Raw numbers for sorting; DisplayRole is formatted.
    static constexpr int SortRole = Qt::UserRole + 1;

    explicit InboxBoardModel(QObject *parent = nullptr);

    void setBoard(const InboxBoard &board);
    const InboxBoard &board() const { return m_board; }

    static InboxState stateOfColumn(int column); // Unknown for Consumer and Total as well
    static int columnOfState(InboxState state);
    bool isTotalRow(int row) const;

    // One-line summaries for the sections around the table.
    QString statusLine() const;   // when and how fast the board was read, or why it could not be
    QString stuckLine() const;    // the oldest stuck in-progress row
    QString outboxLine() const;   // the outbox backlog
    QString redeliveryLine() const; // rows delivered more than once, share and recent rate
    // Redelivered rows added per minute between the previous reading of the same inbox and this one;
    // negative when unknown (first reading, another inbox, no attempts column).
    double redeliveriesPerMinute() const;
    QString indexWarning() const; // empty when every documented index exists
    QList<InboxErrorCount> topErrors() const { return m_board.topErrors; }

    // "42 s", "3 min 5 s", "2 h 10 min", "3 d 4 h".
    static QString formatDuration(double seconds);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    bool hasTotalRow() const { return m_board.consumers.size() > 1; }
    InboxStateCounts countsOfRow(int row) const;
    QString consumerOfRow(int row) const;
    qint64 exhaustedOfRow(int row) const; // failed-retryable rows at the retry limit (InboxBoard::hasExhausted)

    InboxBoard m_board;
    InboxBoard m_previous; // the reading before m_board, for rates
};
