#include "audittrailmodel.h"

#include "models/dlqbrowsermodel.h"
#include "services/remediation/requestmask.h"

#include <QJsonDocument>
#include <QLocale>
#include <QTextDocument>

using namespace Qt::StringLiterals;

AuditTrailModel::AuditTrailModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void AuditTrailModel::setPage(const AuditEventsPage &stored)
{
    AuditEventsPage page = stored;
    for (AuditEvent &e : page.events)
        RequestMask::apply(m_keyMask, e);
    m_error = page.error;
    m_loaded = true;
    // A continuation that no longer fits the rows shown (a newer filter was applied meanwhile) is dropped.
    const bool appends = page.append && page.filter.afterSeq == continuation().afterSeq;
    if (!appends) {
        beginResetModel();
        m_events = page.events;
        m_filter = page.filter;
        m_more = page.more;
        endResetModel();
        return;
    }
    if (!page.error.isEmpty())
        return; // keep what is shown; the status line says why nothing more came
    m_more = page.more;
    if (page.events.isEmpty())
        return;
    beginInsertRows({}, rowCount(), rowCount() + int(page.events.size()) - 1);
    m_events += page.events;
    endInsertRows();
}

const AuditEvent *AuditTrailModel::eventAt(int row) const
{
    return row >= 0 && row < m_events.size() ? &m_events.at(row) : nullptr;
}

EventFilter AuditTrailModel::continuation() const
{
    EventFilter next = m_filter;
    if (!m_events.isEmpty())
        next.afterSeq = m_events.last().seq;
    return next;
}

QString AuditTrailModel::statusLine() const
{
    if (!m_loaded)
        return tr("Reading the audit log…");
    if (!m_error.isEmpty())
        return tr("Could not read the audit log: %1").arg(m_error);
    if (m_events.isEmpty())
        return tr("No audit events match the filter.");
    const QString count = QLocale().toString(m_events.size());
    return m_more
               ? tr("%1 event(s) shown; more match: load more or narrow the filter.").arg(count)
               : tr("%1 event(s).").arg(count);
}

QString AuditTrailModel::detailsText(const QJsonObject &details, bool indented)
{
    return QString::fromUtf8(
        QJsonDocument(details).toJson(indented ? QJsonDocument::Indented : QJsonDocument::Compact));
}

QString AuditTrailModel::timeText(const QDateTime &at)
{
    return at.isValid() ? at.toUTC().toString(u"yyyy-MM-dd HH:mm:ss.zzz"_s) : QString();
}

int AuditTrailModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_events.size());
}

int AuditTrailModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString AuditTrailModel::cellText(const AuditEvent &e, int column) const
{
    switch (Column(column)) {
    case Seq:
        return QString::number(e.seq);
    case Time:
        return timeText(e.at);
    case Actor:
        return e.actor;
    case Action:
        return e.action;
    case Request:
        return e.requestId ? QString::number(e.requestId) : QString();
    case Details:
        return detailsText(e.details);
    case ColumnCount:
        break;
    }
    return {};
}

QVariant AuditTrailModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const AuditEvent &e = m_events.at(index.row());
    switch (role) {
    case SortRole:
        if (index.column() == Seq)
            return e.seq;
        if (index.column() == Time)
            return e.at;
        if (index.column() == Request)
            return e.requestId;
        return cellText(e, index.column());
    case Qt::DisplayRole:
        // Details hold comments and reasons people typed: control characters made visible, never run.
        return DlqBrowserModel::visibleText(cellText(e, index.column()));
    case Qt::ToolTipRole:
        if (index.column() == Seq)
            return tr("hash %1\nprevious %2")
                .arg(QString::fromLatin1(e.hash.toHex()), QString::fromLatin1(e.prevHash.toHex()));
        if (index.column() == Details)
            return Qt::convertFromPlainText(DlqBrowserModel::visibleText(detailsText(e.details)));
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == Seq || index.column() == Request)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    default:
        return {};
    }
}

QVariant AuditTrailModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (Column(section)) {
    case Seq:
        return tr("Seq");
    case Time:
        return tr("Time (UTC)");
    case Actor:
        return tr("Person");
    case Action:
        return tr("Action");
    case Request:
        return tr("Request");
    case Details:
        return tr("Details");
    case ColumnCount:
        break;
    }
    return {};
}
