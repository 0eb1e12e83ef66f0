#include "inboxrowsmodel.h"

#include "models/dlqbrowsermodel.h"
#include "services/remediation/remediationtypes.h"
#include "services/payload/payloadmask.h"
#include "services/remediation/requestitemdigests.h"

#include <QLocale>

InboxRowsModel::InboxRowsModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void InboxRowsModel::setPage(const InboxRowsPage &page)
{
    beginResetModel();
    m_page = page;
    m_shownIds.clear();
    m_shownErrors.clear();
    for (const InboxRow &row : std::as_const(m_page.rows)) {
        QStringList verbatim;
        m_shownIds << RequestItemDigests::shownMessageId(
            m_mask, inboxRefFor(m_page.mappingName, row.messageId, row.consumer), &verbatim);
        QString error = row.error;
        for (const QString &value : std::as_const(verbatim))
            error.replace(value, QLatin1StringView(PayloadMask::kMasked));
        m_shownErrors << error;
    }
    endResetModel();
}

void InboxRowsModel::setKeyMask(const KeyMask &mask)
{
    m_mask = mask;
    setPage(InboxRowsPage(m_page));
}

QString InboxRowsModel::statusLine() const
{
    if (m_page.table.isEmpty())
        return tr("Choose an inbox and the states to list.");
    if (!m_page.error.isEmpty())
        return tr("Could not read %1: %2").arg(m_page.table, m_page.error);
    // A filter never searches masked message ids, nor the errors beside them (ARCHITECTURE.md, Masking).
    const QString unsearched = m_page.text.isEmpty() || m_page.maskedIdConsumers.isEmpty()
                                   ? QString()
                                   : u' '
                                         + tr("The message ids of %1 are masked: the filter searched neither "
                                              "them nor those rows' errors.")
                                               .arg(m_page.maskedIdConsumers.join(u", "));
    if (m_page.rows.isEmpty())
        return tr("%1: no rows in these states.").arg(m_page.table) + unsearched;
    return (m_page.more ? tr("%1: the %2 longest-waiting rows (more match; narrow the filter).")
                              .arg(m_page.table, QLocale().toString(m_page.rows.size()))
                        : tr("%1: %2 row(s), longest-waiting first.")
                              .arg(m_page.table, QLocale().toString(m_page.rows.size())))
           + unsearched;
}

QString InboxRowsModel::filterPlaceholder() const
{
    return m_page.maskedIdConsumers.isEmpty() ? tr("Filter by message id or error")
                                              : tr("Filter by message id or error (not the masked ids of %1)")
                                                    .arg(m_page.maskedIdConsumers.join(u", "));
}

int InboxRowsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_page.rows.size());
}

int InboxRowsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant InboxRowsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const InboxRow &row = m_page.rows.at(index.row());
    const auto time = [](const QDateTime &t) {
        return t.isValid() ? t.toUTC().toString(u"yyyy-MM-dd HH:mm:ss") : QString();
    };
    if (role == SortRole) {
        switch (index.column()) {
        case Attempts:
            return row.attempts;
        case FirstSeen:
            return row.firstSeen;
        case Updated:
            return row.updated;
        default:
            break;
        }
    }
    if (role == Qt::DisplayRole || role == SortRole || role == Qt::ToolTipRole) {
        QString text;
        switch (Column(index.column())) {
        case Consumer:
            text = row.consumer;
            break;
        case MessageId:
            text = m_shownIds.value(index.row());
            break;
        case Status:
            // The consumer's own word in the table; the tooltip says which Berth state it maps to.
            text = role == Qt::ToolTipRole ? tr("%1 (Berth state: %2)").arg(row.status, inboxStateName(row.state))
                                           : row.status;
            break;
        case Attempts:
            text = row.attempts < 0 ? QString() : QString::number(row.attempts);
            break;
        case FirstSeen:
            text = time(row.firstSeen);
            break;
        case Updated:
            text = time(row.updated);
            break;
        case Error:
            text = m_shownErrors.value(index.row());
            break;
        case Topic:
            text = row.topic;
            break;
        case ColumnCount:
            break;
        }
        // The same care as the DLQ table: control characters made visible, tooltips escaped.
        text = DlqBrowserModel::visibleText(text);
        if (role == Qt::ToolTipRole)
            return text.isEmpty() ? QVariant() : QVariant(Qt::convertFromPlainText(text, Qt::WhiteSpaceNormal));
        return text;
    }
    if (role == Qt::TextAlignmentRole && index.column() == Attempts)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant InboxRowsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (Column(section)) {
    case Consumer:
        return tr("Consumer");
    case MessageId:
        return tr("Message id");
    case Status:
        return tr("Status");
    case Attempts:
        return tr("Attempts");
    case FirstSeen:
        return tr("First seen (UTC)");
    case Updated:
        return tr("Updated (UTC)");
    case Error:
        return tr("Last error");
    case Topic:
        return tr("Topic");
    case ColumnCount:
        break;
    }
    return {};
}
