#include "inboxboardmodel.h"

#include <algorithm>
#include <QBrush>
#include <QColor>
#include <QFont>
#include <QLocale>
#include <QTextDocument>

#include <cmath>
#include <limits>

using namespace Qt::StringLiterals;

namespace {
bool sameConsumers(const QList<InboxConsumerCounts> &a, const QList<InboxConsumerCounts> &b)
{
    if (a.size() != b.size())
        return false;
    for (qsizetype i = 0; i < a.size(); ++i) {
        if (a[i].consumer != b[i].consumer)
            return false;
    }
    return true;
}
} // namespace

InboxBoardModel::InboxBoardModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void InboxBoardModel::setBoard(const InboxBoard &board)
{
    // The same consumers as before (the usual refresh): the numbers change in place, so selection and
    // scroll position survive. Otherwise the rows changed: reset.
    m_previous = m_board;
    if (sameConsumers(m_board.consumers, board.consumers)) {
        m_board = board;
        if (rowCount() > 0)
            Q_EMIT dataChanged(index(0, InProgress), index(rowCount() - 1, Total));
        return;
    }
    beginResetModel();
    m_board = board;
    endResetModel();
}

InboxState InboxBoardModel::stateOfColumn(int column)
{
    if (column >= InProgress && column <= Unknown)
        return InboxState(column - InProgress);
    return InboxState::Unknown;
}

int InboxBoardModel::columnOfState(InboxState state)
{
    return InProgress + int(state);
}

bool InboxBoardModel::isTotalRow(int row) const
{
    return hasTotalRow() && row == int(m_board.consumers.size());
}

InboxStateCounts InboxBoardModel::countsOfRow(int row) const
{
    return isTotalRow(row) ? m_board.totals : m_board.consumers.at(row).counts;
}

qint64 InboxBoardModel::exhaustedOfRow(int row) const
{
    return isTotalRow(row) ? m_board.exhaustedRows() : m_board.consumers.at(row).exhausted;
}

QString InboxBoardModel::consumerOfRow(int row) const
{
    if (isTotalRow(row))
        return tr("All consumers");
    const QString name = m_board.consumers.at(row).consumer;
    return name.isEmpty() ? tr("(whole table)") : name;
}

int InboxBoardModel::rowCount(const QModelIndex &parent) const
{
    if (parent.isValid())
        return 0;
    return int(m_board.consumers.size()) + (hasTotalRow() ? 1 : 0);
}

int InboxBoardModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant InboxBoardModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const int column = index.column();
    const InboxStateCounts counts = countsOfRow(index.row());
    qint64 value = 0;
    if (column == Total) {
        for (qint64 c : counts)
            value += c;
    } else if (column != Consumer) {
        value = counts[size_t(stateOfColumn(column))];
    }

    switch (role) {
    case SortRole:
        return column == Consumer ? QVariant(consumerOfRow(index.row())) : QVariant(value);
    case Qt::DisplayRole: {
        if (column == Consumer)
            return consumerOfRow(index.row());
        // A huge table's dominant state is the catalogue's estimate (and so is any total that includes it).
        const bool estimate = column == Total ? std::any_of(m_board.estimated.cbegin(), m_board.estimated.cend(),
                                                            [](bool e) { return e; })
                                              : m_board.estimated[size_t(stateOfColumn(column))];
        const QString shown =
            estimate && value > 0 ? tr("about %1").arg(QLocale().toString(value)) : QLocale().toString(value);
        // Failed rows the consumer takes again, less those whose retries are spent: said in the cell.
        if (column == FailedRetryable && exhaustedOfRow(index.row()) > 0) {
            if (m_board.exhaustedEstimated) // a huge table without the attempts index: from a sample
                return tr("%1 (about %2 exhausted)").arg(shown, QLocale().toString(exhaustedOfRow(index.row())));
            return tr("%1 (%2 exhausted)").arg(shown, QLocale().toString(exhaustedOfRow(index.row())));
        }
        return shown;
    }
    case Qt::TextAlignmentRole:
        if (column != Consumer)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Qt::FontRole:
        if (isTotalRow(index.row())) {
            QFont font;
            font.setBold(true);
            return font;
        }
        return {};
    case Qt::ForegroundRole:
        // Rows that need a person: terminal failures, parked rows, and words the mapping does not know.
        if (value > 0 && (column == FailedTerminal || column == Parked || column == Unknown))
            return QBrush(QColor(0xb0, 0x30, 0x20));
        if (column == FailedRetryable && exhaustedOfRow(index.row()) > 0)
            return QBrush(QColor(0xb0, 0x30, 0x20));
        if (value == 0 && column != Consumer)
            return QBrush(QColor(0x88, 0x88, 0x88));
        return {};
    case Qt::ToolTipRole:
        if (column != Consumer && column != Total && m_board.estimated[size_t(stateOfColumn(column))])
            return tr("Estimated from the table's statistics (the table is too large to count this state on every "
                      "refresh); every other state is counted exactly.");
        if (column == FailedRetryable && m_board.exhaustedEstimated)
            return tr("About %n row(s) reached retry.maxAttempts (%1 attempts), estimated from each consumer's latest "
                      "failed rows: the table is too large to read every one. An index on (consumer, status, "
                      "attempts) makes the count exact.",
                      nullptr, int(std::min<qint64>(exhaustedOfRow(index.row()), std::numeric_limits<int>::max())))
                .arg(m_board.exhaustedAfterAttempts);
        if (column == FailedRetryable && m_board.hasExhausted)
            return tr("%n row(s) reached retry.maxAttempts (%1 attempts): retries exhausted, dead-lettered and not "
                      "taken again until replayed. The others are retried.",
                      nullptr, int(std::min<qint64>(exhaustedOfRow(index.row()), std::numeric_limits<int>::max())))
                .arg(m_board.exhaustedAfterAttempts);
        if (column == Unknown && value > 0 && !m_board.unmappedStatuses.isEmpty())
            // Tooltips guess at markup; status words are data, so they go out explicitly escaped.
            return Qt::convertFromPlainText(
                tr("Statuses the mapping does not know: %1").arg(m_board.unmappedStatuses.join(u", "_s)));
        return {};
    default:
        return {};
    }
}

QVariant InboxBoardModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Consumer:
        return tr("Consumer");
    case InProgress:
        return tr("In progress");
    case Completed:
        return tr("Completed");
    case FailedRetryable:
        return tr("Failed (retryable)");
    case FailedTerminal:
        return tr("Failed (terminal)");
    case Parked:
        return tr("Parked");
    case Skipped:
        return tr("Skipped");
    case Unknown:
        return tr("Unknown");
    case Total:
        return tr("Total");
    }
    return {};
}

QString InboxBoardModel::formatDuration(double seconds)
{
    if (!std::isfinite(seconds) || seconds < 0)
        return tr("unknown");
    const qint64 s = qint64(std::floor(seconds));
    if (s < 60)
        return tr("%1 s").arg(s);
    // The smaller unit only when it says something ("5 min", not "5 min 0 s").
    const auto two = [](qint64 big, qint64 small, const QString &both, const QString &bigOnly) {
        return small ? both.arg(big).arg(small) : bigOnly.arg(big);
    };
    if (s < 3600)
        return two(s / 60, s % 60, tr("%1 min %2 s"), tr("%1 min"));
    if (s < 86400)
        return two(s / 3600, (s % 3600) / 60, tr("%1 h %2 min"), tr("%1 h"));
    return two(s / 86400, (s % 86400) / 3600, tr("%1 d %2 h"), tr("%1 d"));
}

