#include "failuregroupmodel.h"

#include "models/displayformat.h"

#include <QDateTime>
#include <QLocale>
#include <QTextDocument>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace {
QString shortTime(qint64 ms)
{
    return ms < 0 ? QString()
                  : QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(u"yyyy-MM-dd HH:mm:ss"_s);
}

// Group texts come from the records' headers: never markup, and control characters shown, not obeyed.
QString plain(QString text)
{
    for (QChar &c : text) {
        if (c.unicode() < 0x20)
            c = QChar(char16_t(0x2400 + c.unicode()));
    }
    return text;
}
} // namespace

FailureGroupModel::FailureGroupModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void FailureGroupModel::clear()
{
    beginResetModel();
    m_groups.clear();
    m_poison.clear();
    m_poisonIndex.clear();
    m_total = 0;
    m_lastMinute = 0;
    endResetModel();
}

void FailureGroupModel::updateGroups(const QList<FailureGroup> &changed)
{
    if (changed.isEmpty())
        return;
    quint32 maxId = 0;
    for (const FailureGroup &g : changed) {
        maxId = qMax(maxId, g.id);
        m_total += g.count - (g.id < quint32(m_groups.size()) ? m_groups[g.id].count : 0);
    }
    // Ids are dense and new ones arrive with their first batch: grow, then fill.
    if (maxId >= quint32(m_groups.size())) {
        beginInsertRows({}, int(m_groups.size()), int(maxId));
        m_groups.resize(qsizetype(maxId) + 1);
        endInsertRows();
    }
    const qint64 previousMinute = m_lastMinute;
    int first = int(m_groups.size()), last = -1;
    for (const FailureGroup &g : changed) {
        m_groups[g.id] = g;
        if (!g.perMinute.isEmpty())
            m_lastMinute = qMax(m_lastMinute, g.perMinute.lastKey());
        first = qMin(first, int(g.id));
        last = qMax(last, int(g.id));
    }
    if (m_lastMinute != previousMinute) // every trend shifts
        first = 0, last = int(m_groups.size()) - 1;
    if (last >= first)
        Q_EMIT dataChanged(index(first, 0), index(last, ColumnCount - 1));
}

void FailureGroupModel::updatePoison(const QList<PoisonMessage> &changed)
{
    for (const PoisonMessage &p : changed) {
        const auto it = m_poisonIndex.constFind(p.messageId);
        if (it == m_poisonIndex.cend()) {
            m_poisonIndex.insert(p.messageId, m_poison.size());
            m_poison.append(p);
        } else {
            m_poison[it.value()] = p;
        }
    }
}

const FailureGroup *FailureGroupModel::group(quint32 id) const
{
    return id < quint32(m_groups.size()) ? &m_groups[id] : nullptr;
}

int FailureGroupModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_groups.size());
}

int FailureGroupModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString FailureGroupModel::sparkline(const QMap<qint64, qint32> &perMinute, qint64 lastMinute, int minutes)
{
    static constexpr char16_t kBlocks[] = u" ▁▂▃▄▅▆▇█";
    QList<qint32> counts(minutes, 0);
    qint32 peak = 0;
    for (auto it = perMinute.lowerBound(lastMinute - minutes + 1);
         it != perMinute.cend() && it.key() <= lastMinute; ++it) {
        counts[qsizetype(it.key() - (lastMinute - minutes + 1))] = it.value();
        peak = qMax(peak, it.value());
    }
    QString out(minutes, u' ');
    for (int i = 0; i < minutes; ++i) {
        const int level = peak == 0 || counts[i] == 0 ? 0 : 1 + int(qint64(counts[i]) * 7 / peak);
        out[i] = QChar(kBlocks[level]);
    }
    return out;
}

QVariant FailureGroupModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const FailureGroup &g = m_groups.at(index.row());
    if (role == GroupIdRole)
        return g.id;
    if (role == SortRole) {
        switch (index.column()) {
        case Count:
            return g.count;
        case FirstSeen:
            return g.firstSeenMs;
        case LastSeen:
            return g.lastSeenMs;
        case Poison:
            return g.poisonMessages;
        case Trend:
            return g.perMinute.value(m_lastMinute);
        default:
            break;
        }
        role = Qt::DisplayRole;
    }
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Count:
            return QLocale().toString(g.count);
        case Exception:
            return plain(DisplayFormat::shortClassName(g.exceptionClass));
        case Cause:
            return plain(DisplayFormat::shortClassName(g.causeClass));
        case Pattern:
            return plain(g.reasonPattern);
        case FirstSeen:
            return shortTime(g.firstSeenMs);
        case LastSeen:
            return shortTime(g.lastSeenMs);
        case Trend:
            return sparkline(g.perMinute, m_lastMinute, TrendMinutes);
        case Poison:
            return g.poisonMessages ? QLocale().toString(g.poisonMessages) : QString();
        }
        return {};
    }
    if (role == Qt::ToolTipRole) {
        QString text = tr("%1 records\nException: %2\nCause: %3\nPattern: %4\nExample: %5")
                           .arg(g.count)
                           .arg(plain(g.exceptionClass), plain(g.causeClass), plain(g.reasonPattern),
                                plain(g.sampleReason));
        if (g.poisonMessages > 0)
            text += u"\n"_s
                    + tr("%n message(s) failed %1 times or more (poison)", nullptr, g.poisonMessages)
                          .arg(FailureGroups::PoisonThreshold);
        return Qt::convertFromPlainText(text, Qt::WhiteSpaceNormal);
    }
    if (role == Qt::TextAlignmentRole && (index.column() == Count || index.column() == Poison))
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant FailureGroupModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Count:
        return tr("Records");
    case Exception:
        return tr("Exception");
    case Cause:
        return tr("Cause");
    case Pattern:
        return tr("Reason pattern");
    case FirstSeen:
        return tr("First seen (UTC)");
    case LastSeen:
        return tr("Last seen (UTC)");
    case Trend:
        return tr("Last %1 min").arg(TrendMinutes);
    case Poison:
        return tr("Poison");
    }
    return {};
}
