#include "logmodel.h"

#include <QBrush>
#include <QColor>

LogModel::LogModel(LogBuffer *buffer, QObject *parent)
    : QAbstractTableModel(parent)
    , m_buffer(buffer)
{
    m_refresh.setSingleShot(true);
    m_refresh.setInterval(250);
    connect(&m_refresh, &QTimer::timeout, this, &LogModel::refresh);
    connect(m_buffer, &LogBuffer::appended, &m_refresh, [this] {
        if (!m_refresh.isActive())
            m_refresh.start();
    });
    refresh();
}

void LogModel::setMinimumType(QtMsgType type)
{
    m_minimumSeverity = LogBuffer::severity(type);
    refresh();
}

void LogModel::setCategoryFilter(const QString &text)
{
    m_category = text;
    refresh();
}

bool LogModel::accepts(const LogBuffer::Entry &entry) const
{
    return LogBuffer::severity(entry.type) >= m_minimumSeverity
        && (m_category.isEmpty() || entry.category.contains(m_category, Qt::CaseInsensitive));
}

void LogModel::refresh()
{
    const QList<LogBuffer::Entry> all = m_buffer->entries();
    QList<LogBuffer::Entry> rows;
    for (const auto &entry : all) {
        if (accepts(entry))
            rows.append(entry);
    }
    // The usual case: the same rows plus new ones at the end (and perhaps old ones gone from the front).
    const quint64 firstKept = rows.isEmpty() ? 0 : rows.constFirst().serial;
    qsizetype dropped = 0;
    while (dropped < m_rows.size() && m_rows[dropped].serial < firstKept)
        ++dropped;
    const qsizetype kept = m_rows.size() - dropped;
    const bool sameTail = kept <= rows.size() && (kept == 0 || rows[kept - 1].serial == m_rows.constLast().serial);
    if (!sameTail) {
        beginResetModel();
        m_rows = rows;
        endResetModel();
        return;
    }
    if (dropped > 0) {
        beginRemoveRows({}, 0, int(dropped) - 1);
        m_rows.remove(0, dropped);
        endRemoveRows();
    }
    if (rows.size() > kept) {
        beginInsertRows({}, int(kept), int(rows.size()) - 1);
        m_rows.append(rows.mid(kept));
        endInsertRows();
    }
}

int LogModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int LogModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString LogModel::levelName(QtMsgType type)
{
    switch (type) {
    case QtDebugMsg:
        return tr("debug");
    case QtInfoMsg:
        return tr("info");
    case QtWarningMsg:
        return tr("warning");
    case QtCriticalMsg:
        return tr("critical");
    case QtFatalMsg:
        return tr("fatal");
    }
    return {};
}

QVariant LogModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const LogBuffer::Entry &e = m_rows.at(index.row());
    if (role == Qt::DisplayRole || role == Qt::ToolTipRole) {
        switch (Column(index.column())) {
        case Time:
            return e.at.toLocalTime().toString(u"HH:mm:ss.zzz");
        case Level:
            return levelName(e.type);
        case Category:
            return e.category;
        case Message:
            // Log lines quote data (topic names, server messages): shown as text, one line per row.
            if (role == Qt::ToolTipRole)
                return Qt::convertFromPlainText(e.message, Qt::WhiteSpaceNormal);
            return QString(e.message).replace(u'\n', u' ');
        case ColumnCount:
            break;
        }
    }
    if (role == Qt::ForegroundRole && LogBuffer::severity(e.type) >= 2)
        return QBrush(e.type == QtWarningMsg ? QColor(0x8a, 0x5a, 0x00) : QColor(0xb0, 0x30, 0x20));
    return {};
}

QVariant LogModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (Column(section)) {
    case Time:
        return tr("Time");
    case Level:
        return tr("Level");
    case Category:
        return tr("Area");
    case Message:
        return tr("Message");
    case ColumnCount:
        break;
    }
    return {};
}