QString InboxBoardModel::statusLine() const
{
    if (m_board.mappingName.isEmpty())
        return tr("Not read yet.");
    if (!m_board.ok())
        return tr("Could not read %1: %2").arg(m_board.table, m_board.error);
    const QString where = m_board.database.isEmpty() ? m_board.table
                                                     : tr("%1 (%2)").arg(m_board.table, m_board.database);
    const QString line = tr("%1: %2 rows, read at %3 (database clock, UTC) in %4 ms")
                             .arg(where, QLocale().toString(m_board.grandTotal()),
                                  m_board.takenAt.toUTC().toString(u"yyyy-MM-dd HH:mm:ss"_s),
                                  QString::number(m_board.elapsedMs));
    // The board is whole, but slower than it should be: say why its second session did not help.
    if (!m_board.helperError.isEmpty())
        return tr("%1 \u2014 counted on one session, the second failed: %2").arg(line, m_board.helperError);
    return line;
}

QString InboxBoardModel::stuckLine() const
{
    if (!m_board.ok())
        return {};
    const QString threshold = formatDuration(m_board.stuckAfterSeconds);
    if (!m_board.hasStuck)
        return tr("No in-progress row is older than %1.").arg(threshold);
    const InboxStuckRow &row = m_board.oldestStuck;
    const QString who = row.consumer.isEmpty() ? row.messageId : row.consumer + u" / "_s + row.messageId;
    return tr("Oldest stuck: %1 (%2) untouched for %3; %n row(s) in progress for longer than %4.", nullptr,
              int(std::min<qint64>(m_board.stuckCount, std::numeric_limits<int>::max())))
        .arg(who, row.status, formatDuration(row.ageSeconds), threshold);
}

QString InboxBoardModel::outboxLine() const
{
    if (!m_board.ok())
        return {};
    if (!m_board.hasOutbox)
        return tr("No outbox is mapped for this inbox.");
    if (!m_board.outboxError.isEmpty())
        return tr("Outbox: %1").arg(m_board.outboxError);
    // A relay drains its outbox in moments, so the backlog is a reading at one instant, said with its
    // time: "nothing pending" alone reads as a statement about now.
    const QString at = m_board.takenAt.toUTC().toString(u"HH:mm:ss"_s);
    if (m_board.outbox.pending == 0)
        return tr("Outbox %1: nothing pending at %2 UTC.").arg(m_board.outboxTable, at);
    return tr("Outbox %1: %2 pending at %3 UTC, oldest waiting %4.")
        .arg(m_board.outboxTable, QLocale().toString(m_board.outbox.pending), at,
             formatDuration(m_board.outbox.oldestPendingAgeSeconds));
}

double InboxBoardModel::redeliveriesPerMinute() const
{
    const InboxBoard &before = m_previous;
    if (!m_board.ok() || !before.ok() || !m_board.hasAttempts || !before.hasAttempts
        || before.mappingName != m_board.mappingName || !before.takenAt.isValid())
        return -1;
    const double minutes = double(before.takenAt.msecsTo(m_board.takenAt)) / 60000.0;
    if (minutes <= 0)
        return -1;
    // Rows can be deleted (retention): a shrinking count is no negative redelivery.
    return double(std::max<qint64>(0, m_board.redeliveredRows() - before.redeliveredRows())) / minutes;
}

QString InboxBoardModel::redeliveryLine() const
{
    if (!m_board.ok() || !m_board.hasAttempts)
        return {};
    const qint64 rows = m_board.grandTotal();
    const qint64 redelivered = m_board.redeliveredRows();
    const double percent = rows > 0 ? 100.0 * double(redelivered) / double(rows) : 0.0;
    QString line = tr("Redelivered: %1 of %2 rows (%3 %) took more than one attempt.")
                       .arg(QLocale().toString(redelivered), QLocale().toString(rows))
                       .arg(percent, 0, 'f', 1);
    const double rate = redeliveriesPerMinute();
    if (rate >= 0)
        line += u' ' + tr("%1 more per minute since the previous reading.").arg(rate, 0, 'f', 1);
    return line;
}

QString InboxBoardModel::indexWarning() const
{
    if (!m_board.ok() || m_board.missingIndexes.isEmpty())
        return {};
    return tr("Missing indexes: the board's queries scan the whole table without them.") + u'\n'
           + m_board.missingIndexes.join(u'\n');
}
